// The composer at the bottom of the story: textarea, Send, busy indicator with Cancel, history and draft; posts nothing itself.
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { el } from '../common/dom.js';
import { button, replaceChildren, spinner } from './playElements.js';
import { InputHistory } from './inputHistory.js';
import type { UiStateStore } from './uiStateStore.js';

export interface InputBoxCallbacks {
  /** The author sent `text` (already added to the history). */
  readonly onSend: (text: string) => void;
  readonly onCancel: () => void;
}

const placeholderTrusted = 'What do you do? (Enter to send, Shift+Enter for a new line)';
const placeholderUntrusted = 'Playing needs a trusted workspace.';

/** The player's input: Enter sends, Shift+Enter breaks the line, ArrowUp/ArrowDown at the edges walk the history. */
export class InputBox {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly busyIndicator: HTMLElement;
  private readonly busyText: HTMLElement;
  private readonly history: InputHistory;
  private busy = false;
  private trusted = true;

  constructor(
    private readonly store: UiStateStore,
    private readonly callbacks: InputBoxCallbacks,
  ) {
    this.history = new InputHistory(() => store.state.inputHistory);
    this.textarea = el('textarea', {
      className: 'player-input',
      testId: PlayPanelTestId.input,
      attrs: { rows: '1', placeholder: placeholderTrusted, 'aria-label': 'Your action', spellcheck: 'true' },
      title: 'Enter sends, Shift+Enter starts a new line, ↑ and ↓ at the start or end walk your earlier inputs',
    });
    this.textarea.value = store.state.draft;
    this.textarea.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.textarea.addEventListener('input', () => {
      this.store.setDraft(this.textarea.value);
      this.updateSendButton();
    });
    this.sendButton = button({
      label: 'Send',
      icon: 'send',
      variant: 'primary',
      testId: PlayPanelTestId.sendButton,
      title: 'Send (Enter)',
      className: 'send-button',
      onClick: () => {
        this.send();
        // Back to typing: the button disables itself once the input is empty.
        this.textarea.focus();
      },
    });
    const cancelButton = button({
      label: 'Cancel',
      icon: 'debug-stop',
      testId: PlayPanelTestId.cancelButton,
      title: 'Cancel the running turn',
      onClick: () => this.callbacks.onCancel(),
    });
    this.busyText = el('span', { className: 'busy-text' });
    this.busyIndicator = el(
      'div',
      { className: 'busy-indicator', testId: PlayPanelTestId.busyIndicator, attrs: { role: 'status' } },
      el('span', { className: 'busy-progress', attrs: { 'aria-hidden': 'true' } }),
      spinner(),
      this.busyText,
      cancelButton,
    );
    this.busyIndicator.hidden = true;
    this.element = el('div', { className: 'composer' }, this.busyIndicator, el('div', { className: 'input-row' }, this.textarea, this.sendButton));
    this.updateSendButton();
  }

  /** Shows "Running turn N…" (plus a detail such as the attempt) while a turn runs; Send is disabled meanwhile. */
  setBusy(busy: boolean, turnIndex?: number, detail?: string): void {
    this.busy = busy;
    this.busyIndicator.hidden = !busy;
    if (busy) {
      const label = turnIndex === undefined ? 'Running turn…' : `Running turn ${turnIndex}…`;
      replaceChildren(this.busyText, label, detail !== undefined ? el('span', { className: 'busy-detail' }, ` ${detail}`) : null);
    }
    this.updateSendButton();
  }

  /** In an untrusted workspace nothing can be played: the input and Send are disabled. */
  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
    this.textarea.disabled = !trusted;
    this.textarea.placeholder = trusted ? placeholderTrusted : placeholderUntrusted;
    this.updateSendButton();
  }

  focus(): void {
    if (!this.textarea.disabled) this.textarea.focus();
  }

  /** Puts text back into the input (e.g. the input of a turn that could not run), unless the author typed something. */
  offerText(text: string): void {
    if (this.textarea.value.trim() !== '') return;
    this.setValue(text, 'end');
  }

  private get canSend(): boolean {
    return this.trusted && !this.busy && this.textarea.value.trim() !== '';
  }

  private send(): void {
    if (!this.canSend) return;
    const text = this.textarea.value.trim();
    this.store.pushHistory(text);
    this.history.reset();
    this.setValue('', 'end');
    this.callbacks.onSend(text);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.key === 'Enter' && plain) {
      event.preventDefault();
      this.send();
      return;
    }
    if (!plain) return;
    const { selectionStart, selectionEnd, value } = this.textarea;
    const unchangedRecall = this.history.browsing && value === this.history.recalled;
    if (event.key === 'ArrowUp' && ((selectionStart === 0 && selectionEnd === 0) || unchangedRecall)) {
      const entry = this.history.previous(value);
      if (entry !== undefined) {
        event.preventDefault();
        this.setValue(entry, 'start');
      }
    } else if (event.key === 'ArrowDown' && ((selectionStart === value.length && selectionEnd === value.length) || unchangedRecall)) {
      const entry = this.history.next();
      if (entry !== undefined) {
        event.preventDefault();
        this.setValue(entry, 'end');
      }
    }
  }

  private setValue(value: string, caret: 'start' | 'end'): void {
    this.textarea.value = value;
    const position = caret === 'start' ? 0 : value.length;
    this.textarea.setSelectionRange(position, position);
    this.store.setDraft(value);
    this.updateSendButton();
  }

  private updateSendButton(): void {
    this.sendButton.disabled = !this.canSend;
  }
}
