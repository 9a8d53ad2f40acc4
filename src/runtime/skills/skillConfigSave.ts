// Saves the Configure Skill form (config.json written atomically, sensitive values only to the secret-store port) and reads what the form starts from. Never logs or returns a secret.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeJsonAtomic } from '../common/atomicWrite.js';
import { errorMessage } from '../common/errors.js';
import { checkConfigSchema, type ConfigField, type ConfigSchema } from './skillConfig.js';
import { configFileOf, humanize, type ConfigFormCurrent } from './skillConfigForm.js';
import { hasReference, isPlainSecret, validateConfigForm } from './skillConfigFormValidation.js';
import { resolveInside } from './skillProblems.js';
import type { Skill, SkillProblem } from './skillTypes.js';
import type { ConfigFormProblems, ConfigFormValues } from './configFormModel.js';

/** Port: where sensitive values are kept (VS Code's SecretStorage in the extension; an in-memory fake in tests). */
export interface SkillSecretStore {
  get(skill: string, key: string): Promise<string | undefined>;
  store(skill: string, key: string, value: string): Promise<void>;
  delete(skill: string, key: string): Promise<void>;
}

const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

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
  const errors = Object.entries(problems.fields).flatMap(([key, list]) =>
    list.filter((problem) => problem.severity === 'error').map((problem) => ({ key, problem })),
  );
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
        else if (hasReference(before))
          notices.push(`Removed ${JSON.stringify(before)} for ${title} from config.json, so the value in VS Code Secret Storage is used.`);
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
      return {
        ok: false,
        message: `VS Code Secret Storage could not store ${titleOf(key, schema.properties[key])} (${errorMessage(cause)}). config.json was not changed.`,
      };
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
      return {
        ok: false,
        message: `config.json was saved, but VS Code Secret Storage could not delete ${titleOf(key, schema.properties[key])} (${errorMessage(cause)}).`,
      };
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
  if (schemaFile === undefined)
    return { kind: 'unavailable', message: `The configSchema of ${skill.displayName}'s skill.json points outside the skill directory.` };
  let text: string;
  try {
    text = stripBom(await fs.readFile(schemaFile, 'utf8'));
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      return {
        kind: 'unavailable',
        message: `${skill.displayName} has no ${path.basename(schemaFile)}, so it has no settings to configure. Add a config schema to describe them.`,
      };
    }
    return { kind: 'unavailable', message: `${path.basename(schemaFile)} of ${skill.displayName} cannot be read: ${errorMessage(cause)}`, schemaFile };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return {
      kind: 'unavailable',
      message: `${path.basename(schemaFile)} of ${skill.displayName} is not valid JSON (${errorMessage(cause)}), so the form cannot be shown.`,
      schemaFile,
    };
  }
  const checked = checkConfigSchema(parsed, schemaFile);
  if (!checked.schema) {
    const details = checked.problems
      .slice(0, 3)
      .map((problem: SkillProblem) => problem.message.replace(/^config-schema\.json: /, ''))
      .join('; ');
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

// ---------------------------------------------------------------------------------------------

function titleOf(key: string, field: ConfigField | undefined): string {
  return JSON.stringify(field?.title ?? humanize(key));
}

async function storedSecrets(skill: string, keys: readonly string[], store: SkillSecretStore): Promise<Set<string>> {
  const present = new Set<string>();
  for (const key of keys) if ((await store.get(skill, key)) !== undefined) present.add(key);
  return present;
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
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return { values: {}, exists: true, error: 'config.json does not hold a JSON object.' };
    return { values: parsed as Record<string, unknown>, exists: true };
  } catch (cause) {
    return { values: {}, exists: true, error: `config.json is not valid JSON (${errorMessage(cause)}).` };
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  return (
    leftKeys.length === Object.keys(right).length &&
    leftKeys.every((key) => Object.hasOwn(rightRecord, key) && sameJson((left as Record<string, unknown>)[key], rightRecord[key]))
  );
}
