// Test helper: the reference example plan (docs/plan-json-and-protocol.md#the-example-plans), a plan-text builder, and assertions that find one diagnostic and check its position.
import * as assert from 'node:assert/strict';
import type { Diagnostic, DiagnosticCode, PlanValidationResult } from '../../../src/runtime/validation/index.js';
import { positionOf } from './storyFixture.js';

export const REQUEST_ID = '7c9e6679-7425-40de-944b-e07dc4f0be15';
export const LIGHT = 'skills/torch-lighter/scripts/light.js';
export const EXAMINE = 'skills/door-examiner/scripts/examine.js';

/** The reference example plan (docs/plan-json-and-protocol.md#the-example-plans), with toolPaths adapted to skills/<name>/scripts/. */
export const upstreamPlan = {
  requestId: REQUEST_ID,
  narrative: 'You strike a match and the torch flares to life. The door ahead looks ancient.',
  tools: [
    {
      toolId: 'light1',
      toolPath: LIGHT,
      input: { action: 'light_torch' },
      dependencies: [],
      required: true,
      async: false,
      retryPolicy: { maxRetries: 3, backoffMs: 100 },
    },
    {
      toolId: 'examine1',
      toolPath: EXAMINE,
      input: { target: 'mysterious_door' },
      dependencies: ['light1'],
      required: true,
      async: false,
      retryPolicy: { maxRetries: 3, backoffMs: 100 },
    },
  ],
  parallel: false,
  disabledSkills: [],
  metadata: { generationAttempt: 1, parentPlanId: null },
};

/** A plan text from tool texts (JSON objects), one tool per line starting on line 4; `extra` goes after "tools". */
export function planText(tools: readonly string[], extra = ''): string {
  return `{\n  "requestId": "${REQUEST_ID}",\n  "tools": [\n${tools.map((tool) => `    ${tool}`).join(',\n')}\n  ]${extra}\n}\n`;
}

/** The one diagnostic of `code`; fails when there are none or several. */
export function only(result: PlanValidationResult, code: DiagnosticCode): Diagnostic {
  const found = result.diagnostics.filter((diagnostic) => diagnostic.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(result.diagnostics, null, 2)}`);
  return found[0]!;
}

/** Asserts that the diagnostic's range starts where `needle` (its `occurrence`-th match) starts in `text`. */
export function assertAt(diagnostic: Diagnostic, text: string, needle: string, occurrence = 0): void {
  assert.deepEqual(diagnostic.range?.start, positionOf(text, needle, occurrence), `${diagnostic.code}: ${diagnostic.message}`);
}
