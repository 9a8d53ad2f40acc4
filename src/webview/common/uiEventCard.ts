// Renders ui_events as the play panel draws them: dice rolls as cards, anything else as a compact chip (the story view shows narrative_choice and narration its own way).
import type { UiEventView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from './dom.js';

interface DieRoll {
  readonly sides?: number;
  readonly value: number;
}

/** The card for one ui_event, or null when it is shown another way (narrative_choice → choice buttons, narration → the turn's text). */
export function renderUiEvent(event: UiEventView): HTMLElement | null {
  if (event.event === 'narrative_choice') return null;
  // The storyteller's narration event carries the text the story view already shows as the turn's narration.
  if (event.event === 'narration') return null;
  return renderUiEventCard(event);
}

/** The card of any ui_event, narrative_choice and narration included (the Inspector shows every event it is given). */
export function renderUiEventCard(event: UiEventView): HTMLElement {
  return event.event === 'dice_roll' ? renderDiceRoll(event) : renderGenericEvent(event);
}

/** The dice-roller payload: formula, total, dice [{sides, value}] (or rolls), modifier, reason, label, dc, success, critical. */
function renderDiceRoll(event: UiEventView): HTMLElement {
  const payload = event.payload ?? {};
  const formula = typeof payload['formula'] === 'string' ? payload['formula'] : 'dice';
  const total = typeof payload['total'] === 'number' ? payload['total'] : undefined;
  const rolls = dieRolls(payload['dice'] ?? payload['rolls']);
  const modifier = typeof payload['modifier'] === 'number' ? payload['modifier'] : 0;
  const reason = textField(payload['reason']) ?? textField(payload['label']);
  const dc = typeof payload['dc'] === 'number' ? payload['dc'] : undefined;
  const success = typeof payload['success'] === 'boolean' ? payload['success'] : undefined;
  const critical = payload['critical'] === 'success' || payload['critical'] === 'failure' ? payload['critical'] : undefined;

  const details: (HTMLElement | string)[] = [];
  if (rolls.length > 0) {
    const faces = el('span', { className: 'dice-faces' });
    rolls.forEach((roll, index) => {
      if (index > 0) faces.append(' ');
      faces.append(el('span', { className: 'die-face', title: roll.sides !== undefined ? `d${roll.sides}` : undefined }, String(roll.value)));
    });
    if (modifier !== 0) faces.append(` ${modifier > 0 ? '+' : '−'} ${Math.abs(modifier)}`);
    details.push(faces);
  }
  if (dc !== undefined) {
    const verdict = success === undefined ? '' : success ? ' · success' : ' · failure';
    details.push(el('span', { className: `dice-dc ${success === false ? 'is-failure' : success ? 'is-success' : ''}` }, `DC ${dc}${verdict}`));
  }
  if (critical !== undefined) {
    details.push(el('span', { className: `dice-critical is-${critical}` }, critical === 'success' ? 'natural 20' : 'natural 1'));
  }
  const title = `Rolled ${formula}${total !== undefined ? `: ${total}` : ''}${reason !== undefined ? ` for ${reason}` : ''} (${event.toolId})`;
  return el(
    'div',
    {
      className: `dice-roll${critical !== undefined ? ` is-critical-${critical}` : ''}`,
      testId: PlayPanelTestId.diceRoll,
      title,
      data: { toolId: event.toolId },
    },
    el('span', { className: 'dice-icon' }, codicon('game')),
    el('span', { className: 'dice-total', attrs: { 'aria-label': `total ${total ?? 'unknown'}` } }, total !== undefined ? String(total) : '?'),
    el(
      'span',
      { className: 'dice-body' },
      el('span', { className: 'dice-formula' }, formula, reason !== undefined ? el('span', { className: 'dice-reason' }, ` · ${reason}`) : null),
      details.length > 0 ? el('span', { className: 'dice-details' }, ...interleave(details, ' · ')) : null,
    ),
  );
}

function renderGenericEvent(event: UiEventView): HTMLElement {
  const summary = Object.entries(event.payload ?? {})
    .filter(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value))
    .slice(0, 3)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(' · ');
  return el(
    'div',
    {
      className: 'ui-event',
      title: `${event.event} from ${event.toolId}\n${JSON.stringify(event.payload ?? {}, null, 2)}`,
      data: { toolId: event.toolId, event: event.event },
    },
    codicon('symbol-event'),
    el('span', { className: 'ui-event-name' }, event.event),
    summary !== '' ? el('span', { className: 'ui-event-summary' }, summary) : null,
  );
}

function dieRolls(value: unknown): DieRoll[] {
  if (!Array.isArray(value)) return [];
  const rolls: DieRoll[] = [];
  for (const item of value) {
    if (typeof item === 'number') rolls.push({ value: item });
    else if (typeof item === 'object' && item !== null && typeof (item as { value?: unknown }).value === 'number') {
      const { sides, value: face } = item as { sides?: unknown; value: number };
      rolls.push(typeof sides === 'number' ? { sides, value: face } : { value: face });
    }
  }
  return rolls;
}

function textField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function interleave(items: readonly (HTMLElement | string)[], separator: string): (HTMLElement | string)[] {
  return items.flatMap((item, index) => (index === 0 ? [item] : [separator, item]));
}
