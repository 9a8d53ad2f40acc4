// What the view says about its graph: the stale banner, the strip of structural problems, and the message shown in place of the graph.
import { append, codicon, el } from '../common/dom.js';
import { iconButton } from './graphButtons.js';
import { plural } from '../../runtime/common/humanText.js';

/** "Showing the last valid graph — <reason>" over the still-visible graph while the text does not parse. */
export class StaleBanner {
  readonly element: HTMLDivElement;
  private readonly text = el('span', { className: 'banner-text' });

  constructor() {
    this.element = el('div', { className: 'graph-banner stale-banner', attrs: { role: 'status' } }, codicon('warning'), this.text);
    this.element.hidden = true;
  }

  /** Shows the reason, or hides the banner when undefined. */
  set(reason: string | undefined): void {
    this.element.hidden = reason === undefined;
    this.text.textContent = reason === undefined ? '' : `Showing the last valid graph — ${reason}`;
  }

  get visible(): boolean {
    return !this.element.hidden;
  }
}

/** Problems listed beyond this many are behind a "show all" toggle. */
const COLLAPSED_COUNT = 3;

/** The plan's structural problems (cycles, unknown dependencies, duplicate ids) as a list under the toolbar. */
export class ProblemsStrip {
  readonly element: HTMLDivElement;
  private readonly list = el('ul', { className: 'problem-list' });
  private readonly heading = el('span', { className: 'problems-heading' });
  private readonly toggle: HTMLButtonElement;
  private expanded = false;
  private problems: readonly string[] = [];

  constructor() {
    this.toggle = iconButton({
      icon: 'chevron-down',
      label: 'Show all problems',
      text: 'Show all',
      className: 'problems-toggle',
      onClick: () => this.setExpanded(!this.expanded),
    });
    this.element = el(
      'div',
      { className: 'problems-strip', attrs: { role: 'region', 'aria-label': 'Problems in the plan' } },
      el('div', { className: 'problems-header' }, codicon('error'), this.heading, this.toggle),
      this.list,
    );
    this.element.hidden = true;
  }

  /** What the region is called for screen readers ("Problems in the plan"). */
  setLabel(label: string): void {
    this.element.setAttribute('aria-label', label);
  }

  set(problems: readonly string[]): void {
    this.problems = problems;
    this.element.hidden = problems.length === 0;
    this.heading.textContent = plural(problems.length, 'problem');
    this.render();
  }

  private setExpanded(expanded: boolean): void {
    this.expanded = expanded;
    this.render();
  }

  private render(): void {
    const shown = this.expanded ? this.problems : this.problems.slice(0, COLLAPSED_COUNT);
    this.list.replaceChildren(...shown.map((problem) => el('li', { className: 'problem' }, problem)));
    const hidden = this.problems.length - COLLAPSED_COUNT;
    this.toggle.hidden = hidden <= 0;
    const label = this.expanded ? 'Show fewer' : `Show ${hidden} more`;
    this.toggle.querySelector('.button-text')!.textContent = label;
    this.toggle.setAttribute('aria-label', label);
    this.toggle.setAttribute('aria-expanded', String(this.expanded));
    this.toggle.querySelector('.codicon')!.className = `codicon codicon-${this.expanded ? 'chevron-up' : 'chevron-down'}`;
  }
}

/** A centred message in place of the graph: an error, an empty plan, or a wait. */
export class CanvasMessage {
  readonly element: HTMLDivElement;

  constructor() {
    this.element = el('div', { className: 'canvas-message', attrs: { role: 'status' } });
    this.element.hidden = true;
  }

  show(kind: 'error' | 'empty' | 'waiting', title: string, detail?: string): void {
    const icon = kind === 'error' ? 'error' : kind === 'empty' ? 'info' : 'loading';
    this.element.className = `canvas-message canvas-message-${kind}`;
    this.element.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    this.element.replaceChildren();
    append(
      this.element,
      codicon(icon, kind === 'waiting' ? 'codicon-modifier-spin' : ''),
      el('div', { className: 'canvas-message-title' }, title),
      detail ? el('div', { className: 'canvas-message-detail' }, detail) : null,
    );
    this.element.hidden = false;
  }

  hide(): void {
    this.element.hidden = true;
  }
}
