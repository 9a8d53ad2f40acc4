// The Inspector's stderr summary under the table (the lines themselves sit in the table, interleaved by time): how many, how many the cap dropped, and a switch to show only them.
import { el } from '../common/dom.js';
import { MAX_STDERR_LINES, type StderrLines } from './stderrLines.js';
import { plural } from '../../runtime/common/humanText.js';

export class StderrSummary {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private onlyStderr = false;

  /** `onShowOnly(true)` filters the table to stderr lines, `onShowOnly(false)` shows every type again. */
  constructor(onShowOnly: (onlyStderr: boolean) => void) {
    this.text = el('span', { className: 'stderr-count' });
    this.toggle = el('button', { className: 'stderr-toggle', attrs: { type: 'button' } });
    this.toggle.addEventListener('click', () => onShowOnly(!this.onlyStderr));
    this.element = el(
      'section',
      { className: 'stderr-summary', attrs: { 'aria-label': 'stderr' } },
      el('span', { className: 'stderr-swatch', attrs: { 'aria-hidden': 'true' } }),
      this.text,
      this.toggle,
    );
    this.update(undefined, false);
  }

  /** The counts of `lines` (undefined: none yet) and whether the table shows only stderr. */
  update(lines: StderrLines | undefined, onlyStderr: boolean): void {
    this.onlyStderr = onlyStderr;
    const count = lines?.length ?? 0;
    const dropped = lines?.dropped ?? 0;
    this.element.classList.toggle('empty', count === 0);
    this.text.textContent =
      count === 0
        ? 'stderr: nothing written'
        : `stderr: ${plural(count, 'line')} in the table, by time` +
          (dropped > 0 ? ` · ${dropped.toLocaleString('en')} more dropped (cap of ${MAX_STDERR_LINES.toLocaleString('en')})` : '');
    this.toggle.textContent = onlyStderr ? 'Show all lines' : 'Show only stderr';
    this.toggle.hidden = count === 0 && !onlyStderr;
    this.toggle.setAttribute('aria-pressed', String(onlyStderr));
  }
}
