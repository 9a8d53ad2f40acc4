// Typed bridge to the extension for the play panel: posts FromPlayWebview, receives ToPlayWebview; no DOM rendering here.
import type { FromPlayWebview, ToPlayWebview } from '../../protocol/playPanelMessages.js';
import { WebviewMessaging } from '../common/webviewMessaging.js';

export class PlayMessaging extends WebviewMessaging<FromPlayWebview, ToPlayWebview> {
  constructor() {
    super('Narratoria play panel');
  }
}
