// The scrolling story column: turns oldest first, the running turn, auto-scroll while the reader is at the bottom, a live region.
import type { ToolRunView, TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { button, isScrolledToBottom } from './playElements.js';
import {
  pendingText,
  pendingTime,
  renderChoices,
  renderPendingTurn,
  renderStreamingNarration,
  renderTurn,
  type PendingStage,
  type TurnContext,
} from './turnEntry.js';

/** How often the pending turn's time so far is redrawn. */
const PENDING_TICK_MS = 250;

export interface StoryViewCallbacks {
  readonly onChoose: (turnIndex: number, choiceIndex: number) => void;
  readonly onShowDetails: (turnIndex: number) => void;
}

/** Draws the turns; only the last turn's choice block is redrawn when a turn is added, so media keep playing. */
export class StoryView {
  /** The frame (scroller plus the "new narration" button); the scroller itself carries the `story` test id. */
  readonly element: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly content: HTMLElement;
  private readonly jumpButton: HTMLButtonElement;
  private readonly liveRegion: HTMLElement;
  private turns: TurnView[] = [];
  private readonly turnElements = new Map<number, HTMLElement>();
  private pending: HTMLElement | undefined;
  private pendingStage: { readonly stage: PendingStage; readonly localModel: boolean; readonly since: number } | undefined;
  private pendingTimer: ReturnType<typeof setInterval> | undefined;
  /** The tools of the running plan still running, by plan and toolId: what the pending turn names. */
  private readonly runningTools = new Map<string, string>();
  private choicesEnabled = true;
  /** Follows the bottom while the reader has not scrolled up (also when images load later). */
  private stickToBottom = true;
  private lastScrollTop = 0;

  constructor(private readonly callbacks: StoryViewCallbacks) {
    this.content = el('div', { className: 'story-content' });
    this.liveRegion = el('div', { className: 'visually-hidden', attrs: { 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.scroller = el(
      'main',
      { className: 'story', testId: PlayPanelTestId.story, attrs: { 'aria-label': 'Story', tabindex: '-1' } },
      this.content,
      this.liveRegion,
    );
    this.jumpButton = button({
      label: 'New narration',
      icon: 'arrow-down',
      variant: 'primary',
      className: 'jump-to-latest',
      title: 'Scroll to the newest turn',
      onClick: () => {
        this.stickToBottom = true;
        this.scrollToBottom();
      },
    });
    this.jumpButton.hidden = true;
    this.element = el('div', { className: 'story-frame' }, this.scroller, this.jumpButton);
    // Only the reader scrolling up stops the follow: programmatic scrolls and a viewport that shrinks under a new
    // notice move scrollTop down or not at all.
    this.scroller.addEventListener('scroll', () => {
      const top = this.scroller.scrollTop;
      if (isScrolledToBottom(this.scroller)) {
        this.stickToBottom = true;
        this.jumpButton.hidden = true;
      } else if (top < this.lastScrollTop) this.stickToBottom = false;
      this.lastScrollTop = top;
    });
    // Content grows when images load; the viewport shrinks when a notice appears under it: either way, follow the bottom.
    const follow = new ResizeObserver(() => {
      if (this.stickToBottom) this.scrollToBottom();
    });
    follow.observe(this.content);
    follow.observe(this.scroller);
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

  /** Notes a tool's run state: while a plan runs, the pending turn names the tools still running ("Running cross (ferryman)…"). */
  noteTool(tool: ToolRunView): void {
    const key = `${tool.planId}/${tool.toolId}`;
    if (tool.status === 'running' || tool.status === 'retrying') this.runningTools.set(key, tool.skill ? `${tool.toolId} (${tool.skill})` : tool.toolId);
    else this.runningTools.delete(key);
    this.updatePendingText();
  }

  /** Shows the player's input of a turn that just started, and what the turn waits for, with the time so far. */
  showPending(turnIndex: number, input: string, localModel: boolean): void {
    this.removePending();
    this.content.querySelector('.story-empty')?.remove();
    this.pending = renderPendingTurn(turnIndex, input);
    this.content.append(this.pending);
    this.pendingStage = { stage: 'choosing', localModel, since: performance.now() };
    this.updatePendingText();
    this.pendingTimer = setInterval(() => this.updatePendingText(), PENDING_TICK_MS);
    this.stickToBottom = true;
    this.scrollToBottom();
  }

  /** The narrator has written the plan (a first one, or a replan): the pending turn now waits for its tools. */
  showRunning(): void {
    if (!this.pending || !this.pendingStage) return;
    // A replan's attempt tells its own outcome: an earlier attempt's streamed text goes.
    this.pending.querySelector('.narration-streaming')?.remove();
    this.pendingStage = { ...this.pendingStage, stage: 'running', since: performance.now() };
    this.updatePendingText();
  }

  /** Appends a piece of the narration the local model is writing, under the pending turn's status. */
  showStreamedNarration(text: string): void {
    if (!this.pending || !this.pendingStage) return;
    let streamed = this.pending.querySelector<HTMLElement>('.narration-streaming');
    if (!streamed) {
      streamed = renderStreamingNarration();
      this.pending.append(streamed);
      this.pendingStage = { ...this.pendingStage, stage: 'telling', since: performance.now() };
      this.updatePendingText();
    }
    const follow = this.stickToBottom || isScrolledToBottom(this.scroller);
    streamed.textContent = `${streamed.textContent ?? ''}${text}`.replace(/^\s+/, '');
    if (follow) this.scrollToBottom();
  }

  removePending(): void {
    this.runningTools.clear();
    clearInterval(this.pendingTimer);
    this.pendingTimer = undefined;
    this.pendingStage = undefined;
    this.pending?.remove();
    this.pending = undefined;
  }

  private updatePendingText(): void {
    const text = this.pending?.querySelector('.narration-pending-text');
    const time = this.pending?.querySelector('.narration-pending-time');
    if (!text || !time || !this.pendingStage) return;
    const stage = pendingText(this.pendingStage.stage, this.pendingStage.localModel, [...this.runningTools.values()]);
    // Only a new stage changes the announced text.
    if (text.textContent !== stage) text.textContent = stage;
    time.textContent = pendingTime(performance.now() - this.pendingStage.since);
  }

  /** Adds (or replaces) a finished turn and announces its narration. */
  addTurn(turn: TurnView): void {
    const follow = this.stickToBottom || isScrolledToBottom(this.scroller);
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
    } else {
      // The reader is further up: say that something new arrived instead of pulling them down.
      this.jumpButton.hidden = false;
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

  private choiceContext(position: number): TurnContext {
    return {
      isLast: position === this.turns.length - 1,
      enabled: this.choicesEnabled,
      nextInput: this.turns[position + 1]?.input,
      onChoose: this.callbacks.onChoose,
      onShowDetails: this.callbacks.onShowDetails,
    };
  }

  private scrollToBottom(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.lastScrollTop = this.scroller.scrollTop;
    this.jumpButton.hidden = true;
  }
}

function renderEmptyStory(): HTMLElement {
  return el(
    'div',
    { className: 'story-empty' },
    el('span', { className: 'story-empty-icon' }, codicon('book')),
    el('p', { className: 'story-empty-title' }, 'Your story starts here.'),
    el(
      'p',
      {},
      'Type what your character does below, for example “look around” or “roll a d20 to pick the lock”. ' +
        'Each turn shows the narration, dice rolls, assets and choices, and the side panel shows the tools that ran and the session state.',
    ),
  );
}
