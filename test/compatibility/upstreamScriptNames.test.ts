// Issue 41 through the real CLI: an upstream-style plan naming the sample scripts by upstream names validates, runs and graphs with canonical names;
// a .dart script degrades its skill without dart on PATH and runs with `dart run` when dart is there.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot } from '../cli/cliHarness.js';

let scratch: string;
let samples: string;
let oracle: string;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-names-'));
  // A story with the sample skills as its own (a plan's relative toolPaths resolve against the story root).
  samples = path.join(scratch, 'samples');
  cpSync(path.join(projectRoot, 'skills'), path.join(samples, 'skills'), { recursive: true });
  // A story whose skill has a .js script and a .dart script.
  oracle = path.join(scratch, 'oracle');
  const skill = path.join(oracle, 'skills', 'oracle');
  mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  writeFileSync(path.join(oracle, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(
    path.join(skill, 'skill.json'),
    JSON.stringify(
      {
        name: 'oracle',
        version: '1.0.0',
        description: 'Answers questions and rolls dice.',
        scripts: [
          { name: 'ask', path: 'scripts/ask.js' },
          { name: 'roll-dice', path: 'scripts/roll-dice.dart' },
        ],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(skill, 'scripts', 'ask.js'),
    `process.stdin.resume();
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true, summary: 'asked' }) + '\\n'));
`,
  );
  writeFileSync(path.join(skill, 'scripts', 'roll-dice.dart'), 'void main() {}\n');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
}

/** Our own plan in the shape spec 005 and spec 004 of the upstream project give: scripts named `skills/<skill>/<upstream name>.dart`. */
const upstreamPlan = {
  requestId: '550e8400-e29b-41d4-a716-446655440041',
  narrative: 'You steady the anvil for the smith.',
  tools: [
    {
      toolId: 'roll1',
      toolPath: 'skills/dice-roller/roll-dice.dart',
      input: { formula: '1d20+5' },
      dependencies: [],
      required: true,
      async: false,
      retryPolicy: { maxRetries: 3, backoffMs: 100 },
    },
    {
      toolId: 'remember',
      toolPath: 'skills/memory/store-memory.dart',
      dependencies: ['roll1'],
      input: {
        summary: 'Player helped the blacksmith repair his anvil',
        characters: ['player', 'blacksmith_aldric'],
        location: 'blacksmith_shop',
        significance: 'high',
      },
    },
    {
      toolId: 'recall',
      toolPath: 'skills/memory/scripts/recall-memory',
      input: { query: 'interactions with the blacksmith', limit: 3 },
      dependencies: ['remember'],
    },
    { toolId: 'standing', toolPath: 'skills/reputation/update-reputation.dart', input: { faction: 'Merchant League', delta: 5 } },
    { toolId: 'choices', toolPath: 'skills/player-choices/generate-choices.dart', input: { situation: 'the smithy' }, dependencies: ['roll1'] },
    { toolId: 'narrate1', toolPath: 'skills/storyteller/narrate.dart', input: { action: 'help the smith' }, dependencies: ['roll1'] },
  ],
  parallel: false,
  disabledSkills: [],
  metadata: { generationAttempt: 1, parentPlanId: null },
};

const canonical: Record<string, [string, string]> = {
  roll1: ['roll.js', 'roll-dice'],
  remember: ['store.js', 'store-memory'],
  recall: ['recall.js', 'recall-memory'],
  standing: ['update.js', 'update-reputation'],
  choices: ['offer.js', 'generate-choices'],
  narrate1: ['narrate.js', 'narrate'],
};

test('validate: an upstream-style plan naming the sample scripts by their upstream names is valid, each name explained', async () => {
  const file = write('upstream.plan.json', upstreamPlan);
  const run = await narratoria(['validate', file, '--root', samples, '--format', 'json']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [entry] = JSON.parse(run.stdout) as { valid: boolean; diagnostics: { severity: string; code: string; message: string; pointer: string }[] }[];
  const expected = upstreamPlan.tools.map((_, index) => ['info', 'SCRIPT_ALIAS', `/tools/${index}/toolPath`]);
  assert.deepEqual(
    entry!.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.pointer]),
    expected,
  );
  assert.equal(entry!.diagnostics[0]!.message, 'roll-dice is another name of roll (skills/dice-roller/scripts/roll.js)');
  assert.equal(entry!.diagnostics[4]!.message, 'generate-choices is another name of offer (skills/player-choices/scripts/offer.js)');
  assert.equal(entry!.diagnostics[5]!.message, '"skills/storyteller/narrate.dart" names the script narrate (skills/storyteller/scripts/narrate.js)');
  const text = await narratoria(['validate', file, '--root', samples]);
  assert.match(text.stdout, /upstream\.plan\.json:7:19: info SCRIPT_ALIAS: roll-dice is another name of roll \(skills\/dice-roller\/scripts\/roll\.js\)/);
});

test('run: the aliased scripts run (the memory skill takes significance "high"), and graph shows the canonical names', async () => {
  const file = write('upstream-run.plan.json', upstreamPlan);
  const run = await narratoria(['run', file, '--root', samples, '--format', 'json']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const result = JSON.parse(run.stdout) as { success: boolean; toolResults: { toolId: string; state: string; skill?: string; error?: unknown }[] };
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.equal(result.success, true, JSON.stringify(result.toolResults.map((tool) => tool.error)));
  assert.deepEqual(
    result.toolResults.map((tool) => [tool.toolId, tool.state, tool.skill]),
    [
      ['roll1', 'success', 'dice-roller'],
      ['remember', 'success', 'memory'],
      ['recall', 'success', 'memory'],
      ['standing', 'success', 'reputation'],
      ['choices', 'success', 'player-choices'],
      ['narrate1', 'success', 'storyteller'],
    ],
  );

  const graph = await narratoria(['graph', file, '--root', samples]);
  assert.equal(graph.code, 0, graph.stderr);
  const layout = JSON.parse(graph.stdout) as { nodes: { id: string; toolPath: string; script: string; namedAs?: string }[] };
  assert.deepEqual(validateAgainst('plan-graph.schema.json', layout), []);
  assert.deepEqual(Object.fromEntries(layout.nodes.map((node) => [node.id, [node.script, node.namedAs]])), canonical);
  assert.equal(layout.nodes[0]!.toolPath, 'skills/dice-roller/roll-dice.dart', 'the toolPath stays as the plan wrote it');
  const dot = await narratoria(['graph', file, '--root', samples, '--format', 'dot']);
  assert.match(dot.stdout, /dice-roller · roll\.js/);
});

test('skills: the sample skills list their upstream names as aliases, with no problem', async () => {
  const run = await narratoria(['skills', '--root', samples, '--no-bundled-skills', '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { skills: { name: string; health: string; scripts: { name: string; aliases?: string[] }[] }[]; problems: unknown[] };
  assert.deepEqual(report.problems, []);
  const aliases = Object.fromEntries(report.skills.flatMap((skill) => skill.scripts.map((script) => [`${skill.name}/${script.name}`, script.aliases ?? []])));
  assert.deepEqual(aliases, {
    'character-portraits/portrait': ['generate-portrait', 'update-portrait'],
    'dice-roller/roll': ['roll-dice'],
    'memory/store': ['store-memory'],
    'memory/recall': ['recall-memory'],
    'npc-perception/adjust': ['update-perception'],
    'npc-perception/query': ['query-perception'],
    'player-choices/offer': ['generate-choices'],
    'reputation/update': ['update-reputation'],
    'reputation/query': ['query-reputation'],
    'storyteller/narrate': [],
  });
  assert.ok(report.skills.every((skill) => skill.health === 'healthy'));
});

test('skills: an alias another script already answers to is a SCRIPT_ALIAS_CONFLICT warning in skill.json', async () => {
  const root = path.join(scratch, 'clash');
  const skill = path.join(root, 'skills', 'bell');
  mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(skill, 'skill.json'),
    JSON.stringify(
      {
        name: 'bell',
        version: '1.0.0',
        description: 'Rings bells.',
        scripts: [
          { name: 'ring', path: 'scripts/ring.js', aliases: ['toll'] },
          { name: 'toll', path: 'scripts/toll.js' },
        ],
      },
      null,
      2,
    ),
  );
  for (const name of ['ring', 'toll']) writeFileSync(path.join(skill, 'scripts', `${name}.js`), '');
  const run = await narratoria(['skills', '--root', root, '--no-bundled-skills']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /skills\/bell\/skill\.json:\d+:\d+: warning SCRIPT_ALIAS_CONFLICT: .*the alias "toll" is already the name of the script "toll"; this alias is ignored/,
  );
});

test('without dart on PATH the skill is degraded and says to install Dart; its .js script runs, the .dart one fails with INTERPRETER_NOT_FOUND', {
  skip: process.platform === 'win32',
}, async () => {
  const withoutDart = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((folder) => folder && !existsSync(path.join(folder, 'dart')))
    .join(path.delimiter);
  const skills = await narratoria(['skills', '--root', oracle, '--no-bundled-skills', '--format', 'json'], projectRoot, { PATH: withoutDart });
  assert.equal(skills.code, 0, skills.stderr);
  const [skill] = (
    JSON.parse(skills.stdout) as {
      skills: { health: string; healthReason: string; scripts: { name: string; missingInterpreter?: string }[]; problems: { code: string }[] }[];
    }
  ).skills;
  assert.equal(skill!.health, 'degraded');
  assert.match(
    skill!.healthReason,
    /the script "roll-dice" needs Dart, and "dart" is not on PATH: install the Dart SDK \(https:\/\/dart\.dev\/get-dart\) and put dart on PATH/,
  );
  assert.deepEqual(
    skill!.scripts.map((script) => [script.name, script.missingInterpreter !== undefined]),
    [
      ['ask', false],
      ['roll-dice', true],
    ],
  );
  assert.deepEqual(
    skill!.problems.map((problem) => problem.code),
    ['INTERPRETER_MISSING'],
  );
  const text = await narratoria(['skills', '--root', oracle, '--no-bundled-skills'], projectRoot, { PATH: withoutDart });
  assert.match(text.stdout, /Oracle|oracle/);
  assert.match(text.stdout, /degraded \(the script "roll-dice" needs Dart/);

  const plan = write('oracle.plan.json', {
    requestId: '550e8400-e29b-41d4-a716-446655440042',
    tools: [
      { toolId: 'ask1', toolPath: 'skills/oracle/scripts/ask.js' },
      { toolId: 'roll1', toolPath: 'skills/oracle/scripts/roll-dice.dart', required: false, retryPolicy: { maxRetries: 0 } },
    ],
  });
  const run = await narratoria(['run', plan, '--root', oracle, '--format', 'json'], projectRoot, { PATH: withoutDart });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const result = JSON.parse(run.stdout) as { success: boolean; toolResults: { state: string; error?: { code: string; message: string } }[] };
  assert.equal(result.toolResults[0]!.state, 'success');
  assert.equal(result.toolResults[1]!.state, 'failed');
  assert.equal(result.toolResults[1]!.error?.code, 'INTERPRETER_NOT_FOUND');
  assert.match(result.toolResults[1]!.error?.message ?? '', /needs Dart, and "dart" is not on PATH/);

  // With a dart on PATH (a fake one: it records its arguments and answers as a skill script), the same plan runs both.
  const bin = path.join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = path.join(scratch, 'dart-arguments.txt');
  writeFileSync(
    path.join(bin, 'dart'),
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\ncat > /dev/null\nprintf '%s\\n' '{"version":"0","type":"done","ok":true,"summary":"rolled in Dart"}'\n`,
  );
  chmodSync(path.join(bin, 'dart'), 0o755);
  const withDart = [bin, withoutDart].join(path.delimiter);
  const healthy = await narratoria(['skills', '--root', oracle, '--no-bundled-skills', '--format', 'json'], projectRoot, { PATH: withDart });
  assert.equal((JSON.parse(healthy.stdout) as { skills: { health: string }[] }).skills[0]!.health, 'healthy');
  const both = await narratoria(['run', plan, '--root', oracle, '--format', 'json'], projectRoot, { PATH: withDart });
  assert.equal(both.code, 0, both.stdout + both.stderr);
  assert.deepEqual(
    (JSON.parse(both.stdout) as { toolResults: { state: string }[] }).toolResults.map((tool) => tool.state),
    ['success', 'success'],
  );
  const script = realpathSync(path.join(oracle, 'skills', 'oracle', 'scripts', 'roll-dice.dart'));
  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['run', script]);
});
