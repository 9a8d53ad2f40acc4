// The Configure Skill form's logic: builds the form model from a skill's config schema, validates submitted values and saves them (config.json atomically, sensitive values only to the secret store). Never imports vscode; never logs or returns a secret.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeJsonAtomic } from '../common/atomicWrite.js';
import { errorMessage } from '../common/errors.js';
import { checkConfigSchema, validateConfigValues, type ConfigField, type ConfigSchema } from './skillConfig.js';
import { resolveInside, SkillProblemCode } from './skillProblems.js';
import type { Skill, SkillProblem } from './skillTypes.js';
import type {
  ConfigControlKind, ConfigFormCategory, ConfigFormField, ConfigFormModel, ConfigFormOption, ConfigFormProblem, ConfigFormProblems,
  ConfigFormValues, ConfigListItems, JsonValue,
} from '../../protocol/configFormMessages.js';

/** Port: where sensitive values are kept (VS Code's SecretStorage in the extension; an in-memory fake in tests). */
export interface SkillSecretStore {
  get(skill: string, key: string): Promise<string | undefined>;
  store(skill: string, key: string, value: string): Promise<void>;
  delete(skill: string, key: string): Promise<void>;
}

/** What the form starts from besides the schema. */
export interface ConfigFormCurrent {
  /** config.json as written (raw: `${VAR}` references are not substituted); `{}` when absent or unusable. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Sensitive fields that have a value in the secret store (only whether, never the value). */
  readonly secretsPresent: ReadonlySet<string>;
  /** Why config.json cannot be used (not JSON, not an object, unreadable); the form is then read-only. */
  readonly configError?: string | undefined;
  /** Whether config.json exists (default: the skill's `configFile` is set). */
  readonly configExists?: boolean | undefined;
}

/** Codes of problems only the form reports (the others are SkillProblemCode values). */
export const ConfigFormProblemCode = {
  /** A json control holds text that is not the JSON the field needs. */
  JSON_TEXT: 'CONFIG_FORM_JSON_TEXT',
} as const;

const GENERAL_CATEGORY = 'General';
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Builds the form of `skill` (which must have a checked `configSchema`): fields in schema order,
 * grouped by `x-category` in order of first appearance, each with its control, the value config.json
 * holds (never for sensitive fields: only whether a secret is stored), and the validation of those values.
 */
export function buildConfigForm(skill: Skill, current: ConfigFormCurrent): ConfigFormModel {
  const schema = requireSchema(skill);
  const categories = new Map<string, ConfigFormField[]>();
  for (const [key, field] of Object.entries(schema.properties)) {
    const formField = buildField(key, field, schema, current);
    const list = categories.get(formField.category) ?? [];
    list.push(formField);
    categories.set(formField.category, list);
  }
  const written = current.configError === undefined ? current.values : {};
  const initial: Record<string, JsonValue> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    if (field['x-sensitive'] !== true && Object.hasOwn(written, key) && written[key] !== undefined) initial[key] = written[key] as JsonValue;
  }
  const problems = validateConfigForm(schema, initial, { secretsPresent: current.secretsPresent, written });
  const parent = path.dirname(skill.directory);
  const schemaFile = skill.configSchemaFile ?? path.join(skill.directory, skill.manifest.configSchema ?? 'config-schema.json');
  return {
    skill: skill.name,
    displayName: skill.displayName,
    ...(schema.title !== undefined ? { title: schema.title } : {}),
    ...(schema.description !== undefined ? { description: schema.description } : {}),
    categories: [...categories].map(([name, fields]): ConfigFormCategory => ({ name, fields })),
    files: {
      config: { label: toLabel(path.relative(parent, configFileOf(skill))), exists: current.configExists ?? skill.configFile !== undefined },
      schema: { label: toLabel(path.relative(parent, schemaFile)), exists: true },
    },
    ...(current.configError !== undefined ? { configError: current.configError } : {}),
    otherKeys: Object.keys(written).filter((key) => !Object.hasOwn(schema.properties, key)),
    problems,
  };
}

/** Context of {@link validateConfigForm}. */
export interface ConfigFormValidationContext {
  /** Sensitive fields with a stored secret. */
  readonly secretsPresent?: ReadonlySet<string> | undefined;
  /** Sensitive fields whose stored secret is to be deleted. */
  readonly clearSecrets?: readonly string[] | undefined;
  /** config.json as written, to recognise plain-text secrets and fields it sets that the schema lacks. */
  readonly written?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Validates the form's values (see {@link ConfigFormValues}) with the runtime's checks
 * (`validateConfigValues`), keyed by field. Values with `${VAR}` references are checked when the
 * skill loads, not here. A sensitive value is checked only when a new one is typed, and no message
 * ever shows it. A missing required value is an error, or a warning when an `x-env-var` may supply it.
 */
export function validateConfigForm(schema: ConfigSchema, values: ConfigFormValues, context: ConfigFormValidationContext = {}): ConfigFormProblems {
  const fields: Record<string, ConfigFormProblem[]> = {};
  const add = (key: string, problem: ConfigFormProblem) => (fields[key] ??= []).push(problem);
  const written = context.written ?? {};
  const required = new Set(schema.required ?? []);
  const checked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    const value = Object.hasOwn(values, key) ? values[key] : undefined;
    let present = value !== undefined || field.default !== undefined;
    if (field['x-sensitive'] === true) {
      const typed = typeof value === 'string' && value !== '' ? value : undefined;
      const cleared = context.clearSecrets?.includes(key) === true && typed === undefined;
      const plain = isPlainSecret(written[key]);
      if (value !== undefined && typeof value !== 'string') add(key, error(SkillProblemCode.CONFIG_TYPE, 'Must be text.'));
      else if (typed !== undefined && !hasReference(typed)) checked[key] = typed;
      present = typed !== undefined || field.default !== undefined || hasReference(written[key])
        || (!cleared && (plain || context.secretsPresent?.has(key) === true));
      if (plain && typed === undefined && !cleared) {
        add(key, warning(SkillProblemCode.CONFIG_SECRET_IN_FILE, 'config.json holds this value in plain text. Saving moves it to VS Code Secret Storage and removes it from config.json.'));
      }
    } else if (value !== undefined && !hasReference(value)) {
      if (field.type === 'array' && typeof value === 'string') add(key, error(ConfigFormProblemCode.JSON_TEXT, 'Enter a JSON array, for example ["first", "second"].'));
      else checked[key] = value;
    }
    if (required.has(key) && !present) add(key, requiredProblem(field));
  }
  for (const problem of validateConfigValues(checked, { ...schema, required: [] })) {
    const key = keyOfPointer(problem.pointer);
    if (key !== undefined) add(key, { severity: problem.severity, code: problem.code, message: fieldMessage(problem.message, key) });
  }
  const general: ConfigFormProblem[] = [];
  const unknown = Object.fromEntries(Object.entries(written).filter(([key]) => !Object.hasOwn(schema.properties, key)));
  for (const problem of validateConfigValues(unknown, { ...schema, required: [] })) {
    // The form lists the schema's fields already: keep a did-you-mean, drop the full list.
    const message = problem.message.replace(/^config\.json: /, 'config.json sets ').replace(/; the fields are .*$/, '');
    const consequence = schema.additionalProperties === false ? 'remove it from config.json: the skill reports it as an error' : 'the form keeps it as it is';
    const sentence = message.endsWith('?') ? `${message} ${consequence.charAt(0).toUpperCase()}${consequence.slice(1)}.` : `${message}; ${consequence}.`;
    general.push({ severity: 'warning', code: problem.code, message: sentence });
  }
  return { fields, general };
}

/** Inputs of {@link saveConfig}. */
export interface SaveConfigOptions {
  readonly skill: Skill;
  readonly submitted: ConfigFormValues;
  /** Sensitive fields whose stored secret (and any plain-text copy in config.json) is to be deleted. */
  readonly clearSecrets?: readonly string[] | undefined;
  readonly secretStore: SkillSecretStore;
  /**
   * The config.json values the form was opened with. A field submitted equal to its baseline was not
   * edited and stays as config.json has it now (`${VAR}` references, concurrent edits). Default: config.json now.
   */
  readonly baseline?: Readonly<Record<string, unknown>> | undefined;
}

/** Outcome of {@link saveConfig}: expected failures are data. */
export type SaveConfigResult =
  | { readonly ok: true; readonly configFile: string; readonly wroteConfig: boolean; readonly notices: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly problems?: ConfigFormProblems };

/**
 * Saves the form: validates, stores new and migrated secrets, writes config.json atomically (keys
 * the form does not manage are kept, unedited fields are left as written), then deletes cleared
 * secrets. Refuses, writing nothing, when config.json is not a JSON object or a value is invalid.
 */
export async function saveConfig(options: SaveConfigOptions): Promise<SaveConfigResult> {
  const { skill, submitted, secretStore } = options;
  const schema = skill.configSchema as ConfigSchema | undefined;
  if (!schema) return { ok: false, message: `${skill.displayName} has no valid config-schema.json, so its configuration cannot be saved.` };
  const configFile = configFileOf(skill);
  const read = await readConfigFile(configFile);
  if (read.error !== undefined) return { ok: false, message: `${read.error} Nothing was saved: fix or delete the file first.` };
  const written = read.values;
  const clearSecrets = options.clearSecrets ?? [];
  const sensitiveKeys = Object.keys(schema.properties).filter((key) => schema.properties[key]?.['x-sensitive'] === true);
  let secretsPresent: Set<string>;
  try {
    secretsPresent = await storedSecrets(skill.name, sensitiveKeys, secretStore);
  } catch (cause) {
    return { ok: false, message: `VS Code Secret Storage could not be read (${errorMessage(cause)}). Nothing was saved.` };
  }
  const problems = validateConfigForm(schema, submitted, { secretsPresent, clearSecrets, written });
  const errors = Object.entries(problems.fields).flatMap(([key, list]) => list.filter((problem) => problem.severity === 'error').map((problem) => ({ key, problem })));
  if (errors.length > 0) {
    const first = errors[0]!;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return { ok: false, message: `Nothing was saved: ${titleOf(first.key, schema.properties[first.key])}: ${first.problem.message}${more}`, problems };
  }

  const baseline = options.baseline ?? written;
  const next: Record<string, unknown> = { ...written };
  const secretWrites: [key: string, value: string][] = [];
  const secretDeletes: string[] = [];
  const notices: string[] = [];
  for (const [key, field] of Object.entries(schema.properties)) {
    const title = titleOf(key, field);
    const value = Object.hasOwn(submitted, key) ? submitted[key] : undefined;
    if (field['x-sensitive'] !== true) {
      if (value !== undefined) {
        if (!(Object.hasOwn(baseline, key) && sameJson(value, baseline[key]))) next[key] = value;
      } else if (Object.hasOwn(baseline, key)) {
        delete next[key];
      }
      continue;
    }
    const typed = typeof value === 'string' && value !== '' ? value : undefined;
    const before = written[key];
    if (typed !== undefined && WHOLE_REFERENCE.test(typed)) {
      next[key] = typed;
    } else if (typed !== undefined) {
      secretWrites.push([key, typed]);
      if (Object.hasOwn(written, key)) {
        delete next[key];
        if (isPlainSecret(before)) notices.push(`Removed the plain-text ${title} from config.json; the new value is in VS Code Secret Storage.`);
        else if (hasReference(before)) notices.push(`Removed ${JSON.stringify(before)} for ${title} from config.json, so the value in VS Code Secret Storage is used.`);
      }
    } else if (clearSecrets.includes(key)) {
      secretDeletes.push(key);
      if (isPlainSecret(before)) {
        delete next[key];
        notices.push(`Removed the plain-text ${title} from config.json.`);
      }
    } else if (isPlainSecret(before)) {
      secretWrites.push([key, typeof before === 'string' ? before : JSON.stringify(before)]);
      delete next[key];
      notices.push(`Moved ${title} out of config.json, where it was in plain text, into VS Code Secret Storage.`);
    }
  }

  for (const [key, value] of secretWrites) {
    try {
      await secretStore.store(skill.name, key, value);
    } catch (cause) {
      return { ok: false, message: `VS Code Secret Storage could not store ${titleOf(key, schema.properties[key])} (${errorMessage(cause)}). config.json was not changed.` };
    }
  }
  const changed = !sameJson(next, written) || Object.keys(next).join('\n') !== Object.keys(written).join('\n');
  const wroteConfig = changed && (read.exists || Object.keys(next).length > 0);
  if (wroteConfig) {
    try {
      await writeJsonAtomic(configFile, next);
    } catch (cause) {
      const stored = secretWrites.length > 0 ? ' The new secrets were stored; config.json keeps its previous content.' : '';
      return { ok: false, message: `config.json could not be written (${errorMessage(cause)}).${stored}` };
    }
  }
  for (const key of secretDeletes) {
    try {
      await secretStore.delete(skill.name, key);
      if (secretsPresent.has(key)) notices.push(`Removed the stored ${titleOf(key, schema.properties[key])} from VS Code Secret Storage.`);
    } catch (cause) {
      return { ok: false, message: `config.json was saved, but VS Code Secret Storage could not delete ${titleOf(key, schema.properties[key])} (${errorMessage(cause)}).` };
    }
  }
  return { ok: true, configFile, wroteConfig, notices };
}

/** What the form of a skill starts from, read fresh from disk, or why there is no form. */
export type ConfigFormSource =
  | { readonly kind: 'ready'; readonly skill: Skill; readonly schema: ConfigSchema; readonly current: ConfigFormCurrent }
  | { readonly kind: 'unavailable'; readonly message: string; readonly schemaFile?: string };

/**
 * Reads the skill's config schema (re-checked, so edits since discovery count), config.json raw and
 * which sensitive fields have a stored secret. `skill` in the result carries the fresh schema.
 */
export async function readConfigFormSource(skill: Skill, secretStore: SkillSecretStore): Promise<ConfigFormSource> {
  const schemaFile = skill.configSchemaFile ?? resolveInside(skill.directory, skill.manifest.configSchema ?? 'config-schema.json');
  if (schemaFile === undefined) return { kind: 'unavailable', message: `The configSchema of ${skill.displayName}'s skill.json points outside the skill directory.` };
  let text: string;
  try {
    text = stripBom(await fs.readFile(schemaFile, 'utf8'));
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      return { kind: 'unavailable', message: `${skill.displayName} has no ${path.basename(schemaFile)}, so it has no settings to configure. Add a config schema to describe them.` };
    }
    return { kind: 'unavailable', message: `${path.basename(schemaFile)} of ${skill.displayName} cannot be read: ${errorMessage(cause)}`, schemaFile };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return { kind: 'unavailable', message: `${path.basename(schemaFile)} of ${skill.displayName} is not valid JSON (${errorMessage(cause)}), so the form cannot be shown.`, schemaFile };
  }
  const checked = checkConfigSchema(parsed, schemaFile);
  if (!checked.schema) {
    const details = checked.problems.slice(0, 3).map((problem: SkillProblem) => problem.message.replace(/^config-schema\.json: /, '')).join('; ');
    return { kind: 'unavailable', message: `${path.basename(schemaFile)} of ${skill.displayName} is not a valid config schema: ${details}.`, schemaFile };
  }
  const schema = checked.schema;
  const read = await readConfigFile(configFileOf(skill));
  const sensitiveKeys = Object.keys(schema.properties).filter((key) => schema.properties[key]?.['x-sensitive'] === true);
  const secretsPresent = await storedSecrets(skill.name, sensitiveKeys, secretStore).catch(() => new Set<string>());
  return {
    kind: 'ready',
    skill: { ...skill, configSchema: schema as unknown as Record<string, unknown>, configSchemaFile: schemaFile },
    schema,
    current: { values: read.values, secretsPresent, configError: read.error, configExists: read.exists },
  };
}

/** The config.json values a model was built from (its baseline for {@link saveConfig}), sensitive fields left out. */
export function formBaseline(model: ConfigFormModel): Record<string, JsonValue> {
  const baseline: Record<string, JsonValue> = {};
  for (const field of model.categories.flatMap((category) => category.fields)) if (field.value !== undefined) baseline[field.key] = field.value;
  return baseline;
}

// ---------------------------------------------------------------------------------------------

function requireSchema(skill: Skill): ConfigSchema {
  if (!skill.configSchema) throw new Error(`buildConfigForm: ${skill.name} has no checked config schema`);
  return skill.configSchema as unknown as ConfigSchema;
}

function buildField(key: string, field: ConfigField, schema: ConfigSchema, current: ConfigFormCurrent): ConfigFormField {
  const sensitive = field['x-sensitive'] === true;
  const control = controlOf(field);
  const written = current.configError === undefined && Object.hasOwn(current.values, key) ? current.values[key] : undefined;
  const options = field.enum ? optionsOf(field.enum) : undefined;
  const items = control === 'list' ? listItemsOf(field) : undefined;
  const envVar = field['x-env-var'];
  const base = {
    key,
    control,
    type: field.type,
    title: field.title ?? humanize(key),
    ...(field.description !== undefined ? { description: field.description } : {}),
    category: field['x-category'] ?? GENERAL_CATEGORY,
    required: (schema.required ?? []).includes(key),
    ...(envVar !== undefined ? { envVar, envHint: envHintOf(envVar, sensitive) } : {}),
    ...(options && control === 'dropdown' ? { options } : {}),
    ...(items ? { items } : {}),
    ...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
    ...(field.maximum !== undefined ? { maximum: field.maximum } : {}),
    ...(control === 'number' ? { step: field.type === 'integer' ? 1 : ('any' as const) } : {}),
    ...(field.minLength !== undefined ? { minLength: field.minLength } : {}),
    ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
    ...(field.pattern !== undefined ? { pattern: field.pattern } : {}),
  };
  if (sensitive) {
    const reference = typeof written === 'string' && hasReference(written) ? written : undefined;
    return {
      ...base,
      fits: true,
      secret: { stored: current.secretsPresent.has(key), plainTextInConfig: isPlainSecret(written), ...(reference !== undefined ? { reference } : {}) },
    };
  }
  const variables = typeof written === 'string' ? referencedVariables(written) : [];
  return {
    ...base,
    ...(field.default !== undefined ? { default: field.default as JsonValue } : {}),
    ...(written !== undefined ? { value: written as JsonValue } : {}),
    fits: written === undefined || fitsControl(written, control, items),
    ...(variables.length > 0 ? { variables } : {}),
  };
}

function controlOf(field: ConfigField): ConfigControlKind {
  if (field['x-sensitive'] === true) return 'password';
  if (field.enum && field.type !== 'array' && field.type !== 'boolean') return 'dropdown';
  switch (field.type) {
    case 'string':
      return field.format === 'password' ? 'password' : field.format === 'textarea' ? 'textarea' : field.format === 'uri' ? 'url' : field.format === 'email' ? 'email' : 'text';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'array':
      return listItemsOf(field) ? 'list' : 'json';
  }
}

/** Arrays of strings, numbers or enum values get a list editor; anything else is edited as JSON. */
function listItemsOf(field: ConfigField): ConfigListItems | undefined {
  const items = field.items;
  if (!items) return undefined;
  const type = items['type'];
  if (type !== 'string' && type !== 'number' && type !== 'integer') return undefined;
  const allowed = items['enum'];
  if (Array.isArray(allowed)) return { control: 'dropdown', type, options: optionsOf(allowed) };
  return { control: type === 'string' ? 'text' : 'number', type };
}

function fitsControl(value: unknown, control: ConfigControlKind, items: ConfigListItems | undefined): boolean {
  switch (control) {
    case 'text':
    case 'textarea':
    case 'url':
    case 'email':
    case 'password':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'checkbox':
      return typeof value === 'boolean';
    case 'dropdown':
      return !hasReference(value) && (value === null || typeof value !== 'object');
    case 'list':
      return Array.isArray(value) && value.every((item) => (items?.type === 'string' ? typeof item === 'string' : typeof item === 'number'));
    case 'json':
      return !hasReference(value);
  }
}

function optionsOf(values: readonly unknown[]): ConfigFormOption[] {
  return values.map((value) => ({ value: value as JsonValue, label: typeof value === 'string' ? value : JSON.stringify(value) }));
}

function envHintOf(variable: string, sensitive: boolean): string {
  return sensitive
    ? `When neither config.json nor VS Code Secret Storage has a value, the environment variable ${variable} is used (if set).`
    : `When no value is set here, the environment variable ${variable} is used (if set).`;
}

function requiredProblem(field: ConfigField): ConfigFormProblem {
  const variable = field['x-env-var'];
  if (variable !== undefined) {
    return warning(SkillProblemCode.CONFIG_REQUIRED, `Required: with no value here, the environment variable ${variable} must be set when the skill loads.`);
  }
  return error(SkillProblemCode.CONFIG_REQUIRED, field['x-sensitive'] === true ? 'Required: enter a value (it is kept in VS Code Secret Storage).' : 'Required: enter a value.');
}

/** Turns `config.json: "key" item 2 must be …` into `Item 3 must be …` (the field is shown beside it). */
function fieldMessage(message: string, key: string): string {
  let rest = message.startsWith(`config.json: ${JSON.stringify(key)} `) ? message.slice(`config.json: ${JSON.stringify(key)} `.length) : message;
  rest = rest.replace(/^item (\d+) /, (_, index: string) => `item ${Number(index) + 1} `);
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.?!]$/.test(sentence) ? sentence : `${sentence}.`;
}

function keyOfPointer(pointer: string | undefined): string | undefined {
  const first = pointer?.split('/')[1];
  return first === undefined ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}

function error(code: string, message: string): ConfigFormProblem {
  return { severity: 'error', code, message };
}

function warning(code: string, message: string): ConfigFormProblem {
  return { severity: 'warning', code, message };
}

function titleOf(key: string, field: ConfigField | undefined): string {
  return JSON.stringify(field?.title ?? humanize(key));
}

/** "maxTokens" → "Max Tokens", "api_key" → "Api Key". */
function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim();
  return words.replace(/\b\w/g, (letter) => letter.toUpperCase()) || key;
}

function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1]!))];
}

function hasReference(value: unknown): boolean {
  return typeof value === 'string' && referencedVariables(value).length > 0;
}

/** A sensitive value written in config.json in clear (not empty, not a `${VAR}` reference). */
function isPlainSecret(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !hasReference(value);
}

async function storedSecrets(skill: string, keys: readonly string[], store: SkillSecretStore): Promise<Set<string>> {
  const present = new Set<string>();
  for (const key of keys) if ((await store.get(skill, key)) !== undefined) present.add(key);
  return present;
}

function configFileOf(skill: Skill): string {
  return skill.configFile ?? path.join(skill.directory, 'config.json');
}

async function readConfigFile(file: string): Promise<{ values: Record<string, unknown>; exists: boolean; error?: string }> {
  let text: string;
  try {
    text = stripBom(await fs.readFile(file, 'utf8'));
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { values: {}, exists: false };
    return { values: {}, exists: true, error: `config.json cannot be read (${errorMessage(cause)}).` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { values: {}, exists: true, error: 'config.json does not hold a JSON object.' };
    return { values: parsed as Record<string, unknown>, exists: true };
  } catch (cause) {
    return { values: {}, exists: true, error: `config.json is not valid JSON (${errorMessage(cause)}).` };
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function toLabel(relative: string): string {
  return relative.split(path.sep).join('/');
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  return leftKeys.length === Object.keys(right).length && leftKeys.every((key) => Object.hasOwn(rightRecord, key) && sameJson((left as Record<string, unknown>)[key], rightRecord[key]));
}
