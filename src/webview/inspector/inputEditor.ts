// The Inspector's input editor: a choice of ready-made inputs (samples, the last input used), the JSON edited in place, and the problems found before a run.
import './inputEditor.css';
import type { InputChoice, InputProblemView, InspectorSubject } from '../../protocol/inspectorMessages.js';
import { el } from '../common/dom.js';

export class InputEditor {
  readonly element: HTMLDetailsElement;
  private readonly summaryText: HTMLElement;
  private readonly choices: HTMLSelectElement;
  private readonly text: HTMLTextAreaElement;
  private readonly problems: HTMLElement;
  private offered: readonly InputChoice[] = [];
  private subjectKey = '';

  /** `onRun` is called by Ctrl/Cmd+Enter in the editor. */
  constructor(private readonly onRun: () => void) {
    this.summaryText = el('span', { className: 'input-summary' });
    const summary = el('summary', {}, 'Input ', this.summaryText);
    this.choices = el('select', { attrs: { 'aria-label': 'Start from a sample or the last input used' } });
    this.choices.addEventListener('change', () => this.choose());
    this.text = el('textarea', { className: 'input-text', attrs: { rows: 4, spellcheck: 'false', 'aria-label': 'The input as JSON (Ctrl+Enter runs it)' } });
    this.text.addEventListener('input', () => this.onEdited());
    this.text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.onRun();
      }
    });
    this.problems = el('ul', { className: 'input-problems', attrs: { 'aria-live': 'polite' } });
    this.element = el(
      'details',
      { className: 'input-editor', attrs: { open: true } },
      summary,
      el('div', { className: 'input-row' }, this.choices),
      this.text,
      this.problems,
    );
  }

  /** The JSON text to run. */
  get value(): string {
    return this.text.value;
  }

  /** A new subject: its input and choices. The text the author typed survives a reset of the same script. */
  setSubject(subject: InspectorSubject | undefined): void {
    const key = subject ? `${subject.source}:${subject.title}` : '';
    const sameScript = key === this.subjectKey && subject?.source === 'live';
    this.subjectKey = key;
    this.offered = subject?.inputChoices ?? [];
    this.choices.replaceChildren(
      option('', this.offered.length > 0 ? 'Start from…' : 'No samples'),
      ...this.offered.map((choice, index) => option(String(index), choice.label, choice.detail)),
    );
    this.choices.disabled = this.offered.length === 0 || subject?.canRun !== true;
    this.text.readOnly = subject?.canRun !== true;
    if (!sameScript || this.text.value.trim() === '') this.text.value = subject ? pretty(subject.input) : '';
    this.element.hidden = subject === undefined;
    this.summaryText.textContent = subject?.source === 'recording' ? '(as recorded)' : '';
    // The problems of the input just run stay in view while it runs.
    if (!sameScript) this.showProblems([]);
  }

  showProblems(problems: readonly InputProblemView[]): void {
    this.problems.replaceChildren(
      ...problems.map((problem) => {
        return el('li', { className: `input-problem ${problem.severity}` }, `${problem.severity === 'error' ? '✖' : '⚠'} ${problem.message}`);
      }),
    );
    this.problems.hidden = problems.length === 0;
    if (problems.some((problem) => problem.severity === 'error')) this.element.open = true;
  }

  private choose(): void {
    const choice = this.offered[Number(this.choices.value)];
    if (this.choices.value === '' || !choice) return;
    this.text.value = pretty(choice.text);
    this.choices.value = '';
    this.onEdited();
    this.text.focus();
  }

  /** A quick local check while typing; the extension checks the schema when Run is pressed. */
  private onEdited(): void {
    try {
      const parsed: unknown = JSON.parse(this.text.value);
      this.showProblems(
        parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
          ? []
          : [{ severity: 'error', pointer: '', message: 'The input must be a JSON object.' }],
      );
    } catch (error) {
      this.showProblems([{ severity: 'error', pointer: '', message: `Not valid JSON yet: ${(error as Error).message}` }]);
    }
  }
}

function option(value: string, label: string, detail?: string): HTMLOptionElement {
  return el('option', { attrs: { value }, title: detail || undefined }, label);
}

/** The JSON indented for editing; text that does not parse is kept as it is. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
