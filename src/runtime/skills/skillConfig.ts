// A skill's configuration: checks config-schema.json against the meta-schema and resolves the effective config (${VAR}, x-env-var, secrets, defaults); redacts sensitive values.
import { contractSchemas, validateAgainst } from '../contracts/schemas.js';
import { errorMessage } from '../common/errors.js';
import { schemaProblems } from '../validation/schemaErrors.js';
import { pointerFromPath } from '../validation/jsonLocator.js';
import { SkillProblemCode, skillProblem } from './skillProblems.js';
import { compilePattern, validateConfigValues, type ConfigField, type ConfigSchema, type ConfigValueSource } from './skillConfigValidation.js';
import type { SkillProblem } from './skillTypes.js';

/** Re-exported so callers need only this module. */
export type { ConfigField, ConfigFieldType, ConfigSchema, ConfigValueSource } from './skillConfigValidation.js';
export { validateConfigValues } from './skillConfigValidation.js';

/** Port: where sensitive values come from (VS Code's SecretStorage in the extension; an in-memory fake in tests). */
export type SecretLookup = (skill: string, key: string) => Promise<string | undefined>;

/** Variables for `${VAR_NAME}` substitution and `x-env-var`; supplied by the caller, never read from process.env here. */
export type ConfigEnvironment = Readonly<Record<string, string | undefined>>;

/** What {@link redactConfig} puts in place of a sensitive value. */
export const REDACTED_VALUE = '********';

/**
 * Checks a parsed config-schema.json against contracts/config-schema-meta.schema.json, plus what the
 * meta-schema cannot say: patterns compile, bounds are ordered, `required` names defined fields.
 * Returns the schema only when it has no error.
 */
export function checkConfigSchema(value: unknown, schemaFile?: string): { readonly schema?: ConfigSchema; readonly problems: SkillProblem[] } {
  const errors = validateAgainst('config-schema-meta.schema.json', value);
  const invalid = (message: string, pointer: string): SkillProblem =>
    skillProblem('error', SkillProblemCode.CONFIG_SCHEMA_INVALID, `config-schema.json: ${message}`, schemaFile, pointer);
  if (errors.length > 0) {
    const problems = schemaProblems(errors, value, contractSchemas['config-schema-meta.schema.json']);
    return { problems: problems.map((problem) => invalid(problem.message || 'does not match the config schema rules', problem.pointer)) };
  }
  const schema = value as ConfigSchema;
  const problems: SkillProblem[] = [];
  for (const [key, field] of Object.entries(schema.properties)) {
    const at = (keyword: string) => pointerFromPath(['properties', key, keyword]);
    if (field.pattern !== undefined && !compilePattern(field.pattern)) {
      problems.push(invalid(`the pattern of "${key}" is not a valid regular expression: ${field.pattern}`, at('pattern')));
    }
    if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) {
      problems.push(invalid(`"${key}" has minimum ${field.minimum} above its maximum ${field.maximum}`, at('minimum')));
    }
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
      problems.push(invalid(`"${key}" has minLength ${field.minLength} above its maxLength ${field.maxLength}`, at('minLength')));
    }
  }
  (schema.required ?? []).forEach((key, index) => {
    if (!Object.hasOwn(schema.properties, key)) {
      problems.push(invalid(`required lists "${key}", which is not one of the properties`, pointerFromPath(['required', index])));
    }
  });
  return problems.length > 0 ? { problems } : { schema, problems };
}

/** Outcome of {@link substituteVariables}. */
export interface Substitution {
  readonly value: unknown;
  /** Variables that were referenced but not set (the value is then unusable). */
  readonly missing: readonly string[];
  /** True when at least one `${VAR}` was replaced. */
  readonly substituted: boolean;
}

const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${VAR_NAME}` in every string inside `value` (arrays and objects too) with the variable's value. */
export function substituteVariables(value: unknown, environment: ConfigEnvironment): Substitution {
  const missing: string[] = [];
  let substituted = false;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      return node.replace(VARIABLE_REFERENCE, (reference, name: string) => {
        const replacement = environment[name];
        if (replacement === undefined) {
          if (!missing.includes(name)) missing.push(name);
          return reference;
        }
        substituted = true;
        return replacement;
      });
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]));
    return node;
  };
  const result = walk(value);
  return { value: result, missing, substituted };
}

/** Inputs of {@link resolveConfig}. */
export interface ConfigResolutionOptions {
  readonly skill: string;
  /** The checked config schema; without one, config.json's values pass through after substitution. */
  readonly schema?: ConfigSchema | undefined;
  /** Parsed config.json (`{}` when absent). */
  readonly values: Readonly<Record<string, unknown>>;
  readonly environment?: ConfigEnvironment | undefined;
  readonly secrets?: SecretLookup | undefined;
  readonly configFile?: string | undefined;
  readonly schemaFile?: string | undefined;
}

/** The effective configuration of a skill. `values` holds sensitive values in clear: never log it. */
export interface ConfigResolution {
  readonly values: Record<string, unknown>;
  readonly sources: Readonly<Record<string, ConfigValueSource>>;
  readonly problems: readonly SkillProblem[];
}

/**
 * Resolves each field in order: the config.json value (with `${VAR}` substituted; a reference to an
 * unset variable makes the field absent), then for `x-sensitive` fields the secret lookup, then the
 * `x-env-var` variable, then the schema default. Strings from variables and secrets are converted to
 * the field's type (number, integer, boolean, JSON array). Then the values are validated.
 */
export async function resolveConfig(options: ConfigResolutionOptions): Promise<ConfigResolution> {
  const environment = options.environment ?? {};
  const values: Record<string, unknown> = {};
  const sources: Record<string, ConfigValueSource> = {};
  const problems: SkillProblem[] = [];
  const warn = (code: SkillProblemCode, message: string, key?: string) =>
    problems.push(skillProblem('warning', code, message, options.configFile, key === undefined ? undefined : pointerFromPath([key])));
  const properties = options.schema?.properties ?? {};
  const keys = [...Object.keys(properties), ...Object.keys(options.values).filter((key) => !Object.hasOwn(properties, key))];
  for (const key of keys) {
    const field: ConfigField | undefined = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const written = Object.hasOwn(options.values, key) ? options.values[key] : undefined;
    if (written !== undefined) {
      const substitution = substituteVariables(written, environment);
      if (substitution.missing.length > 0) {
        const names = substitution.missing.map((name) => '${' + name + '}').join(', ');
        warn(
          SkillProblemCode.CONFIG_VARIABLE_UNSET,
          `config.json: "${key}" uses ${names}, which the environment does not set; the field is treated as absent`,
          key,
        );
      } else if (substitution.substituted) {
        const whole = typeof written === 'string' && /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(written);
        values[key] = whole && field ? coerce(substitution.value, field) : substitution.value;
        sources[key] = { kind: 'variable', written };
      } else {
        values[key] = written;
        sources[key] = { kind: 'config' };
        if (field?.['x-sensitive'] === true && typeof written === 'string' && written !== '') {
          const instead = field['x-env-var'] ? `"\${${field['x-env-var']}}", the environment variable ${field['x-env-var']}` : '"${VAR_NAME}"';
          warn(
            SkillProblemCode.CONFIG_SECRET_IN_FILE,
            `config.json: "${key}" is sensitive but written in plain text; use ${instead} or the secret store instead`,
            key,
          );
        }
      }
    }
    if (values[key] !== undefined || !field) continue;
    if (field['x-sensitive'] === true && options.secrets) {
      try {
        const secret = await options.secrets(options.skill, key);
        if (secret !== undefined) {
          values[key] = coerce(secret, field);
          sources[key] = { kind: 'secret' };
          continue;
        }
      } catch (error) {
        warn(SkillProblemCode.CONFIG_SECRET_LOOKUP_FAILED, `the secret store could not provide "${key}": ${errorMessage(error)}`);
      }
    }
    const variable = field['x-env-var'];
    if (variable !== undefined && environment[variable] !== undefined) {
      values[key] = coerce(environment[variable], field);
      sources[key] = { kind: 'environment', variable };
    } else if (field.default !== undefined) {
      values[key] = structuredClone(field.default);
      sources[key] = { kind: 'default' };
    }
  }
  if (options.schema) {
    problems.push(...validateConfigValues(values, options.schema, { sources, configFile: options.configFile, schemaFile: options.schemaFile }));
    if (options.schema.additionalProperties === false) {
      for (const key of Object.keys(values)) if (!Object.hasOwn(properties, key)) delete values[key];
    }
  }
  return { values, sources, problems };
}

/** Converts a string from a variable or the secret store to the field's type; leaves it unchanged when it does not convert. */
function coerce(value: unknown, field: ConfigField): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  switch (field.type) {
    case 'number':
    case 'integer': {
      const number = text === '' ? Number.NaN : Number(text);
      return Number.isFinite(number) ? number : value;
    }
    case 'boolean':
      return /^true$/i.test(text) ? true : /^false$/i.test(text) ? false : value;
    case 'array':
      try {
        const parsed: unknown = JSON.parse(text);
        return Array.isArray(parsed) ? parsed : value;
      } catch {
        return value;
      }
    default:
      return value;
  }
}

/**
 * A copy of `values` safe to log, show or write into traces: every field the schema marks
 * `x-sensitive` that has a non-empty value is replaced with {@link REDACTED_VALUE}.
 */
export function redactConfig(
  values: Readonly<Record<string, unknown>>,
  schema: ConfigSchema | Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, { 'x-sensitive'?: unknown }> } | undefined)?.properties ?? {};
  const redacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const sensitive = Object.hasOwn(properties, key) && properties[key]?.['x-sensitive'] === true;
    redacted[key] = sensitive && value !== undefined && value !== '' ? REDACTED_VALUE : value;
  }
  return redacted;
}
