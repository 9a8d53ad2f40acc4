// End-to-end scenarios of the skill-script Inspector in real VS Code (code-server + headless chromium) with the packaged VSIX: a live run's verdicts, Save as Recording with its problems, Open in Inspector replaying a recording, a window reload.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { inspectScript } from '../../src/runtime/inspect/inspectScript.js';
import { writeRecording } from '../../src/runtime/inspect/recording.js';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { waitForSavedEditor } from './harness/savedEditors.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** Margin: a safety net for a real script run in code-server's extension host. */
const RUN_TIMEOUT_MS = 60_000;
/** Each run of the fixture script appends a line here (relative to the story), so a replay can show that nothing ran. */
const RUNS_LOG = 'inspected-runs.log';

/** A story author's skill whose script breaks the protocol three ways: a line that is not JSON, an unknown type, a stderr warning. */
const FIXTURE: Readonly<Record<string, string>> = {
  'skills/lighthouse-keeper/skill.json': JSON.stringify(
    {
      name: 'lighthouse-keeper',
      displayName: 'Lighthouse Keeper',
      version: '1.0.0',
      description: 'Reports what the lighthouse keeper sees (an inspector fixture that breaks the protocol on purpose).',
      capabilities: ['lighthouse'],
      priority: 10,
      scripts: [{ name: 'look', path: 'scripts/look.js', description: 'Looks at input.subject.', inputSchema: 'scripts/look.input.schema.json' }],
    },
    null,
    2,
  ),
  'skills/lighthouse-keeper/scripts/look.input.schema.json': JSON.stringify(
    { type: 'object', required: ['subject'], properties: { subject: { type: 'string' } }, additionalProperties: false },
    null,
    2,
  ),
  'skills/lighthouse-keeper/samples/fog.json': '{ "subject": "the fog" }\n',
  'skills/lighthouse-keeper/scripts/look.js': `#!/usr/bin/env node
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  const subject = (request.input && request.input.subject) || 'nothing';
  fs.appendFileSync(path.join(__dirname, '..', '..', '..', ${JSON.stringify(RUNS_LOG)}), subject + '\\n');
  const emit = (event) => process.stdout.write(JSON.stringify({ version: '0', ...event }) + '\\n');
  emit({ type: 'log', level: 'info', message: 'looking at ' + subject });
  process.stderr.write('warning: the lamp is low on oil\\n');
  process.stdout.write('oh no, not JSON\\n');
  emit({ type: 'stat_patch', patch: { lamp: 'low' } });
  emit({ type: 'state_patch', patch: { lighthouse: { seen: subject } } });
  emit({ type: 'done', ok: true, summary: 'saw ' + subject });
});
`,
};
const SCRIPT = 'skills/lighthouse-keeper/scripts/look.js';

describe('skill-script inspector', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'inspector' });
    console.log(`[e2e] code-server (inspector) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test(
    'I1. Inspect Skill Script shows each verdict in its row, the stderr line and the final verdict; a bad input is refused; Compare diffs two runs',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'i1-inspect-script', { files: FIXTURE }, async ({ workbench, story }) => {
        const inspector = await inspectFixture(workbench);
        await expectFixtureRows(inspector);
        assert.match(await inspector.locator('.verdict-card').innerText(), /invalid_json/);
        assert.deepEqual(workbench.webviewErrors(), []);
        await workbench.screenshot('i1-inspector-live-run');

        // The input editor checks the script's inputSchema before anything runs.
        const runsBefore = runCount(story.dir);
        const editor = inspector.locator('textarea.input-text');
        await editor.fill('{ "subject": 3 }');
        await inspector.locator('button.run').click();
        await inspector.locator('.input-problem.error', { hasText: 'input.subject must be a string' }).waitFor({ timeout: UI_TIMEOUT_MS });
        assert.equal(runCount(story.dir), runsBefore, 'a refused input runs nothing');
        await workbench.screenshot('i1-inspector-input-refused');

        // A valid input runs; then Compare with Previous Run opens VS Code's diff editor on the two runs' stdout.
        await editor.fill('{ "subject": "the rocks" }');
        await inspector.locator('button.run').click();
        await waitFor(async () => runCount(story.dir) > runsBefore, RUN_TIMEOUT_MS, 'the second run starts');
        await inspector.locator('.row-table .row', { hasText: 'looking at the rocks' }).first().waitFor({ timeout: RUN_TIMEOUT_MS });
        const compare = inspector.locator('button.compare');
        await waitFor(async () => compare.isEnabled(), RUN_TIMEOUT_MS, 'Compare is enabled after the second run');
        await compare.click();
        await workbench.page.locator('.part.editor .tab', { hasText: 'previous run ↔ last run' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        const diff = workbench.page.locator('.monaco-diff-editor').first();
        // The two sides hold the runs' stdout: the first run's subject on the left, the second's on the right.
        await diff.locator('.editor.original .view-lines', { hasText: 'looking at the fog' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await diff.locator('.editor.modified .view-lines', { hasText: 'looking at the rocks' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await workbench.screenshot('i1-compare-runs');
      }),
  );

  test('I2. Save as Recording writes the .ndjson and its sidecar; opening it lists the bad lines in the Problems panel', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'i2-save-recording', { files: FIXTURE }, async ({ workbench, story }) => {
      const inspector = await inspectFixture(workbench);
      await expectFixtureRows(inspector);
      await inspector.locator('button.saveRecording').click();
      // code-server's save dialog is VS Code's simple file dialog: a quick input holding the suggested path.
      const input = workbench.page.locator('.quick-input-widget input.input');
      await input.waitFor({ timeout: UI_TIMEOUT_MS });
      await waitFor(async () => (await input.inputValue()).endsWith('look.ndjson'), UI_TIMEOUT_MS, 'the dialog suggests look.ndjson').catch(() => undefined);
      assert.match(await input.inputValue(), /look\.ndjson$/);
      await workbench.page.keyboard.press('Enter');
      const recording = path.join(story.dir, 'look.ndjson');
      await waitFor(async () => existsSync(`${recording}.meta.json`), UI_TIMEOUT_MS, 'the recording and its sidecar are written');
      const meta = JSON.parse(readFileSync(`${recording}.meta.json`, 'utf8')) as {
        input: unknown;
        lines: unknown[];
        stderr: { text: string }[];
        exitCode: number;
      };
      assert.deepEqual(meta.input, { subject: 'the fog' });
      assert.equal(meta.lines.length, 5);
      assert.equal(meta.exitCode, 0);
      assert.match(meta.stderr.map((chunk) => chunk.text).join(''), /the lamp is low on oil/);

      await workbench.runCommand('View: Close All Editors');
      await workbench.openFile('look.ndjson');
      const problems = await workbench.showProblems();
      await problems.locator('.monaco-list-row', { hasText: 'not valid JSON' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      await problems.locator('.monaco-list-row', { hasText: 'stat_patch' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      const rows = await workbench.problemRows();
      assert.ok(
        rows.some((row) => /not valid JSON.*\[Ln 2/.test(row)),
        `line 2 is listed: ${rows.join(' | ')}`,
      );
      assert.ok(
        rows.some((row) => /did you mean "state_patch".*\[Ln 3/.test(row)),
        `line 3 is listed: ${rows.join(' | ')}`,
      );
      await workbench.screenshot('i2-recording-problems');
    }),
  );

  test('I3. Open in Inspector replays a recording with its timing and runs nothing; the panel survives a window reload', {
    timeout: SCENARIO_TIMEOUT_MS,
  }, async () => {
    // The recording of a real run of the fixture script, made here with the runtime's own recorder.
    const recorded = await recordFixture();
    return scenario(
      current,
      'i3-open-in-inspector',
      { files: { ...FIXTURE, 'recordings/look.ndjson': recorded.ndjson, 'recordings/look.ndjson.meta.json': recorded.meta } },
      async ({ workbench, story }) => {
        await workbench.openFile('look.ndjson');
        const button = workbench.page.locator('.part.editor .editor-group-container.active .action-label[aria-label="Open in Inspector"]').first();
        await button.waitFor({ timeout: UI_TIMEOUT_MS });
        await button.click();
        await workbench.page.locator('iframe.webview.ready').first().waitFor({ timeout: UI_TIMEOUT_MS });
        const inspector = workbench.webview();
        await inspector.locator('.toolbar h1', { hasText: 'Recording: look.ndjson' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await expectFixtureRows(inspector);
        assert.match(await inspector.locator('.verdict-card').innerText(), /invalid_json/);
        assert.equal(await inspector.locator('button.run').isDisabled(), true, 'a recording cannot be run');
        assert.equal(runCount(story.dir), 0, 'the replay ran no process');
        await workbench.screenshot('i3-recording-replayed');

        // The view keeps what to show again (`restore`, the recording's file) with setState; VS Code saves it with the editors.
        await waitForSavedEditor(workbench, 'narratoria.inspector', 'restore');
        await workbench.page.reload();
        await workbench.waitUntilReady();
        const revived = workbench.webview();
        await revived.locator('.toolbar h1', { hasText: 'Recording: look.ndjson' }).waitFor({ timeout: RUN_TIMEOUT_MS });
        await expectFixtureRows(revived);
        assert.equal(runCount(story.dir), 0, 'the revived panel ran nothing');
      },
    );
  });
});

/** Inspect Skill Script… on the fixture, with its sample input; returns the Inspector once the run's verdict is shown. */
async function inspectFixture(workbench: Workbench): Promise<FrameLocator> {
  await workbench.openNarratoriaView();
  await workbench.waitForTreeRows((rows) => rows.some((row) => row.label === 'Lighthouse Keeper'));
  const page = workbench.page;
  const row = (text: string) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  // Not runCommand: the command answers with quick picks of its own, so the palette widget stays open.
  await workbench.pickCommand('Narratoria: Inspect Skill Script…');
  await row('Lighthouse Keeper').waitFor({ timeout: UI_TIMEOUT_MS });
  await page.locator('.quick-input-widget input').fill('Lighthouse Keeper');
  await row('Lighthouse Keeper').click();
  await row('fog.json').waitFor({ timeout: UI_TIMEOUT_MS });
  await row('fog.json').click();
  await page.locator('.quick-input-widget', { hasText: 'from fog.json' }).waitFor({ timeout: UI_TIMEOUT_MS });
  await page.keyboard.press('Enter');
  await page.locator('iframe.webview.ready').first().waitFor({ timeout: UI_TIMEOUT_MS });
  const inspector = workbench.webview();
  await inspector.locator('.verdict-card', { hasText: 'invalid_json' }).waitFor({ timeout: RUN_TIMEOUT_MS });
  return inspector;
}

/** The fixture's rows, each with its verdict, and its stderr line. */
async function expectFixtureRows(inspector: FrameLocator): Promise<void> {
  const row = (text: string) => inspector.locator('.row-table .row', { hasText: text }).first();
  await row('looking at').waitFor({ timeout: UI_TIMEOUT_MS });
  assert.match(await row('looking at').innerText(), /✔/);
  assert.match(await row('not valid JSON').innerText(), /✖/);
  assert.match(await row('did you mean "state_patch"').innerText(), /✖/);
  assert.match(await row('saw the').innerText(), /✔/);
  await inspector.locator('text=warning: the lamp is low on oil').first().waitFor({ timeout: UI_TIMEOUT_MS });
}

function runCount(storyDir: string): number {
  const file = path.join(storyDir, RUNS_LOG);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Runs the fixture script once in a scratch story and returns its recording's two files. */
async function recordFixture(): Promise<{ ndjson: string; meta: string }> {
  const { mkdtempSync, rmSync, mkdirSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-e2e-record-'));
  try {
    for (const [relative, content] of Object.entries(FIXTURE)) {
      mkdirSync(path.dirname(path.join(scratch, relative)), { recursive: true });
      writeFileSync(path.join(scratch, relative), content);
    }
    const report = await inspectScript({ scriptPath: path.join(scratch, SCRIPT), input: { subject: 'the fog' }, root: scratch, record: true });
    assert.ok(report.recording, 'the run was recorded');
    const file = path.join(scratch, 'look.ndjson');
    await writeRecording(file, report.recording);
    return { ndjson: readFileSync(file, 'utf8'), meta: readFileSync(`${file}.meta.json`, 'utf8') };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
