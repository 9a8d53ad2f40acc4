// The controls of the Configure Skill form, one per ConfigControlKind (text, number, checkbox, dropdown, JSON, a value shown as written); lists and secrets live beside.
import type { ConfigFormField, ConfigFormOption, JsonValue } from '../../protocol/configFormMessages.js';
import { controlAttributes, type Control, type ControlContext } from './controlContext.js';
import { codicon, el } from '../common/dom.js';
import { textButton } from './formButtons.js';
import { createListEditor } from './listEditor.js';
import { createSecretControl } from './secretControl.js';

/** Draws the control of `context.field` for its current edit. */
export function createControl(context: ControlContext): Control {
  const { field, state } = context;
  if (state.showsWritten(field.key)) return writtenValue(context);
  if (field.secret) return createSecretControl(context);
  switch (field.control) {
    case 'text':
    case 'url':
    case 'email':
    case 'password':
      return textInput(context, field.control);
    case 'textarea':
      return textArea(context, false);
    case 'json':
      return textArea(context, true);
    case 'number':
      return numberInput(context);
    case 'checkbox':
      return checkbox(context);
    case 'dropdown':
      return dropdown(context);
    case 'list':
      return createListEditor(context);
  }
}

function textInput(context: ControlContext, kind: 'text' | 'url' | 'email' | 'password'): Control {
  const { field, state } = context;
  const displayed = state.displayed(field.key);
  const input = el('input', {
    attrs: {
      ...controlAttributes(context),
      type: kind,
      class: 'input',
      spellcheck: kind === 'text' ? undefined : 'false',
      autocomplete: kind === 'password' ? 'new-password' : 'off',
      placeholder: typeof field.default === 'string' && field.default !== '' ? field.default : undefined,
    },
  });
  input.value = typeof displayed === 'string' ? displayed : '';
  input.addEventListener('input', () => {
    state.set(field.key, input.value);
    context.changed();
  });
  return { element: el('div', { attrs: { class: 'control-box text' } }, input), target: input };
}

function textArea(context: ControlContext, json: boolean): Control {
  const { field, state } = context;
  const displayed = state.displayed(field.key);
  const area = el('textarea', {
    attrs: {
      ...controlAttributes(context),
      class: json ? 'input textarea json' : 'input textarea',
      rows: json ? 5 : 4,
      spellcheck: json ? 'false' : undefined,
    },
  });
  area.value = json ? (displayed === undefined ? '' : JSON.stringify(displayed, null, 2)) : typeof displayed === 'string' ? displayed : '';
  area.addEventListener('input', () => {
    if (!json) state.set(field.key, area.value);
    else if (area.value.trim() === '') state.unset(field.key);
    else state.set(field.key, parseJsonOrText(area.value));
    context.changed();
  });
  return { element: el('div', { attrs: { class: 'control-box text' } }, area), target: area };
}

function numberInput(context: ControlContext): Control {
  const { field, state } = context;
  const displayed = state.displayed(field.key);
  const input = el('input', {
    attrs: {
      ...controlAttributes(context),
      type: 'number',
      class: 'input number',
      min: field.minimum,
      max: field.maximum,
      step: field.step ?? 'any',
      placeholder: typeof field.default === 'number' ? String(field.default) : undefined,
    },
  });
  input.value = typeof displayed === 'number' ? String(displayed) : '';
  input.addEventListener('input', () => {
    if (input.validity.badInput) {
      // The browser keeps the typed text to itself; the row shows the local problem and nothing is submitted.
    } else if (input.value === '') state.unset(field.key);
    else state.set(field.key, Number(input.value));
    context.changed();
  });
  return {
    element: el('div', { attrs: { class: 'control-box number' } }, input),
    target: input,
    localProblem: () => (input.validity.badInput ? (field.type === 'integer' ? 'Enter a whole number.' : 'Enter a number.') : undefined),
  };
}

function checkbox(context: ControlContext): Control {
  const { field, state } = context;
  const input = el('input', { attrs: { ...controlAttributes(context), type: 'checkbox', class: 'checkbox-input' } });
  input.checked = state.displayed(field.key) === true;
  input.addEventListener('change', () => {
    state.set(field.key, input.checked);
    context.changed();
  });
  const box = el('span', { attrs: { class: 'checkbox' } }, input, codicon('check', 'checkbox-mark'));
  // Like the settings editor, clicking the description beside the box toggles it (screen readers get it through aria-describedby).
  const beside = context.description ? el('span', { attrs: { class: 'checkbox-description' } }, context.description) : undefined;
  beside?.addEventListener('click', () => {
    if (input.disabled) return;
    input.checked = !input.checked;
    input.dispatchEvent(new Event('change'));
  });
  return { element: el('div', { attrs: { class: 'control-box checkbox-row' } }, box, beside), target: input };
}

function dropdown(context: ControlContext): Control {
  const { field, state } = context;
  const select = el('select', { attrs: { ...controlAttributes(context), class: 'select' } });
  const options: ConfigFormOption[] = [...(field.options ?? [])];
  const displayed = state.displayed(field.key);
  let selected = options.findIndex((option) => sameJson(option.value, displayed));
  if (selected < 0 && displayed !== undefined) {
    options.unshift({ value: displayed, label: `${labelOf(displayed)} (not allowed)` });
    selected = 0;
  } else if (selected < 0) {
    options.unshift({ value: null, label: '' });
    selected = 0;
  }
  const blank = displayed === undefined;
  options.forEach((option, index) => select.append(el('option', { attrs: { value: String(index) } }, option.label)));
  select.selectedIndex = selected;
  select.addEventListener('change', () => {
    const option = options[select.selectedIndex];
    if (blank && select.selectedIndex === 0) state.unset(field.key);
    else if (option) state.set(field.key, option.value);
    context.changed();
  });
  return { element: el('div', { attrs: { class: 'control-box select-box' } }, select, codicon('chevron-down', 'select-arrow')), target: select };
}

/** config.json's value as written, when the control cannot show it (a `${VAR}` for a number, a string for a checkbox, …). */
function writtenValue(context: ControlContext): Control {
  const { field, state } = context;
  const value = field.value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const chip = el(
    'code',
    { attrs: { ...controlAttributes(context), class: 'written-value', tabindex: 0, disabled: undefined, 'aria-readonly': 'true', role: 'textbox' } },
    text,
  );
  const replace = textButton('Replace Value', 'secondary', { class: 'button secondary small', disabled: context.disabled });
  replace.addEventListener('click', () => {
    state.set(field.key, field.default ?? emptyValue(field));
    context.changed();
    context.redraw(true);
  });
  const why =
    field.variables && field.variables.length > 0
      ? `Read from ${field.variables.map((name) => `$${name}`).join(', ')} when the skill loads.`
      : 'config.json holds a value this control cannot show; it is kept until you replace it.';
  return {
    element: el('div', { attrs: { class: 'control-box written' } }, chip, replace, el('span', { attrs: { class: 'written-note' } }, why)),
    target: chip,
  };
}

/** A starting value for a field that has no default. */
export function emptyValue(field: ConfigFormField): JsonValue {
  switch (field.type) {
    case 'boolean':
      return false;
    case 'number':
    case 'integer':
      return field.minimum ?? 0;
    case 'array':
      return [];
    case 'string':
      return field.options?.[0]?.value ?? '';
  }
}

function parseJsonOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

export function labelOf(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function sameJson(left: unknown, right: unknown): boolean {
  return left === right || (typeof left === 'object' && typeof right === 'object' && JSON.stringify(left) === JSON.stringify(right));
}
