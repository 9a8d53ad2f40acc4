// The debugger's launch reads files written for other Narratoria runtimes: an annotated plan with toolId "light torch", and an upstream-shaped result as a replay.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch } from '../../../../src/runtime/debug/dap/launchArguments.js';

let scratch: string;
const host = { isTrusted: () => true };

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-dap-upstream-'));
  mkdirSync(path.join(scratch, 'skills', 'torch', 'scripts'), { recursive: true });
  writeFileSync(path.join(scratch, 'skills', 'torch', 'scripts', 'light.js'), '#!/usr/bin/env node\n');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('a plan with $comment and toolId "light torch" launches', async () => {
  const file = path.join(scratch, 'torch.plan.json');
  const plan = {
    $comment: 'mine',
    requestId: '1e3a5c7e-9b0d-4f2a-8c4e-6a8c0e2b4d61',
    tools: [{ $comment: 'light', toolId: 'light torch', toolPath: 'skills/torch/scripts/light.js' }],
  };
  writeFileSync(file, JSON.stringify(plan));
  const target = await resolveLaunch({ plan: file, root: scratch }, host);
  assert.equal(target.kind, 'plan');
  assert.equal(target.plan.tools[0]!.toolId, 'light torch');
});

test('an upstream-shaped result replays with state "completed" read as success and a category derived from the code', async () => {
  const file = path.join(scratch, 'result.json');
  writeFileSync(
    file,
    JSON.stringify({
      planId: '1e3a5c7e-9b0d-4f2a-8c4e-6a8c0e2b4d62',
      success: false,
      executionTrace: [
        { toolId: 'light torch', state: 'completed' },
        { toolId: 'look', state: 'failed', error: { code: 'TOOL_TIMEOUT', message: 'slow' } },
      ],
    }),
  );
  const target = await resolveLaunch({ replay: file, root: scratch }, host);
  assert.equal(target.kind, 'replay');
  if (target.kind !== 'replay') return;
  assert.deepEqual(
    target.results.map((result) => [result.toolId, result.state, result.error?.category]),
    [
      ['light torch', 'success', undefined],
      ['look', 'failed', 'timeout'],
    ],
  );
});
