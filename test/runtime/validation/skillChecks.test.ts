// Tests of the skill-catalog checks: undeclared scripts, disabled and permanently failing skills (warnings on the toolPath).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DiagnosticCode, validatePlanText, type PlanValidationOptions } from '../../../src/runtime/validation/index.js';
import { createCatalogStory, LANTERN, ORACLE, ROLL, WEATHER_EXTRA, WEATHER_HELPER, type CatalogStory } from './catalogFixture.js';
import { assertAt, only, planText } from './planHelpers.js';
import { positionOf } from './storyFixture.js';

describe('validatePlanText: tools against the skill catalog', () => {
  let fixture: CatalogStory;
  let options: PlanValidationOptions;
  before(async () => {
    fixture = await createCatalogStory();
    options = { root: fixture.root, skills: fixture.catalog };
  });
  after(() => fixture.story.remove());

  test('SCRIPT_NOT_DECLARED: a runnable file of scripts/ and a file elsewhere in the skill, both undeclared', async () => {
    assert.equal(fixture.catalog.scriptByToolPath(WEATHER_EXTRA)?.script.declared, false, 'extra.js is a catalog script, not declared');
    assert.equal(fixture.catalog.scriptByToolPath(WEATHER_HELPER), undefined, 'helper.js is no script: found through skillContaining');
    const text = planText([`{ "toolId": "extra", "toolPath": "${WEATHER_EXTRA}" }`, `{ "toolId": "helper", "toolPath": "${WEATHER_HELPER}" }`]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.pointer]),
      [
        [DiagnosticCode.SCRIPT_NOT_DECLARED, 'warning', '/tools/0/toolPath'],
        [DiagnosticCode.SCRIPT_NOT_DECLARED, 'warning', '/tools/1/toolPath'],
      ],
    );
    assert.equal(
      result.diagnostics[0]!.message,
      `"extra": "${WEATHER_EXTRA}" is a file of the skill "weather" that skills/weather/skill.json does not declare; ` +
        'add it to "scripts" there so its description and inputSchema are known',
    );
    assertAt(result.diagnostics[0]!, text, `"${WEATHER_EXTRA}"`);
    assert.deepEqual(result.diagnostics[0]!.range?.end, { line: 4, column: positionOf(text, `"${WEATHER_EXTRA}"`).column + WEATHER_EXTRA.length + 2 });
    assertAt(result.diagnostics[1]!, text, `"${WEATHER_HELPER}"`);
    assert.equal(result.valid, true);
  });

  test('a declared script is not SCRIPT_NOT_DECLARED', async () => {
    const result = await validatePlanText(planText([`{ "toolId": "roll", "toolPath": "${ROLL}" }`]), options);
    assert.deepEqual(result.diagnostics, []);
  });

  test('SKILL_DISABLED: a tool of a skill the user disabled, once per tool', async () => {
    const text = planText([`{ "toolId": "a", "toolPath": "${LANTERN}" }`, `{ "toolId": "b", "toolPath": "${LANTERN}" }`]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.pointer]),
      [
        [DiagnosticCode.SKILL_DISABLED, 'warning', '/tools/0/toolPath'],
        [DiagnosticCode.SKILL_DISABLED, 'warning', '/tools/1/toolPath'],
      ],
    );
    assert.equal(result.diagnostics[0]!.message, '"a" uses the skill "lantern", which is disabled; enable the skill or use another script');
    assertAt(result.diagnostics[1]!, text, `"${LANTERN}"`, 1);
    assert.equal(result.valid, true);
  });

  test("SKILL_DISABLED sits beside TOOL_IN_DISABLED_SKILL (the plan's own disabledSkills), which is unchanged", async () => {
    const text = planText([`{ "toolId": "a", "toolPath": "${LANTERN}" }`], ',\n  "disabledSkills": ["lantern"]');
    const result = await validatePlanText(text, options);
    assert.deepEqual(result.diagnostics.map((diagnostic) => diagnostic.code).sort(), [DiagnosticCode.SKILL_DISABLED, DiagnosticCode.TOOL_IN_DISABLED_SKILL]);
    const planLevel = only(result, DiagnosticCode.TOOL_IN_DISABLED_SKILL);
    assert.equal(planLevel.related?.[0]?.pointer, '/disabledSkills/0');
  });

  test('SKILL_PERMANENT_FAILURE: a tool of a skill in permanentFailure health', async () => {
    const text = planText([`{ "toolId": "ask", "toolPath": "${ORACLE}" }`]);
    const result = await validatePlanText(text, options);
    const diagnostic = only(result, DiagnosticCode.SKILL_PERMANENT_FAILURE);
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(diagnostic.pointer, '/tools/0/toolPath');
    assert.match(diagnostic.message, /^"ask" uses the skill "oracle", which is unusable: its scripts kept failing this session \(health permanentFailure\)/);
    assertAt(diagnostic, text, `"${ORACLE}"`);
    assert.equal(result.diagnostics.length, 1);
    assert.equal(result.valid, true);
  });

  test('a sub-plan tool and an unresolved toolPath are not looked up', async () => {
    const text = planText([
      `{ "toolId": "sub", "toolPath": "${LANTERN}", "subPlan": "missing.plan.json" }`,
      `{ "toolId": "gone", "toolPath": "skills/lantern/scripts/nope.js" }`,
    ]);
    const result = await validatePlanText(text, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => diagnostic.code),
      [DiagnosticCode.SUB_PLAN_NOT_FOUND, DiagnosticCode.TOOL_PATH_NOT_FOUND],
    );
  });
});
