// Preview harness for the play panel webview: the extension's own page shell (previewShell.ts: strict CSP, nonces, theme variables, a fake acquireVsCodeApi) on 127.0.0.1, with sample media, driven by playwright-core and Debian's Chromium.
import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FromPlayWebview, ToPlayWebview } from '../../src/protocol/playPanelMessages.js';
import {
  closeServer,
  launchPreviewBrowser,
  previewPage,
  previewPageHtml,
  requireBundles,
  startPreviewServer,
  watchPageErrors,
  type PreviewPage as ShellPage,
} from './previewShell.js';
import type { PreviewTheme } from './vscodeThemes.js';

export { projectRoot, screenshotDir } from './previewShell.js';

export interface PreviewOptions {
  readonly theme?: PreviewTheme;
  readonly width?: number;
  readonly height?: number;
  /** What `getState()` returns at load (a panel restored after hide/show). */
  readonly savedState?: unknown;
}

/** One panel page: send it extension messages, read what it posted and saved; `close` gives the page back to the pool. */
export interface PreviewPage extends ShellPage<ToPlayWebview, FromPlayWebview> {
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
    requireBundles('play.js', 'play.css', 'codicon.css', 'codicon.ttf');
    const savedStates = new Map<string, unknown>();
    const { server, origin } = await startPreviewServer((url, pageOrigin) => {
      if (url.pathname === '/panel.html') {
        const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
        const stateId = url.searchParams.get('state');
        const shell = { title: 'Narratoria Play', stylesheet: 'play.css', script: 'play.js', rootId: 'app', media: true };
        return { type: 'text/html; charset=utf-8', body: previewPageHtml(pageOrigin, theme, shell, stateId === null ? undefined : savedStates.get(stateId)) };
      }
      if (url.pathname === '/media/portrait.svg') return { type: 'image/svg+xml', body: portraitSvg };
      if (url.pathname === '/media/ambience.wav') return { type: 'audio/wav', body: silentWav(1.5) };
      return undefined;
    });
    try {
      const { browser, context } = await launchPreviewBrowser();
      return new PlayPanelPreview(savedStates, browser, context, server, origin);
    } catch (error) {
      await closeServer(server);
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
      ...previewPage<ToPlayWebview, FromPlayWebview>(page, errors),
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
    await closeServer(this.server);
  }

  private async newPooledPage(): Promise<PooledPage> {
    const page = await this.context.newPage();
    return { page, errors: watchPageErrors(page) };
  }
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
