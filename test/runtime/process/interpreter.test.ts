// Unit tests of interpreter selection and the minimal script environment.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandForScript } from '../../../src/runtime/process/interpreter.js';
import { buildScriptEnvironment, snapshotHostEnvironment } from '../../../src/runtime/process/scriptEnvironment.js';

test('executable files run directly; others by extension; unknown extensions are refused', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-interp-'));
  try {
    const file = (name: string, executable: boolean) => {
      const full = path.join(directory, name);
      writeFileSync(full, '#!/bin/sh\n');
      chmodSync(full, executable ? 0o755 : 0o644);
      return full;
    };
    const direct = await commandForScript(file('tool', true));
    assert.ok(direct.ok && direct.command.file.endsWith('tool') && direct.command.args.length === 0);
    const js = await commandForScript(file('a.mjs', false), '/opt/node');
    assert.ok(js.ok);
    assert.deepEqual(js.ok && [js.command.file, js.command.env['ELECTRON_RUN_AS_NODE']], ['/opt/node', '1']);
    const python = await commandForScript(file('a.py', false));
    assert.ok(python.ok && python.command.file === 'python3');
    const shell = await commandForScript(file('a.sh', false));
    assert.ok(shell.ok && shell.command.file === 'bash');
    const unknown = await commandForScript(file('a.txt', false));
    assert.ok(!unknown.ok && unknown.code === 'SCRIPT_NOT_EXECUTABLE');
    const missing = await commandForScript(path.join(directory, 'missing.js'));
    assert.ok(!missing.ok && missing.code === 'SCRIPT_NOT_FOUND');
    mkdirSync(path.join(directory, 'folder.js'));
    const folder = await commandForScript(path.join(directory, 'folder.js'));
    assert.ok(!folder.ok && folder.code === 'SCRIPT_NOT_FOUND');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('the script environment keeps only allowlisted host variables plus Narratoria context', () => {
  const host = snapshotHostEnvironment({ PATH: '/bin', HOME: '/home/a', AWS_SECRET_ACCESS_KEY: 'secret', GITHUB_TOKEN: 't', HTTPS_PROXY: 'http://proxy:3128' });
  assert.deepEqual(host, { PATH: '/bin', HOME: '/home/a', HTTPS_PROXY: 'http://proxy:3128' });
  const env = buildScriptEnvironment({ root: '/story', skillDirectory: '/story/skills/a', toolId: 't1' }, { EXTRA: '1' }, host);
  assert.equal(env['AWS_SECRET_ACCESS_KEY'], undefined);
  assert.equal(env['NARRATORIA_ROOT'], '/story');
  assert.equal(env['NARRATORIA_SKILL_DIR'], '/story/skills/a');
  assert.equal(env['NARRATORIA_TOOL_ID'], 't1');
  assert.equal(env['NARRATORIA_PROTOCOL_VERSION'], '0');
  assert.equal(env['EXTRA'], '1');
});
