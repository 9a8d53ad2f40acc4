// Typed bridge to the extension for the Configure Skill form: posts FromConfigForm, receives ToConfigForm, keeps UI state; no rendering here.
import type { FromConfigForm, ToConfigForm } from '../../protocol/configFormMessages.js';

/** The part of VS Code's webview API the form uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The only place that calls `acquireVsCodeApi()` (allowed once per page). */
export class FormMessaging {
  constructor(private readonly api: VsCodeApi = acquireVsCodeApi()) {}

  post(message: FromConfigForm): void {
    this.api.postMessage(message);
  }

  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  /** Calls `listener` for each message with a string `type`; a listener error is reported to the console, never rethrown. */
  onMessage(listener: (message: ToConfigForm) => void): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (data === null || typeof data !== 'object' || typeof (data as { type?: unknown }).type !== 'string') return;
      try {
        listener(data as ToConfigForm);
      } catch (error) {
        console.error('Configure Skill form: a message could not be handled', error);
      }
    });
  }
}
