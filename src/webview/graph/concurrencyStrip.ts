// The concurrency strip under the waterfall: a step chart of how many tools ran over time, with the maximum marked.
import type { RunTimeline } from '../../runtime/graph/graphTypes.js';
import { el, svg } from '../common/dom.js';
import { percentOf } from './timeAxis.js';

/** Builds the strip for `timeline` (a label cell and a chart cell, to sit in the waterfall's grid). */
export function concurrencyStrip(timeline: RunTimeline): HTMLDivElement {
  const duration = Math.max(1, timeline.durationMs);
  const max = Math.max(1, timeline.maxConcurrency, ...timeline.concurrency.map((sample) => sample.running));
  // Chart units: x in ms, y in tools with headroom above the maximum; the SVG stretches to its box.
  const top = max * 1.15;
  const samples = [...timeline.concurrency].sort((a, b) => a.at - b.at);
  let line = `M0,${top}`;
  for (const sample of samples) {
    const at = Math.min(duration, Math.max(0, sample.at));
    line += ` H${at} V${top - sample.running}`;
  }
  line += ` H${duration}`;
  const area = `${line} V${top} H0 Z`;
  const chart = svg(
    'svg',
    { class: 'concurrency-chart', viewBox: `0 0 ${duration} ${top}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    svg('path', { class: 'concurrency-area', d: area }),
    ...maxSpans(samples, timeline.maxConcurrency, duration).map(([start, end]) =>
      svg('rect', { class: 'concurrency-max-span', x: start, y: top - max, width: Math.max(duration / 400, end - start), height: max }),
    ),
    svg('line', { class: 'concurrency-max-line', x1: 0, x2: duration, y1: top - max, y2: top - max }),
    svg('path', { class: 'concurrency-line', d: line }),
  );
  const maxLabel = el('span', { className: 'concurrency-max-label' }, `max ${timeline.maxConcurrency}`);
  maxLabel.style.bottom = `${(100 * max) / top}%`;
  // Beside the first peak, kept inside the strip.
  const first = maxSpans(samples, timeline.maxConcurrency, duration)[0];
  maxLabel.style.left = `${Math.min(85, first ? percentOf(first[0], duration) : 0)}%`;
  return el(
    'div',
    {
      className: 'timeline-row concurrency-row',
      attrs: { role: 'img', 'aria-label': `Concurrency over time: at most ${timeline.maxConcurrency} tools at once` },
    },
    el('div', { className: 'timeline-label concurrency-title' }, 'concurrency'),
    el('div', { className: 'timeline-track concurrency-track' }, chart, maxLabel),
  );
}

/** The time spans during which `max` tools ran. */
function maxSpans(samples: readonly { at: number; running: number }[], max: number, duration: number): [number, number][] {
  const spans: [number, number][] = [];
  samples.forEach((sample, position) => {
    if (sample.running !== max || max === 0) return;
    const end = samples[position + 1]?.at ?? duration;
    spans.push([sample.at, end]);
  });
  return spans;
}
