// Typed bridge of the Explore Story report webview: posts FromExploreView, receives ToExploreView.
import type { FromExploreView, ToExploreView } from '../../protocol/exploreMessages.js';
import { WebviewMessaging } from '../common/webviewMessaging.js';

export class ExploreMessaging extends WebviewMessaging<FromExploreView, ToExploreView> {
  constructor() {
    super('Narratoria explore report');
  }
}
