// Draws the Configure Skill form's body from a model: notices, a table of contents and one section per category of setting rows.
import type { ConfigFormProblem } from '../../protocol/configFormMessages.js';
import { codicon, el } from '../common/dom.js';
import { uniqueId } from './formButtons.js';
import { createFieldRow, type FieldRow } from './fieldRow.js';
import type { FormState } from './formState.js';

export interface FormViewOptions {
  readonly changed: (key: string) => void;
  readonly openConfig: () => void;
}

/** The drawn body: its rows by key and the general-problems area. */
export interface FormView {
  readonly element: HTMLElement;
  readonly rows: ReadonlyMap<string, FieldRow>;
  setGeneralProblems(problems: readonly ConfigFormProblem[]): void;
}

/** Draws the body of `state.model`; `notices` come from the last save. */
export function createFormView(state: FormState, notices: readonly string[], options: FormViewOptions): FormView {
  const model = state.model;
  const disabled = model.configError !== undefined;
  const rows = new Map<string, FieldRow>();
  const banners = el('div', { attrs: { class: 'banners' } });
  const general = el('div', { attrs: { class: 'banners' } });
  if (model.configError !== undefined) {
    const open = el('button', { attrs: { type: 'button', class: 'link-button' } }, 'Open config.json');
    open.addEventListener('click', options.openConfig);
    banners.append(banner('error', `${model.configError} The form is read-only until the file is fixed.`, open));
  }
  if (notices.length > 0) banners.append(banner('info', notices.join(' ')));

  const sections = model.categories.map((category) => {
    const headingId = uniqueId('category');
    const heading = el('h2', { attrs: { class: 'category-title', id: headingId, tabindex: -1 } }, category.name);
    const section = el('section', { attrs: { class: 'category', 'aria-labelledby': headingId } }, heading);
    for (const field of category.fields) {
      const row = createFieldRow(field, state, { disabled, changed: options.changed });
      rows.set(field.key, row);
      section.append(row.element);
    }
    return { name: category.name, section, heading };
  });
  const list = el('div', { attrs: { class: 'settings-list' } }, banners, general, ...sections.map((entry) => entry.section));
  const body = el('div', { attrs: { class: 'form-body' } });
  if (sections.length > 1) body.append(tableOfContents(sections));
  body.append(list);
  return {
    element: body,
    rows,
    setGeneralProblems(problems) {
      general.replaceChildren(...problems.map((problem) => banner(problem.severity, problem.message)));
    },
  };
}

function tableOfContents(sections: readonly { name: string; section: HTMLElement; heading: HTMLElement }[]): HTMLElement {
  const items = sections.map(({ name, section, heading }) => {
    const link = el('button', { attrs: { type: 'button', class: 'toc-item' } }, name);
    link.addEventListener('click', () => {
      section.scrollIntoView({ block: 'start' });
      heading.focus({ preventScroll: true });
    });
    return el('li', {}, link);
  });
  return el('nav', { attrs: { class: 'toc', 'aria-label': 'Categories' } }, el('ul', {}, ...items));
}

function banner(kind: 'error' | 'warning' | 'info', text: string, action?: HTMLElement): HTMLElement {
  const iconName = kind === 'error' ? 'error' : kind === 'warning' ? 'warning' : 'info';
  return el(
    'div',
    { attrs: { class: `banner ${kind}`, role: kind === 'info' ? 'status' : undefined } },
    codicon(iconName, 'banner-icon'),
    el('span', { attrs: { class: 'banner-text' } }, text),
    action,
  );
}
