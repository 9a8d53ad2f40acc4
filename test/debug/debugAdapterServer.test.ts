// `narratoria debug-adapter --port 0`: the adapter as a TCP server on 127.0.0.1 (for clients that connect to a running adapter), one session per connection.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { cliPath } from '../cli/cliHarness.js';
import { launch, scopeValue, topFrame } from '../support/debugClient.js';
import { waitForProcessExit } from '../support/processes.js';

const story = path.resolve(import.meta.dirname, '../fixtures/story');
/** Margin: a safety net so a server that never answers fails the test instead of hanging the suite. */
const TEST_TIMEOUT_MS = 180_000;
let scratch: string;
let server: ChildProcess | undefined;
before(() => (scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-server-'))));
after(async () => {
  if (server?.pid !== undefined && server.exitCode === null) {
    server.kill('SIGTERM');
    await waitForProcessExit(server.pid);
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts the server and resolves with the port it reports on stderr. */
function startServer(): Promise<number> {
  return new Promise((resolve, reject) => {
    server = spawn(process.execPath, [cliPath, 'debug-adapter', '--port', '0'], { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${stderr}`)));
  });
}

test('two clients in turn each get their own session from one server, which stops on SIGTERM', { timeout: TEST_TIMEOUT_MS }, async () => {
  const planFile = path.join(scratch, 'served.plan.json');
  writeFileSync(
    planFile,
    JSON.stringify(
      {
        requestId: '6d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        tools: [{ toolId: 'only', toolPath: 'skills/helpers/scripts/echo.js', input: { patch: { served: true } } }],
      },
      null,
      2,
    ),
  );
  const port = await startServer();
  for (let round = 0; round < 2; round++) {
    const client = new DebugClient('node', 'unused', 'narratoria');
    await client.start(port);
    const launched = await launch(client, { plan: planFile, root: story, stopOnEntry: true });
    const stop = await launched.firstStop;
    const frame = await topFrame(client, stop.body.threadId!);
    assert.equal(frame.name, 'only');
    assert.deepEqual(await scopeValue(client, frame.id, 'Input'), { patch: { served: true } });
    await Promise.all([launched.terminated, client.continueRequest({ threadId: stop.body.threadId! })]);
    await client.stop();
  }
  server!.kill('SIGTERM');
  assert.equal(await waitForProcessExit(server!.pid!), true);
});
