// Typed bridge of the Inspector webview: posts FromInspectorWebview, receives ToInspectorWebview.
import type { FromInspectorWebview, ToInspectorWebview } from '../../protocol/inspectorMessages.js';
import { WebviewMessaging } from '../common/webviewMessaging.js';

export class InspectorMessaging extends WebviewMessaging<FromInspectorWebview, ToInspectorWebview> {
  constructor() {
    super('Narratoria inspector');
  }
}
