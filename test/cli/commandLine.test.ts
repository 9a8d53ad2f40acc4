// What every command shares (real processes): --help and -h print its usage, a --root that names no folder is a usage error that creates nothing, and --no-bundled-skills means the same in play, test, explore and skills.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { COMMAND_USAGES, commandHelp, takesRoot, type CommandName } from '../../src/cli/usage.js';
import { narratoria, projectRoot, type CliRun } from './cliHarness.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-command-line-'));
  temporary.push(folder);
  return folder;
}

function show(run: CliRun): string {
  return `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

const commands = Object.keys(COMMAND_USAGES) as CommandName[];
const sourceOf = (command: CommandName) =>
  readFileSync(path.join(projectRoot, 'src', 'cli', 'commands', `${command.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Command.ts`), 'utf8');

test('every command has a module, and its usage lists every flag it parses and no other', () => {
  for (const command of commands) {
    const declared = new Set([...sourceOf(command).matchAll(/'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/g)].map((match) => `--${match[1]}`));
    assert.ok(declared.size > 0, `${command}: its options are found in its module`);
    const documented = new Set(
      COMMAND_USAGES[command].options.map(([flag]) => flag.split(' ')[0]!).filter((flag) => flag.startsWith('--') && flag !== '--help'),
    );
    assert.deepEqual([...documented].sort(), [...declared].sort(), `${command}: the flags in usage.ts against those its module parses`);
    for (const flag of declared)
      assert.ok(
        COMMAND_USAGES[command].synopsis.some((line) => line.includes(flag)),
        `${command}: ${flag} in the synopsis`,
      );
  }
});

test('the CLI reference documents every command, each of its flags in its own section, and its exit codes', () => {
  const reference = readFileSync(path.join(projectRoot, 'docs', 'cli-reference.md'), 'utf8');
  for (const command of commands) {
    const section = new RegExp(`\\n## ${command}\\n([\\s\\S]*?)(?=\\n## |$)`).exec(reference)?.[1];
    assert.ok(section, `a "## ${command}" section`);
    for (const [flag] of COMMAND_USAGES[command].options) {
      if (flag === '-h, --help') continue;
      assert.ok(section.includes(`\`${flag.replace(/\|/g, '\\|')}\``) || section.includes(`\`${flag}\``), `${command}: ${flag} in its section`);
    }
    assert.match(reference, new RegExp(`^\\| \`${command}[\` ]`, 'm'), `${command}: a row in the exit codes table`);
    assert.match(reference, new RegExp(`^narratoria ${command}\\b`, 'm'), `${command}: in the synopsis`);
  }
  assert.doesNotMatch(reference, /npx narratoria (?!works)/, 'npx is named only as the in-clone alternative');
});

test("--help and -h print each command's usage on stdout, exit 0, and run nothing", async () => {
  const cwd = scratch();
  for (const command of commands) {
    for (const flag of ['--help', '-h']) {
      // With other arguments too (a --root that is not there, an unknown option): help wins and nothing runs.
      const run = await narratoria([command, '--root', 'missing', '--bogus', flag], cwd);
      assert.equal(run.code, 0, `${command} ${flag}\n${show(run)}`);
      assert.equal(run.stdout, commandHelp(command));
      assert.equal(run.stderr, '');
      assert.match(run.stdout, new RegExp(`^Usage:\\n {2}narratoria ${command}`));
      assert.match(run.stdout, /\nOptions:\n[\s\S]*\n {2}-h, --help {2,}print this help\n[\s\S]*\nExit codes:\n {2}0 {2}/);
    }
  }
  for (const command of ['runs list', 'model pull', 'model status']) {
    const run = await narratoria([...command.split(' '), '--help'], cwd);
    assert.equal(run.code, 0, show(run));
    assert.equal(run.stdout, commandHelp(command.split(' ')[0] as CommandName));
  }
  const topic = await narratoria(['help', 'init'], cwd);
  assert.equal(topic.code, 0, show(topic));
  assert.equal(topic.stdout, commandHelp('init'));
  const overview = await narratoria(['--help'], cwd);
  assert.equal(overview.code, 0);
  for (const command of commands) assert.match(overview.stdout, new RegExp(`^ {2}narratoria ${command}\\b`, 'm'));
  assert.deepEqual(readdirSync(cwd), [], 'nothing was created');
});

test('a --root that names no folder: exit 2 for every command that takes it, naming the folder and suggesting init; nothing is created', async () => {
  const cwd = scratch();
  const withRoot = commands.filter(takesRoot);
  assert.deepEqual(withRoot.sort(), ['explore', 'graph', 'inspect', 'model', 'play', 'run', 'runs', 'sessions', 'skills', 'test', 'validate']);
  const missing = path.join('stories', 'my-story');
  for (const command of withRoot) {
    // The arguments the command would otherwise run with.
    const operands: Record<string, string[]> = {
      validate: ['plan.json'],
      run: ['plan.json'],
      inspect: ['script.js'],
      runs: ['list'],
      graph: ['plan.json'],
      play: ['--once', 'I look around', '--narrator', 'pattern'],
    };
    for (const rootArguments of [['--root', missing], [`--root=${missing}`]]) {
      const run = await narratoria([command, ...(operands[command] ?? []), ...rootArguments], cwd);
      assert.equal(run.code, 2, `${command} ${rootArguments.join(' ')}\n${show(run)}`);
      assert.ok(
        run.stderr.includes(`the story folder ${missing} (--root) does not exist; create one with "narratoria init ${missing}"`),
        `${command}\n${show(run)}`,
      );
      assert.equal(run.stdout, '');
    }
  }
  // Interactive play would have saved its session there.
  const interactive = await narratoria(['play', '--root', 'my-story'], cwd);
  assert.equal(interactive.code, 2, show(interactive));
  assert.deepEqual(readdirSync(cwd), [], 'no folder was created');

  writeFileSync(path.join(cwd, 'story.txt'), 'x');
  const file = await narratoria(['skills', '--root', 'story.txt'], cwd);
  assert.equal(file.code, 2, show(file));
  assert.match(file.stderr, /--root story\.txt is not a folder/);
});

test("--no-bundled-skills: test and explore use only the story's own skills, as play and skills do", async () => {
  // A story without skills of its own: the playtest names a bundled skill, which the flag leaves out.
  const empty = scratch();
  mkdirSync(path.join(empty, 'skills'));
  writeFileSync(path.join(empty, 'roll.playtest.json'), JSON.stringify({ turns: [{ input: 'I roll to pick the lock', expect: { skills: ['dice-roller'] } }] }));
  const unknown = await narratoria(['test', '--no-bundled-skills', '--narrator', 'pattern'], empty);
  assert.equal(unknown.code, 2, show(unknown));
  assert.match(unknown.stderr, /UNKNOWN_SKILL: the story has no skill "dice-roller"/);
  const skills = await narratoria(['skills', '--no-bundled-skills', '--format', 'json'], empty);
  assert.deepEqual((JSON.parse(skills.stdout) as { skills: unknown[] }).skills, []);

  const alone = await narratoria(['explore', '--no-bundled-skills', '--runs', '1', '--turns', '1', '--format', 'json'], empty);
  assert.equal(alone.code, 0, show(alone));
  assert.deepEqual((JSON.parse(alone.stdout) as { scripts: unknown[] }).scripts, [], 'no script of a bundled skill is known');
  const bundled = await narratoria(['explore', '--runs', '1', '--turns', '1', '--format', 'json'], empty);
  assert.equal(bundled.code, 0, show(bundled));
  assert.ok(
    (JSON.parse(bundled.stdout) as { scripts: { script?: string; id?: string }[] }).scripts.length > 0,
    'without the flag the bundled skills are there',
  );

  // A story with its own copies of the skills plays its playtest with the flag.
  const story = path.join(scratch(), 'story');
  assert.equal((await narratoria(['init', story])).code, 0);
  const own = await narratoria(['test', '--no-bundled-skills', '--narrator', 'pattern'], story);
  assert.equal(own.code, 0, show(own));
  assert.match(own.stdout, /1 passed, 0 failed/);
});
