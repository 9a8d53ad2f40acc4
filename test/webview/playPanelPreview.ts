// Preview harness for the play panel webview: serves dist/webview on 127.0.0.1 in a page built like the extension's (strict CSP, nonces, theme variables, a fake acquireVsCodeApi) and drives it with playwright-core and Debian's Chromium.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FromPlayWebview, ToPlayWebview } from '../../src/protocol/playPanelMessages.js';
import { chartColours, defaultWebviewCss, themeCss, themeKind, type PreviewTheme } from './vscodeThemes.js';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const screenshotDir = path.join(projectRoot, 'test-output', 'webview');
const distWebview = path.join(projectRoot, 'dist', 'webview');

export const chromiumPath = '/usr/bin/chromium';
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface PreviewOptions {
  readonly theme?: PreviewTheme;
  readonly width?: number;
  readonly height?: number;
  /** What `getState()` returns at load (a panel restored after hide/show). */
  readonly savedState?: unknown;
}

/** One panel page: send it extension messages, read what it posted and saved. */
export interface PreviewPage {
  readonly page: Page;
  /** Posts a ToPlayWebview message to the webview window, as VS Code does. */
  send(...messages: ToPlayWebview[]): Promise<void>;
  /** Every message the webview posted, oldest first. */
  posted(): Promise<FromPlayWebview[]>;
  clearPosted(): Promise<void>;
  /** The last state passed to setState (undefined if never called). */
  savedState(): Promise<unknown>;
  /** CSP violations and page errors seen so far. */
  problems(): Promise<string[]>;
  /** Saves `test-output/webview/<name>.png`, returns its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** A page kept between panels: opening a new Chromium page costs far more than navigating an open one. */
interface PooledPage {
  readonly page: Page;
  readonly errors: string[];
}

/** A browser plus a tiny HTTP server; `close()` stops both. */
export class PlayPanelPreview {
  private readonly idle: PooledPage[] = [];
  private nextStateId = 0;

  private constructor(
    /** States handed to pages by id (`panel.html?state=<id>`), shared with the server. */
    private readonly savedStates: Map<string, unknown>,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<PlayPanelPreview> {
    for (const file of ['play.js', 'play.css', 'codicon.css', 'codicon.ttf']) {
      if (!existsSync(path.join(distWebview, file))) throw new Error(`dist/webview/${file} is missing: run npm run build first`);
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
      // Margin: auto-waiting actions and waitForFunction get 60 s instead of Playwright's 30 s; they wait for
      // conditions, so this only matters on a very slow machine, and a stuck page still fails.
      context.setDefaultTimeout(60_000);
      return new PlayPanelPreview(savedStates, browser, context, server, origin);
    } catch (error) {
      await browser?.close().catch(() => undefined);
      server.close();
      throw error;
    }
  }

  /** Opens the panel in a fresh document (its own getState/setState), reusing an idle browser page. */
  async open(options: PreviewOptions = {}): Promise<PreviewPage> {
    const pooled = this.idle.pop() ?? (await this.newPooledPage());
    const { page, errors } = pooled;
    errors.length = 0;
    await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
    const query = new URLSearchParams({ theme: options.theme ?? 'dark' });
    if (options.savedState !== undefined) {
      const id = String((this.nextStateId += 1));
      this.savedStates.set(id, options.savedState);
      query.set('state', id);
    }
    await page.goto(`${this.origin}/panel.html?${query.toString()}`, { waitUntil: 'load' });
    let released = false;
    return {
      page,
      async send(...messages) {
        // Deterministic: postMessage is asynchronous, so a sentinel is posted after the messages and awaited.
        // Window messages are dispatched in the order they were posted, each to every listener, so when the
        // sentinel arrives the panel has applied every message before it (it draws synchronously, and it
        // ignores messages without a string `type`, like the sentinel). No timer: a loaded machine can only
        // make this slower, never let the test look early.
        await page.evaluate(
          (data) =>
            new Promise<void>((resolve) => {
              // (No named function in here: tsx would wrap it in a helper the page does not have.)
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
      posted: () => page.evaluate(() => (window as unknown as { __posted: FromPlayWebview[] }).__posted.slice()),
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
      close: async () => {
        if (released) return;
        released = true;
        await page.goto('about:blank').catch(() => undefined);
        this.idle.push(pooled);
      },
    };
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async newPooledPage(): Promise<PooledPage> {
    const page = await this.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    return { page, errors };
  }
}

interface Served {
  readonly type: string;
  readonly body: string | Buffer;
}

function serve(url: URL, savedStates: ReadonlyMap<string, unknown>): Served | undefined {
  if (url.pathname === '/panel.html') {
    const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
    const stateId = url.searchParams.get('state');
    const saved = stateId === null ? undefined : savedStates.get(stateId);
    return { type: 'text/html; charset=utf-8', body: panelHtml(`${url.protocol}//${url.host}`, theme, saved) };
  }
  const file = /^\/dist\/webview\/([\w.-]+)$/.exec(url.pathname)?.[1];
  if (file !== undefined && existsSync(path.join(distWebview, file))) return { type: contentType(file), body: readFileSync(path.join(distWebview, file)) };
  if (url.pathname === '/favicon.ico') return { type: 'image/x-icon', body: '' };
  if (url.pathname === '/media/portrait.svg') return { type: 'image/svg+xml', body: portraitSvg };
  if (url.pathname === '/media/ambience.wav') return { type: 'audio/wav', body: silentWav(1.5) };
  return undefined;
}

function contentType(file: string): string {
  if (file.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  if (file.endsWith('.ttf')) return 'font/ttf';
  return 'application/octet-stream';
}

/** The page as the extension builds it: CSP with a nonce, codicon.css and play.css linked, play.js loaded with the nonce. */
function panelHtml(origin: string, theme: PreviewTheme, savedState: unknown): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `img-src ${origin} data:`,
    `media-src ${origin}`,
    `font-src ${origin}`,
    `style-src ${origin} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
${themeCss(theme)}
:root {
${chartColours(theme)}
}
${defaultWebviewCss}
</style>
<link rel="stylesheet" href="${origin}/dist/webview/codicon.css">
<link rel="stylesheet" href="${origin}/dist/webview/play.css">
<title>Narratoria</title>
</head>
<body class="${themeKind(theme)}" data-vscode-theme-kind="${themeKind(theme)}">
<div id="app"></div>
<script nonce="${nonce}">
(() => {
  window.__posted = [];
  window.__cspViolations = [];
  window.__savedState = undefined;
  document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push('CSP: ' + event.violatedDirective + ' ' + event.blockedURI));
  let acquired = false;
  let state = ${scriptJson(savedState ?? null)} ?? undefined;
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
<script nonce="${nonce}" src="${origin}/dist/webview/play.js"></script>
</body>
</html>`;
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A small procedural portrait, like character-portraits' SVG output. */
const portraitSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2d3a5a"/><stop offset="1" stop-color="#141a2b"/></linearGradient></defs>
<rect width="240" height="240" fill="url(#bg)"/>
<circle cx="188" cy="52" r="18" fill="#f4e3a1" opacity="0.85"/>
<path d="M40 240 C48 176 86 156 120 156 C154 156 192 176 200 240 Z" fill="#5b3f2a"/>
<path d="M92 170 L120 206 L148 170 Z" fill="#8a6a44"/>
<circle cx="120" cy="108" r="42" fill="#d9a57a"/>
<path d="M76 104 C76 62 164 62 164 104 C158 82 134 74 120 74 C106 74 82 82 76 104 Z" fill="#3a2516"/>
<circle cx="104" cy="110" r="4" fill="#2b1a10"/><circle cx="136" cy="110" r="4" fill="#2b1a10"/>
<path d="M106 132 Q120 140 134 132" stroke="#7a4a30" stroke-width="3" fill="none"/>
</svg>`;

/** A silent 8 kHz mono WAV of `seconds`. */
function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const buffer = Buffer.alloc(44 + samples);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write('WAVEfmt ', 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate, 28);
  buffer.writeUInt16LE(1, 32);
  buffer.writeUInt16LE(8, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(samples, 40);
  buffer.fill(128, 44);
  return buffer;
}
