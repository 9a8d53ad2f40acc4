// The list editor of array fields (strings, numbers or enum values), like the settings editor's "Add Item" lists: one editable row per item.
import type { ConfigFormOption, JsonValue } from '../../protocol/configFormMessages.js';
import { controlAttributes, type Control, type ControlContext } from './controlContext.js';
import { codicon, el } from '../common/dom.js';
import { iconButton, textButton } from './formButtons.js';

/** Draws the items of `context.field` (a `list` control) with Remove per item and Add Item. */
export function createListEditor(context: ControlContext): Control {
  const { field, state } = context;
  const itemSpec = field.items ?? { control: 'text', type: 'string' };
  const displayed = state.displayed(field.key);
  const items: JsonValue[] = Array.isArray(displayed) ? [...(displayed as readonly JsonValue[])] : [];
  const attributes = controlAttributes(context);
  const group = el('div', {
    attrs: { ...attributes, disabled: undefined, 'aria-disabled': context.disabled ? 'true' : undefined, class: 'list-editor', role: 'group', tabindex: -1 },
  });
  const list = el('ul', { attrs: { class: 'list-items' } });
  const add = textButton('Add Item', 'primary', { class: 'button primary small list-add', disabled: context.disabled });
  group.append(list, add);

  const commit = () => {
    state.set(field.key, [...items]);
    context.changed();
  };
  const render = (focusIndex?: number) => {
    list.replaceChildren(...items.map((item, index) => itemRow(item, index)));
    if (items.length === 0) list.append(el('li', { attrs: { class: 'list-empty' } }, 'No items.'));
    if (focusIndex !== undefined) {
      const target = list.querySelectorAll<HTMLElement>('.list-item-control')[focusIndex] ?? add;
      target.focus();
    }
  };
  const itemRow = (item: JsonValue, index: number): HTMLLIElement => {
    const label = `${field.title}, item ${index + 1}`;
    const control = itemSpec.control === 'dropdown' ? itemSelect(item, index, label) : itemInput(item, index, label);
    const remove = iconButton('close', `Remove item ${index + 1}`, { class: 'icon-button list-remove', disabled: context.disabled });
    remove.addEventListener('click', () => {
      items.splice(index, 1);
      commit();
      render(Math.min(index, items.length));
    });
    return el('li', { attrs: { class: 'list-item' } }, control, remove);
  };
  const itemInput = (item: JsonValue, index: number, label: string): HTMLInputElement => {
    const numeric = itemSpec.control === 'number';
    const input = el('input', {
      attrs: {
        type: 'text',
        class: 'input list-item-control',
        'aria-label': label,
        disabled: context.disabled,
        inputmode: numeric ? 'decimal' : undefined,
        spellcheck: 'false',
      },
    });
    input.value = typeof item === 'string' ? item : JSON.stringify(item);
    input.addEventListener('input', () => {
      items[index] = numeric ? toNumber(input.value) : input.value;
      commit();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return;
      event.preventDefault();
      items.splice(index + 1, 0, numeric ? 0 : '');
      commit();
      render(index + 1);
    });
    return input;
  };
  const itemSelect = (item: JsonValue, index: number, label: string): HTMLElement => {
    const options: ConfigFormOption[] = [...(itemSpec.options ?? [])];
    let selected = options.findIndex((option) => option.value === item);
    if (selected < 0) {
      options.unshift({ value: item, label: `${typeof item === 'string' ? item : JSON.stringify(item)} (not allowed)` });
      selected = 0;
    }
    const select = el('select', { attrs: { class: 'select list-item-control', 'aria-label': label, disabled: context.disabled } });
    options.forEach((option, optionIndex) => select.append(el('option', { attrs: { value: String(optionIndex) } }, option.label)));
    select.selectedIndex = selected;
    select.addEventListener('change', () => {
      const option = options[select.selectedIndex];
      if (option) items[index] = option.value;
      commit();
    });
    return el('span', { attrs: { class: 'select-box' } }, select, codicon('chevron-down', 'select-arrow'));
  };

  add.addEventListener('click', () => {
    const first = itemSpec.options?.[0]?.value;
    items.push(itemSpec.control === 'dropdown' && first !== undefined ? first : itemSpec.control === 'number' ? 0 : '');
    commit();
    render(items.length - 1);
  });
  render();
  return { element: el('div', { attrs: { class: 'control-box list' } }, group), target: group };
}

/** A number when the text is one, else the text (validation then says the item must be a number). */
function toNumber(text: string): JsonValue {
  const number = text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(number) ? number : text;
}
