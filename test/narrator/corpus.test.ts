// The pattern narrator on the corpus of player inputs (test/narrator/corpus.json, see corpus.md): ≥ 95% right, no shotgun plans, every tool input valid against its script's schema; the misses are printed.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import type { Plan } from '../../src/runtime/contractTypes/plan.js';
import type { NarratorSkill } from '../../src/runtime/skills/skillTypes.js';
import { inputValidator } from '../../src/runtime/validation/inputChecks.js';
import { corpusSkills, grade, hintsMet, loadCorpus, loadHeldOut, type CorpusEntry } from './corpusKit.js';

let skills: NarratorSkill[];
let planned: { entry: CorpusEntry; plan: Plan }[];
before(async () => {
  skills = await corpusSkills();
  planned = loadCorpus().map((entry) => ({
    entry,
    plan: buildPatternPlan({ input: entry.input, skills, disabledSkills: [], attempt: 1, parentPlanId: null }),
  }));
});

const narrators = () => new Set(skills.filter((skill) => skill.capabilities.includes('narration')).map((skill) => skill.name));

test('the corpus covers every sample skill and at least three fixture skills, with 80 or more inputs', () => {
  const expected = new Set(planned.flatMap(({ entry }) => entry.expected));
  for (const skill of skills) assert.ok(expected.has(skill.name), `the corpus expects ${skill.name} somewhere`);
  assert.ok(planned.length >= 80, `${planned.length} inputs`);
  assert.ok(skills.filter((skill) => skill.scripts[0]?.toolPath.includes('narrator-skills')).length >= 3, 'three fixture skills at least');
});

test('≥ 95% of the corpus is right: every expected skill chosen, at most one unrelated skill besides the storyteller', () => {
  const grades = planned.map(({ entry, plan }) => ({ entry, grade: grade(entry, plan, narrators()) }));
  const misses = grades.filter(({ grade }) => !grade.right);
  const share = (grades.length - misses.length) / grades.length;
  const report = misses.map(({ entry, grade }) => `  ✗ "${entry.input}" expected [${entry.expected.join(', ')}], chose [${grade.chosen.join(', ')}]`);
  console.log(
    `pattern narrator: ${grades.length - misses.length}/${grades.length} right (${(share * 100).toFixed(1)}%)${report.length > 0 ? `; misses:\n${report.join('\n')}` : ''}`,
  );
  assert.ok(share >= 0.95, `${(share * 100).toFixed(1)}% right`);
  // No shotgun plans: never more than three skills besides the storyteller, and most plans add nothing unrelated.
  for (const { entry, grade } of grades)
    assert.ok(grade.chosen.filter((skill) => !narrators().has(skill)).length <= 3, `"${entry.input}" chose ${grade.chosen.join(', ')}`);
  const clean = grades.filter(({ grade }) => grade.unrelated.length === 0).length / grades.length;
  console.log(`pattern narrator: ${(clean * 100).toFixed(1)}% of plans choose no unrelated skill`);
  assert.ok(clean >= 0.7, `${(clean * 100).toFixed(1)}% of plans choose no unrelated skill`);
});

test("every plan matches the contract, every tool input validates against its script's inputSchema, and a narration is always there", () => {
  const schemas = new Map(skills.flatMap((skill) => skill.scripts.map((script) => [script.toolPath, script.inputSchema] as const)));
  for (const { entry, plan } of planned) {
    assert.deepEqual(validateAgainst('plan-json.schema.json', plan), [], entry.input);
    assert.ok(
      plan.tools.some((tool) => tool.toolPath.includes('/storyteller/')),
      `"${entry.input}" is narrated`,
    );
    for (const tool of plan.tools) {
      const schema = schemas.get(tool.toolPath);
      if (!schema) continue;
      const validate = inputValidator(schema)!;
      assert.ok(validate(tool.input ?? {}), `"${entry.input}": ${tool.toolId} ${JSON.stringify(tool.input)} ${JSON.stringify(validate.errors)}`);
    }
  }
});

test('inputs carry what the player said (the corpus hints: names, items, destinations, formulas, reasons)', () => {
  let met = 0;
  let total = 0;
  const unmet: string[] = [];
  for (const { entry, plan } of planned) {
    const result = hintsMet(entry, plan);
    met += result.met;
    total += result.total;
    unmet.push(...result.unmet.map((hint) => `  ✗ "${entry.input}": ${hint}`));
  }
  console.log(`pattern narrator: ${met}/${total} input hints met${unmet.length > 0 ? `:\n${unmet.join('\n')}` : ''}`);
  assert.ok(met / total >= 0.8, `${met}/${total} input hints met`);
});

test('the held-out corpus (written blind after tuning, with a skill the narrator never saw) stays at 80% or more', async () => {
  const withHeldOutSkill = await corpusSkills(true);
  const entries = loadHeldOut();
  const grades = entries.map((entry) => ({
    entry,
    grade: grade(entry, buildPatternPlan({ input: entry.input, skills: withHeldOutSkill, disabledSkills: [], attempt: 1, parentPlanId: null }), narrators()),
  }));
  const right = grades.filter(({ grade }) => grade.right).length;
  const misses = grades
    .filter(({ grade }) => !grade.right)
    .map(({ entry, grade }) => `  ✗ "${entry.input}" expected [${entry.expected.join(', ')}], chose [${grade.chosen.join(', ')}]`);
  console.log(
    `pattern narrator, held out: ${right}/${entries.length} right (${((100 * right) / entries.length).toFixed(1)}%)${misses.length > 0 ? `; misses:\n${misses.join('\n')}` : ''}`,
  );
  // The skill only this corpus knows is chosen every time it is plainly asked for: no code knows its name.
  for (const { entry, grade } of grades.filter(({ entry }) => entry.expected.includes('alchemy')))
    assert.ok(grade.right, `"${entry.input}" chose ${grade.chosen.join(', ')}`);
  assert.ok(right / entries.length >= 0.8, `${right}/${entries.length} right`);
});
