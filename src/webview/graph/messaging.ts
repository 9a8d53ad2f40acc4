// Typed bridge to the extension (DESIGN.md convention 4): posts FromGraphWebview, receives ToGraphWebview; the only caller of acquireVsCodeApi.
import type { FromGraphWebview, ToGraphWebview } from '../../protocol/graphPanelMessages.js';

/** The part of VS Code's webview API the graph view uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Wraps `acquireVsCodeApi()` (which may be called once per page). */
export class GraphMessaging {
  private readonly api: VsCodeApi;

  constructor(api: VsCodeApi = acquireVsCodeApi()) {
    this.api = api;
  }

  /** Sends a message to the extension. */
  post(message: FromGraphWebview): void {
    this.api.postMessage(message);
  }

  /** The UI state saved with `setState` (undefined on a fresh panel). */
  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  /**
   * Calls `listener` for each message from the extension. Messages without a string `type` are ignored (other
   * code may post to the window too); a listener's error is handed to `onError` so one bad message cannot stop the view.
   */
  onMessage(listener: (message: ToGraphWebview) => void, onError: (error: unknown) => void): () => void {
    const handler = (event: MessageEvent<unknown>): void => {
      const data = event.data;
      if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
      try {
        listener(data as ToGraphWebview);
      } catch (error) {
        onError(error);
      }
    };
    window.addEventListener('message', handler);
    return () => window.removeEventListener('message', handler);
  }
}

/** A one-line description of an error for `viewError`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const where = error.stack?.split('\n').find((line) => line.trim().startsWith('at '))?.trim();
    return where ? `${error.name}: ${error.message} (${where})` : `${error.name}: ${error.message}`;
  }
  return String(error);
}
