// Explore Story report webview entry (browser only): mounts the report view into #app, reports its errors, then says `ready`.
import './explore.css';
import { ExploreMessaging } from './exploreMessaging.js';
import { ExploreView } from './exploreView.js';

const messaging = new ExploreMessaging();
const view = new ExploreView((message) => messaging.post(message));
(document.getElementById('app') ?? document.body).replaceChildren(view.element);
messaging.onMessage(
  (message) => view.apply(message),
  (error) => messaging.post({ type: 'viewError', message: String(error) }),
);
window.addEventListener('error', (event) => messaging.post({ type: 'viewError', message: String(event.error ?? event.message) }));
messaging.post({ type: 'ready' });
