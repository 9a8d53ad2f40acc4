// Configure Skill form webview entry (browser only): header with Save / Cancel, the form body, validation as you type, Ctrl/Cmd+S; talks to the extension through typed messages only.
import './configForm.css';
import {
  assertNeverConfigMessage,
  ConfigFormTestId,
  type ConfigFormModel,
  type ConfigFormProblems,
  type ToConfigForm,
} from '../../protocol/configFormMessages.js';
import { codicon, el } from '../common/dom.js';
import { textButton } from './formButtons.js';
import { FormState } from './formState.js';
import { createFormView, type FormView } from './formView.js';
import { FormMessaging } from './vscodeApi.js';

const VALIDATE_DELAY_MS = 250;

const messaging = new FormMessaging();
const root = document.getElementById('root') ?? document.body.appendChild(el('div', { attrs: { id: 'root' } }));

const heading = el('h1', { attrs: { class: 'form-title' } });
const subtitle = el('p', { attrs: { class: 'form-description' } });
const files = el('div', { attrs: { class: 'form-files' } });
const status = el('span', { attrs: { class: 'status', role: 'status', 'aria-live': 'polite', 'data-testid': ConfigFormTestId.status } });
const isMac = /Mac|iPhone|iPad/.test(navigator.userAgent);
const saveButton = textButton('Save', 'primary', { 'data-testid': ConfigFormTestId.save, title: isMac ? 'Save (⌘S)' : 'Save (Ctrl+S)' });
const cancelButton = textButton('Cancel', 'secondary', { 'data-testid': ConfigFormTestId.cancel });
const header = el(
  'header',
  { attrs: { class: 'form-header' } },
  el('div', { attrs: { class: 'header-text' } }, heading, subtitle, files),
  el('div', { attrs: { class: 'header-actions' } }, status, saveButton, cancelButton),
);
const bodySlot = el('div', { attrs: { class: 'body-slot' } }, el('p', { attrs: { class: 'loading' } }, 'Loading the configuration…'));
root.replaceChildren(
  el('div', { attrs: { class: 'config-form', 'data-testid': ConfigFormTestId.form, role: 'form', 'aria-label': 'Skill configuration' } }, header, bodySlot),
);

let state: FormState | undefined;
let view: FormView | undefined;
let saving = false;
let requestId = 0;
let validateTimer: ReturnType<typeof setTimeout> | undefined;

messaging.onMessage((message: ToConfigForm) => {
  switch (message.type) {
    case 'init':
      show(message.model, [], true);
      return;
    case 'validation':
      if (message.requestId === requestId) applyProblems(message.problems);
      return;
    case 'saved': {
      saving = false;
      saveButton.removeAttribute('aria-disabled');
      // The form is drawn again from disk: keep the keyboard focus on the same field.
      const focusedKey = document.activeElement?.closest('[data-testid="config-field"]')?.getAttribute('data-key') ?? undefined;
      show(message.model, message.notices, false);
      if (focusedKey !== undefined) view?.rows.get(focusedKey)?.focus();
      setStatus('ok', 'Saved.');
      return;
    }
    case 'saveFailed':
      saving = false;
      saveButton.removeAttribute('aria-disabled');
      setStatus('error', message.message);
      if (message.problems) {
        applyProblems(message.problems);
        focusFirstError();
      }
      return;
    default:
      assertNeverConfigMessage(message);
  }
});

saveButton.addEventListener('click', save);
cancelButton.addEventListener('click', () => messaging.post({ type: 'cancel' }));
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's') {
    event.preventDefault();
    save();
  }
});
messaging.post({ type: 'ready' });

/** Draws `model` from scratch; on `init`, edits kept with setState before a reload are restored. */
function show(model: ConfigFormModel, notices: readonly string[], restore: boolean): void {
  state = new FormState(model);
  const restored = restore && state.restore(messaging.getState());
  messaging.setState(state.persist());
  heading.textContent = model.title ?? `${model.displayName} Settings`;
  subtitle.textContent = model.description ?? '';
  subtitle.hidden = model.description === undefined;
  files.replaceChildren(fileLink('config', model.files.config.label, model.files.config.exists), fileLink('schema', model.files.schema.label, true));
  view = createFormView(state, notices, { changed, openConfig: () => messaging.post({ type: 'openFile', which: 'config' }) });
  bodySlot.replaceChildren(view.element);
  applyProblems(model.problems);
  saveButton.disabled = model.configError !== undefined;
  if (restored && state.isDirty()) {
    setStatus('dirty', 'Unsaved changes');
    validateSoon();
  } else if (!saving) {
    setStatus('none', '');
  }
}

function changed(): void {
  if (!state) return;
  messaging.setState(state.persist());
  setStatus(state.isDirty() ? 'dirty' : 'none', state.isDirty() ? 'Unsaved changes' : '');
  validateSoon();
}

function validateSoon(): void {
  if (validateTimer !== undefined) clearTimeout(validateTimer);
  validateTimer = setTimeout(() => {
    validateTimer = undefined;
    if (!state) return;
    requestId += 1;
    messaging.post({ type: 'validate', requestId, values: state.values(), clearSecrets: state.clearSecrets() });
  }, VALIDATE_DELAY_MS);
}

function applyProblems(problems: ConfigFormProblems): void {
  if (!view) return;
  for (const [key, row] of view.rows) row.setProblems(problems.fields[key] ?? []);
  view.setGeneralProblems(problems.general);
}

function save(): void {
  if (!state || !view || saving || state.model.configError !== undefined) return;
  const blocked = [...view.rows.values()].find((row) => row.localProblem() !== undefined);
  if (blocked) {
    setStatus('error', 'Fix the highlighted field before saving.');
    blocked.focus();
    return;
  }
  if (validateTimer !== undefined) clearTimeout(validateTimer);
  validateTimer = undefined;
  requestId += 1; // answers to earlier validations no longer apply
  saving = true;
  saveButton.setAttribute('aria-disabled', 'true');
  setStatus('busy', 'Saving…');
  messaging.post({ type: 'save', values: state.values(), clearSecrets: state.clearSecrets() });
}

function focusFirstError(): void {
  const row = view && [...view.rows.values()].find((candidate) => candidate.hasError());
  row?.focus();
}

function setStatus(kind: 'none' | 'dirty' | 'busy' | 'ok' | 'error', text: string): void {
  status.className = `status ${kind}`;
  status.textContent = text;
}

function fileLink(which: 'config' | 'schema', label: string, exists: boolean): HTMLElement {
  const glyph = codicon(which === 'config' ? 'json' : 'file-code');
  if (!exists) return el('span', { attrs: { class: 'file-missing' } }, glyph, `${label} (created when you save)`);
  const link = el('button', { attrs: { type: 'button', class: 'link-button', title: `Open ${label}` } }, glyph, label);
  link.addEventListener('click', () => messaging.post({ type: 'openFile', which }));
  return link;
}
