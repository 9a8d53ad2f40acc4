// Script aliases and names in other runtimes' forms (skills/dice-roller/roll-dice.dart): how toolPaths resolve, what validation says,
// and what never resolves (outside the skills roots, out of the skill folder).
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveToolPath, validatePlanText, type PlanValidationResult } from '../../../src/runtime/validation/index.js';
import { createSkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import { scriptNameTable, scriptReference } from '../../../src/runtime/skills/scriptAliases.js';
import { planText } from './planHelpers.js';

let scratch: string;
let root: string;

/** A skill folder with a skill.json declaring `scripts` and a file for each (a `.js` that writes a done event). */
function writeSkill(skillsRoot: string, name: string, scripts: readonly Record<string, unknown>[]): string {
  const directory = path.join(skillsRoot, name);
  mkdirSync(path.join(directory, 'scripts'), { recursive: true });
  writeFileSync(path.join(directory, 'skill.json'), JSON.stringify({ name, version: '1.0.0', description: `${name} for tests`, scripts }, null, 2));
  for (const script of scripts) {
    const file = path.join(directory, String(script['path']));
    if (!file.startsWith(directory)) continue;
    writeFileSync(file, 'process.stdout.write(JSON.stringify({ version: "0", type: "done", ok: true }) + "\\n");\n');
  }
  return directory;
}

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-aliases-'));
  root = path.join(scratch, 'story');
  const skills = path.join(root, 'skills');
  writeSkill(skills, 'dice-roller', [{ name: 'roll', path: 'scripts/roll.js', aliases: ['roll-dice'] }]);
  writeSkill(skills, 'storyteller', [{ name: 'narrate', path: 'scripts/narrate.js' }]);
  // Two scripts claiming one alias: the first keeps it; an alias naming another script is ignored.
  writeSkill(skills, 'clash', [
    { name: 'first', path: 'scripts/first.js', aliases: ['shared', 'second'] },
    { name: 'second', path: 'scripts/second.js', aliases: ['shared'] },
  ]);
  // A skill whose declared script is a link out of its folder: its alias never resolves.
  const escape = writeSkill(skills, 'escape', [{ name: 'inside', path: 'scripts/inside.js', aliases: ['outside-alias'] }]);
  const elsewhere = path.join(scratch, 'elsewhere.js');
  writeFileSync(elsewhere, '');
  rmSync(path.join(escape, 'scripts', 'inside.js'));
  symlinkSync(elsewhere, path.join(escape, 'scripts', 'inside.js'));
  // A skill-shaped folder outside every skills root, and a link to it from the skills root.
  const tools = writeSkill(path.join(root, 'tools'), 'dice-roller', [{ name: 'roll', path: 'scripts/roll.js', aliases: ['roll-dice'] }]);
  symlinkSync(tools, path.join(skills, 'linked'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function validate(tools: readonly string[], allowOutsideSkills = false): Promise<PlanValidationResult> {
  return validatePlanText(planText(tools), { root, allowOutsideSkills });
}

test('an alias resolves to its script in every form another runtime writes; validation says so in an information diagnostic', async () => {
  const canonical = path.join(root, 'skills', 'dice-roller', 'scripts', 'roll.js');
  for (const toolPath of [
    'skills/dice-roller/roll-dice.dart',
    'skills/dice-roller/roll-dice',
    'skills/dice-roller/scripts/roll-dice',
    'skills/dice-roller/scripts/roll-dice.dart',
    './skills/dice-roller/scripts/roll-dice.py',
  ]) {
    const resolution = await resolveToolPath(toolPath, { root });
    assert.ok(resolution.ok, `${toolPath}: ${JSON.stringify(resolution)}`);
    assert.equal(resolution.realPath, canonical, toolPath);
    assert.equal(resolution.skill, 'dice-roller');
    assert.deepEqual(resolution.named && [resolution.named.written, resolution.named.alias, resolution.named.script], ['roll-dice', true, 'roll']);
  }
  const result = await validate([`{ "toolId": "roll1", "toolPath": "skills/dice-roller/roll-dice.dart" }`]);
  assert.equal(result.valid, true, JSON.stringify(result.diagnostics));
  const info = result.diagnostics.find((diagnostic) => diagnostic.code === 'SCRIPT_ALIAS');
  assert.equal(info?.severity, 'info');
  assert.equal(info?.message, 'roll-dice is another name of roll (skills/dice-roller/scripts/roll.js)');
  assert.equal(info?.pointer, '/tools/0/toolPath');
  assert.equal(result.resolvedToolPaths.get('roll1'), canonical);
});

test("a script's own name in another form resolves too, and a file that exists is always the file", async () => {
  const result = await validate([`{ "toolId": "tell", "toolPath": "skills/storyteller/narrate.dart" }`]);
  assert.equal(result.valid, true);
  const message = result.diagnostics.find((diagnostic) => diagnostic.code === 'SCRIPT_ALIAS')?.message;
  assert.equal(message, '"skills/storyteller/narrate.dart" names the script narrate (skills/storyteller/scripts/narrate.js)');
  const exact = await resolveToolPath('skills/dice-roller/scripts/roll.js', { root });
  assert.ok(exact.ok && exact.named === undefined);
  const plain = await validate([`{ "toolId": "roll1", "toolPath": "skills/dice-roller/scripts/roll.js" }`]);
  assert.deepEqual(plain.diagnostics, []);
});

test('a name no script answers to is still TOOL_PATH_NOT_FOUND, and a rollback toolPath may use an alias', async () => {
  const missing = await validate([`{ "toolId": "roll1", "toolPath": "skills/dice-roller/scripts/roll-dices" }`]);
  assert.deepEqual(
    missing.diagnostics.map((diagnostic) => diagnostic.code),
    ['TOOL_PATH_NOT_FOUND'],
  );
  const rollback = await validate([
    `{ "toolId": "roll1", "toolPath": "skills/dice-roller/scripts/roll.js", "rollback": { "toolPath": "skills/dice-roller/roll-dice" } }`,
  ]);
  assert.equal(rollback.valid, true);
  assert.deepEqual(
    rollback.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
    [['SCRIPT_ALIAS', '/tools/0/rollback/toolPath']],
  );
});

test('aliases never resolve outside the skills roots, even with allowOutsideSkills, nor to a script that links out of its skill', async () => {
  const outside = await validate([`{ "toolId": "roll1", "toolPath": "tools/dice-roller/roll-dice.dart" }`]);
  assert.deepEqual(
    outside.diagnostics.map((diagnostic) => diagnostic.code),
    ['TOOL_PATH_OUTSIDE_SKILLS'],
  );
  const allowed = await validate([`{ "toolId": "roll1", "toolPath": "tools/dice-roller/roll-dice.dart" }`], true);
  assert.deepEqual(
    allowed.diagnostics.map((diagnostic) => diagnostic.code),
    ['TOOL_PATH_NOT_FOUND'],
  );
  // A skill folder that is a link out of the skills root: none of its names resolve, even with allowOutsideSkills.
  for (const allowOutsideSkills of [false, true]) {
    const linked = await resolveToolPath('skills/linked/roll-dice.dart', { root, allowOutsideSkills });
    assert.ok(!linked.ok && linked.code === 'TOOL_PATH_NOT_FOUND', `allowOutsideSkills ${allowOutsideSkills}: ${JSON.stringify(linked)}`);
  }
  const escaping = await resolveToolPath('skills/escape/outside-alias', { root });
  assert.ok(!escaping.ok && escaping.code === 'TOOL_PATH_NOT_FOUND');
  // Climbing out with .. is refused before any name is looked up.
  const climbing = await resolveToolPath('skills/../tools/dice-roller/roll-dice', { root });
  assert.ok(!climbing.ok && climbing.code === 'TOOL_PATH_OUTSIDE_SKILLS');
});

test('an alias claimed twice stays with the first script; discovery reports SCRIPT_ALIAS_CONFLICT for the others', async () => {
  const shared = await resolveToolPath('skills/clash/shared', { root });
  assert.ok(shared.ok && shared.named?.script === 'first');
  const second = await resolveToolPath('skills/clash/scripts/second.sh', { root });
  assert.ok(second.ok && second.named?.script === 'second' && !second.named.alias);
  const discovery = await discoverSkills({ root });
  const clash = discovery.skills.find((skill) => skill.name === 'clash')!;
  const conflicts = clash.problems.filter((problem) => problem.code === 'SCRIPT_ALIAS_CONFLICT');
  assert.deepEqual(
    conflicts.map((problem) => [problem.severity, problem.pointer]),
    [
      ['warning', '/scripts/0/aliases/1'],
      ['warning', '/scripts/1/aliases/0'],
    ],
  );
  assert.match(conflicts[0]!.message, /the alias "second" is already the name of the script "second"/);
  assert.match(conflicts[1]!.message, /the alias "shared" is already an alias of the script "first"/);
  assert.ok(
    conflicts.every((problem) => problem.line !== undefined),
    'placed in skill.json',
  );
  assert.deepEqual(
    clash.scripts.map((script) => [script.name, script.aliases ?? []]),
    [
      ['first', ['shared']],
      ['second', []],
    ],
  );
});

test('the catalog finds a script by alias for the editor, with its canonical toolPath', async () => {
  const catalog = createSkillCatalog((await discoverSkills({ root })).skills);
  const found = catalog.scriptByToolPath('skills/dice-roller/scripts/roll-dice.dart');
  assert.equal(found?.script.toolPath, 'skills/dice-roller/scripts/roll.js');
  assert.deepEqual(found?.script.aliases, ['roll-dice']);
  assert.deepEqual(found?.named, { written: 'roll-dice', alias: true, script: 'roll' });
  assert.equal(catalog.scriptByToolPath('skills/dice-roller/scripts/roll.js')?.named, undefined);
  assert.equal(catalog.scriptByToolPath('skills/dice-roller/scripts/nothing'), undefined);
});

test('the name table and the reading of a toolPath are pure', () => {
  assert.deepEqual(scriptReference('skills/dice-roller/roll-dice.dart'), { skillPath: 'skills/dice-roller', names: ['roll-dice.dart', 'roll-dice'] });
  assert.deepEqual(scriptReference('./skills/dice-roller/scripts/roll-dice'), { skillPath: 'skills/dice-roller', names: ['roll-dice'] });
  assert.deepEqual(scriptReference('skills\\memory\\scripts\\recall-memory.dart')?.skillPath, 'skills/memory');
  assert.equal(scriptReference('roll-dice.dart'), undefined);
  const table = scriptNameTable([{ name: 'a', aliases: ['x', 'a', 'x'] }, { name: 'a' }, { name: 'b', aliases: ['x', 'y', 7] }]);
  assert.deepEqual(
    [...table.names].map(([name, entry]) => [name, entry.index, entry.alias]),
    [
      ['a', 0, false],
      ['b', 2, false],
      ['x', 0, true],
      ['y', 2, true],
    ],
  );
  assert.deepEqual(table.aliasesOf, [['x'], [], ['y']]);
  assert.deepEqual(
    table.conflicts.map((conflict) => [conflict.alias, conflict.owner, conflict.ownerByAlias]),
    [['x', 'a', true]],
  );
});
