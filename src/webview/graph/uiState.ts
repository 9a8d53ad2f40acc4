// The view's UI state kept across reloads with getState/setState: pan, zoom, selection, focus mode, search, timeline; validated on load.
import type { GraphMessaging } from './graphMessaging.js';

/** Pan (screen pixels of the graph's origin) and zoom. */
export interface ViewportState {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

export interface GraphUiState {
  /** The graph the viewport belongs to (a reload keeps it only for the same file). */
  readonly title: string | undefined;
  readonly viewport: ViewportState | undefined;
  readonly selected: string | undefined;
  readonly focusMode: boolean;
  readonly search: string;
  readonly timelineCollapsed: boolean;
}

const EMPTY: GraphUiState = { title: undefined, viewport: undefined, selected: undefined, focusMode: false, search: '', timelineCollapsed: false };

/** Reads and writes the UI state; writes are coalesced to one per animation frame (panning calls it often). */
export class UiStateStore {
  private current: GraphUiState;
  private scheduled = false;

  constructor(private readonly messaging: GraphMessaging) {
    this.current = parseUiState(messaging.getState());
  }

  get state(): GraphUiState {
    return this.current;
  }

  update(change: Partial<GraphUiState>): void {
    this.current = { ...this.current, ...change };
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.messaging.setState(this.current);
    });
  }
}

/** A saved state from an older or damaged page becomes the empty state, field by field. */
export function parseUiState(value: unknown): GraphUiState {
  if (typeof value !== 'object' || value === null) return EMPTY;
  const saved = value as Record<string, unknown>;
  return {
    title: typeof saved['title'] === 'string' ? saved['title'] : undefined,
    viewport: parseViewport(saved['viewport']),
    selected: typeof saved['selected'] === 'string' ? saved['selected'] : undefined,
    focusMode: saved['focusMode'] === true,
    search: typeof saved['search'] === 'string' ? saved['search'] : '',
    timelineCollapsed: saved['timelineCollapsed'] === true,
  };
}

function parseViewport(value: unknown): ViewportState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { x, y, zoom } = value as Record<string, unknown>;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof zoom !== 'number') return undefined;
  if (!Number.isFinite(x) || !Number.isFinite(y) || !(zoom > 0)) return undefined;
  return { x, y, zoom };
}
