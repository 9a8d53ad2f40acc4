// Typed bridge of the Inspector webview: posts FromInspectorWebview, receives ToInspectorWebview; the only caller of acquireVsCodeApi here.
import type { FromInspectorWebview, ToInspectorWebview } from '../../protocol/inspectorMessages.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

export class InspectorMessaging {
  private readonly api: VsCodeApi = acquireVsCodeApi();

  post(message: FromInspectorWebview): void {
    this.api.postMessage(message);
  }

  /** The UI state saved with `setState` (undefined on a fresh panel). */
  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  /** Calls `listener` for each message with a string `type`; a listener's error goes to `onError`. */
  onMessage(listener: (message: ToInspectorWebview) => void, onError: (error: unknown) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
      try {
        listener(data as ToInspectorWebview);
      } catch (error) {
        onError(error);
      }
    });
  }
}
