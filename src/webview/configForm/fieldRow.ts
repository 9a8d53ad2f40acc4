// One setting row of the Configure Skill form, laid out like VS Code's settings editor: title, description, control, hints, inline problems and Reset to Default.
import { ConfigFormTestId, type ConfigFormField, type ConfigFormProblem } from '../../protocol/configFormMessages.js';
import type { Control } from './controlContext.js';
import { createControl } from './controls.js';
import { codicon, el } from '../common/dom.js';
import { iconButton, uniqueId } from './formButtons.js';
import type { FormState } from './formState.js';

/** A drawn field and what the form does with it. */
export interface FieldRow {
  readonly key: string;
  readonly element: HTMLElement;
  /** Shows the extension's latest problems for this field (local ones are added). */
  setProblems(problems: readonly ConfigFormProblem[]): void;
  /** A problem the page found itself (e.g. text in a number input), which blocks saving. */
  localProblem(): string | undefined;
  hasError(): boolean;
  focus(): void;
}

export interface FieldRowOptions {
  readonly disabled: boolean;
  /** Called after every edit of the field. */
  readonly changed: (key: string) => void;
}

/** Draws `field` with its current edit in `state`. */
export function createFieldRow(field: ConfigFormField, state: FormState, options: FieldRowOptions): FieldRow {
  const key = field.key;
  const controlId = uniqueId('control');
  const titleId = uniqueId('title');
  const descriptionId = uniqueId('description');
  const hintsId = uniqueId('hints');
  const errorId = uniqueId('error');
  let serverProblems: readonly ConfigFormProblem[] = [];

  const row = el('div', { attrs: { class: 'setting-item', 'data-testid': ConfigFormTestId.field, 'data-key': key, 'data-control': field.control } });
  const reset = iconButton('discard', 'Reset to Default', {
    class: 'icon-button reset',
    'data-testid': ConfigFormTestId.reset,
    'data-key': key,
    disabled: options.disabled,
  });
  const title = el(
    'div',
    { attrs: { class: 'setting-title' } },
    el(
      'label',
      { attrs: { class: 'title-label', for: controlId, id: titleId } },
      el('span', { attrs: { class: 'title-category' } }, `${field.category}: `),
      el('span', { attrs: { class: 'title-name' } }, field.title),
    ),
    field.required ? el('span', { attrs: { class: 'required-tag' } }, 'required') : undefined,
    field.secret ? undefined : reset,
  );
  const description =
    field.description !== undefined ? el('div', { attrs: { class: 'setting-description', id: descriptionId } }, field.description) : undefined;
  const controlSlot = el('div', { attrs: { class: 'setting-control' } });
  const validation = el('div', { attrs: { class: 'setting-validation', id: errorId, 'data-testid': ConfigFormTestId.error, 'data-key': key } });
  const variableHint = el('div', { attrs: { class: 'setting-hint' } });
  const hints = el(
    'div',
    { attrs: { class: 'setting-hints', id: hintsId } },
    field.envHint !== undefined ? el('div', { attrs: { class: 'setting-hint' } }, codicon('symbol-variable'), el('span', {}, field.envHint)) : undefined,
    variableHint,
  );
  row.append(el('div', { attrs: { class: 'modified-indicator', 'aria-hidden': 'true', title: 'Set in config.json' } }), title);
  if (field.control !== 'checkbox' && description) row.append(description);
  row.append(controlSlot, hints);

  let control: Control;
  const draw = (focus: boolean) => {
    control = createControl({
      field,
      state,
      id: controlId,
      disabled: options.disabled,
      description: field.control === 'checkbox' && !state.showsWritten(key) ? description : undefined,
      changed: () => {
        update();
        options.changed(key);
      },
      redraw: (refocus) => draw(refocus),
    });
    if (field.control === 'checkbox' && state.showsWritten(key) && description && !description.isConnected) controlSlot.before(description);
    controlSlot.replaceChildren(control.element);
    update();
    if (focus) control.target.focus();
  };

  const update = () => {
    row.dataset['modified'] = String(state.isModified(key));
    reset.hidden = !state.isModified(key);
    const displayed = state.displayed(key);
    const variables =
      typeof displayed === 'string' && !field.secret && field.control !== 'json' && !state.showsWritten(key)
        ? [...new Set([...displayed.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => `$${match[1]!}`))]
        : [];
    variableHint.replaceChildren(
      ...(variables.length > 0 ? [codicon('symbol-variable'), el('span', {}, `Read from ${variables.join(', ')} when the skill loads.`)] : []),
    );
    variableHint.hidden = variables.length === 0;
    renderProblems();
  };

  const renderProblems = () => {
    const local = control.localProblem?.();
    const problems: ConfigFormProblem[] = [
      ...(local !== undefined ? [{ severity: 'error' as const, code: 'CONFIG_FORM_LOCAL', message: local }] : []),
      ...serverProblems,
    ];
    const worst = problems.some((problem) => problem.severity === 'error') ? 'error' : problems.length > 0 ? 'warning' : undefined;
    validation.replaceChildren(...problems.map((problem) => el('div', { attrs: { class: `validation-message ${problem.severity}` } }, problem.message)));
    if (worst) {
      validation.className = `setting-validation ${worst}`;
      if (!validation.isConnected) controlSlot.append(validation);
    } else {
      validation.remove();
    }
    row.classList.toggle('invalid', worst === 'error');
    row.classList.toggle('warned', worst === 'warning');
    const target = control.target;
    if (worst === 'error') target.setAttribute('aria-invalid', 'true');
    else target.removeAttribute('aria-invalid');
    const describedBy = [
      description ? descriptionId : undefined,
      ...(control.describedBy ?? []),
      field.envHint !== undefined || !variableHint.hidden ? hintsId : undefined,
      worst ? errorId : undefined,
    ];
    target.setAttribute('aria-describedby', describedBy.filter((id): id is string => id !== undefined).join(' '));
    target.setAttribute('aria-labelledby', titleId);
  };

  reset.addEventListener('click', () => {
    state.unset(key);
    draw(true);
    options.changed(key);
  });
  draw(false);

  return {
    key,
    element: row,
    setProblems(problems) {
      serverProblems = problems;
      renderProblems();
    },
    localProblem: () => control.localProblem?.(),
    hasError: () => control.localProblem?.() !== undefined || serverProblems.some((problem) => problem.severity === 'error'),
    focus: () => control.target.focus(),
  };
}
