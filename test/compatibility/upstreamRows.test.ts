// Compatibility (issue 41), row by row from the upstream specs' rules, with fixtures of our own: what other Narratoria runtimes accept is accepted here (with the warning described), what stays unsafe is still refused, and this project's plans follow upstream's plan rules.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { readExecutionResult } from '../../src/runtime/contractTypes/resultReading.js';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { executePlan } from '../../src/runtime/executor/planExecutor.js';
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import { checkConfigSchema, validateConfigValues, type ConfigSchema } from '../../src/runtime/skills/skillConfig.js';
import { createSkillCatalog, type SkillCatalog } from '../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../src/runtime/skills/skillDiscovery.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import type { NarratorSkill } from '../../src/runtime/skills/skillTypes.js';
import { validatePlanText, validatePlanValue, type PlanValidationResult } from '../../src/runtime/validation/validatePlan.js';
import { closedObjects, UPSTREAM_PLAN_RULES, upstreamPlanErrors } from './upstreamPlanRules.js';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const fixtureStory = path.join(projectRoot, 'test', 'fixtures', 'story');
const echo = 'skills/helpers/scripts/echo.js';
const REQUEST_ID = '4d6f8a0c-2e4b-4c6d-8e0f-1a3c5e7a9b11';
const upstreamErrors = upstreamPlanErrors();

/** The codes of a validation, errors and warnings apart. */
function codes(result: PlanValidationResult): { errors: string[]; warnings: string[] } {
  const of = (severity: string) =>
    result.diagnostics
      .filter((diagnostic) => diagnostic.severity === severity)
      .map((diagnostic) => diagnostic.code)
      .sort();
  return { errors: of('error'), warnings: of('warning') };
}

async function validate(plan: unknown, root = fixtureStory, skills?: SkillCatalog): Promise<PlanValidationResult> {
  return validatePlanText(JSON.stringify(plan, null, 2), { root, ...(skills ? { skills } : {}) });
}

describe('accepted upstream, accepted here', () => {
  test('annotations ($comment, $schema, title, description) in the plan, a tool and a retry policy: no diagnostic at all', async () => {
    const plan = {
      $schema: 'https://example.org/plan.schema.json',
      $comment: 'first attempt',
      title: 'The torch',
      description: 'Light it.',
      requestId: REQUEST_ID,
      tools: [
        { $comment: 'a tool', title: 'Light', toolId: 'light1', toolPath: echo, retryPolicy: { $comment: 'the defaults', maxRetries: 3, backoffMs: 100 } },
      ],
    };
    assert.deepEqual(upstreamErrors(plan), []);
    const result = await validate(plan);
    assert.equal(result.valid, true);
    assert.deepEqual(result.diagnostics, []);
  });

  test('unknown keys of the plan, a tool and a retry policy: UNKNOWN_PROPERTY warnings, and the plan is valid', async () => {
    const plan = {
      requestId: REQUEST_ID,
      sessionId: 's-1',
      tools: [{ toolId: 'light1', toolPath: echo, priority: 2, retryPolicy: { maxRetries: 1, jitterMs: 5 } }],
    };
    assert.deepEqual(upstreamErrors(plan), []);
    const result = await validate(plan);
    assert.equal(result.valid, true);
    assert.deepEqual(codes(result), { errors: [], warnings: ['UNKNOWN_PROPERTY', 'UNKNOWN_PROPERTY', 'UNKNOWN_PROPERTY'] });
  });

  test('a toolId with a space, named in a dependency: TOOL_ID_UNUSUAL_CHARACTERS, and the plan is valid', async () => {
    const plan = {
      requestId: REQUEST_ID,
      tools: [
        { toolId: 'light torch', toolPath: echo },
        { toolId: 'look', toolPath: echo, dependencies: ['light torch'] },
      ],
    };
    assert.deepEqual(upstreamErrors(plan), []);
    const result = await validate(plan);
    assert.equal(result.valid, true);
    assert.deepEqual(codes(result), { errors: [], warnings: ['TOOL_ID_UNUSUAL_CHARACTERS'] });
  });

  test('backoffMs over a minute (no upstream maximum) and maxRetries over 10 (older upstream schemas): RETRY_POLICY_CLAMPED, saying to what', async () => {
    const backoff = { requestId: REQUEST_ID, tools: [{ toolId: 'light1', toolPath: echo, retryPolicy: { maxRetries: 2, backoffMs: 120000 } }] };
    assert.deepEqual(upstreamErrors(backoff), []);
    const slow = await validate(backoff);
    assert.equal(slow.valid, true);
    assert.deepEqual(codes(slow), { errors: [], warnings: ['RETRY_POLICY_CLAMPED'] });
    assert.match(slow.diagnostics[0]!.message, /60000/);
    const many = await validate({ requestId: REQUEST_ID, tools: [{ toolId: 'light1', toolPath: echo, retryPolicy: { maxRetries: 25 } }] });
    assert.equal(many.valid, true);
    assert.deepEqual(codes(many), { errors: [], warnings: ['RETRY_POLICY_CLAMPED'] });
    assert.match(many.diagnostics[0]!.message, /\b10\b/);
  });

  test('results: no error category, executionTrace, finalState and the state "completed" read into a result of our schema', () => {
    const upstream = {
      planId: REQUEST_ID,
      success: false,
      executionTrace: [
        { toolId: 'light torch', state: 'completed', executionTimeMs: 12 },
        { toolId: 'examine1', state: 'failed', error: { code: 'TOOL_TIMEOUT', message: 'no answer' } },
      ],
      finalState: { torch: 'lit' },
    };
    const read = readExecutionResult(upstream);
    assert.ok(read);
    assert.deepEqual(
      read.toolResults.map((tool) => [tool.toolId, tool.state, tool.error?.category]),
      [
        ['light torch', 'success', undefined],
        ['examine1', 'failed', 'timeout'],
      ],
    );
    assert.deepEqual(read.aggregatedState, { torch: 'lit' });
    assert.deepEqual(validateAgainst('execution-result.schema.json', read), []);
  });

  test('skills: a draft-07 config-schema.json is accepted and its date and time formats are checked', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { opening: { type: 'string', format: 'date' }, curfew: { type: 'string', format: 'time' } },
    };
    assert.deepEqual(checkConfigSchema(schema).problems, []);
    assert.deepEqual(validateConfigValues({ opening: '2026-04-01', curfew: '22:00:00Z' }, schema as unknown as ConfigSchema), []);
    const wrong = validateConfigValues({ opening: '1 April', curfew: 'late' }, schema as unknown as ConfigSchema);
    assert.deepEqual(
      wrong.map((problem) => problem.code),
      ['CONFIG_FORMAT', 'CONFIG_FORMAT'],
    );
  });

  test('skills: the sample memory skill takes significance as a word ("high", spec 004) or 1-5; other words are refused', async () => {
    const catalog = createSkillCatalog((await discoverSkills({ root: projectRoot })).skills);
    const store = (significance: unknown) => ({
      requestId: REQUEST_ID,
      tools: [{ toolId: 'remember', toolPath: 'skills/memory/scripts/store.js', input: { summary: 'The door was locked.', significance } }],
    });
    for (const significance of ['high', 'low', 'medium', 'critical', 4]) {
      const result = await validate(store(significance), projectRoot, catalog);
      assert.deepEqual(codes(result), { errors: [], warnings: [] }, String(significance));
    }
    assert.equal((await validate(store('enormous'), projectRoot, catalog)).valid, false);
    assert.equal((await validate(store(9), projectRoot, catalog)).valid, false);
  });
});

describe('still refused here', () => {
  let scratch: string;
  let root: string;
  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-compat-rows-'));
    root = path.join(scratch, 'story');
    mkdirSync(path.join(root, 'skills'), { recursive: true });
    const script = path.join(root, 'tools', 'torch-lighter');
    mkdirSync(path.dirname(script), { recursive: true });
    const lines = [
      '#!/usr/bin/env node',
      "require('node:fs').writeFileSync(__filename + '.ran', 'ran');",
      "process.stdin.resume().on('end', () => process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true }) + '\\n'));",
    ];
    writeFileSync(script, `${lines.join('\n')}\n`);
    chmodSync(script, 0o755);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('a cycle (upstream rejects it too): DEPENDENCY_CYCLE', async () => {
    const plan = {
      requestId: REQUEST_ID,
      tools: [
        { toolId: 'a', toolPath: echo, dependencies: ['b'] },
        { toolId: 'b', toolPath: echo, dependencies: ['a'] },
      ],
    };
    const result = await validate(plan);
    assert.equal(result.valid, false);
    assert.ok(codes(result).errors.includes('DEPENDENCY_CYCLE'));
  });

  test('a requestId that is not a UUID, or none (upstream requires a UUID too)', async () => {
    for (const plan of [{ requestId: 'plan-1', tools: [] }, { tools: [] }]) {
      assert.notDeepEqual(upstreamErrors(plan), []);
      const result = await validate(plan);
      assert.equal(result.valid, false, JSON.stringify(plan));
    }
  });

  test('a toolPath outside skills/, as upstream examples write it (tools/torch-lighter): refused at validation and at run time, unless its folder is allowed', async () => {
    const plan = { requestId: REQUEST_ID, tools: [{ toolId: 'light1', toolPath: 'tools/torch-lighter', input: { action: 'light_torch' } }] };
    assert.deepEqual(upstreamErrors(plan), []);
    const validation = await validate(plan, root);
    assert.deepEqual(codes(validation).errors, ['TOOL_PATH_OUTSIDE_SKILLS']);
    assert.match(validation.diagnostics[0]!.message, /tool-path policy: a plan is untrusted input/);
    const refused = await executePlan(plan, { root });
    assert.equal(refused.success, false);
    assert.equal(existsSync(path.join(root, 'tools', 'torch-lighter.ran')), false, 'nothing ran');
    const allowed = await executePlan({ ...plan, requestId: '5e7a9c1e-3f5b-4d7f-9a1c-2b4d6f8a0c22' }, { root, allowedToolRoots: ['tools'] });
    assert.equal(allowed.success, true, JSON.stringify(allowed.toolResults));
    assert.equal(existsSync(path.join(root, 'tools', 'torch-lighter.ran')), true);
  });
});

describe("this project's plans follow upstream's plan rules", () => {
  let samples: NarratorSkill[];
  before(async () => {
    const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-compat-samples-'));
    try {
      const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [path.join(projectRoot, 'skills')] });
      samples = registry.narratorSkills();
      registry.dispose();
    } finally {
      rmSync(story, { recursive: true, force: true });
    }
  });

  test('the rules leave every object open, as upstream does', () => {
    assert.deepEqual(closedObjects(UPSTREAM_PLAN_RULES), []);
  });

  test('every plan file in the repository that our validator accepts (contracts/examples, test fixtures)', async () => {
    const files = execFileSync('git', ['ls-files', '*.plan.json'], { cwd: projectRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.ok(
      files.some((file) => file.startsWith('contracts/examples/')),
      files.join(', '),
    );
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(path.join(projectRoot, file), 'utf8');
      const ours = await validatePlanText(text, { root: projectRoot, checkToolPaths: false });
      if (file.startsWith('contracts/examples/')) assert.equal(ours.valid, true, `${file} is one of our examples`);
      if (!ours.plan) continue;
      assert.deepEqual(upstreamErrors(JSON.parse(text)), [], file);
      checked++;
    }
    assert.ok(checked >= 5, `${checked} plan files checked`);
  });

  test('the plan examples of the docs that our validator accepts', async () => {
    let checked = 0;
    for (const name of readdirSync(path.join(projectRoot, 'docs')).filter((entry) => entry.endsWith('.md'))) {
      const text = readFileSync(path.join(projectRoot, 'docs', name), 'utf8');
      for (const [, block] of text.matchAll(/```json\n([\s\S]*?)```/g)) {
        let value: unknown;
        try {
          value = JSON.parse(block!);
        } catch {
          continue;
        }
        if (typeof value !== 'object' || value === null || !('requestId' in value) || !('tools' in value)) continue;
        const ours = await validatePlanValue(value, { root: projectRoot, checkToolPaths: false });
        if (!ours.valid) continue;
        assert.deepEqual(upstreamErrors(value), [], `${name}: ${block!.slice(0, 80)}`);
        checked++;
      }
    }
    assert.ok(checked >= 1, `${checked} doc examples checked`);
  });

  test('the plans the pattern narrator writes, first attempts and replans', () => {
    const inputs = [
      'I roll 2d6+1 to climb the wall, DC 14',
      'Have I met the ferryman before?',
      'What could I try now?',
      'What does the old wizard look like?',
      "I spit at Captain Vey's feet",
      'I wander along the riverbank',
    ];
    for (const input of inputs) {
      const first = buildPatternPlan({ input, skills: samples, disabledSkills: [], attempt: 1, parentPlanId: null });
      assert.deepEqual(upstreamErrors(first), [], input);
      const replan = buildPatternPlan({ input, skills: samples, disabledSkills: ['dice-roller'], attempt: 2, parentPlanId: first.requestId });
      assert.deepEqual(upstreamErrors(replan), [], `${input} (replan)`);
    }
  });
});
