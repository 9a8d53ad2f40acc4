// A read-only, keyboard-driven JSON tree (WAI-ARIA tree pattern) for the play panel's state and the Inspector's events: objects and arrays open and close, changed keys stand out.
import { codicon, el } from './dom.js';
import { isExpandable, previewOf, renderValue } from './valuePreview.js';

/** Children shown per object or array before a "… more" row (a huge array must not freeze the panel). */
const MAX_CHILDREN = 200;
/** Characters of a string shown by a tree that wraps strings; longer ones end with a note. */
const MAX_WRAPPED_STRING = 10_000;
/** Characters of a string shown by a tree that keeps one line per value. */
const MAX_STRING_PREVIEW = 120;

/** Which paths (`dice.lastRoll`) are open: the play panel keeps them with setState, the Inspector in memory. */
export interface TreeExpansion {
  isExpanded(path: string): boolean;
  setExpanded(paths: readonly string[], expanded: boolean): void;
}

/** Open paths kept for the life of the view. */
export class MemoryExpansion implements TreeExpansion {
  private readonly open = new Set<string>();

  isExpanded(path: string): boolean {
    return this.open.has(path);
  }

  setExpanded(paths: readonly string[], expanded: boolean): void {
    for (const path of paths) {
      if (expanded) this.open.add(path);
      else this.open.delete(path);
    }
  }
}

export interface JsonTreeOptions {
  /** The tree's accessible name. */
  readonly label: string;
  readonly expansion: TreeExpansion;
  /** Shown instead of rows when the value has no keys. */
  readonly emptyText: string;
  /** `data-testid` of every row. */
  readonly rowTestId?: string | undefined;
  /** Strings shown whole and wrapped (rows grow) instead of a one-line preview with the text as its tooltip. */
  readonly wrapStrings?: boolean | undefined;
}

interface RowInfo {
  readonly path: string;
  readonly parentPath: string | undefined;
  readonly expandable: boolean;
}

/**
 * Scalars are coloured by type; changed top-level keys are highlighted. Rows are `.json-row[role=treeitem]` with
 * `data-key-path`; one tab stop (roving tabindex).
 */
export class JsonTree {
  readonly element: HTMLElement;
  private value: object = {};
  private changedKeys = new Set<string>();
  private rows: RowInfo[] = [];
  private focusedPath: string | undefined;

  constructor(private readonly options: JsonTreeOptions) {
    this.element = el('div', { className: `json-tree${options.wrapStrings ? ' wrap-strings' : ''}`, attrs: { role: 'tree', 'aria-label': options.label } });
    this.element.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.element.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.json-row[data-key-path]');
      const path = row?.dataset['keyPath'];
      if (path === undefined) return;
      if (this.rows.find((info) => info.path === path)?.expandable) this.toggle(path);
      else this.focusRow(path);
    });
    this.render();
  }

  /** Shows an object (or array); `changedKeys` (top level) are highlighted, and open one level when they hold objects. */
  setValue(value: object, changedKeys: readonly string[] = []): void {
    this.value = value;
    this.changedKeys = new Set(changedKeys);
    const record = value as Record<string, unknown>;
    const expandable = changedKeys.filter((key) => isExpandable(record[key]));
    if (expandable.length > 0) this.options.expansion.setExpanded(expandable, true);
    this.render();
  }

  /** Redraws with the current expansion (after it changed from outside, e.g. Collapse All). */
  render(): void {
    const hadFocus = this.element.contains(document.activeElement);
    const { entries, total } = entriesOf(this.value);
    this.rows = [];
    const fragment = document.createDocumentFragment();
    if (total === 0) fragment.append(el('p', { className: 'json-empty' }, this.options.emptyText));
    for (const [key, item] of entries) this.renderNode(fragment, key, item, key, undefined, 1);
    if (total > entries.length) fragment.append(moreRow(total - entries.length, 0));
    this.element.replaceChildren(fragment);
    if (this.focusedPath === undefined || !this.rows.some((row) => row.path === this.focusedPath)) this.focusedPath = this.rows[0]?.path;
    const focused = this.rowElement(this.focusedPath);
    if (focused !== undefined) {
      focused.tabIndex = 0;
      if (hadFocus) focused.focus();
    }
  }

  private renderNode(parent: Node, key: string, value: unknown, path: string, parentPath: string | undefined, level: number): void {
    const expandable = isExpandable(value);
    const expanded = expandable && this.options.expansion.isExpanded(path);
    const changed = level === 1 && this.changedKeys.has(key);
    this.rows.push({ path, parentPath, expandable });
    const row = el(
      'div',
      {
        className: `json-row${changed ? ' is-changed' : ''}`,
        testId: this.options.rowTestId,
        data: { keyPath: path, changed: changed ? 'true' : undefined },
        attrs: { role: 'treeitem', tabindex: '-1', 'aria-level': String(level), 'aria-expanded': expandable ? String(expanded) : undefined },
        title: path,
      },
      ...Array.from({ length: level - 1 }, () => el('span', { className: 'indent', attrs: { 'aria-hidden': 'true' } })),
      el('span', { className: 'twistie' }, expandable ? codicon(expanded ? 'chevron-down' : 'chevron-right') : null),
      el('span', { className: 'json-key' }, key),
      el('span', { className: 'json-colon' }, ': '),
      expandable && expanded ? el('span', { className: 'json-summary' }, previewOf(value, true)) : this.renderScalar(value),
      expandable && !Array.isArray(value) ? el('span', { className: 'json-count' }, countText(Object.keys(value).length)) : null,
      changed ? el('span', { className: 'json-changed' }, 'changed') : null,
    );
    parent.appendChild(row);
    if (!expanded) return;
    const { entries, total } = entriesOf(value as object);
    for (const [childKey, childValue] of entries) this.renderNode(parent, childKey, childValue, `${path}.${childKey}`, path, level + 1);
    if (total > entries.length) parent.appendChild(moreRow(total - entries.length, level));
  }

  private renderScalar(value: unknown): HTMLElement {
    if (!this.options.wrapStrings || typeof value !== 'string') return renderValue(value, MAX_STRING_PREVIEW);
    const shown = renderValue(value, MAX_WRAPPED_STRING);
    if (value.length > MAX_WRAPPED_STRING)
      shown.append(el('span', { className: 'json-cut' }, ` (${(value.length - MAX_WRAPPED_STRING).toLocaleString('en')} more characters)`));
    return shown;
  }

  private toggle(path: string, expanded = !this.options.expansion.isExpanded(path)): void {
    this.focusedPath = path;
    this.options.expansion.setExpanded([path], expanded);
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
    for (const row of this.element.querySelectorAll<HTMLElement>('.json-row[data-key-path]')) {
      if (row.dataset['keyPath'] === path) return row;
    }
    return undefined;
  }

  /** Tree keys: arrows move and open/close, Enter and Space toggle, Home/End jump. */
  private onKeyDown(event: KeyboardEvent): void {
    const path = (event.target as HTMLElement).closest<HTMLElement>('.json-row')?.dataset['keyPath'];
    const index = this.rows.findIndex((candidate) => candidate.path === path);
    const info = this.rows[index];
    if (path === undefined || info === undefined) return;
    const expanded = info.expandable && this.options.expansion.isExpanded(path);
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
    if (handled) {
      event.preventDefault();
      // The tree sits inside panels with their own keys (the Inspector's table); its keys stop here.
      event.stopPropagation();
    }
  }
}

/** The first MAX_CHILDREN entries of an object or array, and how many it has. */
function entriesOf(value: object): { readonly entries: [string, unknown][]; readonly total: number } {
  if (Array.isArray(value)) {
    return { entries: value.slice(0, MAX_CHILDREN).map((item, index) => [String(index), item]), total: value.length };
  }
  const keys = Object.keys(value);
  return { entries: keys.slice(0, MAX_CHILDREN).map((key) => [key, (value as Record<string, unknown>)[key]]), total: keys.length };
}

function countText(count: number): string {
  return `${count} ${count === 1 ? 'key' : 'keys'}`;
}

function moreRow(hidden: number, level: number): HTMLElement {
  return el(
    'div',
    { className: 'json-row json-more', attrs: { 'aria-hidden': 'true' } },
    ...Array.from({ length: level }, () => el('span', { className: 'indent' })),
    `… ${hidden.toLocaleString('en')} more`,
  );
}
