// Export: the standalone SVG of runtime/graph/graphSvg.ts in the current theme's colours, and a 2× PNG of it drawn through a canvas.
import { renderGraphSvg } from '../../runtime/graph/graphSvg.js';
import type { PlanGraphLayout, PlanGraphNode } from '../../runtime/graph/graphTypes.js';
import type { SvgPlay } from '../../runtime/graph/beatPlaySvg.js';
import type { NodeRun } from '../common/stateIcons.js';
import { resolveGraphColours } from './themeColours.js';

/** The PNG is drawn at twice the graph's size, less when that would pass the canvas limits of browsers. */
const PNG_SCALE = 2;
const MAX_PNG_SIDE = 16_384;
const MAX_PNG_PIXELS = 120_000_000;

export interface ExportSource {
  readonly layout: PlanGraphLayout;
  readonly title: string;
  /** Live state of a node (the export shows what the view shows). */
  readonly runOf: (id: string) => NodeRun | undefined;
  readonly isCritical: (id: string) => boolean;
  /** Where the --graph-* variables are defined (the view's root). */
  readonly themeScope: Element;
  /** What a node is, for the level bands ("tool", "beat"). */
  readonly nodeNoun?: string;
  /** The play session a beat graph shows, drawn in the export as in the view. */
  readonly play?: SvgPlay | undefined;
}

/** The SVG document of what the view shows, with the theme's colours resolved to hex values. */
export function exportSvg(source: ExportSource): string {
  const theme = resolveGraphColours(source.themeScope);
  return renderGraphSvg(viewLayout(source), {
    theme,
    title: source.title,
    ...(source.nodeNoun !== undefined ? { nodeNoun: source.nodeNoun } : {}),
    ...(source.play ? { play: source.play } : {}),
  });
}

/**
 * The PNG (base64, no `data:` prefix) of `svgText`. The SVG is loaded as an image from a `blob:` URL, which
 * needs `img-src blob:` in the page's CSP; a blocked or broken image rejects with a readable reason.
 */
export async function exportPng(svgText: string, width: number, height: number): Promise<string> {
  const scale = Math.min(
    PNG_SCALE,
    MAX_PNG_SIDE / Math.max(1, width),
    MAX_PNG_SIDE / Math.max(1, height),
    Math.sqrt(MAX_PNG_PIXELS / Math.max(1, width * height)),
  );
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.decoding = 'async';
    const loaded = new Promise<void>((resolve, reject) => {
      image.addEventListener('load', () => resolve(), { once: true });
      image.addEventListener(
        'error',
        () => reject(new Error("the SVG could not be loaded as an image (the view's Content-Security-Policy needs img-src blob:)")),
        { once: true },
      );
    });
    image.src = url;
    await loaded;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas is available');
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const dataUrl = canvas.toDataURL('image/png');
    const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
    if (!base64) throw new Error('the canvas produced no PNG (the graph may be too large)');
    return base64;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The layout with the view's live states and critical marks in place of the recorded ones. */
function viewLayout(source: ExportSource): PlanGraphLayout {
  const nodes = source.layout.nodes.map((node): PlanGraphNode => {
    const { state: _state, durationMs: _duration, retryCount: _retries, critical: _critical, ...plain } = node;
    const run = source.runOf(node.id);
    return {
      ...plain,
      ...(run ? { state: run.state } : {}),
      ...(run?.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
      ...(run?.retryCount !== undefined ? { retryCount: run.retryCount } : {}),
      ...(source.isCritical(node.id) ? { critical: true } : {}),
    };
  });
  return { ...source.layout, nodes };
}
