// Compatibility (issue 41), through the real CLI: files written for other Narratoria runtimes (annotated plans with unusual toolIds) validate, run and graph; scripts in tools/ run only from a folder the author allowed.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, storyRoot } from '../cli/cliHarness.js';

const REQUEST_ID = '5b2f7c1e-9d3a-4e6b-8f10-2a4c6e8b0d13';
let scratch: string;
let root: string;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-upstream-'));
  root = path.join(scratch, 'story');
  for (const part of ['skills', 'lib']) cpSync(path.join(storyRoot, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{ "type": "commonjs" }\n');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
}

/** Our own fixture in the shape other runtimes write: annotations, a toolId with a space, an unknown key, a retry policy over the cap. */
const plan = {
  $comment: 'A torch, then a look around.',
  requestId: REQUEST_ID,
  tools: [
    {
      $comment: 'light it',
      toolId: 'light torch',
      toolPath: 'skills/helpers/scripts/echo.js',
      input: { patch: { torch: 'lit' } },
      retryPolicy: { maxRetries: 20, backoffMs: 100 },
      priority: 1,
    },
    { toolId: 'look', toolPath: 'skills/helpers/scripts/echo.js', dependencies: ['light torch'] },
  ],
};

test('validate: an annotated plan with a toolId "light torch" has warnings only and exits 0', async () => {
  const file = write('torch.plan.json', plan);
  const run = await narratoria(['validate', file, '--root', root, '--format', 'json']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const codes = (JSON.stringify(JSON.parse(run.stdout)).match(/"code":"[A-Z_]+"/g) ?? []).sort();
  assert.deepEqual(codes, ['"code":"RETRY_POLICY_CLAMPED"', '"code":"TOOL_ID_UNUSUAL_CHARACTERS"', '"code":"UNKNOWN_PROPERTY"']);
});

test('run and graph: the tool "light torch" runs, its dependent sees its output, and the run record draws', async () => {
  const file = write('torch-run.plan.json', plan);
  const run = await narratoria(['run', file, '--root', root, '--format', 'json']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The warnings are on stderr, so a run says what it does differently: the clamp, the ignored key.
  assert.match(run.stderr, /warning RETRY_POLICY_CLAMPED: .*clamps maxRetries to 10/);
  assert.match(run.stderr, /warning UNKNOWN_PROPERTY: .*"priority"/);
  const result = JSON.parse(run.stdout) as {
    success: boolean;
    toolResults: { toolId: string; state: string; output?: { result?: { dependencies?: Record<string, unknown> } } }[];
    aggregatedState: Record<string, unknown>;
  };
  assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
  assert.equal(result.success, true);
  assert.deepEqual(
    result.toolResults.map((tool) => [tool.toolId, tool.state]),
    [
      ['light torch', 'success'],
      ['look', 'success'],
    ],
  );
  assert.ok(result.toolResults[1]!.output?.result?.dependencies?.['light torch'], 'the dependent received the output of "light torch"');
  assert.deepEqual(result.aggregatedState, { torch: 'lit' });

  const graphOfPlan = await narratoria(['graph', file, '--root', root]);
  assert.equal(graphOfPlan.code, 0, graphOfPlan.stderr);
  const drawn = JSON.parse(graphOfPlan.stdout) as { nodes: { id: string }[]; edges: { from: string; to: string }[] };
  assert.deepEqual(
    drawn.nodes.map((node) => node.id),
    ['light torch', 'look'],
  );
  assert.deepEqual(
    drawn.edges.map((edge) => [edge.from, edge.to]),
    [['light torch', 'look']],
  );
  for (const format of ['svg', 'dot', 'mermaid']) {
    const other = await narratoria(['graph', file, '--root', root, '--format', format]);
    assert.equal(other.code, 0, `${format}: ${other.stderr}`);
    assert.match(other.stdout, /light torch/, format);
  }

  const records = readdirSync(path.join(root, '.narratoria', 'runs')).filter((name) => name.startsWith(REQUEST_ID));
  assert.equal(records.length, 1);
  const graphOfRun = await narratoria(['graph', path.join(root, '.narratoria', 'runs', records[0]!), '--root', root]);
  assert.equal(graphOfRun.code, 0, graphOfRun.stderr);
  const states = (JSON.parse(graphOfRun.stdout) as { nodes: { id: string; state?: string }[] }).nodes.map((node) => [node.id, node.state]);
  assert.deepEqual(states, [
    ['light torch', 'success'],
    ['look', 'success'],
  ]);
});

test('graph: an upstream-shaped result (executionTrace, state "completed", an error with no category) draws with its states', async () => {
  const file = write('upstream-result.json', {
    planId: '6c1d3e5f-7a9b-4c2d-8e0f-1a3b5c7d9e20',
    success: false,
    executionTrace: [
      { toolId: 'light torch', state: 'completed', executionTimeMs: 12 },
      { toolId: 'examine1', state: 'failed', error: { code: 'TOOL_TIMEOUT', message: 'no answer' } },
    ],
    finalState: { torch: 'lit' },
  });
  const run = await narratoria(['graph', file, '--root', root]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /tools are drawn without their dependencies/);
  const nodes = (JSON.parse(run.stdout) as { nodes: { id: string; state?: string }[] }).nodes;
  assert.deepEqual(
    nodes.map((node) => [node.id, node.state]),
    [
      ['light torch', 'success'],
      ['examine1', 'failed'],
    ],
  );
  // The same result in our own field names, with toolResults, draws the same.
  const own = write('own-result.json', {
    planId: '6c1d3e5f-7a9b-4c2d-8e0f-1a3b5c7d9e20',
    success: false,
    toolResults: [{ toolId: 'light torch', state: 'completed' }],
  });
  const second = await narratoria(['graph', own, '--root', root]);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(
    (JSON.parse(second.stdout) as { nodes: { id: string; state?: string }[] }).nodes.map((node) => node.state),
    ['success'],
  );
});

/** A self-contained script (no extension, as other runtimes' `tools/torch-lighter`) that leaves `<its name>.ran` beside itself and patches the state. */
function writeTool(file: string, patch: Record<string, unknown>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = [
    '#!/usr/bin/env node',
    "'use strict';",
    "require('node:fs').writeFileSync(__filename + '.ran', 'ran');",
    "process.stdin.resume().on('end', () => {",
    `  process.stdout.write(JSON.stringify({ version: '0', type: 'state_patch', patch: ${JSON.stringify(patch)} }) + '\\n');`,
    "  process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true }) + '\\n');",
    '});',
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  chmodSync(file, 0o755);
}

/** Our own plan in the shape of other runtimes' examples: scripts named by a path under tools/, with no extension. */
function toolsPlan(requestId: string, toolPath: string): unknown {
  return {
    requestId,
    tools: [
      {
        toolId: 'light1',
        toolPath,
        input: { action: 'light_torch' },
        dependencies: [],
        required: true,
        async: false,
        retryPolicy: { maxRetries: 0, backoffMs: 100 },
      },
      { toolId: 'examine1', toolPath: 'skills/helpers/scripts/echo.js', input: { target: 'door' }, dependencies: ['light1'] },
    ],
    parallel: false,
    disabledSkills: [],
    metadata: { generationAttempt: 1, parentPlanId: null },
  };
}

test('tools/…: refused at validation and at run time with the policy and its reason, and nothing runs; --allow-tool-root runs it', async () => {
  const lighter = path.join(root, 'tools', 'torch-lighter');
  writeTool(lighter, { torch: 'lit' });
  const file = write('tools.plan.json', toolsPlan('8a1c3e5f-7b9d-4f2a-8c4e-6a8c0e2b4d71', 'tools/torch-lighter'));

  const refused = await narratoria(['run', file, '--root', root, '--format', 'json']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /error TOOL_PATH_OUTSIDE_SKILLS: .*tool-path policy: a plan is untrusted input \(a model writes it\)/);
  assert.match(refused.stderr, /narratoria\.allowedToolRoots .*--allow-tool-root DIR/);
  assert.equal(existsSync(`${lighter}.ran`), false, 'the refused script never started');
  const invalid = await narratoria(['validate', file, '--root', root, '--format', 'json']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stdout, /TOOL_PATH_OUTSIDE_SKILLS/);

  // Allowed by the author, the same plan validates and runs: the script in tools/ and its dependent.
  const valid = await narratoria(['validate', file, '--root', root, '--allow-tool-root', path.join(root, 'tools')]);
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);
  const run = await narratoria(['run', file, '--root', root, '--allow-tool-root', 'tools', '--format', 'json', '--no-save'], root);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const result = JSON.parse(run.stdout) as { success: boolean; toolResults: { toolId: string; state: string }[]; aggregatedState: Record<string, unknown> };
  assert.deepEqual(
    result.toolResults.map((tool) => [tool.toolId, tool.state]),
    [
      ['light1', 'success'],
      ['examine1', 'success'],
    ],
  );
  assert.deepEqual(result.aggregatedState, { torch: 'lit' });
  assert.equal(existsSync(`${lighter}.ran`), true);
});

test('tools/…: an allowed folder does not let a symbolic link out of it, or another folder, run', async () => {
  const elsewhere = path.join(scratch, 'elsewhere', 'payload');
  writeTool(elsewhere, { escaped: true });
  mkdirSync(path.join(root, 'tools'), { recursive: true });
  symlinkSync(elsewhere, path.join(root, 'tools', 'escape'));
  const allowed = ['--allow-tool-root', path.join(root, 'tools')];
  for (const [name, toolPath] of [
    ['escape', 'tools/escape'],
    ['sibling', '../elsewhere/payload'],
  ] as const) {
    const file = write(`${name}.plan.json`, toolsPlan('9b2d4f6a-8c0e-4a3b-9d5f-7b9d1f3a5c82', toolPath));
    const run = await narratoria(['run', file, '--root', root, ...allowed, '--format', 'json', '--no-save']);
    assert.equal(run.code, 2, `${name}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /TOOL_PATH_OUTSIDE_SKILLS/, name);
    assert.ok(run.stderr.includes(path.join(root, 'tools')), `${name}: the message names the allowed folder`);
  }
  assert.equal(existsSync(`${elsewhere}.ran`), false, 'the script outside never started');
});
