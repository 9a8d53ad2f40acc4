// The run timeline under the graph: a waterfall (a row per tool in start order, attempts and backoff waits as bars), a time axis and the concurrency strip.
import { NODE_METRICS, textColumns } from '../../runtime/graph/nodeMetrics.js';
import type { RunTimeline, TimelineRow } from '../../runtime/graph/graphTypes.js';
import { codicon, el } from '../common/dom.js';
import { iconButton } from './graphButtons.js';
import { concurrencyStrip } from './concurrencyStrip.js';
import { STATE_ICONS } from '../common/stateIcons.js';
import { axisRow, gridLines, percentOf } from './timeAxis.js';
import type { Tooltip } from './tooltip.js';
import { segmentTooltip } from './tooltipContent.js';
import { formatDuration, plural } from '../../runtime/common/humanText.js';

export interface TimelineActions {
  readonly select: (toolId: string) => void;
  readonly toggleCollapsed: () => void;
}

export class TimelineView {
  readonly element: HTMLElement;
  private readonly body = el('div', { className: 'timeline-body', attrs: { role: 'list', 'aria-label': 'Tools in start order' } });
  private readonly summary = el('span', { className: 'timeline-summary' });
  private readonly collapseButton: HTMLButtonElement;
  private timeline: RunTimeline | undefined;
  private rows: TimelineRow[] = [];
  private readonly rowElements = new Map<string, HTMLElement>();
  private selected: string | undefined;

  constructor(
    private readonly tooltip: Tooltip,
    private readonly actions: TimelineActions,
  ) {
    this.collapseButton = iconButton({
      icon: 'chevron-down',
      label: 'Collapse the timeline',
      className: 'timeline-collapse',
      onClick: actions.toggleCollapsed,
    });
    this.element = el(
      'section',
      { className: 'timeline-section', attrs: { 'aria-label': 'Run timeline' } },
      el('div', { className: 'timeline-header' }, this.collapseButton, el('h2', { className: 'timeline-title' }, 'Timeline'), this.summary),
      this.body,
    );
    this.element.hidden = true;
    this.body.addEventListener('click', (event) => {
      const row = (event.target as Element).closest<HTMLElement>('.timeline-row[data-tool-id]');
      if (row?.dataset['toolId']) actions.select(row.dataset['toolId']);
    });
    this.body.addEventListener('pointermove', (event) => this.hover(event));
    this.body.addEventListener('pointerleave', () => this.tooltip.hide());
  }

  get current(): RunTimeline | undefined {
    return this.timeline;
  }

  /** Draws `timeline` (undefined hides the section). */
  set(timeline: RunTimeline | undefined): void {
    this.timeline = timeline;
    this.rowElements.clear();
    this.element.hidden = timeline === undefined;
    if (!timeline) {
      this.body.replaceChildren();
      return;
    }
    this.rows = [...timeline.rows].sort((a, b) => a.start - b.start);
    // Room for the longest toolId in the 12 px monospace labels, plus the state icon and the critical mark.
    const longest = Math.max(8, ...this.rows.map((row) => textColumns(row.toolId)));
    this.element.style.setProperty('--timeline-label-width', `${Math.min(360, Math.ceil(longest * 12 * NODE_METRICS.advance) + 60)}px`);
    const critical = timeline.criticalPath.length > 0 ? ` · critical path: ${timeline.criticalPath.join(' → ')}` : '';
    this.summary.textContent = `${formatDuration(timeline.durationMs)} · ${plural(this.rows.length, 'tool')} · at most ${timeline.maxConcurrency} at once${critical}`;
    this.summary.title = this.summary.textContent;
    const fragment = document.createDocumentFragment();
    fragment.append(axisRow(timeline.durationMs));
    this.rows.forEach((row, index) => fragment.append(this.row(row, index, timeline.durationMs)));
    fragment.append(concurrencyStrip(timeline), gridLines(timeline.durationMs));
    this.body.replaceChildren(fragment);
    this.setSelected(this.selected);
  }

  setCollapsed(collapsed: boolean): void {
    this.element.classList.toggle('collapsed', collapsed);
    this.body.hidden = collapsed;
    const label = collapsed ? 'Expand the timeline' : 'Collapse the timeline';
    this.collapseButton.setAttribute('aria-label', label);
    this.collapseButton.title = label;
    this.collapseButton.setAttribute('aria-expanded', String(!collapsed));
    this.collapseButton.querySelector('.codicon')!.className = `codicon codicon-${collapsed ? 'chevron-right' : 'chevron-down'}`;
  }

  /** Highlights the row of the selected tool and scrolls it into view. */
  setSelected(toolId: string | undefined): void {
    if (this.selected !== undefined) this.rowElements.get(this.selected)?.classList.remove('selected');
    this.selected = toolId;
    const row = toolId === undefined ? undefined : this.rowElements.get(toolId);
    if (!row) return;
    row.classList.add('selected');
    if (!this.body.hidden && !this.element.hidden) row.scrollIntoView({ block: 'nearest' });
  }

  private row(row: TimelineRow, index: number, duration: number): HTMLElement {
    const track = el('div', { className: 'timeline-track' });
    row.segments.forEach((segment, position) => {
      const kind = segment.kind === 'backoff' ? 'backoff' : segment.ok === false ? 'failed' : segment.ok === true ? 'ok' : 'unknown';
      const bar = el('div', { className: `bar bar-${kind}`, attrs: { 'data-row': index, 'data-segment': position } });
      const left = percentOf(segment.start, duration);
      bar.style.left = `${left}%`;
      bar.style.width = `${Math.max(0, percentOf(segment.end, duration) - left)}%`;
      track.append(bar);
    });
    const icon = STATE_ICONS[row.state];
    const label = el(
      'button',
      { className: 'timeline-label', title: `${row.toolId}: ${formatDuration(row.end - row.start)}`, attrs: { type: 'button' } },
      el('span', { className: `codicon codicon-${icon.name} state-text-${row.state}`, attrs: { 'aria-hidden': 'true' } }),
      el('span', { className: 'timeline-tool' }, row.toolId),
      row.critical ? codicon('flame', 'critical-mark') : null,
    );
    const element = el(
      'div',
      {
        className: `timeline-row tool-row${row.critical ? ' critical' : ''}`,
        attrs: {
          role: 'listitem',
          'data-tool-id': row.toolId,
          'aria-label': `${row.toolId}: ${row.state}, from ${formatDuration(row.start)} to ${formatDuration(row.end)}${row.critical ? ', on the critical path' : ''}`,
        },
      },
      label,
      track,
    );
    this.rowElements.set(row.toolId, element);
    return element;
  }

  private hover(event: PointerEvent): void {
    const bar = (event.target as Element).closest<HTMLElement>('.bar');
    const row = this.rows[Number(bar?.dataset['row'])];
    const segment = row?.segments[Number(bar?.dataset['segment'])];
    if (!bar || !row || !segment) {
      this.tooltip.hide();
      return;
    }
    const key = `bar:${bar.dataset['row']}:${bar.dataset['segment']}`;
    this.tooltip.showSoon(key, event.clientX, event.clientY, () => segmentTooltip(row, segment));
  }
}
