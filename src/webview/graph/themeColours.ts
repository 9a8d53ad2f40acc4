// Resolves the view's --graph-* colours (mapped from --vscode-* in theme.css) to concrete rgb() values, for the export and the minimap.
import { SVG_THEMES } from '../../runtime/graph/graphPalette.js';
import type { MinimapColours } from './minimap.js';

/** Every colour variable the standalone SVG knows. */
export const GRAPH_COLOUR_VARIABLES = Object.keys(SVG_THEMES.light) as readonly (keyof typeof SVG_THEMES.light)[];

/**
 * The computed colour of each `--graph-*` variable as seen inside `scope`: one probe element per variable, all
 * added, then all read, so the style is computed once. `color-mix()` and `var()` come back as plain rgb()/rgba().
 */
export function resolveGraphColours(scope: Element, names: readonly string[] = GRAPH_COLOUR_VARIABLES): Record<string, string> {
  const holder = document.createElement('div');
  holder.className = 'colour-probes';
  const probes = names.map((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    holder.appendChild(probe);
    return probe;
  });
  scope.appendChild(holder);
  const colours: Record<string, string> = {};
  names.forEach((name, index) => {
    colours[name] = toHex(getComputedStyle(probes[index]!).color);
  });
  holder.remove();
  return colours;
}

let pixel: CanvasRenderingContext2D | null | undefined;

/**
 * A computed colour as #rrggbb or #rrggbbaa, which every SVG viewer reads. Chrome computes color-mix() as
 * `color(srgb …)`, so anything that is not rgb()/rgba() is painted on a 1×1 canvas and read back.
 */
export function toHex(colour: string): string {
  let rgba = parseRgb(colour);
  if (!rgba) {
    pixel ??= Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d', { willReadFrequently: true });
    if (!pixel) return colour;
    pixel.clearRect(0, 0, 1, 1);
    pixel.fillStyle = colour;
    pixel.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
    rgba = [r!, g!, b!, a! / 255];
  }
  const hex = (value: number) =>
    Math.round(Math.min(255, Math.max(0, value)))
      .toString(16)
      .padStart(2, '0');
  const [r, g, b, a] = rgba;
  return `#${hex(r)}${hex(g)}${hex(b)}${a < 1 ? hex(a * 255) : ''}`;
}

/** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" → [r, g, b, a]; undefined for anything else. */
export function parseRgb(colour: string): [number, number, number, number] | undefined {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(colour.trim());
  if (!match) return undefined;
  const alpha = match[4] === undefined ? 1 : match[4].endsWith('%') ? Number(match[4].slice(0, -1)) / 100 : Number(match[4]);
  return [Number(match[1]), Number(match[2]), Number(match[3]), alpha];
}

/** The minimap's colours, resolved once (the panel reads them again after a theme change). */
export function minimapColours(scope: Element): MinimapColours {
  const colours = resolveGraphColours(scope);
  return {
    background: colours['--graph-background'] ?? 'transparent',
    border: colours['--graph-border'] ?? 'gray',
    skill: (slot) => colours[`--graph-skill-${slot}`] ?? 'gray',
    state: (run) => colours[`--graph-state-${run.state}`] ?? 'gray',
  };
}
