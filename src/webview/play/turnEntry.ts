// Renders one played turn of the story: the player's input, the narration, ui_event cards, assets, choices and the attempts line.
import type { TurnView, UiEventView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { renderAsset } from '../common/assetCard.js';
import { codicon, el } from '../common/dom.js';
import { spinner } from './playElements.js';
import { renderTurnAttempts } from './turnAttempts.js';
import { renderUiEvent } from '../common/uiEventCard.js';
import { renderTurnStory } from './turnStory.js';

export interface TurnContext {
  /** Only the last turn offers clickable choices. */
  readonly isLast: boolean;
  /** False while a turn runs or in an untrusted workspace. */
  readonly enabled: boolean;
  /** The next turn's input, to mark the choice the player took on older turns. */
  readonly nextInput: string | undefined;
  readonly onChoose: (turnIndex: number, choiceIndex: number) => void;
  /** Opens the full details of a turn (attempts, plans, tool results) in an editor. */
  readonly onShowDetails: (turnIndex: number) => void;
}

/** A whole turn as an <article>; its choices live in a `.turn-choices` block that `renderChoices` can redraw. */
export function renderTurn(turn: TurnView, context: TurnContext): HTMLElement {
  const article = el('article', { className: 'turn', data: { turnIndex: turn.index }, attrs: { 'aria-label': `Turn ${turn.index}` } });
  if (turn.input.trim() !== '') article.append(renderPlayerEntry(turn.index, turn.input));
  article.append(renderNarration(turn));
  const story = renderTurnStory(turn);
  if (story) article.append(story);
  const cards = turn.uiEvents.map(renderUiEvent).filter((card): card is HTMLElement => card !== null);
  if (cards.length > 0) article.append(el('div', { className: 'turn-events' }, ...cards));
  if (turn.assets.length > 0) article.append(el('div', { className: 'turn-assets' }, ...turn.assets.map(renderAsset)));
  article.append(
    renderChoices(turn, context),
    renderTurnAttempts(turn, () => context.onShowDetails(turn.index)),
  );
  return article;
}

/** The player's input, styled as the player's own words. */
export function renderPlayerEntry(turnIndex: number, input: string): HTMLElement {
  return el(
    'div',
    { className: 'player-entry', testId: PlayPanelTestId.playerEntry, data: { turnIndex } },
    el('div', { className: 'player-bubble' }, el('span', { className: 'visually-hidden' }, 'You: '), input),
  );
}

/** A turn being played: the input and a "narrator is writing" line until turnFinished replaces it. */
export function renderPendingTurn(turnIndex: number, input: string): HTMLElement {
  return el(
    'article',
    { className: 'turn is-pending', data: { turnIndex }, attrs: { 'aria-label': `Turn ${turnIndex} (running)` } },
    input.trim() !== '' ? renderPlayerEntry(turnIndex, input) : null,
    // The stage is announced (a status); the time so far is redrawn often, so it is hidden from screen readers.
    el(
      'div',
      { className: 'narration-pending', attrs: { role: 'status' } },
      spinner(),
      ' ',
      el('span', { className: 'narration-pending-text' }, 'The narrator is working on it…'),
      el('span', { className: 'narration-pending-time', attrs: { 'aria-hidden': 'true' } }),
    ),
  );
}

/** What a pending turn waits for: the narrator choosing skills, the plan running, the local model telling the outcome. */
export type PendingStage = 'choosing' | 'running' | 'telling';

/** Where the local model's retelling appears as it is written (read out when the turn is added, not piece by piece). */
export function renderStreamingNarration(): HTMLElement {
  return el('div', { className: 'narration-entry narration-streaming', attrs: { 'aria-hidden': 'true' } });
}

/** What the pending turn waits for: the narrator choosing skills, then the plan running (the tools still running, named), then the model's retelling. */
export function pendingText(stage: PendingStage, localModel: boolean, runningTools: readonly string[] = []): string {
  if (stage === 'telling') return 'The local model is telling what happened…';
  if (stage === 'running') return runningTools.length > 0 ? `Running ${runningTools.join(', ')}…` : 'Running the plan…';
  return `${localModel ? 'The local model is choosing skills' : 'Choosing skills'}…`;
}

/** The time so far, once it passes a second: " 2.4 s". */
export function pendingTime(elapsedMs: number): string {
  return elapsedMs >= 1000 ? ` ${(elapsedMs / 1000).toFixed(1)} s` : '';
}

function renderNarration(turn: TurnView): HTMLElement {
  const entry = el('div', {
    className: `narration-entry${turn.fallback ? ' is-fallback' : ''}`,
    testId: PlayPanelTestId.narrationEntry,
    data: { turnIndex: turn.index, narrator: turn.narrator },
  });
  const paragraphs = turn.narrative
    .split(/\n\s*\n/)
    .map((text) => text.trim())
    .filter((text) => text !== '');
  if (paragraphs.length === 0) {
    entry.append(
      el(
        'p',
        { className: 'narration-empty' },
        turn.cancelled ? 'The turn was cancelled before the narrator finished.' : 'The narrator said nothing this turn.',
      ),
    );
  }
  for (const paragraph of paragraphs) entry.append(el('p', {}, paragraph));
  return entry;
}

/** The choice buttons of the last turn, or the offered choices (the taken one marked) of older turns. */
export function renderChoices(turn: TurnView, context: TurnContext): HTMLElement {
  const block = el('div', { className: 'turn-choices', data: { turnIndex: turn.index } });
  const choices = choicesOf(turn);
  if (choices.length === 0) return block;
  const hints = hintsOf(turn.uiEvents);
  if (context.isLast) {
    block.classList.add('is-open');
    block.append(el('div', { className: 'choices-label', attrs: { id: `choices-label-${turn.index}` } }, 'What next?'));
    const list = el('div', { className: 'choice-list', attrs: { role: 'group', 'aria-labelledby': `choices-label-${turn.index}` } });
    choices.forEach((choice, choiceIndex) => {
      const hint = hints.get(choice);
      const choiceButton = el(
        'button',
        {
          className: 'choice-button',
          testId: PlayPanelTestId.choiceButton,
          data: { choiceIndex, turnIndex: turn.index },
          attrs: { type: 'button' },
          title: hint,
        },
        el('span', { className: 'choice-number', attrs: { 'aria-hidden': 'true' } }, String(choiceIndex + 1)),
        el(
          'span',
          { className: 'choice-text' },
          el('span', { className: 'choice-label', data: { choiceLabel: choice } }, choice),
          hint !== undefined ? el('span', { className: 'choice-hint' }, hint) : null,
        ),
        codicon('arrow-right'),
      );
      choiceButton.disabled = !context.enabled;
      choiceButton.addEventListener('click', () => context.onChoose(turn.index, choiceIndex));
      list.append(choiceButton);
    });
    block.append(list);
    return block;
  }
  block.classList.add('is-past');
  const taken = context.nextInput?.trim().toLowerCase();
  const list = el('ul', { className: 'past-choices', attrs: { 'aria-label': 'Choices offered' } });
  for (const choice of choices) {
    const chosen = taken !== undefined && choice.trim().toLowerCase() === taken;
    list.append(
      el(
        'li',
        { className: chosen ? 'is-chosen' : undefined, title: chosen ? 'The player took this choice' : undefined },
        chosen ? codicon('check') : null,
        choice,
      ),
    );
  }
  block.append(list);
  return block;
}

/** `turn.choices`, or the last narrative_choice payload when the turn has none. */
function choicesOf(turn: TurnView): readonly string[] {
  if (turn.choices.length > 0) return turn.choices;
  const event = [...turn.uiEvents].reverse().find((candidate) => candidate.event === 'narrative_choice');
  const choices = event?.payload?.['choices'];
  return Array.isArray(choices) ? choices.filter((choice): choice is string => typeof choice === 'string') : [];
}

/** Consequence hints of player-choices (`hints: [{choice, consequence}]`), by choice text. */
function hintsOf(events: readonly UiEventView[]): Map<string, string> {
  const hints = new Map<string, string>();
  for (const event of events) {
    if (event.event !== 'narrative_choice' || !Array.isArray(event.payload?.['hints'])) continue;
    for (const hint of event.payload['hints'] as unknown[]) {
      if (typeof hint !== 'object' || hint === null) continue;
      const { choice, consequence } = hint as { choice?: unknown; consequence?: unknown };
      if (typeof choice === 'string' && typeof consequence === 'string') hints.set(choice, consequence);
    }
  }
  return hints;
}
