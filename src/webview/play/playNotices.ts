// Banners and inline notices: workspace trust, the session notice, and the error notice of the last turn (docs/design-rules.md#play-panel-notices).
import type { FromPlayWebview, TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { button } from './playElements.js';
import type { UiStateStore } from './uiStateStore.js';

export const untrustedMessage =
  'This workspace is not trusted, so Narratoria runs no skill scripts and loads no model. You can still read the story and its state.';

/** Owns the banners above the story (`top`) and the error notice above the input (`bottom`). */
export class Notices {
  readonly top: HTMLElement;
  readonly bottom: HTMLElement;
  private readonly trustBanner: HTMLElement;
  private readonly sessionNotice: HTMLElement;
  private turnFailure: { readonly message: string; readonly input: string | undefined } | undefined;
  private lastTurn: { readonly sessionId: string; readonly turn: TurnView | undefined } = { sessionId: '', turn: undefined };
  /** Retry plays a turn, so it is disabled while a turn runs or when the workspace is untrusted. */
  private canPlay = true;

  constructor(
    private readonly store: UiStateStore,
    private readonly post: (message: FromPlayWebview) => void,
  ) {
    this.trustBanner = el(
      'div',
      { className: 'banner banner-warning', testId: PlayPanelTestId.trustBanner, attrs: { role: 'status' } },
      codicon('workspace-untrusted'),
      el('span', { className: 'banner-text' }, untrustedMessage),
      button({ label: 'Manage Workspace Trust', icon: 'shield', onClick: () => this.post({ type: 'manageTrust' }) }),
    );
    this.trustBanner.hidden = true;
    this.sessionNotice = el('div', { className: 'banner banner-info', attrs: { role: 'status' } });
    this.sessionNotice.hidden = true;
    this.top = el('div', { className: 'banners' }, this.trustBanner, this.sessionNotice);
    this.bottom = el('div', { className: 'inline-notices' });
  }

  setTrusted(trusted: boolean): void {
    this.trustBanner.hidden = trusted;
  }

  setCanPlay(canPlay: boolean): void {
    if (canPlay === this.canPlay) return;
    this.canPlay = canPlay;
    this.renderBottom();
  }

  /** The snapshot's notice (e.g. an unreadable session set aside), until dismissed. */
  setSessionNotice(sessionId: string, notice: string | undefined): void {
    const key = `notice:${sessionId}:${notice ?? ''}`;
    if (notice === undefined || notice.trim() === '' || this.store.isDismissed(key)) {
      this.sessionNotice.hidden = true;
      return;
    }
    this.sessionNotice.replaceChildren(
      codicon('info'),
      el('span', { className: 'banner-text' }, notice),
      button({
        label: 'Dismiss',
        icon: 'close',
        variant: 'icon',
        onClick: () => {
          this.store.dismiss(key);
          this.sessionNotice.hidden = true;
        },
      }),
    );
    this.sessionNotice.hidden = false;
  }

  /** Shows the errors of the session's last turn (if any and not dismissed); a turn failure takes precedence. */
  setLastTurn(sessionId: string, turn: TurnView | undefined): void {
    this.lastTurn = { sessionId, turn };
    this.turnFailure = undefined;
    this.renderBottom();
  }

  /** A turn that could not run at all (turnFailed): offers Retry with its input. */
  showTurnFailure(message: string, input: string | undefined): void {
    this.turnFailure = { message, input };
    this.renderBottom();
  }

  private renderBottom(): void {
    this.bottom.replaceChildren();
    if (this.turnFailure !== undefined) {
      this.bottom.append(this.renderTurnFailure(this.turnFailure.message, this.turnFailure.input));
      return;
    }
    const { sessionId, turn } = this.lastTurn;
    if (turn === undefined || turn.errors.length === 0) return;
    const key = `turn-errors:${sessionId}:${turn.index}`;
    if (!this.store.isDismissed(key)) this.bottom.append(this.renderTurnErrors(turn, key));
  }

  private renderTurnErrors(turn: TurnView, key: string): HTMLElement {
    const error = turn.errors[turn.errors.length - 1]!;
    const how = turn.fallback ? 'fallback narration' : turn.attempts.length > 1 ? `replanned, ${turn.attempts.length} attempts` : 'without this tool';
    const others = turn.errors.length - 1;
    return el(
      'div',
      {
        className: 'notice notice-error',
        testId: PlayPanelTestId.errorNotice,
        data: { kind: 'toolErrors', turnIndex: turn.index },
        attrs: { role: 'alert' },
      },
      el('span', { className: 'notice-icon' }, codicon('warning')),
      el(
        'span',
        { className: 'notice-text', title: turn.errors.map((each) => `Attempt ${each.attempt}, ${each.toolId}: ${each.message}`).join('\n') },
        el(
          'span',
          { className: 'notice-message' },
          el('span', { className: 'visually-hidden' }, '⚠ '),
          el('strong', {}, `${error.skill ?? error.toolId} failed`),
          ` (${error.category}): ${sentence(error.message)} The story continued (${how}).`,
          others > 0 ? el('span', { className: 'notice-more' }, ` ${others} more ${others === 1 ? 'error' : 'errors'} in this turn.`) : null,
        ),
      ),
      el(
        'span',
        { className: 'notice-actions' },
        button({ label: 'Show details', icon: 'go-to-file', onClick: () => this.post({ type: 'showDetails', turnIndex: turn.index }) }),
        this.retryButton(turn.input),
        button({
          label: 'Dismiss',
          icon: 'close',
          variant: 'icon',
          onClick: () => {
            this.store.dismiss(key);
            this.renderBottom();
          },
        }),
      ),
    );
  }

  private retryButton(input: string): HTMLButtonElement {
    const retry = button({ label: 'Retry', icon: 'refresh', title: `Play “${input}” again`, onClick: () => this.post({ type: 'play', input }) });
    retry.disabled = !this.canPlay;
    return retry;
  }

  private renderTurnFailure(message: string, input: string | undefined): HTMLElement {
    return el(
      'div',
      { className: 'notice notice-error', testId: PlayPanelTestId.errorNotice, data: { kind: 'turnFailed' }, attrs: { role: 'alert' } },
      el('span', { className: 'notice-icon' }, codicon('error')),
      el(
        'span',
        { className: 'notice-text' },
        el('strong', {}, 'The turn could not be played: '),
        sentence(message.replace(/^\s*The turn could not be played:\s*/i, '')),
      ),
      el(
        'span',
        { className: 'notice-actions' },
        input !== undefined && input.trim() !== '' ? this.retryButton(input) : null,
        button({ label: 'Show Logs', icon: 'output', onClick: () => this.post({ type: 'showLogs' }) }),
        button({
          label: 'Dismiss',
          icon: 'close',
          variant: 'icon',
          onClick: () => {
            this.turnFailure = undefined;
            this.renderBottom();
          },
        }),
      ),
    );
  }
}

/** The message with a final full stop. */
function sentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
