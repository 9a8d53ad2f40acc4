// The play panel's controller: lays out the views and applies each ToPlayWebview message to them (exhaustive switch).
import {
  assertNever,
  type FromPlayWebview,
  type NarratorStatusView,
  type PlaySnapshot,
  type ToPlayWebview,
  type TurnView,
} from '../../protocol/playPanelMessages.js';
import { el } from '../common/dom.js';
import { Header } from './header.js';
import { InputBox } from './inputBox.js';
import { MaxReplanDialog } from './maxReplanDialog.js';
import { Notices } from './playNotices.js';
import { StateInspector } from './stateInspector.js';
import { StoryView } from './storyView.js';
import { ToolPanel } from './toolPanel.js';
import { StoryHeader } from './storyHeader.js';
import { BeatTimeline } from './beatTimeline.js';
import type { UiStateStore } from './uiStateStore.js';

/** Owns the panel's DOM; everything it shows comes from the last snapshot plus the messages after it. */
export class PlayView {
  readonly element: HTMLElement;
  private readonly header: Header;
  private readonly story: StoryView;
  private readonly input: InputBox;
  private readonly notices: Notices;
  private readonly tools: ToolPanel;
  private readonly stateInspector: StateInspector;
  private readonly dialog: MaxReplanDialog;
  private readonly storyHeader = new StoryHeader();
  private readonly beatTimeline: BeatTimeline;

  private sessionId = '';
  private trusted = true;
  /** Whether the turns' plans come from the local model (the pending turn says so while it waits). */
  private localModel = false;
  /** The turn being played (index, input, and the plan attempt once replanning starts). */
  private running: { readonly index: number; readonly input: string; attempt: number } | undefined;

  constructor(store: UiStateStore, post: (message: FromPlayWebview) => void) {
    this.header = new Header(post);
    this.story = new StoryView({
      onChoose: (turnIndex, choiceIndex) => {
        if (this.canPlay) post({ type: 'choose', turnIndex, choiceIndex });
      },
      onShowDetails: (turnIndex) => post({ type: 'showDetails', turnIndex }),
    });
    this.input = new InputBox(store, {
      onSend: (input) => post({ type: 'play', input }),
      onCancel: () => post({ type: 'cancel' }),
    });
    this.notices = new Notices(store, post);
    this.tools = new ToolPanel(store);
    this.stateInspector = new StateInspector(store);
    this.beatTimeline = new BeatTimeline(store);
    const app = el(
      'div',
      { className: 'play-app' },
      this.header.element,
      el(
        'div',
        { className: 'play-body' },
        el(
          'div',
          { className: 'main-column' },
          this.storyHeader.element,
          this.notices.top,
          this.story.element,
          el('div', { className: 'composer-area' }, this.notices.bottom, this.input.element),
        ),
        el(
          'aside',
          { className: 'side-column', attrs: { 'aria-label': 'Beats, tools and state' } },
          this.beatTimeline.element,
          this.tools.element,
          this.stateInspector.element,
        ),
      ),
    );
    this.dialog = new MaxReplanDialog(app, post);
    this.element = el('div', { className: 'play-root' }, app, this.dialog.element);
  }

  private get canPlay(): boolean {
    return this.trusted && this.running === undefined;
  }

  /** Applies one message from the extension. */
  apply(message: ToPlayWebview): void {
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message.snapshot);
        break;
      case 'turnStarted':
        this.running = { index: message.index, input: message.input, attempt: 1 };
        this.story.showPending(message.index, message.input, this.localModel);
        this.tools.startTurn(message.index);
        this.notices.setLastTurn(this.sessionId, undefined);
        this.updatePlayability();
        break;
      case 'attemptStarted':
        this.story.showRunning();
        this.tools.startAttempt(message.attempt, message.planId, message.narrator, message.tools, message.graph);
        if (this.running !== undefined) {
          this.running.attempt = message.attempt;
          this.updatePlayability();
        }
        break;
      case 'toolUpdated':
        this.tools.updateTool(message.tool);
        this.story.noteTool(message.tool);
        break;
      case 'narrationStreamed':
        this.story.showStreamedNarration(message.text);
        break;
      case 'attemptFinished':
        this.tools.finishAttempt(message.attempt);
        break;
      case 'stateChanged':
        this.stateInspector.setState(message.state, message.changedKeys);
        break;
      case 'turnFinished':
        this.setStory(message.story);
        this.finishTurn(message.turn, message.state, message.maxAttemptsReached);
        break;
      case 'turnFailed':
        this.story.removePending();
        this.tools.failTurn(message.message);
        this.notices.showTurnFailure(message.message, this.running?.input);
        this.running = undefined;
        this.updatePlayability();
        break;
      case 'skillsChanged':
        this.header.setSkills(message.skills);
        break;
      case 'narratorChanged':
        this.localModel = isLocalModel(message.narrator);
        this.header.setNarrator(message.narrator);
        break;
      case 'trustChanged':
        this.trusted = message.trusted;
        this.updatePlayability();
        break;
      default:
        assertNever(message);
    }
  }

  private applySnapshot(snapshot: PlaySnapshot): void {
    this.dialog.close();
    this.sessionId = snapshot.sessionId;
    this.trusted = snapshot.trusted;
    const last = snapshot.turns[snapshot.turns.length - 1];
    this.running = snapshot.busy ? { index: (last?.index ?? 0) + 1, input: snapshot.runningInput ?? '', attempt: 1 } : undefined;
    this.localModel = isLocalModel(snapshot.narrator);
    this.header.setSession(snapshot.sessionName);
    this.header.setNarrator(snapshot.narrator);
    this.header.setSkills(snapshot.skills);
    this.notices.setSessionNotice(snapshot.sessionId, snapshot.notice);
    this.setStory(snapshot.story);
    this.story.render(snapshot.turns, this.canPlay);
    this.stateInspector.setState(snapshot.state, snapshot.changedKeys);
    if (this.running !== undefined) {
      this.story.showPending(this.running.index, this.running.input, this.localModel);
      this.tools.startTurn(this.running.index);
      // Opened mid-turn: replay the progress so far.
      for (const attempt of snapshot.runningAttempts ?? []) {
        this.tools.startAttempt(attempt.attempt, attempt.planId, attempt.narrator, attempt.tools, attempt.graph);
        for (const tool of attempt.tools) this.tools.updateTool(tool);
        if (attempt.finished) this.tools.finishAttempt(attempt.finished);
        this.running.attempt = attempt.attempt;
      }
      if ((snapshot.runningAttempts ?? []).length > 0) this.story.showRunning();
      this.notices.setLastTurn(snapshot.sessionId, undefined);
    } else {
      this.tools.showRecordedTurn(last);
      this.notices.setLastTurn(snapshot.sessionId, last);
    }
    this.updatePlayability();
    // A freshly opened panel is ready to type into (unless the author is already somewhere else in it).
    if (document.activeElement === null || document.activeElement === document.body) this.input.focus();
  }

  private finishTurn(turn: TurnView, state: Record<string, unknown>, maxAttemptsReached: boolean): void {
    this.running = undefined;
    this.story.addTurn(turn);
    this.stateInspector.setState(state, turn.changedKeys);
    this.tools.finishTurn(turn);
    this.notices.setLastTurn(this.sessionId, turn);
    this.updatePlayability();
    if (maxAttemptsReached) this.dialog.open(turn);
  }

  /** A campaign's story header and beat timeline (undefined: the story is no campaign, both hide). */
  private setStory(story: PlaySnapshot['story']): void {
    this.storyHeader.set(story);
    this.beatTimeline.set(story);
  }

  /** Busy and trust decide whether anything can be played; every control that plays follows. */
  private updatePlayability(): void {
    this.notices.setTrusted(this.trusted);
    this.input.setTrusted(this.trusted);
    const attempt = this.running?.attempt ?? 1;
    this.input.setBusy(this.running !== undefined, this.running?.index, attempt > 1 ? `(replanning: attempt ${attempt})` : undefined);
    this.story.setChoicesEnabled(this.canPlay);
    this.notices.setCanPlay(this.canPlay);
    document.body.classList.toggle('is-busy', this.running !== undefined);
  }
}

/** A local model that plans (loading or ready): the states in which a turn waits for it. */
function isLocalModel(narrator: NarratorStatusView): boolean {
  return narrator.state === 'ready' || narrator.state === 'loading' || narrator.state === 'idle';
}
