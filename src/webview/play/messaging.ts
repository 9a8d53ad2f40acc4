// Typed bridge to the extension (DESIGN.md convention 4): posts FromPlayWebview, receives ToPlayWebview; no DOM rendering here.
import type { FromPlayWebview, ToPlayWebview } from '../../protocol/playPanelMessages.js';

/** The part of VS Code's webview API the panel uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The only place that talks to `acquireVsCodeApi()` (which may be called once per page). */
export class PlayMessaging {
  private readonly api: VsCodeApi;

  constructor(api: VsCodeApi = acquireVsCodeApi()) {
    this.api = api;
  }

  /** Sends a message to the extension. */
  post(message: FromPlayWebview): void {
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
   * code in the page may post to the window too); the listener's own errors are reported, not rethrown, so one bad
   * message cannot stop the panel.
   */
  onMessage(listener: (message: ToPlayWebview) => void): () => void {
    const handler = (event: MessageEvent<unknown>): void => {
      const data = event.data;
      if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
      try {
        listener(data as ToPlayWebview);
      } catch (error) {
        console.error('Narratoria play panel: could not apply a message', error);
      }
    };
    window.addEventListener('message', handler);
    return () => window.removeEventListener('message', handler);
  }
}
