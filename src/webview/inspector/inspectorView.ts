// The Inspector panel's view: toolbar, verdict card, virtualized table, detail pane and stderr lane; applies ToInspectorWebview messages.
import { assertNever } from '../../protocol/graphPanelMessages.js';
import type { FromInspectorWebview, InspectorRow, InspectorSubject, ToInspectorWebview, VerdictCard } from '../../protocol/inspectorMessages.js';
import { DetailPane } from './detailPane.js';
import { InspectorToolbar } from './inspectorToolbar.js';
import { FilteredRows, type RowFilterSettings } from './rowFilter.js';
import { RowTable } from './rowTable.js';
import { StderrLane } from './stderrLane.js';
import { VerdictView } from './verdictCard.js';

export class InspectorView {
  readonly element: HTMLElement;
  private readonly rows: InspectorRow[] = [];
  private readonly filtered = new FilteredRows();
  private readonly toolbar: InspectorToolbar;
  private readonly table: RowTable;
  private readonly detail = new DetailPane();
  private readonly verdictView = new VerdictView();
  private readonly stderr: StderrLane;
  private readonly notice: HTMLElement;
  private subject: InspectorSubject | undefined;
  private running = false;
  private dropped = 0;
  private verdict: VerdictCard | undefined;

  /** `saved` is the UI state from getState; `save` keeps the filters across reloads. */
  constructor(
    private readonly post: (message: FromInspectorWebview) => void,
    saved: unknown = undefined,
    private readonly save: (state: { readonly filter: RowFilterSettings }) => void = () => undefined,
  ) {
    this.toolbar = new InspectorToolbar(post, () => this.refilter());
    const filter = (saved as { filter?: Partial<RowFilterSettings> } | undefined)?.filter;
    if (filter && typeof filter === 'object') {
      this.toolbar.setFilter(filter);
      this.filtered.refilter(this.rows, this.toolbar.filter);
    }
    this.table = new RowTable((index) => {
      this.detail.show(this.rows[index]);
      this.post({ type: 'selectRow', index });
    });
    this.table.setData(this.rows, this.filtered);
    this.stderr = new StderrLane((elapsedMs) => this.selectAt(elapsedMs));
    this.notice = document.createElement('p');
    this.notice.className = 'notice';
    this.notice.setAttribute('role', 'status');
    this.notice.hidden = true;
    const main = document.createElement('div');
    main.className = 'inspector-main';
    const left = document.createElement('div');
    left.className = 'inspector-left';
    left.append(this.table.element, this.stderr.element);
    main.append(left, this.detail.element);
    this.element = document.createElement('div');
    this.element.className = 'inspector-root';
    this.element.append(this.toolbar.element, this.notice, this.verdictView.element, main);
    this.update();
  }

  apply(message: ToInspectorWebview): void {
    switch (message.type) {
      case 'reset':
        this.subject = message.subject;
        this.running = message.running;
        this.rows.length = 0;
        this.filtered.clear();
        this.dropped = 0;
        this.verdict = undefined;
        this.notice.hidden = true;
        this.stderr.clear();
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
      case 'stderr':
        this.stderr.add(message.chunks);
        return;
      case 'verdict':
        this.verdict = message.verdict;
        this.running = false;
        this.dropped = message.verdict.droppedRows;
        break;
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
    this.save({ filter: this.toolbar.filter });
    this.update();
  }

  private selectAt(elapsedMs: number): void {
    for (let position = 0; position < this.filtered.length; position++) {
      const index = this.filtered.at(position);
      if (this.rows[index]!.elapsedMs >= elapsedMs) {
        this.table.select(index);
        return;
      }
    }
  }

  private update(): void {
    this.toolbar.setSubject(this.subject, this.running, this.rows.length > 0);
    this.toolbar.setCounts(this.filtered.length, this.rows.length, this.dropped);
    this.verdictView.show(this.verdict, this.running);
    this.table.refresh();
  }
}
