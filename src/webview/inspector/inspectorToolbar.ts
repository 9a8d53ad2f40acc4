// The Inspector's toolbar: Run, Stop, Rerun, Compare with Previous Run, Save as Recording, the type and verdict filters, the text search and the row counts.
import type { FromInspectorWebview, InspectorSubject } from '../../protocol/inspectorMessages.js';
import type { RowFilterSettings } from './rowFilter.js';
import { codicon, el } from '../common/dom.js';

type Action = 'run' | 'stop' | 'rerun' | 'compare' | 'saveRecording';

const TYPES = ['all', 'log', 'state_patch', 'asset', 'ui_event', 'error', 'done', 'invalid', 'ignored', 'blank', 'stderr'];
const MARKS: [string, string][] = [
  ['all', 'All verdicts'],
  ['problems', '✖ and ⚠'],
  ['error', '✖ errors'],
  ['warning', '⚠ warnings'],
  ['ok', '✔ events'],
];

export class InspectorToolbar {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly buttons: Record<Action, HTMLButtonElement>;
  private readonly type: HTMLSelectElement;
  private readonly mark: HTMLSelectElement;
  private readonly search: HTMLInputElement;

  /** `readInput` gives the input editor's text when Run is pressed. */
  constructor(post: (message: FromInspectorWebview) => void, onFilter: () => void, readInput: () => string) {
    this.title = el('h1');
    const button = (type: Action, label: string, icon: string, hint: string) => {
      const created = el('button', { className: `action ${type}`, title: hint }, codicon(icon), label);
      created.addEventListener('click', () => post(type === 'run' ? { type, input: readInput() } : { type }));
      return created;
    };
    this.buttons = {
      run: button('run', 'Run', 'play', 'Run the script with the input above (Ctrl+Enter in the input)'),
      stop: button('stop', 'Stop', 'debug-stop', 'Stop the script'),
      rerun: button('rerun', 'Rerun', 'debug-restart', 'Run again with the input of the last run'),
      compare: button('compare', 'Compare', 'diff', "Compare this run's stdout with the previous run's, line by line"),
      saveRecording: button('saveRecording', 'Save as Recording', 'save', 'Save the stdout lines, their timing and stderr as a .ndjson recording'),
    };
    this.type = select(
      'Filter by event type',
      TYPES.map((type) => [type, type === 'all' ? 'All types' : type]),
    );
    this.mark = select('Filter by verdict', MARKS);
    this.search = el('input', { attrs: { type: 'search', placeholder: 'Search lines', 'aria-label': 'Search the lines' } });
    for (const control of [this.type, this.mark]) control.addEventListener('change', onFilter);
    this.search.addEventListener('input', onFilter);
    this.counts = el('span', { className: 'counts', attrs: { 'aria-live': 'polite' } });
    const actions = el('div', { className: 'actions' }, ...Object.values(this.buttons));
    const filters = el('div', { className: 'filters' }, this.type, this.mark, this.search, this.counts);
    this.element = el('header', { className: 'toolbar' }, this.title, actions, filters);
  }

  get filter(): RowFilterSettings {
    return { type: this.type.value, mark: this.mark.value, text: this.search.value };
  }

  /** Restores saved filters (unknown values are ignored). */
  setFilter(filter: Partial<RowFilterSettings>): void {
    const choose = (control: HTMLSelectElement, value: string | undefined) => {
      if (value !== undefined && [...control.options].some((option) => option.value === value)) control.value = value;
    };
    choose(this.type, filter.type);
    choose(this.mark, filter.mark);
    if (typeof filter.text === 'string') this.search.value = filter.text;
  }

  setSubject(subject: InspectorSubject | undefined, running: boolean, hasRows: boolean): void {
    this.title.textContent = subject ? `${subject.source === 'recording' ? 'Recording' : 'Script'}: ${subject.title}` : 'Skill Script Inspector';
    this.title.title = subject ? `input: ${subject.input}` : '';
    const canRun = subject?.canRun === true;
    this.buttons.run.disabled = !canRun || running;
    this.buttons.rerun.disabled = !canRun || running;
    this.buttons.stop.disabled = !running;
    this.buttons.saveRecording.disabled = running || !hasRows || subject?.source !== 'live';
    this.buttons.compare.disabled = running || subject?.canCompare !== true;
  }

  setCounts(shown: number, total: number, dropped: number): void {
    this.counts.textContent = `${shown.toLocaleString('en')} of ${total.toLocaleString('en')} lines${dropped ? ` · ${dropped.toLocaleString('en')} dropped (row cap)` : ''}`;
  }
}

function select(label: string, options: [string, string][]): HTMLSelectElement {
  return el('select', { attrs: { 'aria-label': label } }, ...options.map(([value, text]) => el('option', { attrs: { value } }, text)));
}
