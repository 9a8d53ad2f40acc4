// The masked control of an x-sensitive field: a new value goes to VS Code Secret Storage on save; the stored value is never shown, only whether there is one, with Clear.
import { ConfigFormTestId } from '../../protocol/configFormMessages.js';
import { controlAttributes, type Control, type ControlContext } from './controlContext.js';
import { codicon, el } from '../common/dom.js';
import { textButton, uniqueId } from './formButtons.js';

/** Draws the password input, the Secret Storage hint and, when there is something to remove, Clear / Undo Clear. */
export function createSecretControl(context: ControlContext): Control {
  const { field, state } = context;
  const secret = field.secret ?? { stored: false, plainTextInConfig: false };
  const input = el('input', { attrs: { ...controlAttributes(context), type: 'password', class: 'input', autocomplete: 'new-password', spellcheck: 'false' } });
  input.value = state.typedSecret(field.key);
  const hintId = uniqueId('secret-hint');
  const hintText = el('span');
  const hint = el('div', { attrs: { class: 'secret-hint', id: hintId } }, codicon('lock'), hintText);
  const canClear = secret.stored || secret.plainTextInConfig;
  const clear = canClear
    ? textButton('Clear', 'secondary', {
        class: 'button secondary small',
        'data-testid': ConfigFormTestId.clearSecret,
        'data-key': field.key,
        disabled: context.disabled,
      })
    : undefined;

  const update = () => {
    const cleared = state.isCleared(field.key);
    const typed = state.typedSecret(field.key) !== '';
    input.placeholder = cleared ? 'Removed when you save' : secret.stored ? 'Stored (type a new value to replace it)' : 'Not set';
    let text: string;
    if (cleared) text = 'Will be removed from VS Code Secret Storage when you save.';
    else if (typed) text = 'Saved to VS Code Secret Storage, never to config.json.';
    else if (secret.stored) text = 'Stored in VS Code Secret Storage.';
    else text = 'Kept in VS Code Secret Storage, never in config.json.';
    if (secret.reference !== undefined && !typed) text += ` config.json sets it to ${secret.reference}, which is used instead.`;
    hintText.textContent = text;
    if (clear) {
      clear.textContent = cleared ? 'Undo Clear' : 'Clear';
      clear.title = cleared ? 'Keep the stored value' : 'Remove the stored value when you save';
    }
  };
  input.addEventListener('input', () => {
    state.typeSecret(field.key, input.value);
    update();
    context.changed();
  });
  clear?.addEventListener('click', () => {
    const cleared = !state.isCleared(field.key);
    state.setCleared(field.key, cleared);
    if (cleared) input.value = '';
    update();
    context.changed();
  });
  update();
  return {
    element: el('div', { attrs: { class: 'control-box secret' } }, el('div', { attrs: { class: 'secret-row' } }, input, clear), hint),
    target: input,
    describedBy: [hintId],
  };
}
