// The HTML shell of every Narratoria webview: strict CSP (nonce-only scripts, no inline styles), codicons, one bundle.
import { randomBytes } from 'node:crypto';

/** What a panel's page loads. Resource URIs come from `webview.asWebviewUri` (under dist/webview). */
export interface WebviewPage {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly title: string;
  /** Turns a file name under dist/webview into its webview URI. */
  readonly resource: (file: string) => string;
  /** The panel's own stylesheet and script, e.g. `play.css` and `play.js`. */
  readonly stylesheet: string;
  readonly script: string;
  /** Id of the element the script mounts into. */
  readonly rootId: string;
  /** Also allow images, audio and video from the allowed roots (the play panel's assets). */
  readonly media?: boolean;
  /** Also allow images from `blob:` URLs the page makes itself (the graph's PNG export draws its SVG that way). */
  readonly blobImages?: boolean;
}

/** A fresh nonce for one page load. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** The page: `default-src 'none'`, styles and fonts from the webview's resources only, the script by nonce. */
export function webviewPageHtml(page: WebviewPage, nonce: string = newNonce()): string {
  const source = page.cspSource;
  const csp = [
    "default-src 'none'",
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source}${page.media ? ' data:' : ''}${page.blobImages ? ' blob:' : ''}`,
    ...(page.media ? [`media-src ${source}`] : []),
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${page.resource('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${page.resource(page.stylesheet)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<div id="${escapeHtml(page.rootId)}"></div>
<script nonce="${nonce}" src="${page.resource(page.script)}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
