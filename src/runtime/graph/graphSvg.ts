// Renders a laid-out plan graph as a standalone, themeable SVG (`narratoria graph --format svg`, Export to SVG). Pure string building.
import { badgeWidth, detailLine, NODE_METRICS, runChipLabel } from './nodeMetrics.js';
import { STATE_LABELS, SVG_THEMES } from './graphPalette.js';
import type { PlanGraphEdge, PlanGraphLayout, PlanGraphNode, Point } from './graphTypes.js';
import type { BeatPlayStatus } from '../campaign/view/beatPlayStates.js';
import { plural } from '../common/humanText.js';
import { PLAY_RULES, playMarker, playTint, type SvgPlay } from './beatPlaySvg.js';

export interface SvgOptions {
  /** Colours to use instead of the defaults (e.g. the VS Code theme's, resolved by the view). */
  readonly theme?: Readonly<Record<string, string>>;
  readonly title?: string;
  /** What a node is, for the level bands ("tool" unless given; "beat" for a beat graph). */
  readonly nodeNoun?: string;
  /** A beat graph's play session: each beat's status drawn as the view draws it. */
  readonly play?: SvgPlay;
}

const FONT = "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/**
 * The SVG document. Every colour is a `--graph-*` custom property with a light default (dark under
 * `prefers-color-scheme: dark`), so a page or viewer can restyle it; every toolId is in a `<text>`.
 */
export function renderGraphSvg(layout: PlanGraphLayout, options: SvgOptions = {}): string {
  const width = Math.max(1, Math.ceil(layout.width));
  const height = Math.max(1, Math.ceil(layout.height));
  const parts: string[] = [];
  const title = options.play ? `${options.title ?? 'Beat graph'} (${options.play.label})` : (options.title ?? 'Plan graph');
  const size = `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`;
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="narratoria-graph" ${size} role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>${styleSheet(options.theme)}${options.play ? `\n${PLAY_RULES}` : ''}</style>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrow"/></marker>',
    '<marker id="arrow-error" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrow-error"/></marker></defs>',
    `<rect class="background" width="${width}" height="${height}"/>`,
  );
  layout.levels.forEach((level) => {
    if (level.level % 2 === 0) parts.push(`<rect class="band" x="0" y="${level.y}" width="${width}" height="${level.height}"/>`);
    parts.push(`<text class="band-label" x="6" y="${level.y + 14}">level ${level.level} · ${plural(level.count, options.nodeNoun ?? 'tool')}</text>`);
  });
  for (const edge of layout.edges) parts.push(edgePath(edge));
  for (const missing of layout.missing) {
    parts.push(
      `<g class="missing"><rect x="${missing.x}" y="${missing.y}" width="${missing.width}" height="${missing.height}" rx="4"/>`,
      `<text x="${missing.x + missing.width / 2}" y="${missing.y + missing.height / 2 + 4}" text-anchor="middle">? ${escapeXml(missing.id)}</text>`,
      `<title>Unknown dependency "${escapeXml(missing.id)}": no tool has this toolId</title></g>`,
    );
  }
  const inCycle = new Set(layout.cycles.flat());
  for (const node of layout.nodes) parts.push(nodeGroup(node, inCycle.has(node.id), options.play?.statuses.get(node.id)));
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

function nodeGroup(node: PlanGraphNode, inCycle: boolean, play: BeatPlayStatus | undefined): string {
  const metrics = NODE_METRICS;
  const left = node.x + metrics.stripeWidth + metrics.paddingX;
  const classes = [
    'node',
    node.state ? `state-${node.state}` : '',
    node.critical ? 'critical' : '',
    inCycle ? 'in-cycle' : '',
    unreachableClass(node),
    play ? `play-${play}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const lines = [
    `<g class="${classes}" data-tool-id="${escapeXml(node.id)}">`,
    `<title>${escapeXml(tooltip(node) + (play ? `\nin play: ${play}` : ''))}</title>`,
    `<rect class="box" x="${node.x}" y="${node.y}" width="${node.width}" height="${node.height}" rx="6"/>`,
    play ? playTint(play, node) : '',
    `<rect class="stripe" style="fill: var(--graph-skill-${node.colour})" x="${node.x}" y="${node.y}" width="${metrics.stripeWidth}" height="${node.height}" rx="2"/>`,
    `<text class="title" x="${left}" y="${node.y + 20}">${escapeXml(node.id)}</text>`,
    `<text class="detail" x="${left}" y="${node.y + 37}">${escapeXml(detailLine(node))}</text>`,
  ];
  if (node.state) lines.push(`<circle class="state-dot" cx="${node.x + node.width - metrics.paddingX + 2}" cy="${node.y + 15}" r="5"/>`);
  else if (play) lines.push(playMarker(play, node.x + node.width - metrics.paddingX + 2, node.y + 15));
  let x = left;
  const badgeTop = node.y + 45;
  for (const badge of node.badges) {
    const width = badgeWidth(badge);
    lines.push(
      `<rect class="badge badge-${badge.kind}" x="${x}" y="${badgeTop}" width="${width}" height="14" rx="3"/>`,
      `<text class="badge-label" x="${x + metrics.badgePaddingX}" y="${badgeTop + 10.5}">${escapeXml(badge.label)}</text>`,
    );
    x += width + metrics.badgeGap;
  }
  const chip = runChipLabel(node.durationMs, node.retryCount);
  if (chip)
    lines.push(`<text class="run-chip" x="${node.x + node.width - metrics.paddingX}" y="${badgeTop + 10.5}" text-anchor="end">${escapeXml(chip)}</text>`);
  lines.push('</g>');
  return lines.join('');
}

/** A beat that can never happen (its `unreachable` badge) is drawn dashed and faded. */
export function unreachableClass(node: Pick<PlanGraphNode, 'badges'>): string {
  return node.badges.some((badge) => badge.kind === 'unreachable') ? 'unreachable' : '';
}

function tooltip(node: PlanGraphNode): string {
  const parts = [node.title !== undefined ? `${node.id}: ${node.title}` : `${node.id} — ${node.toolPath || '(no toolPath)'}`];
  if (node.state) parts.push(`state: ${STATE_LABELS[node.state]}`);
  if (node.durationMs !== undefined) parts.push(`duration: ${node.durationMs} ms`);
  if (node.retryCount) parts.push(`retries: ${node.retryCount}`);
  if (node.badges.length > 0) parts.push(node.badges.map((badge) => badge.label).join(', '));
  return parts.join('\n');
}

function edgePath(edge: PlanGraphEdge): string {
  const error = edge.kind !== 'dependency';
  const classes = ['edge', `edge-${edge.kind}`, edge.relation ? `edge-rel-${edge.relation}` : '', edge.critical ? 'critical' : ''].filter(Boolean).join(' ');
  return `<path class="${classes}" d="${pathData(edge.points)}" marker-end="url(#${error ? 'arrow-error' : 'arrow'})" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}"/>`;
}

/** SVG path data of a polyline. */
export function pathData(points: readonly Point[]): string {
  return points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x},${point.y}`).join(' ');
}

function styleSheet(theme: Readonly<Record<string, string>> | undefined): string {
  const variables = (values: Readonly<Record<string, string>>) =>
    Object.entries(values)
      .map(([name, value]) => `${name}: ${value};`)
      .join(' ');
  const base = theme
    ? `.narratoria-graph { ${variables({ ...SVG_THEMES.light, ...theme })} }`
    : `.narratoria-graph { ${variables(SVG_THEMES.light)} }\n@media (prefers-color-scheme: dark) { .narratoria-graph { ${variables(SVG_THEMES.dark)} } }`;
  const stateRules = Object.keys(STATE_LABELS)
    .map(
      (state) =>
        `.state-${state} .box { stroke: var(--graph-state-${state}); stroke-width: 2; } .state-${state} .state-dot { fill: var(--graph-state-${state}); }`,
    )
    .join('\n');
  return `${base}
.narratoria-graph text { font-family: ${FONT}; fill: var(--graph-foreground); }
.background { fill: var(--graph-background); }
.band { fill: var(--graph-band); }
.band-label { font-size: 10px; fill: var(--graph-muted) !important; }
.box { fill: var(--graph-node); stroke: var(--graph-border); stroke-width: 1; }
.title { font-size: ${NODE_METRICS.titleSize}px; font-weight: 600; }
.detail { font-size: ${NODE_METRICS.detailSize}px; fill: var(--graph-muted) !important; }
.badge { fill: var(--graph-badge); stroke: var(--graph-border); stroke-width: 0.5; }
.badge-label, .run-chip { font-size: ${NODE_METRICS.badgeSize}px; }
.edge { fill: none; stroke: var(--graph-edge); stroke-width: 1.4; }
.edge-cycle, .edge-unknownDependency { stroke: var(--graph-error); stroke-width: 2; }
.edge-unknownDependency { stroke-dasharray: 5 3; }
.edge.critical { stroke-width: 3; }
.node.critical .box { stroke-width: 3; }
.node.in-cycle .box { stroke: var(--graph-error); stroke-width: 2; }
.arrow { fill: var(--graph-edge); }
.arrow-error { fill: var(--graph-error); }
.missing rect { fill: none; stroke: var(--graph-error); stroke-dasharray: 4 3; }
${BEAT_MARK_RULES}
.missing text { font-size: ${NODE_METRICS.detailSize}px; fill: var(--graph-error) !important; }
${stateRules}`;
}

/** The beat graph's marks (edge styles by relation, unreachable beats); scene.css draws the view with the same rules. */
const BEAT_MARK_RULES = `.edge-rel-requiresAny { stroke-dasharray: 7 4; }
.edge-rel-triggers { stroke-dasharray: 1.5 3.5; stroke-linecap: round; stroke-width: 1.8; }
.edge-rel-fallback { stroke-dasharray: 9 3 2 3; }
.node.unreachable .box { stroke-dasharray: 5 3; }
.node.unreachable .title, .node.unreachable .detail { opacity: 0.7; }
.badge-unreachable { fill: none; stroke: var(--graph-error); stroke-width: 1; }`;

/** Escapes text for XML content and attribute values; drops characters XML 1.0 cannot hold. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]!);
}
