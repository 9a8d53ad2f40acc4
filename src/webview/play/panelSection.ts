// A collapsible side section with a VS Code style header (title, description, actions); remembers whether it is collapsed.
import { codicon, el } from '../common/dom.js';
import type { UiStateStore } from './uiStateStore.js';

export interface PanelSectionOptions {
  /** Stable name used to remember the collapsed state ("tools", "state"). */
  readonly id: string;
  readonly title: string;
  readonly testId: string;
  readonly store: UiStateStore;
}

/** Matches the stacked layout of play.css (`@media (max-width: 900px)`). */
const narrowLayout = window.matchMedia('(max-width: 900px)');

/** Header button + body; `element` carries the test id. */
export class PanelSection {
  readonly element: HTMLElement;
  readonly body: HTMLElement;
  private readonly description: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly chevron: HTMLElement;

  constructor(private readonly options: PanelSectionOptions) {
    const bodyId = `section-${options.id}`;
    this.chevron = codicon('chevron-down');
    this.description = el('span', { className: 'section-description' });
    this.toggle = el(
      'button',
      { className: 'section-toggle', attrs: { type: 'button', 'aria-controls': bodyId, 'aria-expanded': 'true' } },
      this.chevron,
      el('span', { className: 'section-title' }, options.title),
      this.description,
    );
    this.toggle.addEventListener('click', () => this.setCollapsed(!this.collapsed, true));
    this.actions = el('span', { className: 'section-actions' });
    this.body = el('div', { className: 'section-body', attrs: { id: bodyId } });
    this.element = el(
      'section',
      { className: `side-section section-${options.id}`, testId: options.testId, attrs: { 'aria-label': options.title } },
      el('h2', { className: 'section-header' }, this.toggle, this.actions),
      this.body,
    );
    // Wide and narrow layouts remember their own collapsed sections: an author who folds the state away in a
    // narrow split still finds it open in a wide panel.
    narrowLayout.addEventListener('change', () => this.setCollapsed(options.store.isSectionCollapsed(this.layoutKey), false));
    this.setCollapsed(options.store.isSectionCollapsed(this.layoutKey), false);
  }

  private get layoutKey(): string {
    return `${this.options.id}@${narrowLayout.matches ? 'narrow' : 'wide'}`;
  }

  get collapsed(): boolean {
    return this.body.hidden;
  }

  /** Short text after the title, e.g. "Turn 3 · attempt 2". */
  setDescription(text: string): void {
    this.description.textContent = text;
  }

  setActions(...buttons: HTMLElement[]): void {
    this.actions.replaceChildren(...buttons);
  }

  setCollapsed(collapsed: boolean, remember: boolean): void {
    this.body.hidden = collapsed;
    this.element.classList.toggle('is-collapsed', collapsed);
    this.toggle.setAttribute('aria-expanded', String(!collapsed));
    this.chevron.className = `codicon codicon-${collapsed ? 'chevron-right' : 'chevron-down'}`;
    if (remember) this.options.store.setSectionCollapsed(this.layoutKey, collapsed);
  }
}
