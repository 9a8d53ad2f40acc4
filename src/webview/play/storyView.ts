// The scrolling story column: turns oldest first, the running turn, auto-scroll while the reader is at the bottom, a live region.
import type { TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el, isScrolledToBottom } from './dom.js';
import { renderChoices, renderPendingTurn, renderTurn, type ChoiceContext } from './turnEntry.js';

export interface StoryViewCallbacks {
  readonly onChoose: (turnIndex: number, choiceIndex: number) => void;
}

/** Draws the turns; only the last turn's choice block is redrawn when a turn is added, so media keep playing. */
export class StoryView {
  readonly element: HTMLElement;
  private readonly content: HTMLElement;
  private readonly liveRegion: HTMLElement;
  private turns: TurnView[] = [];
  private readonly turnElements = new Map<number, HTMLElement>();
  private pending: HTMLElement | undefined;
  private choicesEnabled = true;
  /** Follows the bottom while the reader has not scrolled up (also when images load later). */
  private stickToBottom = true;
  private lastScrollTop = 0;

  constructor(private readonly callbacks: StoryViewCallbacks) {
    this.content = el('div', { className: 'story-content' });
    this.liveRegion = el('div', { className: 'visually-hidden', attrs: { 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.element = el('main', { className: 'story', testId: PlayPanelTestId.story, attrs: { 'aria-label': 'Story', tabindex: '-1' } }, this.content, this.liveRegion);
    // Only the reader scrolling up stops the follow: programmatic scrolls and a viewport that shrinks under a new
    // notice move scrollTop down or not at all.
    this.element.addEventListener('scroll', () => {
      const top = this.element.scrollTop;
      if (isScrolledToBottom(this.element)) this.stickToBottom = true;
      else if (top < this.lastScrollTop) this.stickToBottom = false;
      this.lastScrollTop = top;
    });
    // Content grows when images load; the viewport shrinks when a notice appears under it: either way, follow the bottom.
    const follow = new ResizeObserver(() => {
      if (this.stickToBottom) this.scrollToBottom();
    });
    follow.observe(this.content);
    follow.observe(this.element);
  }

  /** Redraws every turn (snapshot); scrolls to the newest. */
  render(turns: readonly TurnView[], choicesEnabled: boolean): void {
    this.turns = [...turns];
    this.choicesEnabled = choicesEnabled;
    this.turnElements.clear();
    this.pending = undefined;
    this.content.replaceChildren();
    if (turns.length === 0) this.content.append(renderEmptyStory());
    this.turns.forEach((turn, position) => {
      const element = renderTurn(turn, this.choiceContext(position));
      this.turnElements.set(turn.index, element);
      this.content.append(element);
    });
    this.stickToBottom = true;
    this.scrollToBottom();
  }

  /** Shows the player's input of a turn that just started. */
  showPending(turnIndex: number, input: string): void {
    this.removePending();
    this.content.querySelector('.story-empty')?.remove();
    this.pending = renderPendingTurn(turnIndex, input);
    this.content.append(this.pending);
    this.stickToBottom = true;
    this.scrollToBottom();
  }

  removePending(): void {
    this.pending?.remove();
    this.pending = undefined;
  }

  /** Adds (or replaces) a finished turn and announces its narration. */
  addTurn(turn: TurnView): void {
    const follow = this.stickToBottom || isScrolledToBottom(this.element);
    this.removePending();
    this.content.querySelector('.story-empty')?.remove();
    const existing = this.turnElements.get(turn.index);
    const position = this.turns.findIndex((candidate) => candidate.index === turn.index);
    if (position >= 0) this.turns[position] = turn;
    else this.turns.push(turn);
    const element = renderTurn(turn, this.choiceContext(this.turns.indexOf(turn)));
    if (existing !== undefined) existing.replaceWith(element);
    else this.content.append(element);
    this.turnElements.set(turn.index, element);
    this.redrawChoices();
    this.liveRegion.textContent = `Turn ${turn.index}: ${turn.narrative}`;
    if (follow) {
      this.stickToBottom = true;
      this.scrollToBottom();
    }
  }

  /** Enables or disables the last turn's choice buttons (disabled while a turn runs or when untrusted). */
  setChoicesEnabled(enabled: boolean): void {
    if (enabled === this.choicesEnabled) return;
    this.choicesEnabled = enabled;
    this.redrawChoices();
  }

  private redrawChoices(): void {
    this.turns.forEach((turn, position) => {
      const block = this.turnElements.get(turn.index)?.querySelector(':scope > .turn-choices');
      block?.replaceWith(renderChoices(turn, this.choiceContext(position)));
    });
  }

  private choiceContext(position: number): ChoiceContext {
    return {
      isLast: position === this.turns.length - 1,
      enabled: this.choicesEnabled,
      nextInput: this.turns[position + 1]?.input,
      onChoose: this.callbacks.onChoose,
    };
  }

  private scrollToBottom(): void {
    this.element.scrollTop = this.element.scrollHeight;
    this.lastScrollTop = this.element.scrollTop;
  }
}

function renderEmptyStory(): HTMLElement {
  return el(
    'div',
    { className: 'story-empty' },
    el('span', { className: 'story-empty-icon' }, codicon('book')),
    el('p', { className: 'story-empty-title' }, 'Your story starts here.'),
    el('p', {}, 'Type what your character does below, for example “look around” or “roll a d20 to pick the lock”. Each turn shows the narration, dice rolls, assets and choices, and the side panel shows the tools that ran and the session state.'),
  );
}
