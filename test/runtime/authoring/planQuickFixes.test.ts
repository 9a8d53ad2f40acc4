// Tests of the plan quick fixes: each fix applied to real validator diagnostics gives the exact expected text, which re-validates without the diagnostic.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { planFixAll, planQuickFixes, type PlanCodeAction } from '../../../src/runtime/authoring/planQuickFixes.js';
import { applyTextEdits } from '../../../src/runtime/authoring/textSpan.js';
import { createSkillCatalog, type SkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import type { Diagnostic } from '../../../src/runtime/validation/diagnostic.js';
import { validatePlanText } from '../../../src/runtime/validation/validatePlan.js';

const root = '/work/main';
const uuid = '7c9e6679-7425-40de-944b-e07dc4f0be15';
let catalog: SkillCatalog;

before(async () => {
  catalog = createSkillCatalog((await discoverSkills({ root })).skills);
});

async function diagnosticsOf(text: string): Promise<Diagnostic[]> {
  return (await validatePlanText(text, { root, skills: catalog })).diagnostics;
}

/** The quick fixes of the first diagnostic with `code`. */
async function fixesOf(text: string, code: string): Promise<PlanCodeAction[]> {
  const diagnostics = await diagnosticsOf(text);
  const diagnostic = diagnostics.find((candidate) => candidate.code === code);
  assert.ok(diagnostic, `expected a ${code} diagnostic, got ${diagnostics.map((candidate) => candidate.code).join(', ')}`);
  return planQuickFixes(PlanDocument.parse(text), [diagnostic], catalog, { newUuid: () => uuid });
}

/** Applies the fix titled `title` of the first `code` diagnostic; checks the result re-validates without `code` there. */
async function applyFix(text: string, code: string, title: string): Promise<string> {
  const fixes = await fixesOf(text, code);
  const fix = fixes.find((candidate) => candidate.title === title);
  assert.ok(fix, `no fix "${title}" among ${fixes.map((candidate) => `"${candidate.title}"`).join(', ')}`);
  const fixed = applyTextEdits(text, fix.edits);
  const after = await diagnosticsOf(fixed);
  assert.ok(!after.some((diagnostic) => diagnostic.code === code && diagnostic.pointer === fix.diagnostic.pointer), `${code} is still reported in:\n${fixed}`);
  assert.ok(!after.some((diagnostic) => diagnostic.code === 'JSON_SYNTAX' || diagnostic.code === 'JSON_COMMENT'), `not plain JSON:\n${fixed}`);
  return fixed;
}

/** A plan whose tool "narrate" lists `dependencies` (roll and recall exist). */
function planWith(dependencies: string): string {
  return `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  "tools": [
    { "toolId": "roll", "toolPath": "skills/dice-roller/scripts/roll.js" },
    { "toolId": "recall", "toolPath": "skills/memory/scripts/recall.js", "input": { "query": "map" } },
    { "toolId": "narrate", "toolPath": "skills/storyteller/scripts/narrate.js", "dependencies": ${dependencies} }
  ]
}`;
}

test('an unknown dependency is replaced by the closest toolId (preferred) or removed', async () => {
  const fixes = await fixesOf(planWith('["rol", "recall"]'), 'UNKNOWN_DEPENDENCY');
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred ?? false, fix.fixAllGroup]),
    [
      ['Replace with "roll"', true, 'replaceUnknownDependencies'],
      ['Remove dependency "rol"', false, 'removeUnknownDependencies'],
    ],
  );
  assert.equal(await applyFix(planWith('["rol", "recall"]'), 'UNKNOWN_DEPENDENCY', 'Replace with "roll"'), planWith('["roll", "recall"]'));
});

test('removing the first, a middle, the last or the only dependency keeps the JSON well-formed', async () => {
  const cases: [string, string][] = [
    ['["ghost", "roll"]', '["roll"]'],
    ['["roll", "ghost", "recall"]', '["roll", "recall"]'],
    ['["roll", "ghost"]', '["roll"]'],
    ['["ghost"]', '[]'],
    ['[ "ghost" ]', '[]'],
    ['["roll","ghost"]', '["roll"]'],
    ['[\n        "ghost",\n        "roll"\n      ]', '[\n        "roll"\n      ]'],
    ['[\n        "roll",\n        "ghost",\n        "recall"\n      ]', '[\n        "roll",\n        "recall"\n      ]'],
    ['[\n        "roll",\n        "ghost"\n      ]', '[\n        "roll"\n      ]'],
    ['[\n        "ghost"\n      ]', '[]'],
  ];
  for (const [dependencies, expected] of cases) {
    assert.equal(await applyFix(planWith(dependencies), 'UNKNOWN_DEPENDENCY', 'Remove dependency "ghost"'), planWith(expected), dependencies);
  }
});

test('fix-all replaces or removes three unknown dependencies at once without overlapping edits', async () => {
  const replaceText = planWith('["rol", "recal"]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": ["rol"]');
  const diagnostics = await diagnosticsOf(replaceText);
  assert.equal(diagnostics.filter((diagnostic) => diagnostic.code === 'UNKNOWN_DEPENDENCY').length, 3);
  const replaced = applyTextEdits(replaceText, planFixAll(PlanDocument.parse(replaceText), diagnostics, catalog, 'replaceUnknownDependencies'));
  assert.equal(replaced, planWith('["roll", "recall"]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": ["roll"]'));
  assert.ok(!(await diagnosticsOf(replaced)).some((diagnostic) => diagnostic.code === 'UNKNOWN_DEPENDENCY'));

  const cases: [string, string][] = [
    ['["ghost", "phantom", "roll", "spirit"]', '["roll"]'],
    ['["roll", "ghost", "phantom", "spirit"]', '["roll"]'],
    ['["ghost", "phantom", "spirit"]', '[]'],
    ['[\n        "ghost",\n        "roll",\n        "phantom",\n        "recall",\n        "spirit"\n      ]', '[\n        "roll",\n        "recall"\n      ]'],
  ];
  for (const [dependencies, expected] of cases) {
    const text = planWith(dependencies);
    const edits = planFixAll(PlanDocument.parse(text), await diagnosticsOf(text), catalog, 'removeUnknownDependencies');
    const removed = applyTextEdits(text, edits);
    assert.equal(removed, planWith(expected), dependencies);
    assert.ok(!(await diagnosticsOf(removed)).some((diagnostic) => diagnostic.code === 'UNKNOWN_DEPENDENCY'));
  }
});

test('a self-dependency is removed, alone or all at once', async () => {
  assert.equal(await applyFix(planWith('["roll", "narrate"]'), 'SELF_DEPENDENCY', 'Remove the self-dependency "narrate"'), planWith('["roll"]'));
  const text = planWith('["narrate"]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": ["recall", "roll"]');
  const edits = planFixAll(PlanDocument.parse(text), await diagnosticsOf(text), catalog, 'removeSelfDependencies');
  assert.equal(applyTextEdits(text, edits), planWith('[]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": ["roll"]'));
});

test('a dependency cycle gets one removal per edge, none preferred', async () => {
  const text = planWith('["recall"]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": ["narrate"]');
  const fixes = await fixesOf(text, 'DEPENDENCY_CYCLE');
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred, fix.fixAllGroup]),
    [
      ['Remove dependency recall → narrate', undefined, undefined],
      ['Remove dependency narrate → recall', undefined, undefined],
    ],
  );
  assert.equal(
    await applyFix(text, 'DEPENDENCY_CYCLE', 'Remove dependency narrate → recall'),
    text.replace('"dependencies": ["recall"]', '"dependencies": []'),
  );
  assert.equal(
    await applyFix(text, 'DEPENDENCY_CYCLE', 'Remove dependency recall → narrate'),
    planWith('["recall"]').replace('"input": { "query": "map" }', '"input": { "query": "map" }, "dependencies": []'),
  );
});

test('a missing toolPath is changed to the closest catalogued scripts', async () => {
  const text = (toolPath: string): string => planWith('[]').replace('skills/dice-roller/scripts/roll.js', toolPath);
  const typo = await fixesOf(text('skills/dice-roller/scripts/rol.js'), 'TOOL_PATH_NOT_FOUND');
  assert.deepEqual(
    typo.map((fix) => [fix.title, fix.isPreferred]),
    [['Change to skills/dice-roller/scripts/roll.js', true]],
  );
  assert.equal(
    await applyFix(text('skills/dice-roller/scripts/rol.js'), 'TOOL_PATH_NOT_FOUND', 'Change to skills/dice-roller/scripts/roll.js'),
    text('skills/dice-roller/scripts/roll.js'),
  );
  // Nothing close as a whole: the scripts of the skill named in the path, then scripts with that file name.
  const renamed = await fixesOf(text('skills/dice-roller/tools/throw-the-dice.js'), 'TOOL_PATH_NOT_FOUND');
  assert.deepEqual(
    renamed.map((fix) => [fix.title, fix.isPreferred]),
    [['Change to skills/dice-roller/scripts/roll.js', undefined]],
  );
  // "mem" begins only "memory": its scripts come next, then a script of another skill with the same file name (at most 3).
  const byName = await fixesOf(text('skills/mem/scripts/query.js'), 'TOOL_PATH_NOT_FOUND');
  assert.deepEqual(
    byName.map((fix) => fix.title),
    ['Change to skills/memory/scripts/store.js', 'Change to skills/memory/scripts/recall.js', 'Change to skills/reputation/scripts/query.js'],
  );
});

test('retry policies are rounded and clamped into range, alone or all at once', async () => {
  const text = planWith('[]').replace(
    '"toolPath": "skills/dice-roller/scripts/roll.js"',
    '"toolPath": "skills/dice-roller/scripts/roll.js", "retryPolicy": { "maxRetries": 11, "backoffMs": 60000.5 }',
  );
  assert.equal(await applyFix(text, 'RETRY_POLICY_CLAMPED', 'Change maxRetries to 10'), text.replace('"maxRetries": 11', '"maxRetries": 10'));
  assert.equal(await applyFix(text, 'SCHEMA_TYPE', 'Change backoffMs to 60000'), text.replace('60000.5', '60000'));
  const more = text.replace('"input": { "query": "map" }', '"input": { "query": "map" }, "retryPolicy": { "maxRetries": 2.4, "backoffMs": -5 }');
  const diagnostics = await diagnosticsOf(more);
  const fixed = applyTextEdits(more, planFixAll(PlanDocument.parse(more), diagnostics, catalog, 'clampRetryPolicies'));
  assert.equal(
    fixed,
    text
      .replace('"maxRetries": 11', '"maxRetries": 10')
      .replace('60000.5', '60000')
      .replace('"input": { "query": "map" }', '"input": { "query": "map" }, "retryPolicy": { "maxRetries": 2, "backoffMs": 0 }'),
  );
  assert.deepEqual(
    (await diagnosticsOf(fixed)).filter((diagnostic) => diagnostic.pointer.includes('retryPolicy')),
    [],
  );
});

test('an unknown input property is renamed to the closest property of the input schema', async () => {
  const text = planWith('[]').replace(
    '"toolPath": "skills/dice-roller/scripts/roll.js"',
    '"toolPath": "skills/dice-roller/scripts/roll.js", "input": { "fromula": "1d20", "resaon": "lock" }',
  );
  const fixes = await fixesOf(text, 'INPUT_UNKNOWN_PROPERTY');
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred, fix.fixAllGroup]),
    [
      ['Rename "fromula" to "formula"', true, 'renameUnknownInputProperties'],
      ['Remove the input property "fromula"', undefined, undefined],
    ],
  );
  assert.equal(await applyFix(text, 'INPUT_UNKNOWN_PROPERTY', 'Rename "fromula" to "formula"'), text.replace('"fromula"', '"formula"'));
  assert.equal(await applyFix(text, 'INPUT_UNKNOWN_PROPERTY', 'Remove the input property "fromula"'), text.replace('"fromula": "1d20", ', ''));
  const all = applyTextEdits(text, planFixAll(PlanDocument.parse(text), await diagnosticsOf(text), catalog, 'renameUnknownInputProperties'));
  assert.equal(all, text.replace('"fromula"', '"formula"').replace('"resaon"', '"reason"'));
});

test('a hand-made INPUT_UNKNOWN_PROPERTY diagnostic is fixed through its pointer alone', () => {
  const text =
    '{"requestId":"11111111-2222-4333-8444-555555555555","tools":[{"toolId":"r","toolPath":"skills/dice-roller/scripts/roll.js","input":{"lable":"x"}}]}';
  const diagnostic: Diagnostic = {
    severity: 'warning',
    code: 'INPUT_UNKNOWN_PROPERTY' as Diagnostic['code'],
    message: 'unknown',
    pointer: '/tools/0/input/lable',
  };
  const [rename] = planQuickFixes(PlanDocument.parse(text), [diagnostic], catalog);
  assert.equal(rename!.title, 'Rename "lable" to "label"');
  assert.equal(applyTextEdits(text, rename!.edits), text.replace('"lable"', '"label"'));
});

test('a missing requestId is inserted as the first property in the document style', async () => {
  assert.equal(await applyFix('{ "tools": [] }', 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'), `{ "requestId": "${uuid}", "tools": [] }`);
  assert.equal(await applyFix('{"tools":[]}', 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'), `{"requestId":"${uuid}","tools":[]}`);
  const multiLine = '{\n    "narrative": "The door creaks.",\n    "tools": []\n}\n';
  assert.equal(
    await applyFix(multiLine, 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'),
    `{\n    "requestId": "${uuid}",\n    "narrative": "The door creaks.",\n    "tools": []\n}\n`,
  );
  const crlf = '{\r\n\t"tools": []\r\n}';
  assert.equal(await applyFix(crlf, 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'), `{\r\n\t"requestId": "${uuid}",\r\n\t"tools": []\r\n}`);
  assert.equal(await applyFix('{}', 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'), `{ "requestId": "${uuid}" }`);
  assert.equal(await applyFix('{\n}', 'SCHEMA_REQUIRED', 'Add a "requestId" with a new UUID'), `{\n  "requestId": "${uuid}"\n}`);
  const malformed = '{ "requestId": "not-a-uuid", "tools": [] }';
  assert.equal(await applyFix(malformed, 'SCHEMA_FORMAT', 'Replace the requestId with a new UUID'), `{ "requestId": "${uuid}", "tools": [] }`);
});

test('a stale diagnostic or a broken text gets no fix', async () => {
  const text = planWith('["ghost"]');
  const diagnostics = await diagnosticsOf(text);
  const fixedText = planWith('["roll"]');
  assert.deepEqual(planQuickFixes(PlanDocument.parse(fixedText), diagnostics, catalog), []);
  assert.deepEqual(planQuickFixes(PlanDocument.parse(text.replace('"ghost"]', '"ghost"')), diagnostics, catalog), []);
  assert.deepEqual(planFixAll(PlanDocument.parse(fixedText), diagnostics, catalog, 'removeUnknownDependencies'), []);
});

test('SCRIPT_ALIAS: change the toolPath to the canonical one of the script it names by an alias', async () => {
  // This worktree's sample skills, whose skill.json files list the upstream names as aliases.
  const repository = new URL('../../..', import.meta.url).pathname;
  const samples = createSkillCatalog((await discoverSkills({ root: repository })).skills);
  const text = `{ "requestId": "${uuid}", "tools": [{ "toolId": "roll1", "toolPath": "skills/dice-roller/roll-dice.dart" }] }`;
  const diagnostics = (await validatePlanText(text, { root: repository, skills: samples })).diagnostics;
  const alias = diagnostics.find((diagnostic) => diagnostic.code === 'SCRIPT_ALIAS');
  assert.ok(alias, JSON.stringify(diagnostics));
  const [fix] = planQuickFixes(PlanDocument.parse(text), [alias], samples);
  assert.equal(fix?.title, 'Change to skills/dice-roller/scripts/roll.js');
  assert.equal(fix?.isPreferred, true);
  const fixed = applyTextEdits(text, fix!.edits);
  assert.match(fixed, /"toolPath": "skills\/dice-roller\/scripts\/roll\.js"/);
  assert.deepEqual((await validatePlanText(fixed, { root: repository, skills: samples })).diagnostics, []);
});
