// Preview harness for the plan graph webview: serves dist/webview on 127.0.0.1 in the extension's own page shell (webviewPageHtml: nonce-only scripts, no inline styles), with VS Code theme variables and a fake acquireVsCodeApi, driven by playwright-core and Debian's Chromium.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { webviewPageHtml } from '../../src/extension/webviewHtml.js';
import type { FromGraphWebview, ToGraphWebview } from '../../src/protocol/graphPanelMessages.js';
import { chartColours, defaultWebviewCss, themeCss, themeKind, type PreviewTheme } from './vscodeThemes.js';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const screenshotDir = path.join(projectRoot, 'test-output', 'webview');
const distWebview = path.join(projectRoot, 'dist', 'webview');
const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface GraphPreviewOptions {
  readonly theme?: PreviewTheme;
  readonly width?: number;
  readonly height?: number;
  /** What `getState()` returns at load (a panel revived after a reload). */
  readonly savedState?: unknown;
  /**
   * The shell's `blobImages` option (`img-src … blob:`), which the PNG export needs (the SVG is drawn into a canvas
   * through an image) and the graph panel sets. Default true; false shows what happens without it.
   */
  readonly blobImages?: boolean;
}

/** One graph page: send it extension messages, read what it posted and saved. */
export interface GraphPreviewPage {
  readonly page: Page;
  /** Posts ToGraphWebview messages to the page and resolves once the view has applied them. */
  send(...messages: ToGraphWebview[]): Promise<void>;
  posted(): Promise<FromGraphWebview[]>;
  clearPosted(): Promise<void>;
  /** The last state passed to setState (undefined if never called). */
  savedState(): Promise<unknown>;
  /** CSP violations, page errors and console errors seen so far. */
  problems(): Promise<string[]>;
  /** Saves `test-output/webview/<name>.png`, returns its path. */
  screenshot(name: string): Promise<string>;
}

/** A browser plus a tiny HTTP server; `close()` stops both. */
export class GraphPanelPreview {
  private nextStateId = 0;
  private readonly pages: Page[] = [];

  private constructor(
    private readonly savedStates: Map<string, unknown>,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<GraphPanelPreview> {
    for (const file of ['graph.js', 'graph.css', 'codicon.css', 'codicon.ttf']) {
      if (!existsSync(path.join(distWebview, file))) throw new Error(`dist/webview/${file} is missing: run node esbuild.mjs first`);
    }
    const savedStates = new Map<string, unknown>();
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
      const served = serve(url, savedStates);
      if (served === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' }).end(served.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
      const context = await browser.newContext({ deviceScaleFactor: 1, reducedMotion: 'reduce' });
      // Margin: auto-waiting actions and waitForFunction get 60 s instead of 30 s; they wait for conditions,
      // so this only matters on a very slow machine, and a stuck page still fails.
      context.setDefaultTimeout(60_000);
      return new GraphPanelPreview(savedStates, browser, context, server, origin);
    } catch (error) {
      await browser?.close().catch(() => undefined);
      server.close();
      throw error;
    }
  }

  /** Opens the view in a fresh page (its own getState/setState); pages opened earlier are closed. */
  async open(options: GraphPreviewOptions = {}): Promise<GraphPreviewPage> {
    for (const old of this.pages.splice(0)) await old.close().catch(() => undefined);
    const page = await this.context.newPage();
    this.pages.push(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    await page.setViewportSize({ width: options.width ?? 1200, height: options.height ?? 760 });
    const query = new URLSearchParams({ theme: options.theme ?? 'dark', blob: String(options.blobImages ?? true) });
    if (options.savedState !== undefined) {
      const id = String((this.nextStateId += 1));
      this.savedStates.set(id, options.savedState);
      query.set('state', id);
    }
    await page.goto(`${this.origin}/panel.html?${query.toString()}`, { waitUntil: 'load' });
    // Deterministic: the view posts `ready` synchronously while its script runs, before the load event.
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'));
    return {
      page,
      async send(...messages) {
        // Deterministic: a sentinel posted after the messages arrives after the view has handled each of them
        // (window messages are dispatched in order and the view applies a message synchronously).
        await page.evaluate(
          (data) =>
            new Promise<void>((resolve) => {
              const sentinel = { previewSync: Math.random() };
              const listening = new AbortController();
              window.addEventListener(
                'message',
                (event) => {
                  if ((event.data as { previewSync?: number } | null)?.previewSync !== sentinel.previewSync) return;
                  listening.abort();
                  resolve();
                },
                { signal: listening.signal },
              );
              for (const message of data) window.postMessage(message, '*');
              window.postMessage(sentinel, '*');
            }),
          messages as unknown[],
        );
      },
      posted: () => page.evaluate(() => (window as unknown as { __posted: FromGraphWebview[] }).__posted.slice()),
      clearPosted: () => page.evaluate(() => void (window as unknown as { __posted: unknown[] }).__posted.splice(0)),
      savedState: () => page.evaluate(() => (window as unknown as { __savedState: unknown }).__savedState),
      async problems() {
        const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.slice());
        return [...violations, ...errors];
      },
      async screenshot(name) {
        mkdirSync(screenshotDir, { recursive: true });
        const file = path.join(screenshotDir, `${name}.png`);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        return file;
      },
    };
  }

  /**
   * Parses `text` with DOMParser in a blank page of its own: a page under the view's CSP would report the
   * exported SVG's `<style>` and style attributes as violations (DOMParser documents inherit the policy).
   */
  async parseXml(text: string): Promise<{ error: string | null; root: string; titles: string[]; failed: number }> {
    const page = await this.context.newPage();
    try {
      return await page.evaluate((svg) => {
        const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
        return {
          error: parsed.querySelector('parsererror')?.textContent ?? null,
          root: parsed.documentElement.localName,
          titles: [...parsed.querySelectorAll('.node .title')].map((title) => title.textContent ?? ''),
          failed: parsed.querySelectorAll('.node.state-failed').length,
        };
      }, text);
    } finally {
      await page.close();
    }
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface Served {
  readonly type: string;
  readonly body: string | Buffer;
}

function serve(url: URL, savedStates: ReadonlyMap<string, unknown>): Served | undefined {
  const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
  if (url.pathname === '/panel.html') {
    const stateId = url.searchParams.get('state');
    const saved = stateId === null ? undefined : savedStates.get(stateId);
    return { type: 'text/html; charset=utf-8', body: panelHtml(`${url.protocol}//${url.host}`, theme, saved, url.searchParams.get('blob') !== 'false') };
  }
  // VS Code sets the theme variables on <html> itself; here they come from a stylesheet, so style-src needs no nonce.
  if (url.pathname === '/theme.css') return { type: 'text/css; charset=utf-8', body: `${themeCss(theme)}\n:root {\n${chartColours(theme)}\n}\n${defaultWebviewCss}` };
  const file = /^\/dist\/webview\/([\w.-]+)$/.exec(url.pathname)?.[1];
  if (file !== undefined && existsSync(path.join(distWebview, file))) return { type: contentType(file), body: readFileSync(path.join(distWebview, file)) };
  if (url.pathname === '/favicon.ico') return { type: 'image/x-icon', body: '' };
  return undefined;
}

function contentType(file: string): string {
  if (file.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  if (file.endsWith('.ttf')) return 'font/ttf';
  return 'application/octet-stream';
}

/** The extension's page (webviewPageHtml) plus what VS Code adds: theme variables, the theme class, and the API. */
function panelHtml(origin: string, theme: PreviewTheme, savedState: unknown, blobImages: boolean): string {
  const nonce = randomBytes(16).toString('base64');
  let page = webviewPageHtml(
    { cspSource: origin, title: 'Plan Graph', resource: (file) => `${origin}/dist/webview/${file}`, stylesheet: 'graph.css', script: 'graph.js', rootId: 'app', blobImages },
    nonce,
  );
  page = replaceOnce(page, '<meta name="viewport"', `<link rel="stylesheet" href="${origin}/theme.css?theme=${theme}">\n<meta name="viewport"`);
  page = replaceOnce(page, '<body>', `<body class="${themeKind(theme)}" data-vscode-theme-kind="${themeKind(theme)}">`);
  const api = `<script nonce="${nonce}">
(() => {
  window.__posted = [];
  window.__cspViolations = [];
  window.__savedState = undefined;
  document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push('CSP: ' + event.violatedDirective + ' ' + event.blockedURI));
  let acquired = false;
  let state = ${JSON.stringify(savedState ?? null).replace(/</g, '\\u003c')} ?? undefined;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))),
      getState: () => state,
      setState: (next) => { state = JSON.parse(JSON.stringify(next)); window.__savedState = state; return next; },
    });
  };
})();
</script>
`;
  return replaceOnce(page, `<script nonce="${nonce}" src=`, `${api}<script nonce="${nonce}" src=`);
}

function replaceOnce(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  if (at < 0) throw new Error(`The webview shell no longer contains ${JSON.stringify(search)}: update graphPanelPreview.ts`);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}
