// Turns one NDJSON line into a protocol event or a categorised problem (docs/plan-json-and-protocol.md#the-ndjson-protocol). Never throws.
import type { ValidateFunction } from 'ajv';
import { contractValidator } from '../contracts/schemas.js';
import { closestMatch } from '../validation/closestMatch.js';
import { PROTOCOL_VERSION, TOOL_EVENT_TYPES, type ToolEvent, type ToolEventType } from '../contractTypes/toolEvent.js';

export type DecodedLine =
  | { readonly kind: 'event'; readonly event: ToolEvent; readonly replacedInvalidUtf8: boolean }
  | { readonly kind: 'blank' }
  | { readonly kind: 'invalid_json'; readonly problem: string }
  | { readonly kind: 'unknown_type'; readonly problem: string }
  | { readonly kind: 'invalid_event'; readonly problem: string };

const knownTypes = new Set<string>(TOOL_EVENT_TYPES);
const validators = new Map<ToolEventType, ValidateFunction>();

/** The compiled validator of one event type (looked up once per type, not per line). */
function validatorOf(type: ToolEventType): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) validators.set(type, (validate = contractValidator('tool-event.schema.json', `#/$defs/${type}`)));
  return validate;
}

/** Decodes and validates one line of a skill script's stdout. */
export function decodeEventLine(line: string, mayHaveReplacements = true): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    if (line.trim().length === 0) return { kind: 'blank' };
    return { kind: 'invalid_json', problem: `not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid_json', problem: 'each line must be a JSON object' };
  }
  const record = value as Record<string, unknown>;
  const type = record['type'];
  if (typeof type !== 'string' || !knownTypes.has(type)) {
    return {
      kind: 'unknown_type',
      problem: typeof type === 'string' ? unknownTypeProblem(type) : 'missing "type" field',
    };
  }
  if (record['version'] !== PROTOCOL_VERSION) {
    return { kind: 'invalid_event', problem: `"version" must be "${PROTOCOL_VERSION}", got ${JSON.stringify(record['version'])}` };
  }
  const validate = validatorOf(type as ToolEventType);
  if (!validate(record)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? `${first.instancePath} ` : '';
    return { kind: 'invalid_event', problem: `invalid ${type} event: ${where}${first?.message ?? 'does not match the schema'}` };
  }
  return { kind: 'event', event: record as unknown as ToolEvent, replacedInvalidUtf8: mayHaveReplacements && line.includes('\uFFFD') };
}

/** `unknown event type "stat_patch"; did you mean "state_patch"? (expected one of …)`: the same words in runs, inspect and the Problems panel. */
function unknownTypeProblem(type: string): string {
  const suggestion = closestMatch(type, TOOL_EVENT_TYPES);
  return `unknown event type "${type}"${suggestion ? `; did you mean "${suggestion}"?` : ''} (expected one of ${TOOL_EVENT_TYPES.join(', ')})`;
}
