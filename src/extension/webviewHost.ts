// The host side of every Narratoria webview panel: its page, the typed message loop with the `ready` handshake, messages held until ready, and disposal of everything the panel owns. No feature logic.
import * as vscode from 'vscode';
import { DisposableStore } from '../runtime/common/disposable.js';
import { webviewPageHtml, type WebviewPage } from './webviewHtml.js';

/** What a panel's script sends: a union on `type`, with `ready` among its members. */
export interface ViewMessage {
  readonly type: string;
}

export interface WebviewHostOptions<FromView extends ViewMessage> {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  /** How the logs name the panel ("play panel", "inspector"). */
  readonly name: string;
  /** The page to load: everything but the CSP source and the resource URIs, which the host supplies. */
  readonly page: Omit<WebviewPage, 'cspSource' | 'resource'>;
  /**
   * Runs on each `ready` (a reloaded webview says it again), before the messages held back are sent;
   * typically it posts a snapshot.
   */
  readonly onReady: () => Promise<void> | void;
  /** Every other message, in the panel's exhaustive switch. */
  readonly onMessage: (message: Exclude<FromView, { readonly type: 'ready' }>) => Promise<void> | void;
  /**
   * What happens to a message posted before `ready`: `hold` keeps it for after (a live run's updates),
   * `drop` forgets it because the snapshot of `onReady` holds everything (default `hold`).
   */
  readonly beforeReady?: 'hold' | 'drop';
  /** Called when a message's handler throws (after it is logged), for a panel that tells the user too. */
  readonly onMessageError?: (error: unknown, message: FromView) => void;
  /** Whether a message is well formed; others are logged and ignored (default: an object with a string `type`). */
  readonly isMessage?: (message: unknown) => message is FromView;
}

/** One webview panel's host. The panel's own listeners go into {@link disposables}; disposing the host closes the panel once. */
export class WebviewHost<ToView, FromView extends ViewMessage> implements vscode.Disposable {
  /** Everything the panel owns; disposed with it. */
  readonly disposables = new DisposableStore();
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private ready = false;
  private held: ToView[] = [];

  /** Fires once, when the panel is closed or disposed. */
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly options: WebviewHostOptions<FromView>,
  ) {
    panel.iconPath = vscode.Uri.joinPath(options.extensionUri, 'dist', 'media', 'narratoria.svg');
    this.disposables.addAll(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
    );
    this.loadPage();
  }

  get webview(): vscode.Webview {
    return this.panel.webview;
  }

  get isDisposed(): boolean {
    return this.disposables.isDisposed;
  }

  /** Loads the page again (after the webview's options changed, for example). */
  loadPage(): void {
    const webview = this.panel.webview;
    webview.html = webviewPageHtml({
      ...this.options.page,
      cspSource: webview.cspSource,
      resource: (file) => webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'dist', 'webview', file)).toString(),
    });
  }

  /** Sends a message now; before `ready` it is held or dropped (see {@link WebviewHostOptions.beforeReady}); after disposal, dropped. */
  post(message: ToView): void {
    if (this.isDisposed) return;
    if (!this.ready) {
      if ((this.options.beforeReady ?? 'hold') === 'hold') this.held.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.held = [];
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.disposables.dispose();
    this.panel.dispose();
  }

  private async receive(message: unknown): Promise<void> {
    const isMessage = this.options.isMessage ?? hasType;
    if (!isMessage(message)) {
      this.options.log.warn(`${this.options.name}: ignored a malformed message from the view`);
      return;
    }
    try {
      if (message.type === 'ready') {
        this.ready = true;
        await this.options.onReady();
        const held = this.held;
        this.held = [];
        for (const queued of held) this.post(queued);
        return;
      }
      await this.options.onMessage(message as Exclude<FromView, { readonly type: 'ready' }>);
    } catch (error) {
      this.options.log.error(`${this.options.name}: ${message.type} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      this.options.onMessageError?.(error, message);
    }
  }
}

function hasType<FromView extends ViewMessage>(message: unknown): message is FromView {
  return message !== null && typeof message === 'object' && typeof (message as { type?: unknown }).type === 'string';
}
