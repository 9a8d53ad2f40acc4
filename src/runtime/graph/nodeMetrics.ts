// Node geometry: the fonts, paddings and text widths that both the CLI's SVG and the VS Code view draw with, so text always fits its box.
import type { GraphTool, NodeBadge } from './graphTypes.js';
import { formatDuration } from '../common/humanText.js';

/**
 * The node's typography. The graph draws in a monospace font, so a text's width is its column count times the
 * advance, whatever font the machine picks (`advance` is a little above the 0.6 em of common monospace fonts).
 */
export const NODE_METRICS = {
  titleSize: 13,
  detailSize: 11,
  badgeSize: 10,
  advance: 0.62,
  paddingX: 12,
  stripeWidth: 5,
  badgePaddingX: 5,
  badgeGap: 4,
  height: 66,
  minWidth: 140,
  /** Horizontal gap between nodes of one level and vertical gap between levels. */
  gapX: 28,
  gapY: 52,
  /** Room kept right of the toolId for the state icon. */
  stateIconWidth: 18,
  /** Room kept at the end of the badge row for the run chip ("12.3 s ↻3"). */
  runChipColumns: 11,
  /** Size of the box drawn for an unknown dependency. */
  missingHeight: 30,
} as const;

/** Columns a text takes in a monospace font: wide (East Asian, emoji) characters count twice. */
export function textColumns(text: string): number {
  let columns = 0;
  for (const character of text) columns += isWide(character.codePointAt(0)!) ? 2 : 1;
  return columns;
}

/** Width in pixels of `text` at `fontSize`. */
export function textWidth(text: string, fontSize: number): number {
  return Math.ceil(textColumns(text) * fontSize * NODE_METRICS.advance);
}

/** The second line of a node: "skill · script" (or the script alone). */
export function detailLine(tool: Pick<GraphTool, 'skill' | 'script'>): string {
  return tool.skill ? `${tool.skill} · ${tool.script}` : tool.script;
}

/** Width of one badge chip. */
export function badgeWidth(badge: NodeBadge): number {
  return textWidth(badge.label, NODE_METRICS.badgeSize) + 2 * NODE_METRICS.badgePaddingX;
}

/** Width kept for the run chip: a duration and a retry count. */
export function runChipWidth(): number {
  return Math.ceil(NODE_METRICS.runChipColumns * NODE_METRICS.badgeSize * NODE_METRICS.advance) + 2 * NODE_METRICS.badgePaddingX;
}

/** The run chip's text: "1.2 s", "1.2 s ↻2" (retries), or "" before the tool has finished. */
export function runChipLabel(durationMs: number | undefined, retryCount: number | undefined): string {
  const duration = durationMs === undefined ? '' : formatDuration(durationMs);
  const retries = retryCount ? `↻${retryCount}` : '';
  return [duration, retries].filter(Boolean).join(' ');
}

/** Width of the badge row. */
export function badgeRowWidth(badges: readonly NodeBadge[]): number {
  if (badges.length === 0) return 0;
  return badges.reduce((sum, badge) => sum + badgeWidth(badge), 0) + NODE_METRICS.badgeGap * (badges.length - 1);
}

/** The size a node needs to show its toolId, its skill and script, and its badges in full. */
export function nodeSize(tool: Pick<GraphTool, 'id' | 'skill' | 'script' | 'badges'>): { width: number; height: number } {
  const badges = badgeRowWidth(tool.badges);
  const content = Math.max(
    textWidth(tool.id, NODE_METRICS.titleSize) + NODE_METRICS.stateIconWidth,
    textWidth(detailLine(tool), NODE_METRICS.detailSize),
    badges + (badges > 0 ? NODE_METRICS.badgeGap : 0) + runChipWidth(),
  );
  return { width: Math.max(NODE_METRICS.minWidth, content + 2 * NODE_METRICS.paddingX + NODE_METRICS.stripeWidth), height: NODE_METRICS.height };
}

/** The size of the box of an unknown dependency labelled "? id". */
export function missingNodeSize(id: string): { width: number; height: number } {
  return { width: Math.max(80, textWidth(`? ${id}`, NODE_METRICS.detailSize) + 2 * NODE_METRICS.paddingX), height: NODE_METRICS.missingHeight };
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
