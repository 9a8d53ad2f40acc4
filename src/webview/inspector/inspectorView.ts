// The Inspector panel's view: toolbar, input editor, verdict card, virtualized table (stdout and stderr by time), detail pane and stderr summary; applies ToInspectorWebview messages.
import { assertNever } from '../../protocol/graphPanelMessages.js';
import type {
  FromInspectorWebview,
  InspectorRestore,
  InspectorRowView,
  InspectorSubject,
  ToInspectorWebview,
  VerdictCard,
} from '../../protocol/inspectorMessages.js';
import { DetailPane } from './detailPane.js';
import { InputEditor } from './inputEditor.js';
import { InspectorToolbar } from './inspectorToolbar.js';
import { FilteredRows, NO_FILTER, type RowFilterSettings } from './rowFilter.js';
import { RowTable } from './rowTable.js';
import { StderrLines } from './stderrLines.js';
import { StderrSummary } from './stderrSummary.js';
import { VerdictView } from './verdictCard.js';
import { el } from '../common/dom.js';

/** What the view keeps with setState: its filters, and what the extension needs to show the subject again after a reload. */
export interface InspectorViewState {
  readonly filter: RowFilterSettings;
  readonly restore?: InspectorRestore;
}

export class InspectorView {
  readonly element: HTMLElement;
  private readonly rows: InspectorRowView[] = [];
  private readonly stderrLines = new StderrLines();
  private readonly filtered = new FilteredRows(NO_FILTER, this.stderrLines);
  private readonly toolbar: InspectorToolbar;
  private readonly input: InputEditor;
  private readonly table: RowTable;
  private readonly detail = new DetailPane();
  private readonly verdictView = new VerdictView();
  private readonly stderr: StderrSummary;
  private readonly notice: HTMLElement;
  private subject: InspectorSubject | undefined;
  private running = false;
  private dropped = 0;
  private verdict: VerdictCard | undefined;

  /** `saved` is the UI state from getState; `save` keeps the filters across reloads. */
  constructor(
    private readonly post: (message: FromInspectorWebview) => void,
    saved: unknown = undefined,
    private readonly save: (state: InspectorViewState) => void = () => undefined,
  ) {
    this.input = new InputEditor(() => {
      if (this.subject?.canRun && !this.running) this.post({ type: 'run', input: this.input.value });
    });
    this.toolbar = new InspectorToolbar(
      post,
      () => this.refilter(),
      () => this.input.value,
    );
    const filter = (saved as { filter?: Partial<RowFilterSettings> } | undefined)?.filter;
    if (filter && typeof filter === 'object') {
      this.toolbar.setFilter(filter);
      this.filtered.refilter(this.rows, this.toolbar.filter);
    }
    this.table = new RowTable(
      (index) => {
        this.detail.show(this.rows[index]);
        this.post({ type: 'selectRow', index });
      },
      (line) => this.detail.showStderr(this.stderrLines.lines[line]!, line),
    );
    this.table.setData(this.rows, this.filtered);
    this.stderr = new StderrSummary((onlyStderr) => {
      this.toolbar.setFilter({ type: onlyStderr ? 'stderr' : 'all' });
      this.refilter();
    });
    this.notice = el('p', { className: 'notice', attrs: { role: 'status', hidden: true } });
    const left = el('div', { className: 'inspector-left' }, this.table.element, this.stderr.element);
    const main = el('div', { className: 'inspector-main' }, left, this.detail.element);
    this.element = el('div', { className: 'inspector-root' }, this.toolbar.element, this.input.element, this.notice, this.verdictView.element, main);
    this.update();
  }

  apply(message: ToInspectorWebview): void {
    switch (message.type) {
      case 'reset':
        this.subject = message.subject;
        this.running = message.running;
        this.input.setSubject(message.subject);
        this.saveState();
        this.rows.length = 0;
        this.filtered.clear();
        this.dropped = 0;
        this.verdict = undefined;
        this.notice.hidden = true;
        this.stderrLines.clear();
        this.table.clearSelection();
        this.detail.show(undefined);
        break;
      case 'rows': {
        const start = this.rows.length;
        for (const row of message.rows) this.rows.push(row);
        this.filtered.append(this.rows, start);
        this.dropped = message.droppedRows;
        break;
      }
      case 'stderr': {
        const added = this.stderrLines.add(message.chunks);
        this.filtered.appendStderr(added.first, added.continued);
        if (added.continued) this.table.redraw();
        break;
      }
      case 'verdict':
        this.verdict = message.verdict;
        this.running = false;
        this.dropped = message.verdict.droppedRows;
        break;
      case 'subject':
        this.subject = message.subject;
        this.input.setSubject(message.subject);
        this.saveState();
        break;
      case 'inputProblems':
        this.input.showProblems(message.problems);
        return;
      case 'notice':
        this.notice.textContent = message.message;
        this.notice.className = `notice ${message.level}`;
        this.notice.hidden = false;
        return;
      default:
        assertNever(message);
    }
    this.update();
  }

  /** Shows an error of the view itself and reports it to the extension. */
  reportError(error: unknown): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.post({ type: 'viewError', message });
  }

  private refilter(): void {
    this.filtered.refilter(this.rows, this.toolbar.filter);
    this.saveState();
    this.update();
  }

  private saveState(): void {
    this.save({ filter: this.toolbar.filter, ...(this.subject?.restore ? { restore: this.subject.restore } : {}) });
  }

  private update(): void {
    this.toolbar.setSubject(this.subject, this.running, this.rows.length > 0);
    this.toolbar.setCounts(this.filtered.length, this.rows.length + this.stderrLines.length, this.dropped);
    this.stderr.update(this.stderrLines, this.toolbar.filter.type === 'stderr');
    this.verdictView.show(this.verdict, this.running);
    this.table.refresh();
  }
}
