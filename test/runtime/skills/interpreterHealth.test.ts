// A script whose interpreter is not on PATH (Dart, Python): discovered, its skill degraded with what to install, its other scripts run;
// with a (fake) dart on PATH the .dart script runs as `dart run <script>`.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { SkillRegistry } from '../../../src/runtime/skills/skillRegistry.js';
import { healthLabelOf, healthReasonOf } from '../../../src/runtime/skills/skillHealthLabel.js';
import { createSkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { healthLabel } from '../../../src/runtime/authoring/scriptSummary.js';
import { createTempStory, type TempStory } from './skillFixture.js';

/** A .js script (not executable: it runs with the runtime's Node) that reports done. */
const JS_SCRIPT = `process.stdin.resume();
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true, summary: 'asked' }) + '\\n'));
`;

let story: TempStory;
let withoutDart: string;
let withFakeDart: string;
let argumentsLog: string;
const originalPath = process.env['PATH'];
let counter = 0;
const planId = () => `dddddddd-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

before(() => {
  story = createTempStory('narratoria-interpreters-');
  story.skill(
    'oracle',
    {
      scripts: [
        { name: 'ask', path: 'scripts/ask.js', description: 'Ask the oracle.' },
        { name: 'roll-dice', path: 'scripts/roll-dice.dart', description: 'Roll dice, in Dart.' },
      ],
    },
    { 'scripts/ask.js': JS_SCRIPT, 'scripts/roll-dice.dart': 'void main() {}\n', 'scripts/extra.py': 'print()\n' },
  );
  // PATH without any dart (there is none on the test machines, but a developer's may have one), nor python3 for the .py.
  const folders = (originalPath ?? '')
    .split(path.delimiter)
    .filter((folder) => folder && !['dart', 'python3'].some((program) => fs.existsSync(path.join(folder, program))));
  withoutDart = folders.join(path.delimiter);
  argumentsLog = path.join(story.base, 'dart-arguments.txt');
  // A fake dart: records its arguments, reads the input, and answers as a skill script does.
  const fakeDart = story.write(
    'bin/dart',
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${argumentsLog}'\ncat > /dev/null\n` +
      `printf '%s\\n' '{"version":"0","type":"done","ok":true,"summary":"rolled in Dart","output":{"total":7}}'\n`,
    0o755,
  );
  withFakeDart = [path.dirname(fakeDart), withoutDart].join(path.delimiter);
});
after(() => {
  process.env['PATH'] = originalPath;
  story.remove();
});

const plan = () => ({
  requestId: planId(),
  tools: [
    { toolId: 'ask1', toolPath: 'skills/oracle/scripts/ask.js' },
    { toolId: 'roll1', toolPath: 'skills/oracle/scripts/roll-dice.dart', required: false, retryPolicy: { maxRetries: 0 } },
  ],
});

test('without dart on PATH: the .dart script is discovered, the skill is degraded and says to install Dart, and its .js script still runs', {
  skip: process.platform === 'win32',
}, async () => {
  process.env['PATH'] = withoutDart;
  const registry = await SkillRegistry.load({ root: story.root });
  try {
    const skill = registry.get('oracle')!;
    assert.deepEqual(
      skill.scripts.map((script) => script.name),
      ['ask', 'roll-dice', 'extra'],
    );
    const dart = skill.scripts[1]!;
    assert.match(
      dart.missingInterpreter ?? '',
      /^needs Dart, and "dart" is not on PATH: install the Dart SDK \(https:\/\/dart\.dev\/get-dart\) and put dart on PATH$/,
    );
    assert.match(skill.scripts[2]!.missingInterpreter ?? '', /needs Python 3/, 'the same rule for every interpreter of the table');
    const problems = skill.problems.filter((problem) => problem.code === 'INTERPRETER_MISSING');
    assert.deepEqual(
      problems.map((problem) => problem.severity),
      ['warning', 'warning'],
    );
    assert.match(problems[0]!.message, /skills\/oracle\/scripts\/roll-dice\.dart needs Dart.*the skill's other scripts still run/);
    assert.ok(problems[0]!.line !== undefined, "the declared script's problem is placed in skill.json");

    const status = registry.status('oracle')!;
    assert.equal(status.usable, true);
    assert.equal(healthLabelOf(status), 'degraded');
    assert.match(healthReasonOf(status), /the script "roll-dice" needs Dart, and "dart" is not on PATH: install the Dart SDK/);
    assert.equal(healthLabel(createSkillCatalog(registry.skills).skill('oracle')!), '⚠ degraded');
    // The narrator is not offered a script that cannot run here.
    assert.deepEqual(
      registry
        .narratorSkills()
        .find((candidate) => candidate.name === 'oracle')
        ?.scripts.map((script) => script.name),
      ['ask'],
    );

    const result = await executePlan(plan(), { root: story.root, skillContext: registry });
    assert.equal(result.toolResults[0]!.state, 'success', JSON.stringify(result.toolResults[0]!.error));
    const roll = result.toolResults[1]!;
    assert.equal(roll.state, 'failed');
    assert.equal(roll.error?.code, 'INTERPRETER_NOT_FOUND');
    assert.equal(roll.error?.category, 'process_error');
    assert.match(roll.error?.message ?? '', /roll-dice\.dart needs Dart, and "dart" is not on PATH: install the Dart SDK/);
    assert.equal(result.success, true, 'the required .js tool succeeded');
  } finally {
    registry.dispose();
  }
});

test('with dart on PATH: the skill is healthy and the .dart script runs as `dart run <script>`', { skip: process.platform === 'win32' }, async () => {
  process.env['PATH'] = withFakeDart;
  const registry = await SkillRegistry.load({ root: story.root });
  try {
    const skill = registry.get('oracle')!;
    assert.equal(skill.scripts[1]!.missingInterpreter, undefined);
    assert.deepEqual(
      skill.problems.filter((problem) => problem.code === 'INTERPRETER_MISSING').map((problem) => problem.file),
      [path.join(story.root, 'skills', 'oracle', 'scripts', 'extra.py')],
    );
    const result = await executePlan(plan(), { root: story.root, skillContext: registry });
    const roll = result.toolResults[1]!;
    assert.equal(roll.state, 'success', JSON.stringify(roll.error));
    assert.deepEqual(roll.output?.result, { total: 7 });
    const script = fs.realpathSync(path.join(story.root, 'skills', 'oracle', 'scripts', 'roll-dice.dart'));
    assert.deepEqual(fs.readFileSync(argumentsLog, 'utf8').trim().split('\n'), ['run', script]);
  } finally {
    registry.dispose();
  }
});
