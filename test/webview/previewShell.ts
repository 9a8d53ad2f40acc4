// What every webview preview harness shares: Debian's Chromium, a 127.0.0.1 server for dist/webview, the extension's own page shell with VS Code's theme and a fake acquireVsCodeApi, and page helpers.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { webviewPageHtml, type WebviewPage } from '../../src/extension/webviewHtml.js';
import { chartColours, defaultWebviewCss, themeCss, themeKind, type PreviewTheme } from './vscodeThemes.js';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const screenshotDir = path.join(projectRoot, 'test-output', 'webview');
export const distWebview = path.join(projectRoot, 'dist', 'webview');
export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A response of the preview server. */
export interface Served {
  readonly type: string;
  readonly body: string | Buffer;
}

/** Answers a request the shared routes do not (`/panel.html`, media); undefined is a 404. */
export type PreviewRoute = (url: URL, origin: string) => Served | undefined;

/** Fails early, with the fix, when the bundles a preview loads were not built. */
export function requireBundles(...files: string[]): void {
  for (const file of files) {
    if (!existsSync(path.join(distWebview, file))) throw new Error(`dist/webview/${file} is missing: run npm run build first`);
  }
}

/**
 * Starts the server on 127.0.0.1: `route` first, then `/theme.css?theme=` (VS Code's variables for that theme, plus
 * `extraThemeCss`), `/dist/webview/*` and the favicon.
 */
export async function startPreviewServer(route: PreviewRoute, extraThemeCss = ''): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
    const served = route(url, `${url.protocol}//${url.host}`) ?? sharedRoute(url, extraThemeCss);
    if (served === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' }).end(served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Launches headless Chromium with a context whose auto-waits get 60 s (a margin for a loaded machine, not a time limit). */
export async function launchPreviewBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1, reducedMotion: 'reduce' });
    // Margin: auto-waiting actions and waitForFunction wait for conditions, so this only matters on a very slow machine.
    context.setDefaultTimeout(60_000);
    return { browser, context };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The panel's page exactly as the extension builds it (`webviewPageHtml`), plus what VS Code adds: theme variables, the
 * theme class, and the API. `bootstrap` is test code run after the API is defined and before the view's script.
 */
export function previewPageHtml(
  origin: string,
  theme: PreviewTheme,
  shell: Omit<WebviewPage, 'cspSource' | 'resource'>,
  savedState: unknown = undefined,
  bootstrap = '',
): string {
  const nonce = randomBytes(16).toString('base64');
  let page = webviewPageHtml({ ...shell, cspSource: origin, resource: (file) => `${origin}/dist/webview/${file}` }, nonce);
  // VS Code sets the theme variables on <html> itself; here they come from a stylesheet, so style-src needs no nonce.
  page = replaceOnce(page, '<meta name="viewport"', `<link rel="stylesheet" href="${origin}/theme.css?theme=${theme}">\n<meta name="viewport"`);
  page = replaceOnce(page, '<body>', `<body class="${themeKind(theme)}" data-vscode-theme-kind="${themeKind(theme)}">`);
  return replaceOnce(
    page,
    `<script nonce="${nonce}" src=`,
    `<script nonce="${nonce}">\n${fakeVsCodeApi(savedState)}\n${bootstrap}\n</script>\n<script nonce="${nonce}" src=`,
  );
}

/**
 * acquireVsCodeApi as VS Code gives it: once per page, `getState` starting from `savedState`. Posted messages collect in
 * `window.__posted`, the last saved state in `window.__savedState`, CSP violations in `window.__cspViolations`.
 */
function fakeVsCodeApi(savedState: unknown): string {
  return `(() => {
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
})();`;
}

/** A page driven through the fake API: messages in, what it posted and saved out. */
export interface PreviewPage<Incoming, Outgoing> {
  readonly page: Page;
  /** Posts messages to the page as VS Code does, and resolves once the view has applied them. */
  send(...messages: Incoming[]): Promise<void>;
  /** Every message the view posted, oldest first. */
  posted(): Promise<Outgoing[]>;
  clearPosted(): Promise<void>;
  /** The last state passed to setState (undefined if never called). */
  savedState(): Promise<unknown>;
  /** CSP violations, page errors and console errors seen so far. */
  problems(): Promise<string[]>;
  /** Saves `test-output/webview/<name>.png`, returns its path. */
  screenshot(name: string): Promise<string>;
}

/** Collects the page's errors and console errors from now on (the list is live). */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

/**
 * The PreviewPage operations over a page loaded with `previewPageHtml`; `errors` comes from `watchPageErrors`. With
 * `settleFrame`, `send` also waits for the next animation frame (views that draw what is on screen in one).
 */
export function previewPage<Incoming, Outgoing>(page: Page, errors: readonly string[], settleFrame = false): PreviewPage<Incoming, Outgoing> {
  type PreviewWindow = { __posted: Outgoing[]; __savedState: unknown; __cspViolations: string[] };
  return {
    page,
    async send(...messages) {
      // Deterministic: postMessage is asynchronous, so a sentinel is posted after the messages and awaited. Window
      // messages are dispatched in order, and a view applies each synchronously and ignores messages without a string
      // `type` (the sentinel), so when the sentinel arrives every message before it has been applied. No timer.
      await page.evaluate(
        ({ data, frame }) =>
          new Promise<void>((resolve) => {
            // (No named function in here: tsx would wrap it in a helper the page does not have.)
            const sentinel = { previewSync: Math.random() };
            const listening = new AbortController();
            window.addEventListener(
              'message',
              (event) => {
                if ((event.data as { previewSync?: number } | null)?.previewSync !== sentinel.previewSync) return;
                listening.abort();
                if (frame) requestAnimationFrame(() => resolve());
                else resolve();
              },
              { signal: listening.signal },
            );
            for (const message of data) window.postMessage(message, '*');
            window.postMessage(sentinel, '*');
          }),
        { data: messages as unknown[], frame: settleFrame },
      );
    },
    posted: () => page.evaluate(() => (window as unknown as PreviewWindow).__posted.slice()),
    clearPosted: () => page.evaluate(() => void (window as unknown as PreviewWindow).__posted.splice(0)),
    savedState: () => page.evaluate(() => (window as unknown as PreviewWindow).__savedState),
    async problems() {
      const violations = await page.evaluate(() => (window as unknown as PreviewWindow).__cspViolations.slice());
      return [...violations, ...errors];
    },
    screenshot: (name) => saveScreenshot(page, name),
  };
}

/** Saves `test-output/webview/<name>.png` (or `name` itself when it is a path ending in .png), returns its path. */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const file = name.endsWith('.png') ? name : path.join(screenshotDir, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide', fullPage });
  return file;
}

/** Waits for the view's `ready` handshake, posted while its script runs. */
export async function waitForReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'));
}

function sharedRoute(url: URL, extraThemeCss: string): Served | undefined {
  if (url.pathname === '/theme.css') {
    const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
    return { type: 'text/css; charset=utf-8', body: `${themeCss(theme)}\n:root {\n${chartColours(theme)}\n}\n${defaultWebviewCss}\n${extraThemeCss}` };
  }
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

function replaceOnce(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  if (at < 0) throw new Error(`The webview shell no longer contains ${JSON.stringify(search)}: update test/webview/previewShell.ts`);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}
