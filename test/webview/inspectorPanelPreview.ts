// Preview harness for the Inspector webview: the extension's page shell (previewShell.ts) on 127.0.0.1 with VS Code theme variables and a fake acquireVsCodeApi, in headless Chromium.
import type { Server } from 'node:http';
import type { Browser, BrowserContext } from 'playwright-core';
import type { FromInspectorWebview, ToInspectorWebview } from '../../src/protocol/inspectorMessages.js';
import {
  closeServer,
  launchPreviewBrowser,
  previewPage,
  previewPageHtml,
  requireBundles,
  screenshotDir,
  startPreviewServer,
  waitForReady,
  watchPageErrors,
  type PreviewPage,
} from './previewShell.js';
import type { PreviewTheme } from './vscodeThemes.js';

/** An Inspector page; `send` resolves after the frame that draws the visible rows. `screenshot` takes a name or a .png path. */
export type InspectorPreviewPage = PreviewPage<ToInspectorWebview, FromInspectorWebview>;

export class InspectorPanelPreview {
  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly server: Server,
    private readonly origin: string,
  ) {}

  static async start(): Promise<InspectorPanelPreview> {
    requireBundles('inspector.js', 'inspector.css', 'codicon.css');
    const { server, origin } = await startPreviewServer((url, pageOrigin) => {
      if (url.pathname !== '/panel.html') return undefined;
      const theme = (url.searchParams.get('theme') ?? 'dark') as PreviewTheme;
      return {
        type: 'text/html; charset=utf-8',
        body: previewPageHtml(pageOrigin, theme, { title: 'Inspector', stylesheet: 'inspector.css', script: 'inspector.js', rootId: 'app', media: true }),
      };
    });
    try {
      const { browser, context } = await launchPreviewBrowser();
      return new InspectorPanelPreview(browser, context, server, origin);
    } catch (error) {
      await closeServer(server);
      throw error;
    }
  }

  async open(theme: PreviewTheme = 'dark', width = 1200, height = 720): Promise<InspectorPreviewPage> {
    const page = await this.context.newPage();
    const errors = watchPageErrors(page);
    await page.setViewportSize({ width, height });
    await page.goto(`${this.origin}/panel.html?theme=${theme}`, { waitUntil: 'load' });
    await waitForReady(page);
    return previewPage(page, errors, true);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await closeServer(this.server);
  }
}

export const inspectorScreenshotDir = screenshotDir;
