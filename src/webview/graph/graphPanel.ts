// The plan graph view: header and toolbar, banners, the canvas and the timeline; applies every ToGraphWebview message (exhaustive switch).
import { assertNever, type FromGraphWebview, type GraphView, type RunTimeline, type ToGraphWebview } from '../../protocol/graphPanelMessages.js';
import { el } from '../common/dom.js';
import { GraphCanvas, type Placement } from './graphCanvas.js';
import { exportPng, exportSvg } from './graphExport.js';
import { GraphSearch } from './graphSearch.js';
import { LayoutProgress } from './layoutProgress.js';
import { LiveRun } from './liveRun.js';
import type { MinimapColours } from './minimap.js';
import { describeError } from './graphMessaging.js';
import { ProblemsStrip, StaleBanner } from './graphNotices.js';
import type { NodeRun } from '../common/stateIcons.js';
import { minimapColours } from './themeColours.js';
import { TimelineView } from './timelineView.js';
import { Toolbar } from './toolbar.js';
import { Tooltip } from './tooltip.js';
import type { UiStateStore } from './uiState.js';
import { plural } from '../../runtime/common/humanText.js';
import { GRAPH_WORDS, nodeCount, type GraphWords } from '../../runtime/graph/graphWords.js';
import { GraphLegend } from './graphLegend.js';
import { BeatPlay } from './beatPlay.js';

export class GraphPanel {
  readonly element: HTMLDivElement;
  private readonly toolbar: Toolbar;
  private readonly stale = new StaleBanner();
  private readonly problems = new ProblemsStrip();
  private readonly progress = new LayoutProgress();
  private readonly tooltip = new Tooltip();
  private readonly canvas: GraphCanvas;
  private readonly timeline: TimelineView;
  private readonly liveRegion = el('div', { className: 'visually-hidden', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
  private readonly search = new GraphSearch();
  private readonly legend = new GraphLegend();
  private words: GraphWords = GRAPH_WORDS.plan;
  private readonly live = new LiveRun((text) => this.announce(text));
  private readonly play = new BeatPlay((text) => this.announce(text));
  private graph: GraphView | undefined;
  private version = -Infinity;
  private restoring = true;
  private focusMode: boolean;
  private timelineCollapsed: boolean;
  private minimapColours: MinimapColours | undefined;

  constructor(
    private readonly store: UiStateStore,
    private readonly post: (message: FromGraphWebview) => void,
  ) {
    const saved = store.state;
    this.focusMode = saved.focusMode;
    this.timelineCollapsed = saved.timelineCollapsed;
    this.toolbar = new Toolbar({
      search: (query) => this.runSearch(query, true),
      nextMatch: (backward) => this.jumpToMatch(backward),
      clearSearch: () => this.clearSearch(true),
      toggleFocus: () => this.setFocusMode(!this.focusMode),
      zoomIn: () => this.canvas.viewport.zoomBy(1.25),
      zoomOut: () => this.canvas.viewport.zoomBy(0.8),
      zoomReset: () => this.canvas.viewport.zoomBy(1 / this.canvas.viewport.current.zoom),
      fit: () => this.canvas.fit(),
      exportSvg: () => this.guard(() => this.exportSvg()),
      exportPng: () => void this.exportPng(),
      toggleTimeline: () => this.setTimelineCollapsed(!this.timelineCollapsed),
    });
    this.canvas = new GraphCanvas(this.tooltip, {
      reveal: (toolId) => this.post({ type: 'reveal', toolId }),
      selectionChanged: (toolId) => this.selectionChanged(toolId),
      viewChanged: (viewport) => {
        this.toolbar.setZoom(viewport.zoom);
        if (this.graph) this.store.update({ viewport, title: this.graph.title });
      },
      escape: () => this.escape(),
      toggleFocus: () => this.setFocusMode(!this.focusMode),
      findRequested: () => this.toolbar.searchInput.focus(),
      runOf: (toolId) => this.runOf(toolId),
      minimapColours: () => (this.minimapColours ??= minimapColours(this.element)),
    });
    this.canvas.element.append(this.progress.element);
    this.timeline = new TimelineView(this.tooltip, {
      select: (toolId) => {
        this.canvas.select(toolId, true);
        this.selectionChanged(toolId);
      },
      toggleCollapsed: () => this.setTimelineCollapsed(!this.timelineCollapsed),
    });
    this.element = el(
      'div',
      { className: 'graph-root' },
      this.toolbar.element,
      this.stale.element,
      this.problems.element,
      el('main', { className: 'graph-main' }, this.canvas.element),
      this.legend.element,
      this.timeline.element,
      this.liveRegion,
      this.tooltip.element,
    );
    this.toolbar.setSearch(saved.search);
    this.toolbar.setFocusMode(this.focusMode);
    this.timeline.setCollapsed(this.timelineCollapsed);
    this.canvas.message.show('waiting', 'Waiting for the plan…');
    // VS Code swaps the theme class on <body>: colours read by script (minimap) are read again.
    new MutationObserver(() => {
      this.minimapColours = undefined;
      this.canvas.minimap.invalidate();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** Applies one message from the extension. */
  apply(message: ToGraphWebview): void {
    switch (message.type) {
      case 'graph':
        this.showGraph(message.graph, message.fit);
        break;
      case 'layoutStarted':
        this.progress.show(message.title, message.nodeCount, message.levels, this.canvas.scene === undefined);
        if (!this.canvas.scene) {
          this.canvas.message.hide();
          this.toolbar.setHeading(message.title, undefined, `${nodeCount(this.words, message.nodeCount)} · ${plural(message.levels.length, 'level')}`);
        }
        break;
      case 'stale':
        this.setStale(message.reason);
        break;
      case 'runStates':
        if (message.reset) this.setTimeline(undefined);
        if (this.live.apply(this.canvas.scene, message.states, message.reset, message.runLabel)) this.canvas.minimap.invalidate();
        this.toolbar.setRunSummary(this.runSummary());
        break;
      case 'beatStates':
        if (this.play.apply(this.canvas.scene, message.overlay)) this.canvas.minimap.invalidate();
        this.legend.showPlay(this.play.shown);
        this.toolbar.setRunSummary(this.runSummary());
        break;
      case 'runFinished':
        this.setTimeline(message.timeline);
        break;
      case 'select':
        this.canvas.select(message.toolId, true);
        this.timeline.setSelected(this.canvas.selected);
        this.store.update({ selected: this.canvas.selected });
        break;
      case 'error':
        this.showError(message.message);
        break;
      default:
        assertNever(message);
    }
  }

  /** Reports an error of the view itself to the extension's log. */
  reportError(error: unknown): void {
    this.post({ type: 'viewError', message: describeError(error) });
  }

  private showGraph(graph: GraphView, fit: boolean): void {
    if (graph.version < this.version) return;
    this.version = graph.version;
    // The last render's time, for tests and profiling (older entries are dropped so they cannot pile up).
    performance.clearMeasures('narratoria-graph:render');
    performance.mark('narratoria-graph:render-start');
    const saved = this.store.state;
    let placement: Placement = fit || !this.canvas.scene ? 'fit' : 'keep';
    if (this.restoring && saved.viewport && saved.title === graph.title) placement = saved.viewport;
    this.graph = graph;
    this.setWords(graph.source === 'beats' ? GRAPH_WORDS.beats : GRAPH_WORDS.plan);
    this.progress.hide();
    // The timeline first: it takes room from the canvas, and the fit below must see the final size.
    if (graph.timeline) this.setTimeline(graph.timeline);
    const scene = this.canvas.show(graph.layout, placement, this.words);
    this.live.restore(scene);
    this.play.restore(scene);
    this.applyCriticalPath();
    if (this.restoring) {
      this.restoring = false;
      // The editor's cursor (a select message before the first graph) wins over the saved selection.
      if (saved.selected !== undefined && this.canvas.selected === undefined) this.canvas.select(saved.selected, false);
    }
    this.runSearch(this.search.active ? this.search.query : saved.search, false);
    this.canvas.setFocusMode(this.focusMode);
    const layout = graph.layout;
    const edges = layout.edges.length;
    this.toolbar.setHeading(
      graph.title,
      graph.source,
      `${nodeCount(this.words, layout.nodes.length)} · ${plural(edges, 'edge')} · ${plural(layout.levels.length, 'level')}`,
    );
    this.toolbar.setGraphAvailable(layout.nodes.length > 0);
    this.toolbar.setRunSummary(this.runSummary());
    this.problems.set(graph.problems);
    this.setStale(graph.staleReason);
    if (layout.nodes.length === 0) this.canvas.message.show('empty', this.words.empty.title, this.words.empty.detail);
    this.timeline.setSelected(this.canvas.selected);
    performance.measure('narratoria-graph:render', 'narratoria-graph:render-start');
  }

  /** The words of what the graph shows: search box, problems, legend (the beat graph has one). */
  private setWords(words: GraphWords): void {
    if (words === this.words && this.graph !== undefined && this.legend.shown === (words === GRAPH_WORDS.beats)) return;
    this.words = words;
    this.toolbar.setSearchWords(words.searchPlaceholder, words.searchLabel);
    this.problems.setLabel(words.problemsLabel);
    this.legend.show(words === GRAPH_WORDS.beats);
  }

  private showError(message: string): void {
    this.graph = undefined;
    this.canvas.clear();
    this.progress.hide();
    this.stale.set(undefined);
    this.problems.set([]);
    this.toolbar.setGraphAvailable(false);
    this.canvas.message.show('error', 'The graph could not be drawn', message);
  }

  private setStale(reason: string | undefined): void {
    this.stale.set(reason);
    this.canvas.element.classList.toggle('stale', reason !== undefined);
  }

  private setTimeline(timeline: RunTimeline | undefined): void {
    this.timeline.set(timeline);
    this.toolbar.setTimeline(timeline !== undefined, !this.timelineCollapsed);
    this.timeline.setSelected(this.canvas.selected);
    this.applyCriticalPath();
  }

  private applyCriticalPath(): void {
    this.canvas.highlight?.setCriticalPath(this.timeline.current?.criticalPath ?? []);
  }

  private setTimelineCollapsed(collapsed: boolean): void {
    this.timelineCollapsed = collapsed;
    this.timeline.setCollapsed(collapsed);
    this.toolbar.setTimeline(this.timeline.current !== undefined, !collapsed);
    this.store.update({ timelineCollapsed: collapsed });
  }

  private selectionChanged(toolId: string | undefined): void {
    this.timeline.setSelected(toolId);
    this.store.update({ selected: toolId });
  }

  private setFocusMode(on: boolean): void {
    this.focusMode = on;
    this.canvas.setFocusMode(on);
    this.toolbar.setFocusMode(on);
    this.store.update({ focusMode: on });
    if (on && this.canvas.selected === undefined)
      this.announce(`Focus mode: select a ${this.words.node} to see only what it depends on and what depends on it.`);
  }

  private runSearch(query: string, typed: boolean): void {
    const ids = this.search.run(this.canvas.scene?.index, query);
    this.canvas.highlight?.setMatches(ids, this.search.active);
    this.toolbar.setSearch(query);
    this.toolbar.setSearchCount(this.search.countText(), this.search.active && ids.size === 0);
    if (typed) this.store.update({ search: query });
  }

  private jumpToMatch(backward: boolean): void {
    const match = this.search.step(backward, this.canvas.selected);
    this.toolbar.setSearchCount(this.search.countText(), this.search.active && this.search.matches.length === 0);
    if (!match) return;
    this.canvas.select(match.id, true);
    this.selectionChanged(match.id);
  }

  private clearSearch(returnFocus: boolean): void {
    this.runSearch('', true);
    if (returnFocus) this.canvas.element.focus({ preventScroll: true });
  }

  /** Escape on the graph: leaves search and focus mode; with neither, clears the selection. */
  private escape(): void {
    if (!this.search.active && !this.focusMode) {
      this.canvas.select(undefined, false);
      this.selectionChanged(undefined);
      return;
    }
    if (this.search.active) this.clearSearch(false);
    if (this.focusMode) this.setFocusMode(false);
  }

  /** The toolbar's summary: a live run's states, else a play session's beats. */
  private runSummary(): { text: string; className: string }[] {
    const live = this.live.summary(this.canvas.scene);
    return live.length > 0 ? live : this.play.summary();
  }

  private runOf(toolId: string): NodeRun | undefined {
    return this.canvas.scene?.nodes.get(toolId)?.currentRun;
  }

  private exportSource() {
    const graph = this.graph;
    if (!graph) throw new Error('There is no graph to export.');
    return {
      layout: graph.layout,
      title: graph.title,
      runOf: (id: string) => this.runOf(id),
      isCritical: (id: string) => this.canvas.highlight?.isCritical(id) ?? false,
      themeScope: this.element,
      nodeNoun: this.words.node,
      play: this.play.forExport(),
    };
  }

  private exportSvg(): void {
    this.post({ type: 'exportSvg', svg: exportSvg(this.exportSource()) });
  }

  private async exportPng(): Promise<void> {
    try {
      const source = this.exportSource();
      const base64 = await exportPng(exportSvg(source), source.layout.width, source.layout.height);
      this.post({ type: 'exportPng', base64 });
    } catch (error) {
      this.announce(`PNG export failed: ${error instanceof Error ? error.message : String(error)}`);
      this.reportError(error);
    }
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.reportError(error);
    }
  }

  private announce(text: string): void {
    this.liveRegion.textContent = text;
  }
}
