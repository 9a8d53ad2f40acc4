// Typed bridge of the plan graph webview: posts FromGraphWebview, receives ToGraphWebview; and how it describes its own errors.
import type { FromGraphWebview, ToGraphWebview } from '../../protocol/graphPanelMessages.js';
import { WebviewMessaging } from '../common/webviewMessaging.js';

export class GraphMessaging extends WebviewMessaging<FromGraphWebview, ToGraphWebview> {
  constructor() {
    super('Narratoria plan graph');
  }
}

/** A one-line description of an error for `viewError`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const where = error.stack
      ?.split('\n')
      .find((line) => line.trim().startsWith('at '))
      ?.trim();
    return where ? `${error.name}: ${error.message} (${where})` : `${error.name}: ${error.message}`;
  }
  return String(error);
}
