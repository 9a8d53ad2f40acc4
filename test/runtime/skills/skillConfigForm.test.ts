// Configure Skill form logic: the model per field type, validation messages by field, and saving (config.json kept intact, secrets only in the store) over real temp dirs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import { buildConfigForm, formBaseline } from '../../../src/runtime/skills/skillConfigForm.js';
import { readConfigFormSource, saveConfig, type SkillSecretStore } from '../../../src/runtime/skills/skillConfigSave.js';
import { validateConfigForm } from '../../../src/runtime/skills/skillConfigFormValidation.js';
import type { ConfigSchema } from '../../../src/runtime/skills/skillConfig.js';
import type { Skill } from '../../../src/runtime/skills/skillTypes.js';
import type { ConfigFormField, ConfigFormModel } from '../../../src/protocol/configFormMessages.js';
import { configSchema, createTempStory, type TempStory } from './skillFixture.js';

const repositorySkills = path.resolve(import.meta.dirname, '../../../skills');
const SECRET = 'sk-live-0123456789-top-secret';

/** In-memory SkillSecretStore that records every call (values stay inside). */
class MemorySecretStore implements SkillSecretStore {
  readonly values = new Map<string, string>();
  readonly calls: string[] = [];
  failStore = false;
  async get(skill: string, key: string) {
    this.calls.push(`get ${skill}.${key}`);
    return this.values.get(`${skill}.${key}`);
  }
  async store(skill: string, key: string, value: string) {
    this.calls.push(`store ${skill}.${key}`);
    if (this.failStore) throw new Error('keychain locked');
    this.values.set(`${skill}.${key}`, value);
  }
  async delete(skill: string, key: string) {
    this.calls.push(`delete ${skill}.${key}`);
    this.values.delete(`${skill}.${key}`);
  }
}

const wideSchema = configSchema(
  {
    name: { type: 'string', title: 'Name', minLength: 2, pattern: '^[A-Za-z ]+$', 'x-category': 'Identity' },
    notes: { type: 'string', format: 'textarea', 'x-category': 'Identity' },
    homepage: { type: 'string', format: 'uri' },
    contact: { type: 'string', format: 'email' },
    pin: { type: 'string', format: 'password' },
    maxTokens: { type: 'integer', minimum: 1, maximum: 4096, default: 256, 'x-env-var': 'MAX_TOKENS', 'x-category': 'Limits' },
    temperature: { type: 'number', minimum: 0, maximum: 2, 'x-category': 'Limits' },
    verbose: { type: 'boolean', default: false },
    style: { type: 'string', enum: ['terse', 'vivid', 'poetic'], default: 'vivid', 'x-category': 'Identity' },
    tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
    moods: { type: 'array', items: { type: 'string', enum: ['calm', 'tense'] } },
    weights: { type: 'array', items: { type: 'number' } },
    rules: { type: 'array', items: { type: 'object' } },
    apiKey: { type: 'string', title: 'API key', 'x-sensitive': true, 'x-env-var': 'TELLER_API_KEY', minLength: 10, pattern: '^sk-' },
    token: { type: 'string', 'x-sensitive': true },
  },
  { required: ['name', 'maxTokens', 'apiKey', 'token'] },
);

async function loadSkill(story: TempStory, directory: string, files: Record<string, unknown>): Promise<Skill> {
  story.skill(directory, {}, files);
  const { skills } = await discoverSkills({ root: story.root });
  const skill = skills.find((candidate) => candidate.name === directory);
  assert.ok(skill, `skill ${directory} loads`);
  return skill;
}

const fieldsOf = (model: ConfigFormModel) => new Map(model.categories.flatMap((category) => category.fields).map((field) => [field.key, field]));
const field = (model: ConfigFormModel, key: string): ConfigFormField => fieldsOf(model).get(key) ?? assert.fail(`no field ${key}`);
const messagesOf = (problems: { fields: Record<string, readonly { message: string }[]> }, key: string) =>
  (problems.fields[key] ?? []).map((problem) => problem.message);
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

test('the storyteller sample skill becomes a form with its categories, dropdowns and a masked secret', async () => {
  const story = createTempStory();
  try {
    const { skills } = await discoverSkills({ root: story.root, extraSkillRoots: [repositorySkills] });
    const storyteller = skills.find((skill) => skill.name === 'storyteller')!;
    const model = buildConfigForm(storyteller, { values: {}, secretsPresent: new Set(['apiKey']) });
    assert.equal(model.displayName, storyteller.displayName);
    assert.equal(model.title, 'Storyteller settings');
    assert.deepEqual(
      model.categories.map((category) => [category.name, category.fields.map((item) => item.key)]),
      [
        ['Narration', ['style']],
        ['Provider', ['provider', 'apiKey']],
      ],
    );
    const style = field(model, 'style');
    assert.equal(style.control, 'dropdown');
    assert.deepEqual(
      style.options?.map((option) => option.value),
      ['terse', 'vivid', 'poetic'],
    );
    assert.equal(style.default, 'vivid');
    assert.equal(style.title, 'Narrative style');
    const apiKey = field(model, 'apiKey');
    assert.equal(apiKey.control, 'password');
    assert.deepEqual(apiKey.secret, { stored: true, plainTextInConfig: false });
    assert.equal(apiKey.default, undefined, 'no default of a sensitive field');
    assert.equal(apiKey.envVar, 'STORYTELLER_API_KEY');
    assert.match(apiKey.envHint ?? '', /STORYTELLER_API_KEY is used/);
    assert.deepEqual(model.files, {
      config: { label: 'storyteller/config.json', exists: false },
      schema: { label: 'storyteller/config-schema.json', exists: true },
    });
    assert.deepEqual(model.problems, { fields: {}, general: [] });
  } finally {
    story.remove();
  }
});

test('each schema type gets its control, in schema order, grouped by x-category in order of first appearance', async () => {
  const story = createTempStory();
  try {
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema });
    const model = buildConfigForm(skill, { values: {}, secretsPresent: new Set() });
    assert.deepEqual(
      model.categories.map((category) => [category.name, category.fields.map((item) => item.key)]),
      [
        ['Identity', ['name', 'notes', 'style']],
        ['General', ['homepage', 'contact', 'pin', 'verbose', 'tags', 'moods', 'weights', 'rules', 'apiKey', 'token']],
        ['Limits', ['maxTokens', 'temperature']],
      ],
    );
    const controls = Object.fromEntries([...fieldsOf(model)].map(([key, item]) => [key, item.control]));
    assert.deepEqual(controls, {
      name: 'text',
      notes: 'textarea',
      style: 'dropdown',
      homepage: 'url',
      contact: 'email',
      pin: 'password',
      verbose: 'checkbox',
      tags: 'list',
      moods: 'list',
      weights: 'list',
      rules: 'json',
      apiKey: 'password',
      token: 'password',
      maxTokens: 'number',
      temperature: 'number',
    });
    assert.equal(field(model, 'pin').secret, undefined, 'format password alone is masked but not a secret');
    assert.deepEqual([field(model, 'maxTokens').minimum, field(model, 'maxTokens').maximum, field(model, 'maxTokens').step], [1, 4096, 1]);
    assert.equal(field(model, 'temperature').step, 'any');
    assert.deepEqual(field(model, 'tags').items, { control: 'text', type: 'string' });
    assert.deepEqual(field(model, 'moods').items, {
      control: 'dropdown',
      type: 'string',
      options: [
        { value: 'calm', label: 'calm' },
        { value: 'tense', label: 'tense' },
      ],
    });
    assert.deepEqual(field(model, 'weights').items, { control: 'number', type: 'number' });
    assert.equal(field(model, 'maxTokens').title, 'Max Tokens');
    assert.equal(field(model, 'maxTokens').envHint, 'When no value is set here, the environment variable MAX_TOKENS is used (if set).');
    assert.deepEqual(
      [...fieldsOf(model)].filter(([, item]) => item.required).map(([key]) => key),
      ['name', 'apiKey', 'token', 'maxTokens'],
    );
    // Nothing written: name and token are required without default; apiKey and maxTokens have other sources.
    assert.deepEqual(messagesOf(model.problems, 'name'), ['Required: enter a value.']);
    assert.deepEqual(messagesOf(model.problems, 'token'), ['Required: enter a value (it is kept in VS Code Secret Storage).']);
    assert.deepEqual(
      model.problems.fields['apiKey']?.map((problem) => problem.severity),
      ['warning'],
    );
    assert.equal(model.problems.fields['maxTokens'], undefined, 'the default satisfies required');
  } finally {
    story.remove();
  }
});

test('written values: references and values the control cannot show are kept as written; a plain-text secret is flagged, never shown', async () => {
  const story = createTempStory();
  try {
    const written = {
      name: 'Ada ${SURNAME}',
      maxTokens: '${MAX_TOKENS}',
      verbose: 'yes',
      style: 'flowery',
      tags: ['a', 'b'],
      apiKey: SECRET,
      token: '${TOKEN}',
      extra: 1,
    };
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': written });
    const model = buildConfigForm(skill, { values: written, secretsPresent: new Set() });
    assert.ok(!JSON.stringify(model).includes(SECRET), 'the plain-text secret never reaches the model');
    assert.deepEqual([field(model, 'name').value, field(model, 'name').fits, field(model, 'name').variables], ['Ada ${SURNAME}', true, ['SURNAME']]);
    assert.deepEqual([field(model, 'maxTokens').value, field(model, 'maxTokens').fits], ['${MAX_TOKENS}', false]);
    assert.deepEqual([field(model, 'verbose').value, field(model, 'verbose').fits], ['yes', false]);
    assert.equal(field(model, 'style').fits, true, 'an unknown enum value is shown in the dropdown (and flagged)');
    assert.deepEqual(field(model, 'apiKey').secret, { stored: false, plainTextInConfig: true });
    assert.deepEqual(field(model, 'token').secret, { stored: false, plainTextInConfig: false, reference: '${TOKEN}' });
    assert.equal(field(model, 'apiKey').value, undefined);
    assert.deepEqual(model.otherKeys, ['extra']);
    assert.deepEqual(messagesOf(model.problems, 'verbose'), ['Must be a boolean, but is a string ("yes").']);
    assert.deepEqual(messagesOf(model.problems, 'style'), ['Must be one of "terse", "vivid", "poetic", but is "flowery".']);
    assert.deepEqual(messagesOf(model.problems, 'apiKey'), [
      'config.json holds this value in plain text. Saving moves it to VS Code Secret Storage and removes it from config.json.',
    ]);
    assert.equal(model.problems.fields['maxTokens'], undefined, 'references are checked when the skill loads');
    assert.equal(model.problems.fields['token'], undefined);
    assert.deepEqual(
      model.problems.general.map((problem) => problem.message),
      ['config.json sets unknown field "extra" (ignored by the schema); the form keeps it as it is.'],
    );
    const typo = validateConfigForm(wideSchema as unknown as ConfigSchema, {}, { written: { styel: 'x' } }).general;
    assert.deepEqual(
      typo.map((problem) => problem.message),
      ['config.json sets unknown field "styel" (ignored by the schema); did you mean "style"? The form keeps it as it is.'],
    );
    assert.deepEqual(formBaseline(model), { name: 'Ada ${SURNAME}', maxTokens: '${MAX_TOKENS}', verbose: 'yes', style: 'flowery', tags: ['a', 'b'] });
  } finally {
    story.remove();
  }
});

test('validateConfigForm names each problem under its field, numbers list items from 1 and never echoes a secret', () => {
  const schema = wideSchema as unknown as ConfigSchema;
  const problems = validateConfigForm(
    schema,
    {
      name: 'A1',
      style: 'vivd',
      maxTokens: 5000,
      temperature: 2.5,
      tags: ['ok', 'toolong'],
      rules: '[{',
      apiKey: 'pk-123',
      token: 'x',
    },
    { secretsPresent: new Set() },
  );
  assert.deepEqual(problems.fields, {
    name: [{ severity: 'error', code: 'CONFIG_PATTERN', message: 'Must match the pattern ^[A-Za-z ]+$, but "A1" does not.' }],
    style: [{ severity: 'error', code: 'CONFIG_ENUM', message: 'Must be one of "terse", "vivid", "poetic", but is "vivd"; did you mean "vivid"?' }],
    maxTokens: [{ severity: 'error', code: 'CONFIG_RANGE', message: 'Must be between 1 and 4096, but is 5000.' }],
    temperature: [{ severity: 'error', code: 'CONFIG_RANGE', message: 'Must be between 0 and 2, but is 2.5.' }],
    tags: [{ severity: 'error', code: 'CONFIG_LENGTH', message: 'Item 2 must be at most 5 characters long, but is 7 characters long.' }],
    rules: [{ severity: 'error', code: 'CONFIG_FORM_JSON_TEXT', message: 'Enter a JSON array, for example ["first", "second"].' }],
    apiKey: [
      { severity: 'error', code: 'CONFIG_LENGTH', message: 'Must be at least 10 characters long, but is shorter.' },
      { severity: 'error', code: 'CONFIG_PATTERN', message: 'Must match the pattern ^sk-, but the value does not.' },
    ],
  });
  assert.ok(!JSON.stringify(problems).includes('pk-123'));
  // Required: a stored secret counts, a cleared one does not; an env var turns the error into a warning.
  const required = validateConfigForm(schema, { name: 'Ada' }, { secretsPresent: new Set(['apiKey', 'token']), clearSecrets: ['token'] });
  assert.deepEqual(required.fields, {
    token: [{ severity: 'error', code: 'CONFIG_REQUIRED', message: 'Required: enter a value (it is kept in VS Code Secret Storage).' }],
  });
  const cleared = validateConfigForm(schema, { name: 'Ada', token: 'new' }, { clearSecrets: ['apiKey'] });
  assert.deepEqual(cleared.fields, {
    apiKey: [
      {
        severity: 'warning',
        code: 'CONFIG_REQUIRED',
        message: 'Required: with no value here, the environment variable TELLER_API_KEY must be set when the skill loads.',
      },
    ],
  });
  assert.deepEqual(validateConfigForm(schema, { name: '${WHO}', maxTokens: '${N}', token: '${T}' }).fields, {
    apiKey: [
      {
        severity: 'warning',
        code: 'CONFIG_REQUIRED',
        message: 'Required: with no value here, the environment variable TELLER_API_KEY must be set when the skill loads.',
      },
    ],
  });
});

test('saveConfig writes edited fields atomically, keeps unmanaged keys and unedited ${VAR} references, and unsets reset fields', async () => {
  const story = createTempStory();
  try {
    const written = { extra: { keep: true }, name: 'Ada', maxTokens: '${MAX_TOKENS}', temperature: 0.5, tags: ['x'], token: '${TOKEN}' };
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': written });
    const store = new MemorySecretStore();
    const before = buildConfigForm(skill, { values: written, secretsPresent: new Set() });
    const result = await saveConfig({
      skill,
      secretStore: store,
      baseline: formBaseline(before),
      submitted: { name: 'Grace', maxTokens: '${MAX_TOKENS}', tags: ['x', 'y'], verbose: true, style: 'terse', apiKey: 'sk-0123456789' },
    });
    assert.deepEqual(result, { ok: true, configFile: path.join(skill.directory, 'config.json'), wroteConfig: true, notices: [] });
    assert.deepEqual(readJson(path.join(skill.directory, 'config.json')), {
      extra: { keep: true },
      name: 'Grace',
      maxTokens: '${MAX_TOKENS}',
      tags: ['x', 'y'],
      token: '${TOKEN}',
      verbose: true,
      style: 'terse',
    });
    assert.equal(fs.readFileSync(path.join(skill.directory, 'config.json'), 'utf8').endsWith('}\n'), true);
    assert.deepEqual([...store.values], [['wide.apiKey', 'sk-0123456789']]);
    assert.deepEqual(
      fs.readdirSync(skill.directory).filter((name) => name.endsWith('.tmp')),
      [],
      'no temp file left',
    );
  } finally {
    story.remove();
  }
});

test('a field edited elsewhere while the form was open is not overwritten when the form did not edit it', async () => {
  const story = createTempStory();
  try {
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': { name: 'Ada', temperature: 1 } });
    const model = buildConfigForm(skill, { values: { name: 'Ada', temperature: 1 }, secretsPresent: new Set() });
    fs.writeFileSync(path.join(skill.directory, 'config.json'), JSON.stringify({ name: 'Ada', temperature: 1.5, style: 'poetic' }));
    const result = await saveConfig({
      skill,
      secretStore: new MemorySecretStore(),
      baseline: formBaseline(model),
      submitted: { name: 'Ada Lovelace', temperature: 1, token: 'tok' },
    });
    assert.equal(result.ok, true);
    assert.deepEqual(readJson(path.join(skill.directory, 'config.json')), { name: 'Ada Lovelace', temperature: 1.5, style: 'poetic' });
  } finally {
    story.remove();
  }
});

test('sensitive values go only to the secret store: a plain-text one moves out of config.json (with a notice), empty keeps, clear deletes', async () => {
  const story = createTempStory();
  try {
    const configFile = path.join(story.base, 'story/skills/wide/config.json');
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': { name: 'Ada', apiKey: SECRET } });
    const store = new MemorySecretStore();
    store.values.set('wide.token', 'stored-token');
    // Not typed: the plain-text key is migrated, the stored token kept.
    const moved = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', apiKey: '', token: '' } });
    assert.ok(moved.ok);
    assert.deepEqual(moved.notices, ['Moved "API key" out of config.json, where it was in plain text, into VS Code Secret Storage.']);
    assert.deepEqual(readJson(configFile), { name: 'Ada' });
    assert.deepEqual(Object.fromEntries(store.values), { 'wide.apiKey': SECRET, 'wide.token': 'stored-token' });
    assert.ok(!JSON.stringify(moved).includes(SECRET));
    // Clear deletes the stored secret; the apiKey then has only its env var (a warning, so saving proceeds).
    const cleared = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', token: 'fresh-token' }, clearSecrets: ['apiKey'] });
    assert.deepEqual(cleared, { ok: true, configFile, wroteConfig: false, notices: ['Removed the stored "API key" from VS Code Secret Storage.'] });
    assert.deepEqual(Object.fromEntries(store.values), { 'wide.token': 'fresh-token' });
    // A whole ${VAR} typed into a sensitive field is a reference for config.json, not a secret.
    const referenced = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', apiKey: '${TELLER_API_KEY}' } });
    assert.ok(referenced.ok);
    assert.deepEqual(readJson(configFile), { name: 'Ada', apiKey: '${TELLER_API_KEY}' });
    // A new secret replaces the reference so that the stored value is the one used.
    const replaced = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', apiKey: 'sk-9876543210' } });
    assert.ok(replaced.ok);
    assert.deepEqual(replaced.notices, ['Removed "${TELLER_API_KEY}" for "API key" from config.json, so the value in VS Code Secret Storage is used.']);
    assert.deepEqual(readJson(configFile), { name: 'Ada' });
    assert.equal(store.values.get('wide.apiKey'), 'sk-9876543210');
  } finally {
    story.remove();
  }
});

test('saveConfig refuses, writing nothing, when config.json is not JSON, a value is invalid or the secret store fails', async () => {
  const story = createTempStory();
  try {
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': { name: 'Ada', apiKey: SECRET } });
    const configFile = path.join(skill.directory, 'config.json');
    const store = new MemorySecretStore();
    const invalid = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', maxTokens: 0, token: 't' } });
    assert.equal(invalid.ok, false);
    assert.ok(!invalid.ok && invalid.message === 'Nothing was saved: "Max Tokens": Must be between 1 and 4096, but is 0.', JSON.stringify(invalid));
    assert.ok(!invalid.ok && invalid.problems?.fields['maxTokens']?.length === 1);
    store.failStore = true;
    const locked = await saveConfig({ skill, secretStore: store, submitted: { name: 'Ada', token: 't' } });
    assert.deepEqual(locked, { ok: false, message: 'VS Code Secret Storage could not store "API key" (keychain locked). config.json was not changed.' });
    assert.deepEqual(readJson(configFile), { name: 'Ada', apiKey: SECRET }, 'the plain-text secret is not lost when it cannot be moved');
    const broken = '{ "name": "Ada", oops }';
    fs.writeFileSync(configFile, broken);
    store.failStore = false;
    const refused = await saveConfig({ skill, secretStore: store, submitted: { name: 'Grace', token: 't' } });
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.message : '', /^config\.json is not valid JSON \(.+\)\. Nothing was saved: fix or delete the file first\.$/);
    assert.equal(fs.readFileSync(configFile, 'utf8'), broken);
    assert.equal(store.values.size, 0);
  } finally {
    story.remove();
  }
});

test('saving with nothing to write does not create config.json', async () => {
  const story = createTempStory();
  try {
    const skill = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema });
    const result = await saveConfig({ skill, secretStore: new MemorySecretStore(), submitted: { name: 'Ada', token: 'secret-token' } });
    assert.ok(result.ok && result.wroteConfig);
    assert.deepEqual(readJson(path.join(skill.directory, 'config.json')), { name: 'Ada' });
    const other = await loadSkill(story, 'empty', { 'config-schema.json': configSchema({ on: { type: 'boolean', default: true } }) });
    const nothing = await saveConfig({ skill: other, secretStore: new MemorySecretStore(), submitted: {} });
    assert.deepEqual(nothing, { ok: true, configFile: path.join(other.directory, 'config.json'), wroteConfig: false, notices: [] });
    assert.equal(fs.existsSync(path.join(other.directory, 'config.json')), false);
  } finally {
    story.remove();
  }
});

test('readConfigFormSource re-reads the schema and config.json, or says why there is no form', async () => {
  const story = createTempStory();
  try {
    const store = new MemorySecretStore();
    store.values.set('wide.token', 'stored');
    const wide = await loadSkill(story, 'wide', { 'config-schema.json': wideSchema, 'config.json': { name: '${WHO}' } });
    const ready = await readConfigFormSource(wide, store);
    assert.equal(ready.kind, 'ready');
    if (ready.kind === 'ready') {
      assert.deepEqual(ready.current.values, { name: '${WHO}' });
      assert.deepEqual([...ready.current.secretsPresent], ['token']);
      assert.equal(ready.current.configExists, true);
    }
    const bare = await loadSkill(story, 'bare', {});
    const none = await readConfigFormSource(bare, store);
    assert.deepEqual(none, {
      kind: 'unavailable',
      message: 'bare has no config-schema.json, so it has no settings to configure. Add a config schema to describe them.',
    });
    fs.writeFileSync(path.join(wide.directory, 'config-schema.json'), JSON.stringify(configSchema({ a: { type: 'object' } })));
    const invalid = await readConfigFormSource(wide, store);
    assert.equal(invalid.kind, 'unavailable');
    assert.match(invalid.kind === 'unavailable' ? invalid.message : '', /^config-schema\.json of wide is not a valid config schema: /);
    assert.equal(invalid.kind === 'unavailable' ? invalid.schemaFile : '', path.join(wide.directory, 'config-schema.json'));
    fs.writeFileSync(path.join(wide.directory, 'config-schema.json'), JSON.stringify(wideSchema));
    fs.writeFileSync(path.join(wide.directory, 'config.json'), '[1, 2]');
    const unusable = await readConfigFormSource(wide, store);
    assert.ok(unusable.kind === 'ready');
    const model = buildConfigForm(unusable.skill, unusable.current);
    assert.equal(model.configError, 'config.json does not hold a JSON object.');
    assert.deepEqual(model.otherKeys, []);
  } finally {
    story.remove();
  }
});
