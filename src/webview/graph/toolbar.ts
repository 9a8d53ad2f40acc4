// The header: title, what the graph shows, run summary, and the toolbar (search with a match count, focus, zoom, fit, export, timeline).
import { codicon, el } from '../common/dom.js';
import { iconButton, setPressed } from './graphButtons.js';

export interface ToolbarActions {
  readonly search: (query: string) => void;
  /** Enter (forward) and Shift+Enter (backward) in the search box. */
  readonly nextMatch: (backward: boolean) => void;
  /** Escape in the search box. */
  readonly clearSearch: () => void;
  readonly toggleFocus: () => void;
  readonly zoomIn: () => void;
  readonly zoomOut: () => void;
  readonly zoomReset: () => void;
  readonly fit: () => void;
  readonly exportSvg: () => void;
  readonly exportPng: () => void;
  readonly toggleTimeline: () => void;
}

const SOURCE_LABELS = { plan: 'plan', runRecord: 'run record', executionResult: 'execution result', beats: 'plot beats' } as const;

export class Toolbar {
  readonly element: HTMLElement;
  readonly searchInput: HTMLInputElement;
  private readonly title = el('h1', { className: 'graph-title' });
  private readonly source = el('span', { className: 'graph-chip source-chip' });
  private readonly stats = el('span', { className: 'graph-stats' });
  private readonly runSummary = el('span', { className: 'run-summary', attrs: { 'aria-label': 'Run progress' } });
  private readonly searchCount = el('span', { className: 'search-count', attrs: { 'aria-live': 'polite' } });
  private readonly focusButton: HTMLButtonElement;
  private readonly zoomLabel: HTMLButtonElement;
  private readonly timelineButton: HTMLButtonElement;
  private readonly graphButtons: HTMLButtonElement[];

  constructor(actions: ToolbarActions) {
    this.searchInput = el('input', {
      className: 'search-input',
      attrs: { type: 'search', placeholder: 'Find tool or skill', 'aria-label': 'Find a tool by toolId or skill', spellcheck: 'false', autocomplete: 'off' },
    });
    this.searchInput.addEventListener('input', () => actions.search(this.searchInput.value));
    this.searchInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        actions.nextMatch(event.shiftKey);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        actions.clearSearch();
      }
    });
    this.focusButton = iconButton({
      icon: 'target',
      label: 'Focus: show only the selected tool, its dependencies and its dependents (F)',
      text: 'Focus',
      toggle: true,
      className: 'focus-button',
      onClick: actions.toggleFocus,
    });
    this.zoomLabel = el(
      'button',
      { className: 'graph-button zoom-label', title: 'Zoom to 100%', attrs: { type: 'button', 'aria-label': 'Zoom to 100%' } },
      '100%',
    );
    this.zoomLabel.addEventListener('click', () => actions.zoomReset());
    this.timelineButton = iconButton({
      icon: 'graph-line',
      label: 'Show or hide the run timeline',
      text: 'Timeline',
      toggle: true,
      className: 'timeline-button',
      onClick: actions.toggleTimeline,
    });
    this.timelineButton.hidden = true;
    const zoomOut = iconButton({ icon: 'zoom-out', label: 'Zoom out (−)', className: 'zoom-out', onClick: actions.zoomOut });
    const zoomIn = iconButton({ icon: 'zoom-in', label: 'Zoom in (+)', className: 'zoom-in', onClick: actions.zoomIn });
    const fit = iconButton({ icon: 'screen-full', label: 'Fit the graph to the view (0)', text: 'Fit', className: 'fit-button', onClick: actions.fit });
    const exportSvg = iconButton({ icon: 'file-code', label: 'Export the graph as SVG', text: 'SVG', className: 'export-svg', onClick: actions.exportSvg });
    const exportPng = iconButton({ icon: 'file-media', label: 'Export the graph as PNG', text: 'PNG', className: 'export-png', onClick: actions.exportPng });
    this.graphButtons = [this.focusButton, zoomOut, this.zoomLabel, zoomIn, fit, exportSvg, exportPng];
    const searchBox = el('div', { className: 'search-box' }, codicon('search'), this.searchInput, this.searchCount);
    this.element = el(
      'header',
      { className: 'graph-header' },
      el('div', { className: 'graph-heading' }, codicon('type-hierarchy-sub'), this.title, this.source, this.stats, this.runSummary),
      el(
        'div',
        { className: 'graph-tools', attrs: { role: 'toolbar', 'aria-label': 'Graph tools' } },
        searchBox,
        this.focusButton,
        el('span', { className: 'toolbar-group' }, zoomOut, this.zoomLabel, zoomIn),
        fit,
        el('span', { className: 'toolbar-group' }, exportSvg, exportPng),
        this.timelineButton,
      ),
    );
    this.source.hidden = true;
    this.setGraphAvailable(false);
  }

  setHeading(title: string, source: keyof typeof SOURCE_LABELS | undefined, stats: string): void {
    this.title.textContent = title;
    this.title.title = title;
    this.source.textContent = source ? SOURCE_LABELS[source] : '';
    this.source.hidden = !source;
    this.stats.textContent = stats;
  }

  /** The search box's words for what the graph holds (tools or beats). */
  setSearchWords(placeholder: string, label: string): void {
    this.searchInput.placeholder = placeholder;
    this.searchInput.setAttribute('aria-label', label);
  }

  setRunSummary(parts: readonly { readonly text: string; readonly className: string }[]): void {
    this.runSummary.replaceChildren(...parts.map((part) => el('span', { className: `summary-part ${part.className}` }, part.text)));
    this.runSummary.hidden = parts.length === 0;
  }

  /** Disables the buttons that need a drawn graph. */
  setGraphAvailable(available: boolean): void {
    for (const button of this.graphButtons) button.disabled = !available;
    this.searchInput.disabled = !available;
  }

  setZoom(zoom: number): void {
    this.zoomLabel.textContent = `${Math.round(zoom * 100)}%`;
  }

  setFocusMode(on: boolean): void {
    setPressed(this.focusButton, on);
  }

  setSearchCount(text: string, noMatches: boolean): void {
    this.searchCount.textContent = text;
    this.searchCount.classList.toggle('no-matches', noMatches);
    this.searchInput.classList.toggle('no-matches', noMatches);
  }

  setSearch(query: string): void {
    if (this.searchInput.value !== query) this.searchInput.value = query;
  }

  /** The Timeline toggle appears once a run timeline exists. */
  setTimeline(available: boolean, open: boolean): void {
    this.timelineButton.hidden = !available;
    setPressed(this.timelineButton, available && open);
  }
}
