// The Configure Skill form's edit state (DOM-free): displayed values, modified markers, submitted values, secrets never persisted, restore only onto the same model.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FormState } from '../../src/webview/configForm/formState.js';
import type { ConfigFormField, ConfigFormModel } from '../../src/protocol/configFormMessages.js';

const fields: ConfigFormField[] = [
  {
    key: 'style',
    control: 'dropdown',
    type: 'string',
    title: 'Style',
    category: 'General',
    required: false,
    default: 'vivid',
    value: 'poetic',
    fits: true,
    options: [],
  },
  { key: 'size', control: 'number', type: 'integer', title: 'Size', category: 'General', required: false, default: 256, fits: true },
  { key: 'seed', control: 'number', type: 'integer', title: 'Seed', category: 'General', required: false, value: '${SEED}', fits: false, variables: ['SEED'] },
  {
    key: 'apiKey',
    control: 'password',
    type: 'string',
    title: 'API key',
    category: 'General',
    required: false,
    fits: true,
    secret: { stored: true, plainTextInConfig: false },
  },
];
const model: ConfigFormModel = {
  skill: 'storyteller',
  displayName: 'Storyteller',
  categories: [{ name: 'General', fields }],
  files: { config: { label: 'storyteller/config.json', exists: true }, schema: { label: 'storyteller/config-schema.json', exists: true } },
  otherKeys: [],
  problems: { fields: {}, general: [] },
};

test('untouched, the form submits config.json as written (references included) and nothing for secrets', () => {
  const state = new FormState(model);
  assert.deepEqual(state.values(), { style: 'poetic', seed: '${SEED}' });
  assert.deepEqual([state.displayed('style'), state.displayed('size'), state.isModified('style'), state.isModified('size')], ['poetic', 256, true, false]);
  assert.equal(state.showsWritten('seed'), true);
  assert.equal(state.isDirty(), false);
});

test('set, reset, typed secrets and clears change what is submitted', () => {
  const state = new FormState(model);
  state.set('size', 512);
  state.unset('style');
  state.set('seed', 7);
  state.typeSecret('apiKey', 'sk-typed');
  assert.deepEqual(state.values(), { size: 512, seed: 7, apiKey: 'sk-typed' });
  assert.deepEqual([state.displayed('style'), state.isModified('style')], ['vivid', false]);
  state.setCleared('apiKey', true);
  assert.deepEqual([state.values()['apiKey'], state.clearSecrets()], [undefined, ['apiKey']]);
  state.typeSecret('apiKey', 'sk-again');
  assert.deepEqual(state.clearSecrets(), [], 'typing a new value undoes Clear');
  state.unset('size');
  assert.equal(state.edit('size').mode, 'written', 'resetting a field config.json does not set is no edit');
});

test('persisted edits never hold a typed secret and come back only onto the same model', () => {
  const state = new FormState(model);
  state.set('size', 512);
  state.typeSecret('apiKey', 'sk-typed-secret');
  state.setCleared('apiKey', true);
  const saved = JSON.parse(JSON.stringify(state.persist())) as unknown;
  assert.ok(!JSON.stringify(saved).includes('sk-typed-secret'));
  const again = new FormState(model);
  assert.equal(again.restore(saved), true);
  assert.deepEqual([again.values(), again.clearSecrets()], [{ style: 'poetic', size: 512, seed: '${SEED}' }, ['apiKey']]);
  const changed: ConfigFormModel = {
    ...model,
    categories: [{ name: 'General', fields: fields.map((field) => (field.key === 'style' ? { ...field, value: 'terse' } : field)) }],
  };
  const other = new FormState(changed);
  assert.equal(other.restore(saved), false, 'config.json changed meanwhile: the old edits are dropped');
  assert.equal(other.isDirty(), false);
  assert.equal(new FormState(model).restore({ junk: true }), false);
});
