// Preview harness for the Inspector webview: the extension's page shell (webviewPageHtml, nonce-only scripts) served on 127.0.0.1 with VS Code theme variables and a fake acquireVsCodeApi, in headless Chromium.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webviewPageHtml } from '../../src/extension/webviewHtml.js';
import type { FromInspectorWebview, ToInspectorWebview } from '../../src/protocol/inspectorMessages.js';
import { chartColours, defaultWebviewCss, themeCss, themeKind, type PreviewTheme } from './vscodeThemes.js';
import { projectRoot, screenshotDir } from './graphPanelPreview.js';

const distWebview = path.join(projectRoot, 'dist', 'webview');

export interface InspectorPreviewPage {
  readonly page: Page;
  /** Posts messages to the page; resolves once the view has applied them. */
  send(...messages: ToInspectorWebview[]): Promise<void>;
  posted(): Promise<FromInspectorWebview[]>;
  /** The last state passed to setState. */
  savedState(): Promise<unknown>;
  /** CSP violations, page errors and console errors seen so far. */
  problems(): Promise<string[]>;
  screenshot(file: string): Promise<string>;
}

export class InspectorPanelPreview {
  private constructor(private readonly browser: Browser, private readonly server: Server, private readonly origin: string) {}

  static async start(): Promise<InspectorPanelPreview> {
    for (const file of ['inspector.js', 'inspector.css', 'codicon.css']) {
      if (!existsSync(path.join(distWebview, file))) throw new Error(`dist/webview/${file} is missing: run node esbuild.mjs first`);
    }
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const served = serve(url, `http://${request.headers.host ?? '127.0.0.1'}`);
      if (!served) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' }).end(served.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] }).catch((error: unknown) => {
      server.close();
      throw error;
    });
    return new InspectorPanelPreview(browser, server, origin);
  }

  async open(theme: PreviewTheme = 'dark', width = 1200, height = 720): Promise<InspectorPreviewPage> {
    const page = await this.browser.newPage({ deviceScaleFactor: 1, reducedMotion: 'reduce' });
    page.setDefaultTimeout(60_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    await page.setViewportSize({ width, height });
    await page.goto(`${this.origin}/panel.html?theme=${theme}`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === 'ready'));
    return {
      page,
      async send(...messages) {
        // Window messages are dispatched in order and the view applies each synchronously: a sentinel after them marks the end.
        await page.evaluate(
          (data) =>
            new Promise<void>((resolve) => {
              const sentinel = Math.random();
              const listening = new AbortController();
              window.addEventListener(
                'message',
                (event) => {
                  if ((event.data as { previewSync?: number } | null)?.previewSync !== sentinel) return;
                  listening.abort();
                  requestAnimationFrame(() => resolve());
                },
                { signal: listening.signal },
              );
              for (const message of data) window.postMessage(message, '*');
              window.postMessage({ previewSync: sentinel }, '*');
            }),
          messages as unknown[],
        );
      },
      posted: () => page.evaluate(() => (window as unknown as { __posted: FromInspectorWebview[] }).__posted.slice()),
      savedState: () => page.evaluate(() => (window as unknown as { __savedState: unknown }).__savedState),
      async problems() {
        return [...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.slice())), ...errors];
      },
      async screenshot(file) {
        mkdirSync(path.dirname(file), { recursive: true });
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        return file;
      },
    };
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const inspectorScreenshotDir = screenshotDir;

function serve(url: URL, origin: string): { type: string; body: string | Buffer } | undefined {
  const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
  if (url.pathname === '/panel.html') return { type: 'text/html; charset=utf-8', body: panelHtml(origin, theme) };
  if (url.pathname === '/theme.css') return { type: 'text/css; charset=utf-8', body: `${themeCss(theme)}\n:root {\n${chartColours(theme)}\n}\n${defaultWebviewCss}` };
  const file = /^\/dist\/webview\/([\w.-]+)$/.exec(url.pathname)?.[1];
  if (file !== undefined && existsSync(path.join(distWebview, file))) {
    const type = file.endsWith('.js') ? 'text/javascript; charset=utf-8' : file.endsWith('.css') ? 'text/css; charset=utf-8' : file.endsWith('.ttf') ? 'font/ttf' : 'application/octet-stream';
    return { type, body: readFileSync(path.join(distWebview, file)) };
  }
  if (url.pathname === '/favicon.ico') return { type: 'image/x-icon', body: '' };
  return undefined;
}

/** The extension's page plus what VS Code adds: theme variables, the theme class, and the API. */
function panelHtml(origin: string, theme: PreviewTheme): string {
  const nonce = randomBytes(16).toString('base64');
  let page = webviewPageHtml({ cspSource: origin, title: 'Inspector', resource: (file) => `${origin}/dist/webview/${file}`, stylesheet: 'inspector.css', script: 'inspector.js', rootId: 'app', media: true }, nonce);
  page = page.replace('<meta name="viewport"', `<link rel="stylesheet" href="${origin}/theme.css?theme=${theme}">\n<meta name="viewport"`);
  page = page.replace('<body>', `<body class="${themeKind(theme)}" data-vscode-theme-kind="${themeKind(theme)}">`);
  const api = `<script nonce="${nonce}">
window.__posted = [];
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push('CSP: ' + event.violatedDirective + ' ' + event.blockedURI));
window.acquireVsCodeApi = () => Object.freeze({ postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))), getState: () => undefined, setState: (next) => { window.__savedState = JSON.parse(JSON.stringify(next)); return next; } });
</script>
`;
  return page.replace(`<script nonce="${nonce}" src=`, `${api}<script nonce="${nonce}" src=`);
}
