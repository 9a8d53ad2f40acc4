// Plan graph webview entry (browser only): restores the UI state, mounts the view into #app, reports its errors, then says `ready`.
import './graph.css';
import { GraphMessaging } from './graphMessaging.js';
import { GraphPanel } from './graphPanel.js';
import { UiStateStore } from './uiState.js';

const messaging = new GraphMessaging();
const panel = new GraphPanel(new UiStateStore(messaging), (message) => messaging.post(message));
(document.getElementById('app') ?? document.body).replaceChildren(panel.element);
messaging.onMessage(
  (message) => panel.apply(message),
  (error) => panel.reportError(error),
);
window.addEventListener('error', (event) => panel.reportError(event.error ?? event.message));
window.addEventListener('unhandledrejection', (event) => panel.reportError(event.reason));
messaging.post({ type: 'ready' });
