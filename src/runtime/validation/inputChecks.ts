// Checks a tool's `input` against its script's inputSchema: types, enums, required and unknown properties, other schema rules.
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import type AjvDraft07 from 'ajv';
import { createAjv, createDraft07Ajv, declaresDraft07, type ErrorObject } from '../contracts/schemas.js';
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { parsePointer, pointerFromPath, valueAtPointer } from './jsonLocator.js';
import { asRecord, toolName, type ToolView } from './planChecks.js';
import { resolveAlternatives, typeList } from './schemaErrors.js';

/** Nested objects deeper than this are not searched for unknown properties. */
const MAX_UNKNOWN_PROPERTY_DEPTH = 32;

/** One Ajv for every input schema; each schema is removed from it once compiled, so it holds none of them. */
let inputAjv: Ajv2020 | undefined;
/** The same for input schemas that declare draft-07. */
let draft07InputAjv: AjvDraft07 | undefined;
/** Compiled validators by schema object (null: the schema does not compile); a new catalog's schemas compile afresh. */
const compiledValidators = new WeakMap<object, ValidateFunction | null>();

/** The compiled validator of an input schema, compiled once per schema object. */
export function inputValidator(schema: Record<string, unknown>): ValidateFunction | null {
  const known = compiledValidators.get(schema);
  if (known !== undefined) return known;
  const ajv = declaresDraft07(schema) ? (draft07InputAjv ??= createDraft07Ajv()) : (inputAjv ??= createAjv());
  let validate: ValidateFunction | null;
  try {
    validate = ajv.compile(schema);
  } catch {
    // Skill discovery reports a schema that does not compile (INPUT_SCHEMA_INVALID); nothing to check against.
    validate = null;
  } finally {
    // Drops Ajv's own reference (and the $id registration, which a rebuilt catalog's copy of the schema reuses).
    ajv.removeSchema(schema);
  }
  compiledValidators.set(schema, validate);
  return validate;
}

/** An input schema prepared once (per schema object) for checking many tools' inputs against it. */
export interface InputChecker {
  readonly schema: Record<string, unknown>;
  /** The compiled validator, null when the schema does not compile. */
  readonly validate: ValidateFunction | null;
  /** The data context to call `validate` with, undefined for Ajv's own default: see {@link inputChecker}. */
  readonly context: DataValidationCxt | undefined;
  /** The properties the schema lists, undefined when it lists none. */
  readonly shape: PropertyShape | undefined;
}

/** What {@link unknownProperties} reads of a schema with `properties`, read once instead of for each input. */
interface PropertyShape {
  readonly properties: Record<string, unknown>;
  /** The listed property names (for messages). */
  readonly allowed: readonly string[];
  readonly patternProperties: unknown;
  /** The shapes of listed properties whose schema lists `properties` in turn. */
  readonly nested: ReadonlyMap<string, PropertyShape> | undefined;
}

const checkers = new WeakMap<object, InputChecker>();

/**
 * The data context of a top-level call. Called without one, an Ajv validator allocates two objects
 * for its defaults on every call (one call per tool); this one is shared. Only for schemas without
 * `$dynamicAnchor`: those record anchors in `dynamicAnchors` during a call, so each call needs its own.
 */
const sharedContext = Object.freeze({ instancePath: '', dynamicAnchors: Object.freeze({}) }) as unknown as DataValidationCxt;

/** The checker of an input schema: its validator and property shape, built once per schema object. */
export function inputChecker(schema: Record<string, unknown>): InputChecker {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    const context = JSON.stringify(schema).includes('"$dynamicAnchor"') ? undefined : sharedContext;
    checker = { schema, validate: inputValidator(schema), context, shape: propertyShape(schema, 0) };
    checkers.set(schema, checker);
  }
  return checker;
}

function propertyShape(schema: unknown, depth: number): PropertyShape | undefined {
  const schemaRecord = asRecord(schema);
  const properties = asRecord(schemaRecord?.['properties']);
  if (!properties || depth > MAX_UNKNOWN_PROPERTY_DEPTH) return undefined;
  let nested: Map<string, PropertyShape> | undefined;
  for (const key of Object.keys(properties)) {
    const property = asRecord(properties[key]);
    const shape = property !== undefined && property['properties'] !== undefined ? propertyShape(property, depth + 1) : undefined;
    if (shape !== undefined) (nested ??= new Map()).set(key, shape);
  }
  return { properties, allowed: Object.keys(properties), patternProperties: schemaRecord?.['patternProperties'], nested };
}

interface RankedDraft {
  readonly draft: DiagnosticDraft;
  readonly rank: number;
}

/** Keyword ranks: at one location only the most telling problem is kept (type before enum before the rest). */
const keywordRanks: Readonly<Record<string, number>> = { type: 0, enum: 1, const: 1 };

/**
 * Validates `tool.input` (an empty object when the tool has none) against `checker`'s schema, the
 * inputSchema of the script named `scriptLabel`. An input that is not an object is left to the plan schema.
 */
export function checkToolInput(tool: ToolView, checker: InputChecker, scriptLabel: string, drafts: DiagnosticDraft[]): void {
  const hasInput = tool.input !== undefined;
  if (hasInput && asRecord(tool.input) === undefined) return;
  const input: unknown = hasInput ? tool.input : {};
  const { validate, context, shape } = checker;
  // The common case (a valid input, no unknown property) allocates nothing: messages are built on failure only.
  const unknown = hasInput && shape !== undefined ? unknownProperties(input, shape, '', 0, undefined) : undefined;
  const valid = !validate || validate(input, context) === true;
  if (valid && unknown === undefined) return;
  const base = pointerFromPath(['tools', tool.index, 'input']);
  const source = ` (${scriptLabel} inputSchema)`;
  const name = toolName(tool);
  const reported = new Set<string>();
  for (const { at, key, allowed } of unknown ?? []) {
    const keyPointer = at + pointerFromPath([key]);
    const suggestion = closestMatch(key, allowed);
    const hint = suggestion ? `; did you mean "${suggestion}"?` : allowed.length > 0 ? `; known properties: ${allowed.join(', ')}` : '';
    const message = `${name}: ${labelOf(keyPointer)} is not a property of ${labelOf(at)}${source}${hint}`;
    reported.add(base + keyPointer);
    drafts.push({ severity: 'warning', code: DiagnosticCode.INPUT_UNKNOWN_PROPERTY, message, pointer: base + keyPointer, target: 'key' });
  }
  if (valid || !validate) return;

  const { remaining, mismatches } = resolveAlternatives(validate.errors ?? []);
  const kept = new Map<string, RankedDraft>();
  const keep = (key: string, draft: DiagnosticDraft, rank: number): void => {
    const existing = kept.get(key);
    if (!existing || rank < existing.rank) kept.set(key, { draft, rank });
  };
  for (const { pointer, expected } of mismatches) {
    const found = valueAtPointer(input, pointer);
    const draft =
      expected.length > 0
        ? { code: DiagnosticCode.INPUT_TYPE_MISMATCH, predicate: `must be ${typePhrase(expected)}`, got: `, got ${kindOf(found)}` }
        : { code: DiagnosticCode.INPUT_SCHEMA_VIOLATION, predicate: 'matches more than one of the allowed alternatives', got: '' };
    const message = `${name}: ${labelOf(pointer)} ${draft.predicate}${source}${draft.got}`;
    keep('value' + pointer, { severity: 'error', code: draft.code, message, pointer: base + pointer }, 0);
  }
  for (const error of remaining) {
    const at = error.instancePath;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') {
      const property = String(params['missingProperty']);
      const pointer = base + at + pointerFromPath([property]);
      const message = `${name}: ${labelOf(at)} is missing the required property "${property}"${source}`;
      const rangePointer = hasInput ? base + at : pointerFromPath(['tools', tool.index, 'toolPath']);
      keep('required' + pointer, { severity: 'error', code: DiagnosticCode.INPUT_REQUIRED_MISSING, message, pointer, rangePointer }, 0);
      continue;
    }
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
      const property = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      const pointer = base + at + pointerFromPath([property]);
      if (reported.has(pointer)) continue; // already an INPUT_UNKNOWN_PROPERTY warning
      const message = `${name}: ${labelOf(at + pointerFromPath([property]))} is not allowed${source}`;
      keep('unknown' + pointer, { severity: 'error', code: DiagnosticCode.INPUT_SCHEMA_VIOLATION, message, pointer, target: 'key' }, 0);
      continue;
    }
    const found = valueAtPointer(input, at);
    const code =
      error.keyword === 'type'
        ? DiagnosticCode.INPUT_TYPE_MISMATCH
        : error.keyword === 'enum' || error.keyword === 'const'
          ? DiagnosticCode.INPUT_NOT_IN_ENUM
          : DiagnosticCode.INPUT_SCHEMA_VIOLATION;
    const got = error.keyword === 'type' ? `, got ${kindOf(found)}` : isScalar(found) ? `, got ${describe(found)}` : '';
    const message = `${name}: ${labelOf(at)} ${predicateOf(error)}${source}${got}`;
    keep('value' + at, { severity: 'error', code, message, pointer: base + at }, keywordRanks[error.keyword] ?? 2);
  }
  for (const { draft } of kept.values()) drafts.push(draft);
}

/** A property that a schema with `properties` does not list: `key` of the object at `at` (a pointer relative to the input). */
interface UnknownProperty {
  readonly at: string;
  readonly key: string;
  readonly allowed: readonly string[];
}

/**
 * The properties that a schema with `properties` (its `shape`) does not list (nor match by
 * `patternProperties`), whatever its additionalProperties says, recursing into listed properties
 * whose schema lists properties in turn. Returns `found` (created on the first one), undefined when there are none.
 */
function unknownProperties(
  value: unknown,
  shape: PropertyShape,
  at: string,
  depth: number,
  found: UnknownProperty[] | undefined,
): UnknownProperty[] | undefined {
  const record = asRecord(value);
  if (!record || depth > MAX_UNKNOWN_PROPERTY_DEPTH) return found;
  const { properties, nested } = shape;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (Object.hasOwn(properties, key)) {
      const nestedShape = nested?.get(key);
      if (nestedShape !== undefined && asRecord(record[key]) !== undefined) {
        found = unknownProperties(record[key], nestedShape, at + pointerFromPath([key]), depth + 1, found);
      }
    } else if (!matchesPatternProperty(key, shape.patternProperties)) {
      (found ??= []).push({ at, key, allowed: shape.allowed });
    }
  }
  return found;
}

function matchesPatternProperty(key: string, patternProperties: unknown): boolean {
  const patterns = asRecord(patternProperties);
  if (!patterns) return false;
  return Object.keys(patterns).some((pattern) => {
    try {
      return new RegExp(pattern, 'u').test(key);
    } catch {
      return false;
    }
  });
}

/** What a failed keyword asks for, e.g. `must be one of "a", "b"` or `must not be empty`. */
function predicateOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${typePhrase(typeList(params['type']))}`;
    case 'enum':
      return `must be one of ${((params['allowedValues'] as unknown[] | undefined) ?? []).map(describe).join(', ')}`;
    case 'const':
      return `must be ${describe(params['allowedValue'])}`;
    case 'minLength':
      return params['limit'] === 1 ? 'must not be empty' : `must be at least ${String(params['limit'])} characters long`;
    case 'maxLength':
      return `must be at most ${String(params['limit'])} characters long`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params['comparison'])} ${String(params['limit'])}`;
    case 'pattern':
      return `must match the pattern ${String(params['pattern'])}`;
    case 'format':
      return `must be a valid ${String(params['format'])}`;
    default:
      return error.message ?? `fails the schema rule "${error.keyword}"`;
  }
}

const articles: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typePhrase(types: readonly string[]): string {
  return types.map((type) => articles[type] ?? type).join(' or ');
}

/** `input.formula`, `input.items[0].name`, `input["odd key"]` for a pointer relative to the input. */
function labelOf(pointer: string): string {
  let label = 'input';
  for (const segment of parsePointer(pointer)) {
    if (/^\d+$/.test(segment)) label += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) label += `.${segment}`;
    else label += `[${JSON.stringify(segment)}]`;
  }
  return label;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}
