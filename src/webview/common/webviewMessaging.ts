// The typed bridge every webview uses (docs/design-rules.md#typed-webview-messages): posts its own messages, receives the extension's, keeps UI state; the one caller of acquireVsCodeApi.

/** The part of VS Code's webview API the webviews use. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Wraps `acquireVsCodeApi()` (which may be called once per page): `Outgoing` goes to the extension, `Incoming` comes from it. */
export class WebviewMessaging<Outgoing extends { readonly type: string }, Incoming extends { readonly type: string }> {
  /** `view` names the webview in console reports ("Narratoria play panel"). */
  constructor(
    private readonly view: string,
    private readonly api: VsCodeApi = acquireVsCodeApi(),
  ) {}

  /** Sends a message to the extension. */
  post(message: Outgoing): void {
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
   * Calls `listener` for each message from the extension. Messages without a string `type` are ignored (other code in
   * the page may post to the window too); a listener's error goes to `onError` (else the console), never rethrown, so
   * one bad message cannot stop the view. Returns a function that stops listening.
   */
  onMessage(listener: (message: Incoming) => void, onError?: (error: unknown) => void): () => void {
    const handler = (event: MessageEvent<unknown>): void => {
      const data = event.data;
      if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
      try {
        listener(data as Incoming);
      } catch (error) {
        if (onError) onError(error);
        else console.error(`${this.view}: could not apply a message`, error);
      }
    };
    window.addEventListener('message', handler);
    return () => window.removeEventListener('message', handler);
  }
}
