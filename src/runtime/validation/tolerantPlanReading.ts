// Reads a plan as other Narratoria runtimes do before the strict schema check: annotations dropped, unknown keys warned about. Pure: no I/O.
import { contractSchemas, type ErrorObject } from '../contracts/schemas.js';
import { MAX_BACKOFF_MS, MAX_RETRIES } from '../contractTypes/plan.js';
import { closestMatch } from './closestMatch.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { pointerFromPath, valueAtPointer } from './jsonLocator.js';

/**
 * JSON Schema annotation keywords. Upstream's plan schema leaves `additionalProperties` open, so its
 * example plans carry them (`$comment` above all); they mean nothing to a run and are allowed anywhere.
 */
export const ANNOTATION_KEYS: ReadonlySet<string> = new Set(['$comment', '$schema', 'title', 'description']);

/** What {@link readPlanTolerantly} makes of a plan value. */
export interface TolerantReading {
  /** The value the strict schema checks: `value` itself when nothing had to go, else a copy without the dropped keys. */
  readonly strictValue: unknown;
  /** One warning per unknown key (annotations give none). */
  readonly drafts: readonly DiagnosticDraft[];
}

interface Level {
  readonly known: ReadonlySet<string>;
  /** Unknown keys are warnings here (plan, tool, retry policy); elsewhere they stay for the strict check. */
  readonly warnUnknown: boolean;
}

const definitions = (contractSchemas['plan-json.schema.json'] as { $defs: Record<string, { properties: object }> }).$defs;
const knownKeys = (properties: object): ReadonlySet<string> => new Set(Object.keys(properties));
const planLevel: Level = { known: knownKeys((contractSchemas['plan-json.schema.json'] as { properties: object }).properties), warnUnknown: true };
const toolLevel: Level = { known: knownKeys(definitions['ToolInvocation']!.properties), warnUnknown: true };
const retryLevel: Level = { known: knownKeys(definitions['RetryPolicy']!.properties), warnUnknown: true };
/** rollback is this project's own addition, which no other runtime writes: a typo in it stays an error. */
const rollbackLevel: Level = { known: knownKeys(definitions['RollbackInvocation']!.properties), warnUnknown: false };

/**
 * Drops annotations from the plan, its tools, their retry policies and rollbacks, and unknown keys from
 * the plan, its tools and their retry policies (each with an UNKNOWN_PROPERTY warning and a "did you mean"),
 * so the strict schema then checks only what the runtime reads. `input` and `metadata` are left alone:
 * the first is the script's data, the second is open by design. The runtime ignores the dropped keys.
 */
export function readPlanTolerantly(value: unknown): TolerantReading {
  const plan = asRecord(value);
  if (!plan) return { strictValue: value, drafts: [] };
  const drafts: DiagnosticDraft[] = [];
  let result = strip(plan, planLevel, [], drafts);
  const tools = plan['tools'];
  if (Array.isArray(tools)) {
    let copiedTools: unknown[] | undefined;
    for (let index = 0; index < tools.length; index++) {
      const tool = asRecord(tools[index]);
      if (!tool) continue;
      let strippedTool = strip(tool, toolLevel, ['tools', index], drafts);
      for (const [key, level] of [
        ['retryPolicy', retryLevel],
        ['rollback', rollbackLevel],
      ] as const) {
        const nested = asRecord(strippedTool[key]);
        if (!nested) continue;
        const strippedNested = strip(nested, level, ['tools', index, key], drafts);
        if (strippedNested !== nested) strippedTool = { ...strippedTool, [key]: strippedNested };
      }
      if (strippedTool !== tool) (copiedTools ??= [...tools])[index] = strippedTool;
    }
    if (copiedTools) result = { ...result, tools: copiedTools };
  }
  return { strictValue: result, drafts };
}

/** `record` without its annotations and (where warned about) unknown keys; `record` itself when it has none. */
function strip(record: Record<string, unknown>, level: Level, path: readonly (string | number)[], drafts: DiagnosticDraft[]): Record<string, unknown> {
  let dropped: Set<string> | undefined;
  for (const key in record) {
    if (level.known.has(key) || !Object.hasOwn(record, key)) continue;
    if (ANNOTATION_KEYS.has(key)) {
      (dropped ??= new Set()).add(key);
      continue;
    }
    if (!level.warnUnknown || key === '__proto__') continue;
    (dropped ??= new Set()).add(key);
    const suggestion = closestMatch(key, level.known);
    const where = path.length === 0 ? '' : `${path.join('/')}: `;
    const hint = suggestion ? `; did you mean "${suggestion}"?` : `; known properties: ${[...level.known].join(', ')}`;
    const message = `${where}unknown property "${key}" (ignored when the plan runs)${hint}`;
    drafts.push({ severity: 'warning', code: DiagnosticCode.UNKNOWN_PROPERTY, message, pointer: pointerFromPath([...path, key]), target: 'key' });
  }
  if (!dropped) return record;
  // fromEntries defines own properties: a "__proto__" key stays a key (for the strict check to refuse), not a prototype.
  return Object.fromEntries(Object.entries(record).filter(([key]) => !dropped.has(key)));
}

const toolIdPattern = /^\/tools\/\d+\/toolId$/;
const retryBoundPattern = /^\/tools\/\d+\/retryPolicy\/(maxRetries|backoffMs)$/;

/**
 * Splits Ajv's errors into those that stay errors and the ones other runtimes accept, which become
 * warnings: a toolId outside the safe characters (TOOL_ID_UNUSUAL_CHARACTERS), and a maxRetries or
 * backoffMs above this runtime's cap, which the runtime clamps (RETRY_POLICY_CLAMPED).
 */
export function tolerateSchemaErrors(errors: readonly ErrorObject[], value: unknown): { errors: ErrorObject[]; drafts: DiagnosticDraft[] } {
  const kept: ErrorObject[] = [];
  const drafts: DiagnosticDraft[] = [];
  for (const error of errors) {
    const at = error.instancePath;
    const toolId = error.keyword === 'pattern' && toolIdPattern.test(at) ? valueAtPointer(value, at) : undefined;
    if (typeof toolId === 'string' && toolId !== '') {
      const found = JSON.stringify(toolId);
      const message =
        `${at.slice(1)}: ${found} has characters other than letters, digits and _ . : -; ` +
        "Narratoria runs it, but some tools (conditions that name it, other runtimes' files) may not handle it";
      drafts.push({ severity: 'warning', code: DiagnosticCode.TOOL_ID_UNUSUAL_CHARACTERS, message, pointer: at });
      continue;
    }
    const bound = retryBoundPattern.exec(at);
    if (error.keyword === 'maximum' && bound) {
      const name = bound[1]!;
      const cap = name === 'maxRetries' ? MAX_RETRIES : MAX_BACKOFF_MS;
      const found = String(valueAtPointer(value, at));
      const message =
        name === 'maxRetries'
          ? `${at.slice(1)}: ${found} is above ${cap}; Narratoria clamps maxRetries to ${cap}, so the tool is retried at most ${cap} times`
          : `${at.slice(1)}: ${found} is above ${cap}; Narratoria clamps backoffMs to ${cap} (milliseconds), so the first retry waits ${cap} ms`;
      drafts.push({ severity: 'warning', code: DiagnosticCode.RETRY_POLICY_CLAMPED, message, pointer: at });
      continue;
    }
    kept.push(error);
  }
  return { errors: kept, drafts };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
