// What the tooltips say: a node (toolPath or a beat's title, description, badges, state, input as pretty JSON), an unknown reference, a timeline bar.
import type { PlanGraphNode, TimelineRow, TimelineSegment } from '../../runtime/graph/graphTypes.js';
import { type Child, codicon, el } from '../common/dom.js';
import { describeRun, STATE_ICONS, type NodeRun } from '../common/stateIcons.js';
import { tooltipRow } from './tooltip.js';
import { formatDuration } from '../../runtime/common/humanText.js';
import { GRAPH_WORDS, type GraphWords } from '../../runtime/graph/graphWords.js';

/** Input JSON longer than this is cut (a tooltip cannot scroll). */
const MAX_INPUT_LINES = 24;
const MAX_INPUT_CHARACTERS = 2000;

export function nodeTooltip(node: PlanGraphNode, run: NodeRun | undefined, critical: boolean, words: GraphWords = GRAPH_WORDS.plan): Child[] {
  const content: Child[] = [el('div', { className: 'tooltip-title' }, node.id)];
  if (node.title !== undefined) content.push(tooltipRow('title', node.title));
  if (words.pathLabel !== undefined) content.push(tooltipRow(words.pathLabel, el('code', {}, node.toolPath || `(no ${words.pathLabel})`)));
  if (node.namedAs !== undefined) content.push(tooltipRow('script', `${node.script} (the plan names it ${node.namedAs})`));
  if (node.skill) content.push(tooltipRow('skill', node.skill));
  if (node.description) content.push(el('div', { className: 'tooltip-description' }, node.description));
  if (node.badges.length > 0) content.push(tooltipRow(words.badgesLabel, node.badges.map((badge) => badge.label).join(' · ')));
  if (run)
    content.push(
      tooltipRow('state', el('span', { className: `tooltip-state state-text-${run.state}` }, codicon(STATE_ICONS[run.state].name), ` ${describeRun(run)}`)),
    );
  if (critical) content.push(tooltipRow('timing', 'on the critical path'));
  if (node.input !== undefined)
    content.push(el('div', { className: 'tooltip-label' }, words.inputLabel), el('pre', { className: 'tooltip-json' }, prettyJson(node.input)));
  content.push(el('div', { className: 'tooltip-hint' }, 'Click to open in the editor'));
  return content;
}

export function missingTooltip(id: string, words: GraphWords = GRAPH_WORDS.plan): Child[] {
  return [el('div', { className: 'tooltip-title tooltip-error' }, `? ${id}`), el('div', {}, words.unknown(id))];
}

export function segmentTooltip(row: TimelineRow, segment: TimelineSegment): Child[] {
  const title =
    segment.kind === 'backoff'
      ? `${row.toolId}: waiting before attempt ${segment.attempt}`
      : `${row.toolId}: attempt ${segment.attempt}${segment.ok === undefined ? '' : segment.ok ? ' succeeded' : ' failed'}`;
  return [
    el('div', { className: 'tooltip-title' }, title),
    tooltipRow('start', formatDuration(segment.start)),
    tooltipRow('end', formatDuration(segment.end)),
    tooltipRow('duration', formatDuration(segment.end - segment.start)),
  ];
}

/** Pretty JSON, cut to a readable size. */
export function prettyJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  const lines = text.split('\n');
  let cut = lines.length > MAX_INPUT_LINES ? `${lines.slice(0, MAX_INPUT_LINES).join('\n')}\n…` : text;
  if (cut.length > MAX_INPUT_CHARACTERS) cut = `${cut.slice(0, MAX_INPUT_CHARACTERS)}…`;
  return cut;
}
