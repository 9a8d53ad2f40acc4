// The session state as the play panel's side section: a shared JSON tree (changed top-level keys highlighted) with Collapse All. Read-only: never edits state.
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { JsonTree } from '../common/jsonTree.js';
import { button } from './playElements.js';
import { PanelSection } from './panelSection.js';
import type { UiStateStore } from './uiStateStore.js';
import { plural } from '../../runtime/common/humanText.js';

/** The state tree: rows are `role="treeitem"` with `data-key-path` ("dice.lastRoll"); the open paths are kept in the UI state. */
export class StateInspector {
  private readonly section: PanelSection;
  private readonly tree: JsonTree;
  private state: Record<string, unknown> = {};
  private changedKeys: readonly string[] = [];

  constructor(private readonly store: UiStateStore) {
    this.section = new PanelSection({ id: 'state', title: 'State', testId: PlayPanelTestId.stateInspector, store });
    this.tree = new JsonTree({
      label: 'Session state',
      expansion: store,
      rowTestId: PlayPanelTestId.stateRow,
      emptyText: 'The session state is empty. Skills add to it with state patches.',
    });
    this.section.body.append(this.tree.element);
    this.section.setActions(
      button({
        label: 'Collapse All',
        icon: 'collapse-all',
        variant: 'icon',
        onClick: () => {
          this.store.setExpanded(this.store.state.expandedStatePaths, false);
          this.tree.render();
        },
      }),
    );
    this.describe();
  }

  get element(): HTMLElement {
    return this.section.element;
  }

  /** New state; `changedKeys` (top level) are highlighted and expanded one level. */
  setState(state: Record<string, unknown>, changedKeys: readonly string[]): void {
    this.state = state;
    this.changedKeys = changedKeys;
    this.tree.setValue(state, changedKeys);
    this.describe();
  }

  private describe(): void {
    const keys = Object.keys(this.state);
    const changed = keys.filter((key) => this.changedKeys.includes(key)).length;
    this.section.setDescription(keys.length === 0 ? '' : `${plural(keys.length, 'key')}${changed > 0 ? ` · ${changed} changed` : ''}`);
  }
}
