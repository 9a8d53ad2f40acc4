// startScriptProcess: the spawn fast path and the execa path (Windows) end the same way for success, failure, a missing file and a script that ignores its stdin.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startScriptProcess, type ProcessEnd } from '../../../src/runtime/process/scriptProcess.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-script-process-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function run(file: string, platform: NodeJS.Platform): Promise<ProcessEnd & { stdout: string; stderr: string }> {
  const started = await startScriptProcess(
    { command: { file, args: [], env: {} }, cwd: scratch, env: { PATH: process.env['PATH'] ?? '' }, stdinText: '{"input":{"n":7}}' },
    platform,
  );
  let stdout = '';
  let stderr = '';
  started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { ...(await started.ended), stdout, stderr };
}

for (const platform of ['linux', 'win32'] as const) {
  const path_ = platform === 'linux' ? 'spawn' : 'execa';
  test(`${path_}: stdin reaches the script, stdout and stderr come back, the exit code is kept`, async () => {
    const echo = await run(script(`echo-${platform}.sh`, 'cat; echo warn >&2; exit 3'), platform);
    assert.deepEqual([echo.exitCode, echo.signal, echo.spawnError, echo.stdout, echo.stderr], [3, null, undefined, '{"input":{"n":7}}', 'warn\n']);
  });

  test(`${path_}: a script that never reads its stdin still ends normally`, async () => {
    const ignore = await run(script(`ignore-${platform}.sh`, 'echo done'), platform);
    assert.deepEqual([ignore.exitCode, ignore.spawnError, ignore.stdout], [0, undefined, 'done\n']);
  });

  test(`${path_}: a missing file is a spawn error, not an exit code`, async () => {
    const missing = await run(path.join(scratch, 'missing.sh'), platform);
    assert.equal(missing.exitCode, null);
    assert.equal(missing.spawnError?.code, 'ENOENT');
  });
}
