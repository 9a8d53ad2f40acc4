// One row of the tool execution panel: themed status icon, tool and skill, retries, duration, error, and its log lines.
import type { LogLineView, ToolRunView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { formatDuration, plural } from '../../runtime/common/humanText.js';
import { STATE_ICONS, stateLabel } from '../common/stateIcons.js';

/** A live status, or `recorded` for a tool known only from the saved session (its status was not kept). */
export type ToolRowStatus = ToolRunView['status'] | 'recorded';

/** What a row shows; a ToolRunView for live tools. */
export interface ToolRowModel {
  readonly attempt: number;
  readonly toolId: string;
  readonly skill: string | null;
  readonly status: ToolRowStatus;
  readonly retries: number;
  readonly durationMs?: number | undefined;
  readonly logLines: readonly LogLineView[];
  readonly error?: { readonly category: string; readonly message: string } | undefined;
}

/** A row's look: a run state's, as the plan graph shows it, or the look of a tool known only from the saved session. */
function statusLook(status: ToolRowStatus): { readonly icon: string; readonly spins: boolean; readonly label: string } {
  if (status === 'recorded') return { icon: 'circle-small-filled', spins: false, label: 'Ran (status not kept)' };
  return { icon: STATE_ICONS[status].name, spins: STATE_ICONS[status].spins === true, label: stateLabel(status) };
}

/** The status icon, coloured by CSS through `status-<name>`. */
export function statusIcon(status: ToolRowStatus): HTMLElement {
  const look = statusLook(status);
  const icon = look.spins ? codicon(look.icon, 'codicon-modifier-spin') : codicon(look.icon);
  return el('span', { className: `status-icon status-${status}`, title: look.label }, icon, el('span', { className: 'visually-hidden' }, look.label));
}

/** A row; `expanded` shows the log lines, `onToggle` is called when the author opens or closes them. */
export function renderToolRow(tool: ToolRowModel, expanded: boolean, onToggle: (expanded: boolean) => void): HTMLElement {
  const meta: string[] = [];
  if (tool.retries > 0) meta.push(tool.retries === 1 ? 'retry 1' : `${tool.retries} retries`);
  if (tool.durationMs !== undefined) meta.push(formatDuration(tool.durationMs));
  if (tool.logLines.length > 0) meta.push(plural(tool.logLines.length, 'line'));
  const hasLog = tool.logLines.length > 0;
  const chevron = codicon(expanded ? 'chevron-down' : 'chevron-right');
  const head = el(
    'button',
    {
      className: 'tool-row-head',
      attrs: { type: 'button', 'aria-expanded': hasLog ? String(expanded) : undefined },
      title: `${tool.toolId}${tool.skill !== null ? ` (${tool.skill})` : ''}: ${statusLook(tool.status).label}${hasLog ? ' — click for the log' : ''}`,
    },
    el('span', { className: `tool-chevron${hasLog ? '' : ' is-empty'}` }, chevron),
    statusIcon(tool.status),
    el('span', { className: 'tool-id' }, tool.toolId),
    tool.skill !== null ? el('span', { className: 'tool-skill' }, tool.skill) : null,
    el('span', { className: 'tool-meta' }, meta.join(' · ')),
  );
  head.disabled = !hasLog;
  const row = el(
    'div',
    {
      className: `tool-row is-${tool.status}`,
      testId: PlayPanelTestId.toolRow,
      data: { toolId: tool.toolId, status: tool.status, attempt: tool.attempt, skill: tool.skill ?? undefined },
    },
    head,
    tool.error !== undefined
      ? el('div', { className: 'tool-error' }, el('span', { className: 'tool-error-category' }, tool.error.category), ` ${tool.error.message}`)
      : null,
  );
  if (hasLog) {
    const log = el('ol', { className: 'tool-log', attrs: { 'aria-label': `Log of ${tool.toolId}` } }, ...tool.logLines.map(renderLogLine));
    log.hidden = !expanded;
    row.append(log);
    head.addEventListener('click', () => {
      log.hidden = !log.hidden;
      head.setAttribute('aria-expanded', String(!log.hidden));
      chevron.className = `codicon codicon-${log.hidden ? 'chevron-right' : 'chevron-down'}`;
      if (!log.hidden) log.scrollTop = log.scrollHeight;
      onToggle(!log.hidden);
    });
  }
  return row;
}

function renderLogLine(line: LogLineView): HTMLElement {
  return el(
    'li',
    { className: `log-line level-${line.level}` },
    el('span', { className: 'log-level' }, line.level),
    el('span', { className: 'log-text' }, line.text),
  );
}
