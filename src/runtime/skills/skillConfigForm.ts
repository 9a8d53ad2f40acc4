// The Configure Skill form's model: fields, controls and current values from a skill's checked config schema, validated. Pure (no file system); never puts a sensitive value in the model.
import * as path from 'node:path';
import type { ConfigField, ConfigSchema } from './skillConfig.js';
import { hasReference, isPlainSecret, referencedVariables, validateConfigForm } from './skillConfigFormValidation.js';
import type { Skill } from './skillTypes.js';
import type {
  ConfigControlKind,
  ConfigFormCategory,
  ConfigFormField,
  ConfigFormModel,
  ConfigFormOption,
  ConfigListItems,
  JsonValue,
} from './configFormModel.js';

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

const GENERAL_CATEGORY = 'General';

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

/** The config.json values a model was built from (its baseline for `saveConfig` in skillConfigSave.ts), sensitive fields left out. */
export function formBaseline(model: ConfigFormModel): Record<string, JsonValue> {
  const baseline: Record<string, JsonValue> = {};
  for (const field of model.categories.flatMap((category) => category.fields)) if (field.value !== undefined) baseline[field.key] = field.value;
  return baseline;
}

/** "maxTokens" → "Max Tokens", "api_key" → "Api Key". */
export function humanize(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim();
  return words.replace(/\b\w/g, (letter) => letter.toUpperCase()) || key;
}

/** The skill's config.json: its `configFile`, or `config.json` in its directory. */
export function configFileOf(skill: Skill): string {
  return skill.configFile ?? path.join(skill.directory, 'config.json');
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
      return field.format === 'password'
        ? 'password'
        : field.format === 'textarea'
          ? 'textarea'
          : field.format === 'uri'
            ? 'url'
            : field.format === 'email'
              ? 'email'
              : 'text';
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

function toLabel(relative: string): string {
  return relative.split(path.sep).join('/');
}
