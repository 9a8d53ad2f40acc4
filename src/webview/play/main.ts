// Play panel webview entry (browser only): restores the UI state, mounts the panel, then says `ready` to the extension.
import './play.css';
import { PlayMessaging } from './playMessaging.js';
import { PlayView } from './playView.js';
import { UiStateStore } from './uiStateStore.js';

const messaging = new PlayMessaging();
const store = new UiStateStore(messaging);
const view = new PlayView(store, (message) => messaging.post(message));
// The extension's HTML may provide a mount point; otherwise the panel fills the body.
(document.getElementById('app') ?? document.body).replaceChildren(view.element);
messaging.onMessage((message) => view.apply(message));
messaging.post({ type: 'ready' });
