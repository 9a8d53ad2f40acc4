// Tests of plan validation, semantic part: the reference example plans (docs/plan-json-and-protocol.md#the-example-plans), toolIds, dependencies, cycles, tool paths, disabled skills, values.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiagnosticCode, validatePlanText, validatePlanValue, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { assertAt, EXAMINE, LIGHT, only, planText, REQUEST_ID, upstreamPlan } from './planHelpers.js';
import { createStoryFixture, positionOf, type StoryFixture } from './storyFixture.js';

describe('validatePlanText: plan semantics', () => {
  let story: StoryFixture;
  let options: PlanValidationOptions;
  before(() => {
    story = createStoryFixture();
    options = { root: story.root };
  });
  after(() => story.remove());

  test('the upstream example plan validates, with resolved script paths', async () => {
    const result = await validatePlanText(JSON.stringify(upstreamPlan, null, 2), options);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.valid, true);
    assert.deepEqual(result.plan, upstreamPlan);
    assert.deepEqual(
      [...result.resolvedToolPaths],
      [
        ['light1', fs.realpathSync(path.join(story.root, LIGHT))],
        ['examine1', fs.realpathSync(path.join(story.root, EXAMINE))],
      ],
    );
  });

  test('the upstream replan (attempt 2, torch-lighter disabled) validates without warnings', async () => {
    const replan = {
      ...upstreamPlan,
      requestId: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      tools: [{ ...upstreamPlan.tools[1]!, dependencies: [] }],
      disabledSkills: ['torch-lighter'],
      metadata: { generationAttempt: 2, parentPlanId: REQUEST_ID },
    };
    const result = await validatePlanText(JSON.stringify(replan), options);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.valid, true);
  });

  test('DUPLICATE_TOOL_ID: the second use, with related information on the first', async () => {
    const text = planText([`{ "toolId": "light1", "toolPath": "${LIGHT}" }`, `{ "toolId": "light1", "toolPath": "${EXAMINE}" }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.DUPLICATE_TOOL_ID);
    assert.equal(diagnostic.pointer, '/tools/1/toolId');
    assertAt(diagnostic, text, '"light1"', 1);
    assert.equal(diagnostic.related?.[0]?.pointer, '/tools/0/toolId');
    assert.deepEqual(diagnostic.related?.[0]?.range?.start, positionOf(text, '"light1"'));
    assert.equal(result.plan !== undefined, true); // the schema passed
    assert.equal(result.valid, false);
    assert.deepEqual([...result.resolvedToolPaths.keys()], ['light1']);
  });

  test('UNKNOWN_DEPENDENCY: suggests the closest toolId when it is close', async () => {
    const text = planText([
      `{ "toolId": "light1", "toolPath": "${LIGHT}" }`,
      `{ "toolId": "examine1", "toolPath": "${EXAMINE}", "dependencies": ["lihgt1", "banana"] }`,
    ]);
    const result = await validatePlanText(text, options);
    const unknown = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.UNKNOWN_DEPENDENCY);
    assert.deepEqual(
      unknown.map((diagnostic) => diagnostic.pointer),
      ['/tools/1/dependencies/0', '/tools/1/dependencies/1'],
    );
    assert.match(unknown[0]!.message, /"examine1" depends on "lihgt1".*; did you mean "light1"\?$/);
    assert.doesNotMatch(unknown[1]!.message, /did you mean/);
    assertAt(unknown[0]!, text, '"lihgt1"');
    assertAt(unknown[1]!, text, '"banana"');
  });

  test('SELF_DEPENDENCY: reported once, not also as a cycle', async () => {
    const text = planText([`{ "toolId": "light1", "toolPath": "${LIGHT}", "dependencies": ["light1"] }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.SELF_DEPENDENCY);
    assert.equal(diagnostic.pointer, '/tools/0/dependencies/0');
    assertAt(diagnostic, text, '"light1"', 1);
    assert.equal(
      result.diagnostics.some((other) => other.code === DiagnosticCode.DEPENDENCY_CYCLE),
      false,
    );
  });

  test('DEPENDENCY_CYCLE: the message holds the path, starting at the first tool of the cycle in the plan', async () => {
    const text = planText([
      `{ "toolId": "x", "toolPath": "${LIGHT}", "dependencies": ["y"] }`,
      `{ "toolId": "y", "toolPath": "${LIGHT}", "dependencies": ["z"] }`,
      `{ "toolId": "z", "toolPath": "${LIGHT}", "dependencies": ["ghost", "x"] }`,
      `{ "toolId": "free", "toolPath": "${LIGHT}", "dependencies": ["x"] }`,
    ]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.DEPENDENCY_CYCLE);
    assert.match(diagnostic.message, /x -> y -> z -> x/);
    assert.equal(diagnostic.pointer, '/tools/0/dependencies/0');
    assertAt(diagnostic, text, '"y"');
    assert.deepEqual(
      diagnostic.related?.map((information) => information.pointer),
      ['/tools/0/dependencies/0', '/tools/1/dependencies/0', '/tools/2/dependencies/1'],
    );
    only(result, DiagnosticCode.UNKNOWN_DEPENDENCY);
  });

  test('DEPENDENCY_CYCLE: the path starts at the cycle member listed first, and separate cycles are each reported', async () => {
    const text = planText([
      `{ "toolId": "c", "toolPath": "${LIGHT}", "dependencies": ["a"] }`,
      `{ "toolId": "a", "toolPath": "${LIGHT}", "dependencies": ["b"] }`,
      `{ "toolId": "b", "toolPath": "${LIGHT}", "dependencies": ["c"] }`,
      `{ "toolId": "p", "toolPath": "${LIGHT}", "dependencies": ["q"] }`,
      `{ "toolId": "q", "toolPath": "${LIGHT}", "dependencies": ["p"] }`,
    ]);
    const result = await validatePlanText(text, options);
    const cycles = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.DEPENDENCY_CYCLE);
    assert.equal(cycles.length, 2);
    assert.match(cycles[0]!.message, /c -> a -> b -> c/);
    assert.match(cycles[1]!.message, /p -> q -> p/);
  });

  test('DUPLICATE_DEPENDENCY: a warning on the repeat, related to the first', async () => {
    const text = planText([
      `{ "toolId": "light1", "toolPath": "${LIGHT}" }`,
      `{ "toolId": "examine1", "toolPath": "${EXAMINE}", "dependencies": ["light1", "light1"] }`,
    ]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.DUPLICATE_DEPENDENCY);
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(diagnostic.pointer, '/tools/1/dependencies/1');
    assertAt(diagnostic, text, '"light1"', 2);
    assert.equal(diagnostic.related?.[0]?.pointer, '/tools/1/dependencies/0');
    assert.equal(result.valid, true);
  });

  test('TOOL_PATH_NOT_FOUND, TOOL_PATH_NOT_A_FILE and TOOL_PATH_OUTSIDE_SKILLS, including rollback.toolPath', async () => {
    const text = planText([
      `{ "toolId": "a", "toolPath": "skills/torch-lighter/scripts/missing.js" }`,
      `{ "toolId": "b", "toolPath": "skills/torch-lighter/scripts" }`,
      `{ "toolId": "c", "toolPath": "../outside.js" }`,
      `{ "toolId": "d", "toolPath": "${LIGHT}", "rollback": { "toolPath": "skills/linked/scripts/escape.js" } }`,
    ]);
    const result = await validatePlanText(text, options);
    const notFound = only(result, DiagnosticCode.TOOL_PATH_NOT_FOUND);
    assert.equal(notFound.pointer, '/tools/0/toolPath');
    assertAt(notFound, text, '"skills/torch-lighter/scripts/missing.js"');
    const notAFile = only(result, DiagnosticCode.TOOL_PATH_NOT_A_FILE);
    assert.equal(notAFile.pointer, '/tools/1/toolPath');
    assertAt(notAFile, text, '"skills/torch-lighter/scripts"');
    const outside = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.TOOL_PATH_OUTSIDE_SKILLS);
    assert.deepEqual(
      outside.map((diagnostic) => diagnostic.pointer),
      ['/tools/2/toolPath', '/tools/3/rollback/toolPath'],
    );
    assertAt(outside[0]!, text, '"../outside.js"');
    assertAt(outside[1]!, text, '"skills/linked/scripts/escape.js"');
    assert.deepEqual([...result.resolvedToolPaths.keys()], ['d']);
    assert.equal(result.valid, false);
  });

  test('tool paths: allowOutsideSkills, extraSkillRoots, checkToolPaths: false, and subPlan tools', async () => {
    const text = planText([
      `{ "toolId": "c", "toolPath": "../outside.js" }`,
      `{ "toolId": "dice", "toolPath": ${JSON.stringify(path.join(story.bundled, 'dice-roller/scripts/roll.js'))} }`,
    ]);
    const strict = await validatePlanText(text, options);
    assert.equal(strict.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.TOOL_PATH_OUTSIDE_SKILLS).length, 2);
    const relaxed = await validatePlanText(text, { ...options, allowOutsideSkills: true });
    assert.deepEqual(relaxed.diagnostics, []);
    const extra = await validatePlanText(text, { ...options, extraSkillRoots: [story.bundled] });
    assert.deepEqual(
      extra.diagnostics.map((diagnostic) => diagnostic.pointer),
      ['/tools/0/toolPath'],
    );
    const unchecked = await validatePlanText(text, { ...options, checkToolPaths: false });
    assert.deepEqual(unchecked.diagnostics, []);
    assert.equal(unchecked.resolvedToolPaths.size, 0);
    // A sub-plan tool's toolPath is informational; its subPlan file must exist inside the root.
    const subPlan = await validatePlanText(planText(['{ "toolId": "s", "toolPath": "informational", "subPlan": "plans/other.json" }']), options);
    assert.deepEqual(
      subPlan.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      [['SUB_PLAN_NOT_FOUND', '/tools/0/subPlan']],
    );
  });

  test('TOOL_IN_DISABLED_SKILL: a warning on the toolPath, related to the disabledSkills entry', async () => {
    const text = planText([`{ "toolId": "light1", "toolPath": "${LIGHT}" }`], ',\n  "disabledSkills": ["torch-lighter"]');
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.TOOL_IN_DISABLED_SKILL);
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(diagnostic.pointer, '/tools/0/toolPath');
    assertAt(diagnostic, text, `"${LIGHT}"`);
    assert.equal(diagnostic.related?.[0]?.pointer, '/disabledSkills/0');
    assert.equal(result.valid, true);
  });

  test('EMPTY_PLAN: an info on /tools; the plan stays valid', async () => {
    const text = planText([]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.EMPTY_PLAN);
    assert.equal(diagnostic.severity, 'info');
    assert.equal(diagnostic.pointer, '/tools');
    assertAt(diagnostic, text, '[');
    assert.equal(result.valid, true);
  });

  test('semantic checks still run when the schema fails, and diagnostics come sorted by position', async () => {
    const text = planText(
      [`{ "toolId": "a", "toolPath": "${LIGHT}", "dependencies": ["b", 7] }`, `{ "toolId": "b", "toolPath": "${LIGHT}", "dependencies": ["a"], "retries": 2 }`],
      ',\n  "parallel": 1',
    );
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.code),
      ['DEPENDENCY_CYCLE', 'SCHEMA_TYPE', 'UNKNOWN_PROPERTY', 'SCHEMA_TYPE'],
    );
    const starts = result.diagnostics.map((diagnostic) => diagnostic.range!.start);
    assert.deepEqual(
      starts,
      [...starts].sort((left, right) => left.line - right.line || left.column - right.column),
    );
    assert.equal(result.plan, undefined);
  });
});

describe('validatePlanValue', () => {
  let story: StoryFixture;
  before(() => {
    story = createStoryFixture();
  });
  after(() => story.remove());

  test('validates an in-memory plan: no ranges, document order, same plan object', async () => {
    const plan = {
      requestId: REQUEST_ID,
      tools: [
        { toolId: 'a', toolPath: LIGHT, dependencies: ['zz'] },
        { toolId: 'a', toolPath: EXAMINE, extra: true },
      ],
      parallel: 'no',
    };
    const result = await validatePlanValue(plan, { root: story.root });
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      [
        ['UNKNOWN_DEPENDENCY', '/tools/0/dependencies/0'],
        ['DUPLICATE_TOOL_ID', '/tools/1/toolId'],
        ['UNKNOWN_PROPERTY', '/tools/1/extra'],
        ['SCHEMA_TYPE', '/parallel'],
      ],
    );
    assert.ok(result.diagnostics.every((diagnostic) => diagnostic.range === undefined));
    assert.equal(result.plan, undefined);

    const good = await validatePlanValue(upstreamPlan, { root: story.root });
    assert.equal(good.valid, true);
    assert.equal(good.plan, upstreamPlan);
  });

  test('anything at all is handled without throwing', async () => {
    for (const value of [undefined, null, 42, 'plan', [], { tools: 'x' }, { tools: [null, 1, 'x', []] }]) {
      const result = await validatePlanValue(value, { root: story.root });
      assert.equal(result.valid, false);
      assert.ok(result.diagnostics.length > 0);
    }
  });
});
