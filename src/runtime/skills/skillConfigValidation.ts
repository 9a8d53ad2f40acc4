// Checks a skill's configuration values against its config schema (docs/design-rules.md#skill-configuration) with messages an author can act on; never echoes a sensitive value.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { closestMatch } from '../validation/closestMatch.js';
import { pointerFromPath } from '../validation/jsonLocator.js';
import { SkillProblemCode, skillProblem } from './skillProblems.js';
import type { SkillProblem } from './skillTypes.js';
import { plural } from '../common/humanText.js';

/** Field types a config schema may use (contracts/config-schema-meta.schema.json). */
export type ConfigFieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array';

/** Mirrors `#/$defs/ConfigField` of contracts/config-schema-meta.schema.json. */
export interface ConfigField {
  readonly type: ConfigFieldType;
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly format?: 'password' | 'uri' | 'email' | 'textarea' | 'date' | 'time' | 'date-time';
  readonly items?: Readonly<Record<string, unknown>>;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly 'x-env-var'?: string;
  readonly 'x-sensitive'?: boolean;
  readonly 'x-category'?: string;
}

/** Mirrors contracts/config-schema-meta.schema.json (a skill's config-schema.json). */
export interface ConfigSchema {
  readonly $schema: string;
  readonly type: 'object';
  readonly title?: string;
  readonly description?: string;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly properties: Readonly<Record<string, ConfigField>>;
}

/** Where an effective value came from; decides how problems describe it and whether they may show it. */
export type ConfigValueSource =
  | { readonly kind: 'config' }
  | { readonly kind: 'variable'; readonly written: unknown }
  | { readonly kind: 'environment'; readonly variable: string }
  | { readonly kind: 'secret' }
  | { readonly kind: 'default' };

/** Where to point problems and how each value was obtained (values without a source count as written in config.json). */
export interface ConfigValidationOptions {
  readonly sources?: Readonly<Record<string, ConfigValueSource>> | undefined;
  /** config.json (absolute), for problem locations. */
  readonly configFile?: string | undefined;
  /** config-schema.json (absolute), for problems with defaults. */
  readonly schemaFile?: string | undefined;
}

/**
 * Validates `values` against `schema`: required fields, then per field type, enum, minimum/maximum,
 * minLength/maxLength and pattern (array items too), and fields the schema does not define.
 * Problems name the field, the expectation and the actual value, except for `x-sensitive` fields,
 * whose values never appear in a message.
 */
export function validateConfigValues(values: Readonly<Record<string, unknown>>, schema: ConfigSchema, options: ConfigValidationOptions = {}): SkillProblem[] {
  const problems: SkillProblem[] = [];
  const known = Object.keys(schema.properties);
  for (const key of schema.required ?? []) {
    if (values[key] !== undefined) continue;
    const field = schema.properties[key];
    const remedies = ['add it to config.json'];
    if (field?.['x-env-var']) remedies.push(`set the environment variable ${field['x-env-var']}`);
    if (field?.['x-sensitive'] === true) remedies.push('store it in the secret store');
    if (field && field.default === undefined) remedies.push('give it a default in config-schema.json');
    const title = field?.title ? ` (${field.title})` : '';
    const message = `config.json: "${key}"${title} is required but has no value; ${joinAlternatives(remedies)}.`;
    problems.push(skillProblem('error', SkillProblemCode.CONFIG_REQUIRED, message, options.configFile, pointerFromPath([key])));
  }
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const field = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (!field) {
      const suggestion = closestMatch(key, known);
      const hint = suggestion ? `; did you mean "${suggestion}"?` : known.length > 0 ? `; the fields are ${known.map((name) => `"${name}"`).join(', ')}` : '';
      const strict = schema.additionalProperties === false;
      const message = `config.json: unknown field "${key}"${strict ? ' (not allowed: the schema sets additionalProperties to false)' : ' (ignored by the schema)'}${hint}`;
      problems.push(skillProblem(strict ? 'error' : 'warning', SkillProblemCode.CONFIG_UNKNOWN_FIELD, message, options.configFile, pointerFromPath([key])));
      continue;
    }
    const source = options.sources?.[key] ?? { kind: 'config' };
    problems.push(...checkValue(value, field as unknown as Readonly<Record<string, unknown>>, subjectFor(key, field, source, options)));
  }
  return problems;
}

/** How a problem refers to the value being checked. */
interface Subject {
  /** Message start, e.g. `config.json: "style"`. */
  readonly label: string;
  /** Whether the actual value may be shown. */
  readonly reveal: boolean;
  readonly file: string | undefined;
  readonly pointer: string | undefined;
}

function subjectFor(key: string, field: ConfigField, source: ConfigValueSource, options: ConfigValidationOptions): Subject {
  const sensitive = field['x-sensitive'] === true;
  switch (source.kind) {
    case 'config':
      return { label: `config.json: "${key}"`, reveal: !sensitive, file: options.configFile, pointer: pointerFromPath([key]) };
    case 'variable': {
      const written = typeof source.written === 'string' ? ` (written as ${JSON.stringify(source.written)})` : ' (after ${…} substitution)';
      return { label: `config.json: "${key}"${written}`, reveal: false, file: options.configFile, pointer: pointerFromPath([key]) };
    }
    case 'environment':
      return { label: `"${key}" (from the environment variable ${source.variable})`, reveal: false, file: undefined, pointer: undefined };
    case 'secret':
      return { label: `"${key}" (from the secret store)`, reveal: false, file: undefined, pointer: undefined };
    case 'default':
      return {
        label: `config-schema.json: the default of "${key}"`,
        reveal: !sensitive,
        file: options.schemaFile,
        pointer: pointerFromPath(['properties', key, 'default']),
      };
  }
}

function checkValue(value: unknown, field: Readonly<Record<string, unknown>>, subject: Subject): SkillProblem[] {
  const problem = (code: SkillProblemCode, expectation: string): SkillProblem =>
    skillProblem('error', code, `${subject.label} ${expectation}`, subject.file, subject.pointer);
  const type = field['type'];
  if (typeof type === 'string' && !typeMatches(value, type)) {
    return [problem(SkillProblemCode.CONFIG_TYPE, `must be ${withArticle(type)}, but is ${describeFound(value, subject.reveal)}`)];
  }
  const problems: SkillProblem[] = [];
  const allowed = field['enum'];
  if (Array.isArray(allowed) && !allowed.some((candidate) => sameJson(candidate, value))) {
    const list = allowed.map((candidate) => JSON.stringify(candidate)).join(', ');
    const suggestion =
      subject.reveal && typeof value === 'string'
        ? closestMatch(
            value,
            allowed.filter((candidate): candidate is string => typeof candidate === 'string'),
          )
        : undefined;
    const actual = subject.reveal ? `, but is ${JSON.stringify(value)}` : ', but is not one of them';
    problems.push(problem(SkillProblemCode.CONFIG_ENUM, `must be one of ${list}${actual}${suggestion ? `; did you mean "${suggestion}"?` : ''}`));
  }
  if (typeof value === 'number') {
    const minimum = numberOrUndefined(field['minimum']);
    const maximum = numberOrUndefined(field['maximum']);
    if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
      const range =
        minimum !== undefined && maximum !== undefined
          ? `between ${minimum} and ${maximum}`
          : minimum !== undefined
            ? `at least ${minimum}`
            : `at most ${String(maximum)}`;
      const actual = subject.reveal ? `, but is ${value}` : value < (minimum ?? value) ? ', but is smaller' : ', but is larger';
      problems.push(problem(SkillProblemCode.CONFIG_RANGE, `must be ${range}${actual}`));
    }
  }
  if (typeof value === 'string') {
    const length = Array.from(value).length;
    const minLength = numberOrUndefined(field['minLength']);
    const maxLength = numberOrUndefined(field['maxLength']);
    if (minLength !== undefined && length < minLength) {
      const actual = subject.reveal ? `, but is ${characters(length)} long` : ', but is shorter';
      problems.push(problem(SkillProblemCode.CONFIG_LENGTH, minLength === 1 ? `must not be empty` : `must be at least ${characters(minLength)} long${actual}`));
    }
    if (maxLength !== undefined && length > maxLength) {
      const actual = subject.reveal ? `, but is ${characters(length)} long` : ', but is longer';
      problems.push(problem(SkillProblemCode.CONFIG_LENGTH, `must be at most ${characters(maxLength)} long${actual}`));
    }
    const format = field['format'];
    const formatCheck = typeof format === 'string' && Object.hasOwn(CHECKED_FORMATS, format) ? CHECKED_FORMATS[format] : undefined;
    if (formatCheck && !formatCheck.test(value)) {
      const actual = subject.reveal ? `, but is ${JSON.stringify(value)}` : ', but is not';
      problems.push(problem(SkillProblemCode.CONFIG_FORMAT, `must be ${formatCheck.expectation}${actual}`));
    }
    const pattern = field['pattern'];
    if (typeof pattern === 'string') {
      const expression = compilePattern(pattern);
      if (expression && !expression.test(value)) {
        const actual = subject.reveal ? `, but ${JSON.stringify(value)} does not` : ', but the value does not';
        problems.push(problem(SkillProblemCode.CONFIG_PATTERN, `must match the pattern ${pattern}${actual}`));
      }
    }
  }
  const items = field['items'];
  if (Array.isArray(value) && items !== null && typeof items === 'object' && !Array.isArray(items)) {
    value.forEach((item, index) => {
      const itemSubject: Subject = {
        ...subject,
        label: `${subject.label} item ${index}`,
        pointer: subject.pointer === undefined ? undefined : `${subject.pointer}/${index}`,
      };
      problems.push(...checkValue(item, items as Record<string, unknown>, itemSubject));
    });
  }
  return problems;
}

/** Formats whose values are checked (the others only choose a control), with ajv-formats' RFC 3339 validators. */
const CHECKED_FORMATS: Readonly<Record<string, { readonly test: (value: string) => boolean; readonly expectation: string }>> = {
  date: { test: formatTest('date'), expectation: 'a date (RFC 3339 full-date, e.g. 2026-03-01)' },
  time: { test: formatTest('time'), expectation: 'a time with its offset (RFC 3339 full-time, e.g. 12:30:00Z or 12:30:00+01:00)' },
  'date-time': { test: formatTest('date-time'), expectation: 'a date-time (RFC 3339, e.g. 2026-03-01T12:30:00Z)' },
};

function formatTest(name: 'date' | 'time' | 'date-time'): (value: string) => boolean {
  const definition = fullFormats[name] as unknown;
  if (typeof definition === 'function') return definition as (value: string) => boolean;
  const validate = (definition as { validate: unknown }).validate;
  return typeof validate === 'function' ? (validate as (value: string) => boolean) : (value) => (validate as RegExp).test(value);
}

/** A JSON Schema `pattern` as a RegExp (unicode mode, like Ajv), or undefined when it does not compile. */
export function compilePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** True when `value` has the JSON Schema type `type`. */
export function typeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

function describeFound(value: unknown, reveal: boolean): string {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : withArticle(typeof value);
  if (!reveal || value === null || typeof value === 'object') return kind;
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value) : String(value);
  return `${kind} (${shown})`;
}

function withArticle(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function characters(count: number): string {
  return plural(count, 'character');
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  return JSON.stringify(left) === JSON.stringify(right);
}

function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}
