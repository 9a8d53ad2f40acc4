// One line of text for a skill's own ui_event (a price list, a counter-offer), as `play` prints it in a terminal where the play panel draws a card.

/** ui_events a terminal shows another way: the narration itself, its streamed pieces, the choices, the dice (their own line). */
const SHOWN_OTHERWISE = new Set(['narration', 'narration_chunk', 'narrative_choice', 'dice_roll']);

/** The longest line printed for one event. */
const MAX_LINE = 160;

/**
 * `price_list: items: rope 4, lantern 9` for a skill's own ui_event; undefined for the events a terminal shows
 * another way. Nested objects are flattened to their values, lists joined with commas, the line cut at 160 characters.
 */
export function uiEventLine(event: { readonly event: string; readonly payload?: Readonly<Record<string, unknown>> }): string | undefined {
  if (SHOWN_OTHERWISE.has(event.event)) return undefined;
  const fields = Object.entries(event.payload ?? {})
    .map(([key, value]) => `${key}: ${valueText(value, 0)}`)
    .filter((field) => !field.endsWith(': '));
  const line = fields.length > 0 ? `${event.event}: ${fields.join('; ')}` : event.event;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

function valueText(value: unknown, depth: number): string {
  if (value === null || value === undefined) return '';
  if (depth > 3 && typeof value === 'object') return '…';
  if (Array.isArray(value))
    return value
      .map((item) => valueText(item, depth + 1))
      .filter((text) => text !== '')
      .join(', ');
  if (typeof value === 'object') {
    return Object.values(value as Record<string, unknown>)
      .map((item) => valueText(item, depth + 1))
      .filter((text) => text !== '')
      .join(' ');
  }
  return String(value).replace(/\s+/g, ' ').trim();
}
