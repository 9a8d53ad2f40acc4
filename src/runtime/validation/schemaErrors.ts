// Turns Ajv's raw errors into one clear schema problem per location, with pointers, codes and author-facing messages.
import type { ErrorObject } from '../contracts/schemas.js';
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode } from './diagnostic.js';
import { parsePointer, pointerFromPath, valueAtPointer, type PointerTarget } from './jsonLocator.js';

/** A schema violation before it gets a severity and a source range. */
export interface SchemaProblem {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** RFC 6901 pointer of the offending value (of the missing or unknown property for those codes). */
  readonly pointer: string;
  /** Whether the source range should cover the property key (unknown properties) or the value. */
  readonly target: PointerTarget;
}

interface RankedProblem extends SchemaProblem {
  /** Problems sharing a key are collapsed to the one of lowest rank. */
  readonly collapseKey: string;
  readonly rank: number;
}

const valueRanks: Record<string, number> = { type: 0, enum: 1, const: 1, minLength: 2, maxLength: 2, pattern: 3, format: 4 };
/** Retry-policy bounds get their own code (RETRY_POLICY_OUT_OF_RANGE). */
const retryPolicyField = /^\/tools\/\d+\/retryPolicy\/(maxRetries|backoffMs)$/;
const formatExamples: Record<string, string> = {
  uuid: ' (expected a UUID such as 7c9e6679-7425-40de-944b-e07dc4f0be15)',
  'date-time': ' (expected an RFC 3339 date-time such as 2025-01-31T12:00:00Z)',
};

/**
 * Converts Ajv errors (from a validator compiled with `allErrors`) for `value` into schema problems.
 * oneOf/anyOf cascades become the errors of the best-fitting alternative, or one type problem;
 * several errors at one location keep only the most telling one. `schema` is the validated root
 * schema, walked along the data path for allowed-property hints and numeric bounds.
 */
export function schemaProblems(errors: readonly ErrorObject[], value: unknown, schema: unknown): SchemaProblem[] {
  const { remaining, synthesized } = collapseAlternatives(errors, value);
  const ranked = [...synthesized, ...remaining.map((error) => convert(error, value, schema))];
  const kept = new Map<string, RankedProblem>();
  for (const problem of ranked) {
    const existing = kept.get(problem.collapseKey);
    if (!existing || problem.rank < existing.rank) kept.set(problem.collapseKey, problem);
  }
  return [...kept.values()].map(({ code, message, pointer, target }) => ({ code, message, pointer, target }));
}

function collapseAlternatives(errors: readonly ErrorObject[], value: unknown): { remaining: ErrorObject[]; synthesized: RankedProblem[] } {
  const { remaining, mismatches } = resolveAlternatives(errors);
  const synthesized = mismatches.map(({ pointer, expected }): RankedProblem => {
    const message =
      expected.length > 0
        ? `${prefixOf(pointer)}expected ${expected.join(' or ')} but found ${describeFound(valueAtPointer(value, pointer))}`
        : `${prefixOf(pointer)}matches more than one of the allowed alternatives`;
    const code = expected.length > 0 ? DiagnosticCode.SCHEMA_TYPE : DiagnosticCode.SCHEMA_VIOLATION;
    return { code, message, pointer, target: 'value', collapseKey: 'value' + pointer, rank: 0 };
  });
  return { remaining, synthesized };
}

/** An oneOf/anyOf that no alternative fits: the JSON types the alternatives expect (empty when several match). */
export interface AlternativeMismatch {
  readonly pointer: string;
  readonly expected: readonly string[];
}

/**
 * Resolves oneOf/anyOf cascades of Ajv errors: each becomes the errors of its best-fitting
 * alternative (the one with fewest errors among those whose type fits), or, when none fits, one
 * mismatch listing the expected types. The other errors are kept as they are.
 */
export function resolveAlternatives(errors: readonly ErrorObject[]): { remaining: ErrorObject[]; mismatches: AlternativeMismatch[] } {
  let remaining = [...errors];
  const mismatches: AlternativeMismatch[] = [];
  // Innermost alternatives first, so nested ones are already resolved when the outer one is handled.
  const alternatives = errors
    .filter((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf')
    .sort((left, right) => right.schemaPath.length - left.schemaPath.length);
  for (const alternative of alternatives) {
    const prefix = alternative.schemaPath + '/';
    const inBranch = (error: ErrorObject): boolean => error.schemaPath.startsWith(prefix) && isAtOrBelow(error.instancePath, alternative.instancePath);
    const branchErrors = remaining.filter(inBranch);
    remaining = remaining.filter((error) => error !== alternative && !inBranch(error));
    const branches = new Map<string, ErrorObject[]>();
    for (const error of branchErrors) {
      const branch = error.schemaPath.slice(prefix.length).split('/')[0] ?? '';
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const pointer = alternative.instancePath;
    const isTypeMismatch = (error: ErrorObject): boolean => error.keyword === 'type' && error.instancePath === pointer;
    const fitting = [...branches.values()].filter((branch) => !branch.some(isTypeMismatch));
    if (fitting.length > 0) {
      remaining.push(...fitting.reduce((best, branch) => (branch.length < best.length ? branch : best)));
      continue;
    }
    const expected = new Set(branchErrors.filter(isTypeMismatch).flatMap((error) => typeList(error.params['type'])));
    mismatches.push({ pointer, expected: [...expected] });
  }
  return { remaining, mismatches };
}

function convert(error: ErrorObject, value: unknown, schema: unknown): RankedProblem {
  const at = error.instancePath;
  const prefix = prefixOf(at);
  const found = valueAtPointer(value, at);
  const params = error.params as Record<string, unknown>;
  const problem = (code: DiagnosticCode, message: string, rank = valueRanks[error.keyword] ?? 6): RankedProblem => ({
    code,
    message,
    pointer: at,
    target: 'value',
    collapseKey: 'value' + at,
    rank,
  });
  switch (error.keyword) {
    case 'required': {
      const property = String(params['missingProperty']);
      const pointer = at + pointerFromPath([property]);
      const message = `${prefix}missing required property "${property}"`;
      return { code: DiagnosticCode.SCHEMA_REQUIRED, message, pointer, target: 'value', collapseKey: 'required' + pointer, rank: 0 };
    }
    case 'additionalProperties': {
      const property = String(params['additionalProperty']);
      const pointer = at + pointerFromPath([property]);
      const allowed = Object.keys(asRecord(schemaAt(schema, at)['properties']));
      const suggestion = closestMatch(property, allowed);
      const hint = suggestion ? `; did you mean "${suggestion}"?` : allowed.length > 0 ? `; allowed properties: ${allowed.join(', ')}` : '';
      const message = `${prefix}unknown property "${property}"${hint}`;
      return { code: DiagnosticCode.SCHEMA_UNKNOWN_PROPERTY, message, pointer, target: 'key', collapseKey: 'unknown' + pointer, rank: 0 };
    }
    case 'type':
      return problem(DiagnosticCode.SCHEMA_TYPE, `${prefix}expected ${typeList(params['type']).join(' or ')} but found ${describeFound(found)}`);
    case 'format': {
      const format = String(params['format']);
      return problem(DiagnosticCode.SCHEMA_FORMAT, `${prefix}${describe(found)} is not a valid ${format}${formatExamples[format] ?? ''}`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const name = parsePointer(at).at(-1) ?? 'value';
      const range = describeBounds(schemaAt(schema, at), error);
      if (retryPolicyField.test(at)) {
        const unit = name === 'backoffMs' ? ' (milliseconds)' : '';
        return problem(DiagnosticCode.RETRY_POLICY_OUT_OF_RANGE, `${prefix}${describe(found)} is out of range; ${name} must be ${range}${unit}`, 5);
      }
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}${describe(found)} is out of range; ${name} must be ${range}`, 5);
    }
    case 'minLength':
      return problem(
        DiagnosticCode.SCHEMA_VIOLATION,
        params['limit'] === 1 ? `${prefix}must not be empty` : `${prefix}must be at least ${String(params['limit'])} characters long`,
      );
    case 'maxLength':
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}must be at most ${String(params['limit'])} characters long`);
    case 'pattern':
      if (at.endsWith('/toolId')) {
        const message = `${prefix}${describe(found)} is not a valid toolId; use only letters, digits and the characters _ . : -`;
        return problem(DiagnosticCode.SCHEMA_VIOLATION, message);
      }
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}${describe(found)} does not match the pattern ${String(params['pattern'])}`);
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[] | undefined)?.map(describe).join(', ');
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}must be one of ${allowed ?? 'the allowed values'}`);
    }
    case 'const':
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}must be ${describe(params['allowedValue'])}`);
    default:
      return problem(DiagnosticCode.SCHEMA_VIOLATION, `${prefix}${error.message ?? `fails the schema rule "${error.keyword}"`}`);
  }
}

function describeBounds(bounds: Record<string, unknown>, error: ErrorObject): string {
  const minimum = typeof bounds['minimum'] === 'number' ? bounds['minimum'] : undefined;
  const maximum = typeof bounds['maximum'] === 'number' ? bounds['maximum'] : undefined;
  if (minimum !== undefined && maximum !== undefined) return `between ${minimum} and ${maximum}`;
  const comparison = String((error.params as Record<string, unknown>)['comparison'] ?? '');
  return `${comparison} ${String((error.params as Record<string, unknown>)['limit'])}`.trim();
}

function isAtOrBelow(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(ancestor + '/');
}

/** "tools/0: " for a non-root location, "" for the root. */
function prefixOf(instancePath: string): string {
  return instancePath === '' ? '' : `${instancePath.slice(1)}: `;
}

/** The types of an Ajv `type` error's params (an array, or a comma-separated string for union types). */
export function typeList(type: unknown): string[] {
  return Array.isArray(type) ? type.map(String) : String(type).split(',');
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${describe(value)}`;
  return describe(value);
}

/**
 * The subschema that applies at a data location, found by walking the data path through
 * properties/items/additionalProperties and local $refs. Ajv's own `schemaPath` cannot be used:
 * it is relative to whichever referenced subschema Ajv compiled separately.
 */
function schemaAt(schema: unknown, instancePath: string): Record<string, unknown> {
  let node = dereference(schema, schema);
  for (const segment of parsePointer(instancePath)) {
    const properties = asRecord(node['properties']);
    if (Object.hasOwn(properties, segment)) node = dereference(schema, properties[segment]);
    else if (/^\d+$/.test(segment) && node['items'] !== undefined) node = dereference(schema, node['items']);
    else if (asRecord(node['additionalProperties']) === node['additionalProperties']) node = dereference(schema, node['additionalProperties']);
    else return {};
  }
  return node;
}

function dereference(schema: unknown, node: unknown): Record<string, unknown> {
  let current = asRecord(node);
  for (let hops = 0; hops < 16 && typeof current['$ref'] === 'string'; hops++) current = asRecord(schemaNode(schema, current['$ref']));
  return current;
}

function schemaNode(schema: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#')) return undefined;
  let pointer: string[];
  try {
    pointer = parsePointer(decodeURIComponent(schemaPath.slice(1)));
  } catch {
    return undefined;
  }
  let node = schema;
  for (const segment of pointer) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
