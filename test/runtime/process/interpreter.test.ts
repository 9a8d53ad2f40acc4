// Unit tests of interpreter selection and the minimal script environment.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  commandForScript,
  findProgram,
  INTERPRETED_EXTENSIONS,
  INTERPRETERS,
  interpreterFor,
  missingInterpreterOf,
} from '../../../src/runtime/process/interpreter.js';
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
    // Other interpreters are started by the path PATH gives for their program.
    const python = await commandForScript(file('a.py', false));
    assert.ok(python.ok && path.basename(python.command.file) === 'python3');
    const shell = await commandForScript(file('a.sh', false));
    assert.ok(shell.ok && path.basename(shell.command.file) === 'bash');
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

test('one table: each extension has one interpreter, with a name, a program to look for and what to install', () => {
  const extensions = INTERPRETERS.flatMap((interpreter) => interpreter.extensions);
  assert.equal(new Set(extensions).size, extensions.length);
  assert.deepEqual(INTERPRETED_EXTENSIONS, extensions);
  for (const extension of ['.js', '.mjs', '.cjs', '.py', '.sh', '.dart']) assert.ok(interpreterFor(`x${extension}`), extension);
  assert.equal(interpreterFor('x.DART')?.name, 'Dart');
  assert.equal(interpreterFor('x.txt'), undefined);
  assert.equal(interpreterFor('Makefile'), undefined);
  const dart = interpreterFor('roll-dice.dart')!;
  assert.deepEqual([dart.program, dart.args], ['dart', ['run']]);
  assert.match(dart.install, /Dart SDK \(https:\/\/dart\.dev\/get-dart\)/);
  for (const interpreter of INTERPRETERS) assert.ok(interpreter.name && interpreter.install, interpreter.name);
});

test('a missing interpreter is INTERPRETER_NOT_FOUND with what to install; a program on PATH runs the script as its table row says', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-interp-'));
  try {
    const script = path.join(directory, 'roll-dice.dart');
    writeFileSync(script, 'void main() {}\n');
    const empty = path.join(directory, 'empty');
    mkdirSync(empty);
    const missing = await commandForScript(script, process.execPath, empty);
    assert.ok(!missing.ok);
    assert.equal(missing.code, 'INTERPRETER_NOT_FOUND');
    assert.match(missing.message, /needs Dart, and "dart" is not on PATH: install the Dart SDK \(https:\/\/dart\.dev\/get-dart\) and put dart on PATH/);
    assert.equal(missingInterpreterOf(script, false, empty)?.name, 'Dart');
    // Python is missing there too: the same rule for every row of the table.
    writeFileSync(path.join(directory, 'a.py'), '');
    const python = await commandForScript(path.join(directory, 'a.py'), process.execPath, empty);
    assert.ok(!python.ok && python.code === 'INTERPRETER_NOT_FOUND' && /Python 3/.test(python.message));
    // Node is the runtime's own, whatever PATH says.
    writeFileSync(path.join(directory, 'a.js'), '');
    assert.ok((await commandForScript(path.join(directory, 'a.js'), process.execPath, empty)).ok);
    assert.equal(missingInterpreterOf(path.join(directory, 'a.js'), false, empty), undefined);

    const bin = path.join(directory, 'bin');
    mkdirSync(bin);
    const fakeDart = path.join(bin, 'dart');
    writeFileSync(fakeDart, '#!/bin/sh\n');
    chmodSync(fakeDart, 0o755);
    const searchPath = [empty, bin].join(path.delimiter);
    assert.equal(findProgram('dart', searchPath), fakeDart);
    const found = await commandForScript(script, process.execPath, searchPath);
    assert.ok(found.ok);
    assert.deepEqual([found.command.file, found.command.args], [fakeDart, ['run', script]]);
    assert.equal(missingInterpreterOf(script, false, searchPath), undefined);
    // An executable script runs directly: its shebang decides, so no interpreter is needed.
    chmodSync(script, 0o755);
    assert.equal(missingInterpreterOf(script, true, empty), undefined);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
