// A campaign turn's beats in its story entry: each beat it triggered (with why), each beat it skipped (with why), the ending it reached.
import type { TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';

/** The turn's beat cards, or null when it triggered, skipped and ended nothing. */
export function renderTurnStory(turn: TurnView): HTMLElement | null {
  const story = turn.story;
  if (!story || (story.triggered.length === 0 && story.skipped.length === 0 && !story.ending)) return null;
  const cards: HTMLElement[] = [
    ...story.triggered.map((beat) =>
      card('triggered', beat.id, 'milestone', 'Beat triggered', beat.title, beat.reason, beat.outcome ? `Outcome: ${beat.outcome}` : undefined),
    ),
    ...story.skipped.map((beat) => card('skipped', beat.id, 'debug-step-over', 'Beat skipped', beat.title, beat.reason)),
  ];
  if (story.ending) cards.push(card('ending', story.ending.id, 'flag', 'Ending reached', story.ending.title, story.ending.reason));
  return el('div', { className: 'turn-story', attrs: { role: 'group', 'aria-label': `Beats of scene ${story.scene}` } }, ...cards);
}

function card(event: string, id: string, icon: string, heading: string, title: string, reason: string, note?: string): HTMLElement {
  return el(
    'div',
    { className: `turn-beat is-${event}`, testId: PlayPanelTestId.turnBeat, data: { beatId: id, event } },
    el('span', { className: 'turn-beat-icon' }, codicon(icon)),
    el(
      'div',
      { className: 'turn-beat-body' },
      el(
        'div',
        { className: 'turn-beat-heading' },
        el('span', { className: 'turn-beat-kind' }, `${heading}:`),
        ' ',
        el('strong', {}, title),
        ' ',
        el('code', {}, id),
      ),
      el('div', { className: 'turn-beat-reason' }, el('span', { className: 'visually-hidden' }, 'Why: '), reason),
      note ? el('div', { className: 'turn-beat-note' }, note) : null,
    ),
  );
}
