// Tests of the tolerant reading of plans written for other Narratoria runtimes: annotations, unknown keys, unusual toolIds, clamped retry policies.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { normalizeTool, type ToolInvocation } from '../../../src/runtime/contractTypes/plan.js';
import { validatePlanText, validatePlanValue, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { contractValidator } from '../../../src/runtime/contracts/schemas.js';
import { readPlanTolerantly } from '../../../src/runtime/validation/tolerantPlanReading.js';
import { EXAMINE, LIGHT, REQUEST_ID } from './planHelpers.js';
import { createStoryFixture, type StoryFixture } from './storyFixture.js';

const projectRoot = path.resolve(import.meta.dirname, '../../..');

/** A plan in the shape other runtimes write: annotations at every level, a toolId with a space. Our own fixture. */
function annotatedPlan(): Record<string, unknown> {
  return {
    $schema: 'https://example.org/narratoria/plan.schema.json',
    $comment: 'Written by hand to show the format.',
    title: 'Torch and door',
    description: 'The player lights a torch, then looks at the door.',
    requestId: REQUEST_ID,
    narrative: 'The match flares.',
    tools: [
      {
        $comment: 'First light the torch.',
        toolId: 'light torch',
        toolPath: LIGHT,
        input: { action: 'light', $comment: "input is the script's data: kept as written" },
        retryPolicy: { $comment: 'the defaults', maxRetries: 3, backoffMs: 100 },
      },
      {
        toolId: 'examine1',
        toolPath: EXAMINE,
        description: 'Examine the door',
        dependencies: ['light torch'],
        rollback: { $comment: 'nothing to undo really', toolPath: EXAMINE },
      },
    ],
    metadata: { generationAttempt: 1, parentPlanId: null, $comment: 'metadata is open' },
  };
}

describe('tolerant plan reading', () => {
  let story: StoryFixture;
  let options: PlanValidationOptions;
  before(() => {
    story = createStoryFixture();
    options = { root: story.root };
  });
  after(() => story.remove());

  test('$comment, $schema, title and description at every level give no diagnostic; the toolId with a space only warns', async () => {
    const plan = annotatedPlan();
    const result = await validatePlanText(JSON.stringify(plan, null, 2), options);
    assert.equal(result.valid, true, JSON.stringify(result.diagnostics));
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.pointer]),
      [['warning', 'TOOL_ID_UNUSUAL_CHARACTERS', '/tools/0/toolId']],
    );
    assert.deepEqual(result.plan, plan, 'the plan comes back as written (the runtime ignores what it does not know)');
    assert.equal(result.resolvedToolPaths.has('light torch'), true);
  });

  test('the reading drops annotations outside input and metadata, and copies nothing when there is nothing to drop', () => {
    const reading = readPlanTolerantly(annotatedPlan());
    const strict = reading.strictValue as { tools: Record<string, Record<string, unknown>>[]; metadata: object };
    assert.equal('$comment' in strict, false);
    assert.equal('$comment' in strict.tools[0]!, false);
    assert.equal('$comment' in strict.tools[0]!['retryPolicy']!, false);
    assert.equal('$comment' in strict.tools[1]!['rollback']!, false);
    assert.equal('$comment' in strict.tools[0]!['input']!, true);
    assert.equal('$comment' in strict.metadata, true);
    assert.equal(strict.tools[1]!['description'], 'Examine the door', "a tool's description is a field, not an annotation");
    const plain = { requestId: REQUEST_ID, tools: [{ toolId: 'a', toolPath: LIGHT }] };
    assert.equal(readPlanTolerantly(plain).strictValue, plain);
  });

  test('unknown keys of the plan, a tool and a retry policy warn with a "did you mean"; the plan stays valid', async () => {
    const plan = {
      requestId: REQUEST_ID,
      paralel: true,
      tools: [{ toolId: 'a', toolPath: LIGHT, timeoutMS: 5000, retryPolicy: { maxRetries: 2, backofMs: 50, jitter: true } }],
    };
    const result = await validatePlanValue(plan, options);
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.pointer, diagnostic.message]),
      [
        ['warning', 'UNKNOWN_PROPERTY', '/paralel', 'unknown property "paralel" (ignored when the plan runs); did you mean "parallel"?'],
        ['warning', 'UNKNOWN_PROPERTY', '/tools/0/timeoutMS', 'tools/0: unknown property "timeoutMS" (ignored when the plan runs); did you mean "timeoutMs"?'],
        [
          'warning',
          'UNKNOWN_PROPERTY',
          '/tools/0/retryPolicy/backofMs',
          'tools/0/retryPolicy: unknown property "backofMs" (ignored when the plan runs); did you mean "backoffMs"?',
        ],
        [
          'warning',
          'UNKNOWN_PROPERTY',
          '/tools/0/retryPolicy/jitter',
          'tools/0/retryPolicy: unknown property "jitter" (ignored when the plan runs); known properties: maxRetries, backoffMs',
        ],
      ],
    );
  });

  test('maxRetries and backoffMs above the caps warn, and the runtime clamps them', async () => {
    const tool: ToolInvocation = { toolId: 'a', toolPath: LIGHT, retryPolicy: { maxRetries: 25, backoffMs: 120_000 } };
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools: [tool] }, options);
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.message]),
      [
        [
          'warning',
          'RETRY_POLICY_CLAMPED',
          'tools/0/retryPolicy/maxRetries: 25 is above 10; Narratoria clamps maxRetries to 10, so the tool is retried at most 10 times',
        ],
        [
          'warning',
          'RETRY_POLICY_CLAMPED',
          'tools/0/retryPolicy/backoffMs: 120000 is above 60000; Narratoria clamps backoffMs to 60000 (milliseconds), so the first retry waits 60000 ms',
        ],
      ],
    );
    const normalized = normalizeTool(tool, 0);
    assert.equal(normalized.maxRetries, 10);
    assert.equal(normalized.backoffMs, 60_000);
  });

  test('what was refused stays refused: a toolPath outside skills/, a cycle, a bad requestId, negative retries, "__proto__"', async () => {
    const cases: [unknown, string][] = [
      [{ $comment: 'x', requestId: REQUEST_ID, tools: [{ $comment: 'y', toolId: 'a b', toolPath: story.outsideScript }] }, 'TOOL_PATH_OUTSIDE_SKILLS'],
      [
        {
          requestId: REQUEST_ID,
          tools: [
            { toolId: 'a b', toolPath: LIGHT, dependencies: ['c'] },
            { toolId: 'c', toolPath: LIGHT, dependencies: ['a b'] },
          ],
        },
        'DEPENDENCY_CYCLE',
      ],
      [{ $comment: 'x', requestId: 'not-a-uuid', tools: [] }, 'SCHEMA_FORMAT'],
      [{ requestId: REQUEST_ID, tools: [{ toolId: 'a', toolPath: LIGHT, retryPolicy: { maxRetries: -1 } }] }, 'RETRY_POLICY_OUT_OF_RANGE'],
      [
        JSON.parse(`{ "requestId": "${REQUEST_ID}", "tools": [{ "toolId": "a", "toolPath": "${LIGHT}", "__proto__": { "required": false } }] }`),
        'SCHEMA_UNKNOWN_PROPERTY',
      ],
    ];
    for (const [plan, code] of cases) {
      const result = await validatePlanValue(plan, options);
      assert.equal(result.valid, false, code);
      assert.ok(
        result.diagnostics.some((diagnostic) => diagnostic.code === code && diagnostic.severity === 'error'),
        `${code}: ${JSON.stringify(result.diagnostics)}`,
      );
    }
  });

  test("the project's own example plans validate with no warning", async () => {
    const examples = path.join(projectRoot, 'contracts', 'examples');
    const files = readdirSync(examples).filter((name) => name.endsWith('.plan.json'));
    assert.ok(files.length >= 3);
    for (const name of files) {
      const result = await validatePlanText(readFileSync(path.join(examples, name), 'utf8'), { root: projectRoot });
      assert.deepEqual(
        result.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
        [],
        name,
      );
    }
  });

  test('a plan the strict schema accepts has nothing for the tolerant reading to drop (the validator then reads it once)', () => {
    const schema = contractValidator('plan-json.schema.json');
    const plans: unknown[] = [annotatedPlan()];
    for (const folder of ['contracts/examples', 'test/fixtures/plans', 'test/fixtures/story/plans']) {
      for (const name of readdirSync(path.join(projectRoot, folder)).filter((file) => file.endsWith('.plan.json'))) {
        plans.push(JSON.parse(readFileSync(path.join(projectRoot, folder, name), 'utf8')));
      }
    }
    // Each object the reading looks at, with an annotation or an unknown key added.
    const base = { requestId: REQUEST_ID, tools: [{ toolId: 'a', toolPath: LIGHT, retryPolicy: { maxRetries: 1 }, rollback: { toolPath: EXAMINE } }] };
    const places: ((plan: typeof base) => Record<string, unknown>)[] = [
      (plan) => plan,
      (plan) => plan.tools[0]!,
      (plan) => plan.tools[0]!.retryPolicy,
      (plan) => plan.tools[0]!.rollback,
    ];
    for (const place of places) {
      for (const key of ['$comment', 'colour']) {
        const plan = structuredClone(base);
        place(plan)[key] = 'added';
        plans.push(plan);
      }
    }
    let accepted = 0;
    for (const plan of plans) {
      if (schema(plan) !== true) continue;
      accepted++;
      const reading = readPlanTolerantly(plan);
      assert.equal(reading.strictValue === plan && reading.drafts.length === 0, true, JSON.stringify(plan).slice(0, 200));
    }
    assert.ok(accepted >= 5, `${accepted} plans accepted as they are`);
    assert.ok(plans.length - accepted >= 8, 'the plans with something added are refused as they are');
  });
});
