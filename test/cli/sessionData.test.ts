// Issue 40 end to end with the built CLI: skill data belongs to sessions, so `test` and `explore` leave a story's skills/ byte for byte as they were, a playtest gives the same narration whatever was played before, and the bundled skills never write into the installation.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { narratoria, projectRoot } from './cliHarness.js';

let scratch: string;
let story: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-sessions-'));
  story = path.join(scratch, 'story');
  const init = await narratoria(['init', story]);
  assert.equal(init.code, 0, init.stderr);
  mkdirSync(path.join(story, 'playtests'), { recursive: true });
  cpSync(path.join(projectRoot, 'test', 'fixtures', 'sample-playtests', 'tavern.playtest.json'), path.join(story, 'playtests', 'tavern.playtest.json'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `folder` with the hash of its bytes (and every folder, so an added empty one shows too). */
function hashes(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const file = path.join(directory, entry.name);
      const key = path.relative(folder, file);
      if (entry.isDirectory()) {
        found[`${key}/`] = 'folder';
        walk(file);
      } else found[key] = createHash('sha256').update(readFileSync(file)).digest('hex');
    }
  };
  walk(folder);
  return found;
}

interface Report {
  readonly playtests: readonly {
    readonly file: string;
    readonly status: string;
    readonly turns: readonly { readonly index: number; readonly narration?: string; readonly status: string }[];
  }[];
}

async function tavernTurnTwo(): Promise<string> {
  const run = await narratoria(['test', path.join(story, 'playtests', 'tavern.playtest.json'), '--root', story, '--narrator', 'pattern', '--format', 'json']);
  const report = JSON.parse(run.stdout) as Report;
  const narration = report.playtests[0]!.turns.find((turn) => turn.index === 2)?.narration;
  assert.ok(narration !== undefined, run.stdout);
  return narration;
}

test('test and explore leave skills/ byte for byte as it was, and a playtest narrates the same after a remembering session', async () => {
  const skills = path.join(story, 'skills');
  const before = hashes(skills);
  const pristine = await tavernTurnTwo();
  assert.ok(!/silver key/i.test(pristine), pristine);

  // A play-through remembers something about Mira: in its own session, then in the story's default session.
  for (const args of [['--session', path.join(scratch, 'mira.session.json')], []]) {
    const remembered = await narratoria(['play', '--root', story, '--narrator', 'pattern', ...args, '--once', 'Remember that Mira gave me a silver key']);
    assert.equal(remembered.code, 0, remembered.stderr);
  }
  const stored = path.join(story, '.narratoria', 'sessions', 'default', 'data', 'memory');
  assert.ok(existsSync(stored) && readdirSync(stored).length > 0, 'the default session kept its memory');

  // The playtest plays in a session of its own: what was played before does not reach it.
  assert.equal(await tavernTurnTwo(), pristine);
  const explored = await narratoria([
    'explore',
    '--root',
    story,
    '--runs',
    '3',
    '--turns',
    '4',
    '--seed',
    '5',
    '--narrator',
    'pattern',
    '--jobs',
    '1',
    '--format',
    'json',
  ]);
  assert.ok(explored.code === 0 || explored.code === 1, explored.stderr);
  assert.deepEqual(hashes(skills), before, 'no file under skills/ was added, removed or changed');
  // Neither left a session of its own behind in the story.
  const sessions = readdirSync(path.join(story, '.narratoria', 'sessions')).sort();
  assert.ok(
    sessions.every((id) => !/^(?:playtest|explore)-/.test(id)),
    sessions.join(', '),
  );
});

test('a story that uses the bundled skills: their data goes into the story, never into the installation', async () => {
  // A copy of the installation (the bundle and its skills), so its folder can be watched.
  const install = path.join(scratch, 'install');
  cpSync(path.join(projectRoot, 'dist'), path.join(install, 'dist'), { recursive: true });
  cpSync(path.join(projectRoot, 'skills'), path.join(install, 'skills'), {
    recursive: true,
    filter: (source) => !/[\\/]data(?:[\\/]|$)/.test(path.relative(projectRoot, source)),
  });
  const bare = path.join(scratch, 'bare-story');
  mkdirSync(bare);
  const installed = hashes(path.join(install, 'skills'));
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(install, 'dist', 'cli.cjs'), 'play', '--root', bare, '--narrator', 'pattern', '--once', 'Remember that the innkeeper owes me ten coins'],
      { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } },
    );
    child.on('error', reject);
    child.on('exit', resolve);
  });
  assert.equal(code, 0);
  assert.deepEqual(hashes(path.join(install, 'skills')), installed, 'nothing written into the installation');
  const memories = path.join(bare, '.narratoria', 'sessions', 'default', 'data', 'memory');
  assert.ok(statSync(memories).isDirectory() && readdirSync(memories).length > 0, 'the memory is in the story');
});

/** `setpriv` (util-linux) runs a command as another user: root ignores a read-only folder, an unprivileged user does not. */
const canDropPrivileges = process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status === 0;

test('a story that uses the bundled skills plays with the installation made read-only', {
  skip: !canDropPrivileges && 'running as root without setpriv, a read-only folder is not enforced',
}, async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-readonly-'));
  try {
    chmodSync(folder, 0o755);
    const install = path.join(folder, 'install');
    cpSync(path.join(projectRoot, 'dist'), path.join(install, 'dist'), { recursive: true });
    cpSync(path.join(projectRoot, 'skills'), path.join(install, 'skills'), {
      recursive: true,
      filter: (source) => !/[\\/]data(?:[\\/]|$)/.test(path.relative(projectRoot, source)),
    });
    const readOnly = (file: string) => {
      if (statSync(file).isDirectory()) for (const entry of readdirSync(file)) readOnly(path.join(file, entry));
      chmodSync(file, statSync(file).mode & 0o555);
    };
    readOnly(path.join(install, 'skills'));
    const bare = path.join(folder, 'story');
    mkdirSync(bare);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(bare, 65534, 65534);
    const command = [
      process.execPath,
      path.join(install, 'dist', 'cli.cjs'),
      'play',
      '--root',
      bare,
      '--narrator',
      'pattern',
      '--once',
      'Remember that the innkeeper owes me ten coins',
    ];
    const run = asRoot
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'env', `HOME=${bare}`, ...command], { encoding: 'utf8' })
      : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /innkeeper owes you ten coins/);
    assert.ok(readdirSync(path.join(bare, '.narratoria', 'sessions', 'default', 'data', 'memory')).length > 0);
  } finally {
    // (Writable again, so that a user who is not root can delete it.)
    const writable = (file: string) => {
      if (!existsSync(file)) return;
      chmodSync(file, statSync(file).mode | 0o200);
      if (statSync(file).isDirectory()) for (const entry of readdirSync(file)) writable(path.join(file, entry));
    };
    writable(path.join(folder, 'install'));
    rmSync(folder, { recursive: true, force: true });
  }
});
