// Skill configuration: meta-schema checks, each validation kind and its message, ${VAR}, x-env-var, secrets, defaults and redaction.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  checkConfigSchema,
  redactConfig,
  REDACTED_VALUE,
  resolveConfig,
  substituteVariables,
  validateConfigValues,
  type ConfigSchema,
  type SecretLookup,
} from '../../../src/runtime/skills/skillConfig.js';
import { configSchema } from './skillFixture.js';

const schema = configSchema(
  {
    style: { type: 'string', enum: ['terse', 'vivid', 'poetic'], default: 'vivid' },
    maxTokens: { type: 'integer', minimum: 1, maximum: 4096, default: 256, 'x-env-var': 'MAX_TOKENS' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    nickname: { type: 'string', minLength: 3, maxLength: 8 },
    code: { type: 'string', pattern: '^[a-z]+$' },
    verbose: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
    endpoint: { type: 'string', format: 'uri' },
    apiKey: { type: 'string', 'x-sensitive': true, 'x-env-var': 'TELLER_API_KEY', minLength: 10, pattern: '^sk-', format: 'password' },
  },
  { required: ['apiKey'] },
) as unknown as ConfigSchema;

const SECRET = 'sk-super-secret-value-123';
const messages = (problems: readonly { message: string }[]) => problems.map((problem) => problem.message);

test('checkConfigSchema accepts the repository shape and rejects what the meta-schema or common sense forbids', () => {
  assert.deepEqual(checkConfigSchema(schema).problems, []);
  const missing = checkConfigSchema({ type: 'object', properties: { a: { type: 'object' } } }, '/x/config-schema.json');
  assert.equal(missing.schema, undefined);
  assert.ok(
    missing.problems.every((problem) => problem.code === 'CONFIG_SCHEMA_INVALID' && problem.severity === 'error' && problem.file === '/x/config-schema.json'),
  );
  assert.ok(
    missing.problems.some((problem) => problem.message.includes('"$schema"')),
    messages(missing.problems).join('\n'),
  );
  assert.ok(
    missing.problems.some((problem) => problem.pointer === '/properties/a/type'),
    JSON.stringify(missing.problems),
  );
  const odd = checkConfigSchema(configSchema({ a: { type: 'string', pattern: '(' }, n: { type: 'number', minimum: 5, maximum: 1 } }, { required: ['b'] }));
  assert.deepEqual(messages(odd.problems), [
    'config-schema.json: the pattern of "a" is not a valid regular expression: (',
    'config-schema.json: "n" has minimum 5 above its maximum 1',
    'config-schema.json: required lists "b", which is not one of the properties',
  ]);
});

test('each validation kind names the field, the expectation and the actual value', () => {
  const problems = validateConfigValues(
    { style: 'flowery', maxTokens: 'many', temperature: 3, nickname: 'Al', code: 'ABC', tags: ['ok', 'toolong'], styel: 'x' },
    schema,
    { configFile: '/s/config.json' },
  );
  assert.deepEqual(messages(problems), [
    'config.json: "apiKey" is required but has no value; add it to config.json, set the environment variable TELLER_API_KEY, store it in the secret store or give it a default in config-schema.json.',
    'config.json: "style" must be one of "terse", "vivid", "poetic", but is "flowery"',
    'config.json: "maxTokens" must be an integer, but is a string ("many")',
    'config.json: "temperature" must be between 0 and 2, but is 3',
    'config.json: "nickname" must be at least 3 characters long, but is 2 characters long',
    'config.json: "code" must match the pattern ^[a-z]+$, but "ABC" does not',
    'config.json: "tags" item 1 must be at most 5 characters long, but is 7 characters long',
    'config.json: unknown field "styel" (ignored by the schema); did you mean "style"?',
  ]);
  assert.deepEqual(
    problems.map((problem) => problem.code),
    ['CONFIG_REQUIRED', 'CONFIG_ENUM', 'CONFIG_TYPE', 'CONFIG_RANGE', 'CONFIG_LENGTH', 'CONFIG_PATTERN', 'CONFIG_LENGTH', 'CONFIG_UNKNOWN_FIELD'],
  );
  assert.deepEqual(
    problems.map((problem) => problem.pointer),
    ['/apiKey', '/style', '/maxTokens', '/temperature', '/nickname', '/code', '/tags/1', '/styel'],
  );
  assert.ok(problems.every((problem) => problem.file === '/s/config.json'));
  assert.equal(problems.at(-1)!.severity, 'warning');
  const typo = validateConfigValues({ style: 'vivdi', apiKey: SECRET }, schema);
  assert.deepEqual(messages(typo), ['config.json: "style" must be one of "terse", "vivid", "poetic", but is "vivdi"; did you mean "vivid"?']);
  const bounds = validateConfigValues({ maxTokens: 0, nickname: 'much too long', apiKey: SECRET, temperature: -1 }, schema);
  assert.deepEqual(messages(bounds), [
    'config.json: "maxTokens" must be between 1 and 4096, but is 0',
    'config.json: "nickname" must be at most 8 characters long, but is 13 characters long',
    'config.json: "temperature" must be between 0 and 2, but is -1',
  ]);
});

test('sensitive values never appear in problems, whatever rule they break', async () => {
  const sensitive = configSchema({
    apiKey: { type: 'string', 'x-sensitive': true, minLength: 40, maxLength: 41, pattern: '^pk-', enum: ['pk-a'] },
  }) as unknown as ConfigSchema;
  const problems = validateConfigValues({ apiKey: SECRET }, sensitive);
  assert.deepEqual(
    problems.map((problem) => problem.code),
    ['CONFIG_ENUM', 'CONFIG_LENGTH', 'CONFIG_PATTERN'],
  );
  assert.ok(
    problems.every((problem) => !problem.message.includes(SECRET) && !problem.message.includes('super')),
    messages(problems).join('\n'),
  );
  assert.match(problems[0]!.message, /must be one of "pk-a", but is not one of them/);
  const wrongType = validateConfigValues({ apiKey: 12345 }, sensitive);
  assert.deepEqual(messages(wrongType), ['config.json: "apiKey" must be a string, but is a number']);
  const resolved = await resolveConfig({ skill: 'teller', schema: sensitive, values: { apiKey: SECRET } });
  assert.ok(resolved.problems.some((problem) => problem.code === 'CONFIG_SECRET_IN_FILE'));
  assert.ok(!JSON.stringify(resolved.problems).includes(SECRET));
  assert.equal(resolved.values['apiKey'], SECRET, 'the effective value itself is kept for the script');
});

test('${VAR} is substituted in strings from the caller environment; an unset variable makes the field absent', async () => {
  assert.deepEqual(substituteVariables({ a: 'x-${A}-${B}', list: ['${A}'], n: 1 }, { A: '1' }), {
    value: { a: 'x-1-${B}', list: ['1'], n: 1 },
    missing: ['B'],
    substituted: true,
  });
  const resolved = await resolveConfig({
    skill: 'teller',
    schema,
    values: { endpoint: 'https://${HOST}/v1', maxTokens: '${TOKENS}', style: '${STYLE}', apiKey: '${KEY}' },
    environment: { HOST: 'example.org', TOKENS: '512', KEY: SECRET },
    configFile: '/s/config.json',
  });
  assert.equal(resolved.values['endpoint'], 'https://example.org/v1');
  assert.equal(resolved.values['maxTokens'], 512, 'a whole-value variable is converted to the field type');
  assert.equal(resolved.values['style'], 'vivid', 'STYLE is unset: the default applies');
  assert.equal(resolved.values['apiKey'], SECRET);
  assert.deepEqual(resolved.sources['maxTokens'], { kind: 'variable', written: '${TOKENS}' });
  assert.deepEqual(messages(resolved.problems), ['config.json: "style" uses ${STYLE}, which the environment does not set; the field is treated as absent']);
  const wrong = await resolveConfig({
    skill: 'teller',
    schema,
    values: { maxTokens: '${TOKENS}', apiKey: SECRET.replace('sk-', '${P}') },
    environment: { TOKENS: 'lots', P: 'sk-' },
  });
  assert.deepEqual(messages(wrong.problems), ['config.json: "maxTokens" (written as "${TOKENS}") must be an integer, but is a string']);
});

test('x-env-var fills an absent field (converted to its type); config.json wins when it has a value', async () => {
  const fromEnvironment = await resolveConfig({ skill: 'teller', schema, values: { apiKey: '${K}' }, environment: { MAX_TOKENS: '1024', K: SECRET } });
  assert.equal(fromEnvironment.values['maxTokens'], 1024);
  assert.deepEqual(fromEnvironment.sources['maxTokens'], { kind: 'environment', variable: 'MAX_TOKENS' });
  const fromFile = await resolveConfig({ skill: 'teller', schema, values: { maxTokens: 8, apiKey: '${K}' }, environment: { MAX_TOKENS: '1024', K: SECRET } });
  assert.equal(fromFile.values['maxTokens'], 8);
  const secretFromEnvironment = await resolveConfig({ skill: 'teller', schema, values: {}, environment: { TELLER_API_KEY: SECRET } });
  assert.equal(secretFromEnvironment.values['apiKey'], SECRET);
  assert.deepEqual(secretFromEnvironment.problems, []);
  const badEnvironment = await resolveConfig({ skill: 'teller', schema, values: {}, environment: { MAX_TOKENS: '99999', TELLER_API_KEY: 'sk-short' } });
  assert.deepEqual(messages(badEnvironment.problems), [
    '"maxTokens" (from the environment variable MAX_TOKENS) must be between 1 and 4096, but is larger',
    '"apiKey" (from the environment variable TELLER_API_KEY) must be at least 10 characters long, but is shorter',
  ]);
  assert.ok(badEnvironment.problems.every((problem) => problem.file === undefined));
});

test('defaults apply to absent fields and are checked against their own rules', async () => {
  const resolved = await resolveConfig({ skill: 'teller', schema, values: { apiKey: '${K}' }, environment: { K: SECRET } });
  assert.deepEqual(resolved.values, { style: 'vivid', maxTokens: 256, verbose: false, apiKey: SECRET });
  assert.deepEqual(resolved.problems, []);
  const badDefault = configSchema({ mode: { type: 'string', enum: ['a', 'b'], default: 'c' } }) as unknown as ConfigSchema;
  const checked = await resolveConfig({ skill: 'x', schema: badDefault, values: {}, schemaFile: '/s/config-schema.json' });
  assert.deepEqual(messages(checked.problems), ['config-schema.json: the default of "mode" must be one of "a", "b", but is "c"']);
  assert.equal(checked.problems[0]!.file, '/s/config-schema.json');
  assert.equal(checked.problems[0]!.pointer, '/properties/mode/default');
});

test('a secret lookup supplies sensitive fields before x-env-var; its failure falls back with a warning', async () => {
  const asked: string[] = [];
  const store = new Map([['teller/apiKey', SECRET]]);
  const secrets: SecretLookup = async (skill, key) => {
    asked.push(`${skill}/${key}`);
    return store.get(`${skill}/${key}`);
  };
  const resolved = await resolveConfig({ skill: 'teller', schema, values: {}, secrets, environment: { TELLER_API_KEY: 'sk-from-environment' } });
  assert.equal(resolved.values['apiKey'], SECRET);
  assert.deepEqual(resolved.sources['apiKey'], { kind: 'secret' });
  assert.deepEqual(asked, ['teller/apiKey'], 'only sensitive fields are looked up');
  const failing: SecretLookup = async () => {
    throw new Error('keychain locked');
  };
  const fallback = await resolveConfig({ skill: 'teller', schema, values: {}, secrets: failing, environment: { TELLER_API_KEY: 'sk-from-environment' } });
  assert.equal(fallback.values['apiKey'], 'sk-from-environment');
  assert.deepEqual(messages(fallback.problems), ['the secret store could not provide "apiKey": keychain locked']);
});

test('redactConfig masks sensitive values that are set, and only those', () => {
  assert.deepEqual(redactConfig({ apiKey: SECRET, style: 'vivid', extra: 1 }, schema), { apiKey: REDACTED_VALUE, style: 'vivid', extra: 1 });
  assert.deepEqual(redactConfig({ apiKey: '' }, schema), { apiKey: '' });
  assert.deepEqual(redactConfig({ apiKey: SECRET }, undefined), { apiKey: SECRET }, 'without a schema nothing is known to be sensitive');
});

test('additionalProperties: false makes an unknown field an error and keeps it from the effective config', async () => {
  const strict = configSchema({ style: { type: 'string' } }, { additionalProperties: false }) as unknown as ConfigSchema;
  const resolved = await resolveConfig({ skill: 'x', schema: strict, values: { style: 'a', colour: 'red' } });
  assert.deepEqual(resolved.values, { style: 'a' });
  assert.deepEqual(
    resolved.problems.map((problem) => [problem.severity, problem.code]),
    [['error', 'CONFIG_UNKNOWN_FIELD']],
  );
  assert.match(resolved.problems[0]!.message, /the fields are "style"/);
});
