// The in-panel modal shown when every plan attempt of a turn failed: focus stays inside, Escape means Continue with fallback.
import type { FromPlayWebview, TurnView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { button } from './playElements.js';

/** A modal over the panel; it owns its backdrop and returns focus to where it was when it closes. */
export class MaxReplanDialog {
  readonly element: HTMLElement;
  private readonly dialog: HTMLElement;
  private returnFocus: HTMLElement | null = null;

  /** `background` (the rest of the panel) is made inert while the dialog is open. */
  constructor(
    private readonly background: HTMLElement,
    private readonly post: (message: FromPlayWebview) => void,
  ) {
    this.dialog = el('div', {
      className: 'dialog',
      testId: PlayPanelTestId.maxReplanDialog,
      attrs: { role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'max-replan-title', 'aria-describedby': 'max-replan-text' },
    });
    this.element = el('div', { className: 'dialog-backdrop' }, this.dialog);
    this.element.hidden = true;
    this.dialog.addEventListener('keydown', (event) => this.onKeyDown(event));
    // Clicks on the backdrop do nothing on purpose: the author picks one of the three answers (or Escape).
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens the dialog for `turn` (the turn told with fallback narration after the last allowed attempt). */
  open(turn: TurnView): void {
    if (!this.isOpen) this.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const plans = Math.max(turn.attempts.length, 1);
    const failed = [...new Set(turn.errors.map((error) => error.skill ?? error.toolId))];
    const continueButton = button({ label: 'Continue with fallback', variant: 'primary', onClick: () => this.close() });
    this.dialog.replaceChildren(
      el(
        'div',
        { className: 'dialog-title-row' },
        el('span', { className: 'dialog-icon' }, codicon('warning')),
        el('h2', { className: 'dialog-title', attrs: { id: 'max-replan-title' } }, 'No plan succeeded'),
      ),
      el(
        'p',
        { className: 'dialog-text', attrs: { id: 'max-replan-text' } },
        `The narrator tried ${plans} ${plans === 1 ? 'plan' : 'plans'} and none succeeded, so turn ${turn.index} was told with fallback narration. `,
        failed.length > 0 ? `Failing: ${failed.join(', ')}. ` : '',
        'You can continue the story, start a new game, or look at what each attempt did.',
      ),
      el(
        'div',
        { className: 'dialog-actions' },
        continueButton,
        button({
          label: 'New Game',
          icon: 'add',
          onClick: () => {
            this.close();
            this.post({ type: 'newGame' });
          },
        }),
        button({
          label: 'View details',
          icon: 'go-to-file',
          onClick: () => {
            this.close();
            this.post({ type: 'showDetails', turnIndex: turn.index });
          },
        }),
      ),
    );
    this.element.hidden = false;
    this.background.inert = true;
    continueButton.focus();
  }

  /** Closes the dialog ("Continue with fallback"): the story simply goes on. */
  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.background.inert = false;
    const target = this.returnFocus;
    this.returnFocus = null;
    if (target !== null && target.isConnected && !(target as HTMLButtonElement).disabled) target.focus();
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
      return;
    }
    if (event.key !== 'Tab') return;
    // Focus trap: Tab and Shift+Tab cycle through the dialog's buttons only.
    const focusable = [...this.dialog.querySelectorAll<HTMLElement>('button:not([disabled])')];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (first === undefined || last === undefined) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }
}
