// Inspector webview entry (browser only): mounts the view into #app with its saved filters, reports its errors, then says `ready`.
import './inspector.css';
import { InspectorMessaging } from './inspectorMessaging.js';
import { InspectorView } from './inspectorView.js';

const messaging = new InspectorMessaging();
const view = new InspectorView(
  (message) => messaging.post(message),
  messaging.getState(),
  (state) => messaging.setState(state),
);
(document.getElementById('app') ?? document.body).replaceChildren(view.element);
messaging.onMessage(
  (message) => view.apply(message),
  (error) => view.reportError(error),
);
window.addEventListener('error', (event) => view.reportError(event.error ?? event.message));
window.addEventListener('unhandledrejection', (event) => view.reportError(event.reason));
messaging.post({ type: 'ready' });
