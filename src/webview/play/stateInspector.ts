// The session state as an expandable, keyboard-driven tree; changed top-level keys are highlighted. Read-only: never edits state.
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { button, codicon, el, plural } from './dom.js';
import { PanelSection } from './panelSection.js';
import type { UiStateStore } from './uiStateStore.js';
import { isExpandable, previewOf, renderValue } from './valuePreview.js';

/** Children shown per object or array before a "… more" row (a huge array must not freeze the panel). */
const maxChildren = 200;

interface RowInfo {
  readonly path: string;
  readonly parentPath: string | undefined;
  readonly expandable: boolean;
}

/** The state tree: rows are `role="treeitem"` with `data-key-path` ("dice.lastRoll"), one tab stop (roving tabindex). */
export class StateInspector {
  private readonly section: PanelSection;
  private readonly tree: HTMLElement;
  private state: Record<string, unknown> = {};
  private changedKeys = new Set<string>();
  private rows: RowInfo[] = [];
  private focusedPath: string | undefined;

  constructor(private readonly store: UiStateStore) {
    this.section = new PanelSection({ id: 'state', title: 'State', testId: PlayPanelTestId.stateInspector, store });
    this.tree = el('div', { className: 'state-tree', attrs: { role: 'tree', 'aria-label': 'Session state' } });
    this.tree.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.section.body.append(this.tree);
    this.section.setActions(
      button({
        label: 'Collapse All',
        icon: 'collapse-all',
        variant: 'icon',
        onClick: () => {
          this.store.setExpanded(this.store.state.expandedStatePaths, false);
          this.render();
        },
      }),
    );
    this.render();
  }

  get element(): HTMLElement {
    return this.section.element;
  }

  /** New state; `changedKeys` (top level) are highlighted and expanded one level. */
  setState(state: Record<string, unknown>, changedKeys: readonly string[]): void {
    this.state = state;
    this.changedKeys = new Set(changedKeys);
    const expandable = changedKeys.filter((key) => isExpandable(state[key]));
    if (expandable.length > 0) this.store.setExpanded(expandable, true);
    this.render();
  }

  private render(): void {
    const hadFocus = this.tree.contains(document.activeElement);
    const keys = Object.keys(this.state);
    this.rows = [];
    const fragment = document.createDocumentFragment();
    if (keys.length === 0) fragment.append(el('p', { className: 'section-note' }, 'The session state is empty. Skills add to it with state patches.'));
    for (const key of keys) this.renderNode(fragment, key, this.state[key], key, undefined, 1);
    this.tree.replaceChildren(fragment);
    const changed = keys.filter((key) => this.changedKeys.has(key)).length;
    this.section.setDescription(keys.length === 0 ? '' : `${plural(keys.length, 'key')}${changed > 0 ? ` · ${changed} changed` : ''}`);
    if (this.focusedPath === undefined || !this.rows.some((row) => row.path === this.focusedPath)) this.focusedPath = this.rows[0]?.path;
    const focused = this.rowElement(this.focusedPath);
    if (focused !== undefined) {
      focused.tabIndex = 0;
      if (hadFocus) focused.focus();
    }
  }

  private renderNode(parent: Node, key: string, value: unknown, path: string, parentPath: string | undefined, level: number): void {
    const expandable = isExpandable(value);
    const expanded = expandable && this.store.isExpanded(path);
    const changed = level === 1 && this.changedKeys.has(key);
    this.rows.push({ path, parentPath, expandable });
    const row = el(
      'div',
      {
        className: `state-row${changed ? ' is-changed' : ''}`,
        testId: PlayPanelTestId.stateRow,
        data: { keyPath: path, changed: changed ? 'true' : undefined },
        attrs: {
          role: 'treeitem',
          tabindex: '-1',
          'aria-level': String(level),
          'aria-expanded': expandable ? String(expanded) : undefined,
        },
        title: path,
      },
      ...Array.from({ length: level - 1 }, () => el('span', { className: 'indent', attrs: { 'aria-hidden': 'true' } })),
      el('span', { className: 'twistie' }, expandable ? codicon(expanded ? 'chevron-down' : 'chevron-right') : null),
      el('span', { className: 'state-key' }, key),
      el('span', { className: 'state-colon' }, ': '),
      expandable && expanded ? el('span', { className: 'state-summary' }, previewOf(value, true)) : renderValue(value),
      changed ? el('span', { className: 'badge badge-changed' }, 'changed') : null,
    );
    row.addEventListener('click', () => (expandable ? this.toggle(path) : this.focusRow(path)));
    parent.appendChild(row);
    if (!expanded) return;
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value as Record<string, unknown>);
    for (const [childKey, childValue] of entries.slice(0, maxChildren)) {
      this.renderNode(parent, childKey, childValue, `${path}.${childKey}`, path, level + 1);
    }
    if (entries.length > maxChildren) {
      parent.appendChild(
        el('div', { className: 'state-row state-more', attrs: { 'aria-hidden': 'true' } },
          ...Array.from({ length: level }, () => el('span', { className: 'indent' })),
          `… ${entries.length - maxChildren} more`),
      );
    }
  }

  private toggle(path: string, expanded = !this.store.isExpanded(path)): void {
    this.focusedPath = path;
    this.store.setExpanded([path], expanded);
    this.render();
    this.rowElement(path)?.focus();
  }

  private focusRow(path: string | undefined): void {
    const target = this.rowElement(path);
    if (target === undefined || path === undefined) return;
    this.rowElement(this.focusedPath)?.setAttribute('tabindex', '-1');
    this.focusedPath = path;
    target.tabIndex = 0;
    target.focus();
  }

  private rowElement(path: string | undefined): HTMLElement | undefined {
    if (path === undefined) return undefined;
    for (const row of this.tree.querySelectorAll<HTMLElement>('.state-row[data-key-path]')) {
      if (row.dataset['keyPath'] === path) return row;
    }
    return undefined;
  }

  /** Tree keys (WAI-ARIA tree pattern): arrows move and open/close, Enter and Space toggle, Home/End jump. */
  private onKeyDown(event: KeyboardEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.state-row');
    const path = row?.dataset['keyPath'];
    const index = this.rows.findIndex((candidate) => candidate.path === path);
    const info = this.rows[index];
    if (path === undefined || info === undefined) return;
    const expanded = info.expandable && this.store.isExpanded(path);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        this.focusRow(this.rows[index + 1]?.path);
        break;
      case 'ArrowUp':
        this.focusRow(this.rows[index - 1]?.path);
        break;
      case 'Home':
        this.focusRow(this.rows[0]?.path);
        break;
      case 'End':
        this.focusRow(this.rows[this.rows.length - 1]?.path);
        break;
      case 'ArrowRight':
        if (info.expandable && !expanded) this.toggle(path, true);
        else if (expanded) this.focusRow(this.rows[index + 1]?.path);
        break;
      case 'ArrowLeft':
        if (expanded) this.toggle(path, false);
        else this.focusRow(info.parentPath);
        break;
      case 'Enter':
      case ' ':
        if (info.expandable) this.toggle(path);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  }
}
