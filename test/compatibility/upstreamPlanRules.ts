// The rules the upstream Narratoria plan format sets (spec 002, plan execution), re-stated by this project as a JSON Schema of its own for the compatibility suite; not a copy of upstream's file.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * What a plan must be for a runtime that follows the upstream rules, and nothing more:
 * - the plan is an object with a `requestId` (a UUID string) and `tools` (an array);
 * - each tool is an object with a string `toolId` and a string `toolPath`; `input` is an object,
 *   `dependencies` a list of strings, `required` and `async` booleans;
 * - a retry policy has an integer `maxRetries` from 0 to 10 and an integer `backoffMs` of 0 or more;
 * - the optional `narrative` is a string, `parallel` a boolean, `disabledSkills` a list of strings;
 * - `metadata.generationAttempt` is an integer of 1 or more and `metadata.parentPlanId` a UUID or null.
 * Upstream leaves every object open (no `additionalProperties: false`), so this project's own
 * additions (conditions, rollbacks, descriptions, sub-plans, metadata of its narrator) are allowed.
 */
export const UPSTREAM_PLAN_RULES = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:narratoria-vscode:test:upstream-plan-rules',
  type: 'object',
  required: ['requestId', 'tools'],
  properties: {
    requestId: { type: 'string', format: 'uuid' },
    narrative: { type: 'string' },
    tools: { type: 'array', items: { $ref: '#/$defs/tool' } },
    parallel: { type: 'boolean' },
    disabledSkills: { type: 'array', items: { type: 'string' } },
    metadata: {
      type: 'object',
      properties: {
        generationAttempt: { type: 'integer', minimum: 1 },
        parentPlanId: { anyOf: [{ type: 'null' }, { type: 'string', format: 'uuid' }] },
      },
    },
  },
  $defs: {
    tool: {
      type: 'object',
      required: ['toolId', 'toolPath'],
      properties: {
        toolId: { type: 'string' },
        toolPath: { type: 'string' },
        input: { type: 'object' },
        dependencies: { type: 'array', items: { type: 'string' } },
        required: { type: 'boolean' },
        async: { type: 'boolean' },
        retryPolicy: {
          type: 'object',
          properties: {
            maxRetries: { type: 'integer', minimum: 0, maximum: 10 },
            backoffMs: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
  },
} as const;

/** Every place in a schema that closes an object (`additionalProperties: false`): the rules must have none. */
export function closedObjects(schema: unknown, at = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const here = (schema as Record<string, unknown>)['additionalProperties'] === false ? [at || '/'] : [];
  return [...here, ...Object.entries(schema).flatMap(([key, value]) => closedObjects(value, `${at}/${key}`))];
}

/** A validator of the rules: the errors of a value, as `pointer message` lines (none when it follows them). */
export function upstreamPlanErrors(): (value: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(UPSTREAM_PLAN_RULES);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`));
}
