// Keeps the panel's UI-only state (history, draft, expanded paths, dismissed notices, open graphs) with getState/setState; no rendering.
import type { PlayWebviewUiState } from '../../protocol/playPanelMessages.js';

/** The protocol's UI state plus panel-local extras (older saved states simply lack them). */
export interface PanelUiState extends PlayWebviewUiState {
  /** Side sections the author collapsed, per layout ("tools@wide", "state@narrow"). */
  readonly collapsedSections: readonly string[];
  /** Attempts whose inline plan graph is shown, as "turn/attempt/planId" (see ToolPanel). */
  readonly openGraphs: readonly string[];
}

/** Where the state is kept (PlayMessaging in the panel, a plain object in tests). */
export interface UiStateStorage {
  getState(): unknown;
  setState(state: unknown): void;
}

export const maxHistoryEntries = 50;
const maxDismissedNotices = 200;
const maxExpandedPaths = 500;
const maxOpenGraphs = 100;

/** Reads a saved state defensively: anything malformed falls back to the defaults, field by field. */
export function sanitizeUiState(saved: unknown): PanelUiState {
  const record = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
  return {
    inputHistory: stringList(record['inputHistory']).slice(-maxHistoryEntries),
    draft: typeof record['draft'] === 'string' ? record['draft'] : '',
    expandedStatePaths: stringList(record['expandedStatePaths']).slice(-maxExpandedPaths),
    dismissedNotices: stringList(record['dismissedNotices']).slice(-maxDismissedNotices),
    collapsedSections: stringList(record['collapsedSections']),
    openGraphs: stringList(record['openGraphs']).slice(-maxOpenGraphs),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The UI state with typed updates; every change is saved at once (setState is cheap and synchronous). */
export class UiStateStore {
  private current: PanelUiState;

  constructor(private readonly storage: UiStateStorage) {
    this.current = sanitizeUiState(storage.getState());
  }

  get state(): PanelUiState {
    return this.current;
  }

  /** Adds an input to the history: at most 50 entries, never the same entry twice in a row. */
  pushHistory(input: string): void {
    const history = this.current.inputHistory;
    if (input.trim() === '' || history[history.length - 1] === input) return;
    this.save({ inputHistory: [...history, input].slice(-maxHistoryEntries) });
  }

  setDraft(draft: string): void {
    if (draft !== this.current.draft) this.save({ draft });
  }

  isExpanded(path: string): boolean {
    return this.current.expandedStatePaths.includes(path);
  }

  setExpanded(paths: readonly string[], expanded: boolean): void {
    const set = new Set(this.current.expandedStatePaths);
    for (const path of paths) {
      if (expanded) set.add(path);
      else set.delete(path);
    }
    this.save({ expandedStatePaths: [...set].slice(-maxExpandedPaths) });
  }

  isDismissed(noticeKey: string): boolean {
    return this.current.dismissedNotices.includes(noticeKey);
  }

  dismiss(noticeKey: string): void {
    if (this.isDismissed(noticeKey)) return;
    this.save({ dismissedNotices: [...this.current.dismissedNotices, noticeKey].slice(-maxDismissedNotices) });
  }

  isSectionCollapsed(section: string): boolean {
    return this.current.collapsedSections.includes(section);
  }

  setSectionCollapsed(section: string, collapsed: boolean): void {
    const others = this.current.collapsedSections.filter((name) => name !== section);
    this.save({ collapsedSections: collapsed ? [...others, section] : others });
  }

  isGraphOpen(attemptKey: string): boolean {
    return this.current.openGraphs.includes(attemptKey);
  }

  /** Remembers whether an attempt's graph is shown (the most recent 100 open ones are kept). */
  setGraphOpen(attemptKey: string, open: boolean): void {
    if (open === this.isGraphOpen(attemptKey)) return;
    const others = this.current.openGraphs.filter((key) => key !== attemptKey);
    this.save({ openGraphs: open ? [...others, attemptKey].slice(-maxOpenGraphs) : others });
  }

  private save(change: Partial<PanelUiState>): void {
    this.current = { ...this.current, ...change };
    this.storage.setState(this.current);
  }
}
