// The Inspector's verdict card: how the process ended, done.ok and its summary, the duration, the failure category and whether a plan would retry it.
import type { VerdictCard } from '../../protocol/inspectorMessages.js';
import { el } from '../common/dom.js';

export class VerdictView {
  readonly element: HTMLElement;

  constructor() {
    this.element = el('section', { className: 'verdict-card', attrs: { 'aria-label': 'verdict', role: 'status' } });
    this.show(undefined, false);
  }

  show(verdict: VerdictCard | undefined, running: boolean): void {
    if (!verdict) {
      this.element.className = 'verdict-card pending';
      this.element.replaceChildren(el('span', { className: 'headline' }, running ? '… running' : 'No run yet'));
      return;
    }
    this.element.className = `verdict-card ${verdict.ok ? 'ok' : 'failed'}`;
    const ended = verdict.timedOut
      ? 'timed out'
      : verdict.signal
        ? `killed by ${verdict.signal}`
        : verdict.exitCode === null
          ? 'did not start'
          : `exit code ${verdict.exitCode}`;
    const facts: [string, string][] = [
      ['Process', ended],
      ['done', verdict.done ? `${verdict.done.ok ? 'ok' : 'not ok'}${verdict.done.summary ? ` — ${verdict.done.summary}` : ''}` : 'missing'],
      ['Duration', `${verdict.durationMs} ms`],
      ['Lines', `${verdict.lineCount}${verdict.droppedRows ? ` (${verdict.droppedRows} not kept: row cap)` : ''}`],
    ];
    if (!verdict.ok) {
      facts.push(['Category', `${verdict.category ?? '?'}${verdict.code ? ` (${verdict.code})` : ''}`]);
      facts.push(['In a plan', verdict.retryable ? 'would be retried (if the tool has retries)' : 'would not be retried']);
    }
    // Each term stays with its value when the card wraps.
    const list = el('dl', {}, ...facts.map(([term, value]) => el('div', { className: 'fact' }, el('dt', {}, term), el('dd', {}, value))));
    this.element.replaceChildren(el('span', { className: 'headline' }, `${verdict.ok ? '✔' : '✖'} ${verdict.message}`), list);
  }
}
