// Small text helpers of the Inspector view: times, marks and their labels.
import type { InspectorRow } from '../../protocol/inspectorMessages.js';

/** `+1.234 s` below a minute, `+2:03.4` above. */
export function elapsedText(milliseconds: number): string {
  if (milliseconds < 60_000) return `+${(milliseconds / 1000).toFixed(3)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `+${minutes}:${((milliseconds % 60_000) / 1000).toFixed(1).padStart(4, '0')}`;
}

export const MARK_SYMBOLS: Record<InspectorRow['mark'], string> = { ok: '✔', error: '✖', warning: '⚠', blank: '·' };
export const MARK_LABELS: Record<InspectorRow['mark'], string> = { ok: 'event', error: 'error', warning: 'warning', blank: 'blank line' };

/**
 * Where an invalid_json row's raw text stops being JSON (an offset; the text's length for a cut-off line): the
 * longest prefix that still parses or only lacks its end, found by binary search (display only; the verdict is the runtime's).
 */
export function errorOffset(row: InspectorRow): number | undefined {
  const text = row.text;
  if (row.status !== 'invalid_json' || text === undefined) return undefined;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (viablePrefix(text.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** True when `prefix` is JSON or could become JSON by adding text at its end. */
function viablePrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (/end of JSON input/.test(message)) return true;
    const position = /position (\d+)/.exec(message);
    return position !== null && Number(position[1]) >= prefix.length;
  }
}
