// End-to-end scenarios of the plan debugger in real VS Code (code-server + headless chromium) with the packaged VSIX: a gutter breakpoint and F5, stepping into a tool's NDJSON events, stepping back in time, replaying a run record, Restricted Mode.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { repoRoot } from './harness/paths.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';
import {
  arrangeDebugView,
  callStackRows,
  decoratedLines,
  expandVariables,
  park,
  scopeChildren,
  selectLaunchConfiguration,
  setGutterBreakpoint,
  startDebugging,
  stopDebugging,
  waitForDebugConsole,
  waitForHighlightedLine,
  waitForStatus,
  waitForTopFrame,
} from './harness/debugView.js';

/**
 * The repository's example plan, in the story's plans/ folder: its toolPaths are relative to the story root,
 * which has the sample skills (dice-roller, storyteller). Without its `$schema`, which points into contracts/.
 */
const PICK_THE_LOCK_FILE = 'plans/pick-the-lock.plan.json';
const PICK_THE_LOCK = readFileSync(path.join(repoRoot, 'contracts', 'examples', 'pick-the-lock.plan.json'), 'utf8').replace(/^\s*"\$schema":.*\n/m, '');
const PICK_THE_LOCK_ID = (JSON.parse(PICK_THE_LOCK) as { requestId: string }).requestId;
/** Where a run of the plan is recorded (`<root>/.narratoria/runs/<requestId>.json`). */
const RECORD_FILE = `.narratoria/runs/${PICK_THE_LOCK_ID}.json`;

/** A line inside the narrate tool's object, and one inside the roll tool's. */
const NARRATE_LINE = positionOf(PICK_THE_LOCK, '"description": "Narrate the outcome"').line;
const ROLL_LINE = positionOf(PICK_THE_LOCK, '"toolPath": "skills/dice-roller/scripts/roll.js"').line;
/** The ranges of the tools' objects: a stop at a tool shows that range. */
const NARRATE_RANGE = objectRange(PICK_THE_LOCK, '"toolId": "narrate"');
const ROLL_RANGE = objectRange(PICK_THE_LOCK, '"toolId": "roll"');

/** A launch.json whose one configuration replays the recorded run with the breakpoints of the plan file. */
const REPLAY_CONFIGURATION = 'Replay pick-the-lock';
const LAUNCH_JSON_FILE = '.vscode/launch.json';
const LAUNCH_JSON = `${JSON.stringify(
  {
    version: '0.2.0',
    configurations: [
      {
        type: 'narratoria',
        request: 'launch',
        name: REPLAY_CONFIGURATION,
        replay: `\${workspaceFolder}/${RECORD_FILE}`,
        plan: `\${workspaceFolder}/${PICK_THE_LOCK_FILE}`,
      },
    ],
  },
  null,
  2,
)}\n`;

describe('plan debugger', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'debugger' });
    console.log(`[e2e] code-server (debugger) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test(
    'D1. a gutter breakpoint on the narrate tool of pick-the-lock.plan.json, then F5: VS Code stops there and the Variables view shows the roll in State',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'd1-breakpoint', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench }) => {
        const editor = await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
        await setGutterBreakpoint(workbench, NARRATE_LINE);
        // No launch.json: F5 debugs the plan in the active editor (the extension's DebugConfigurationProvider).
        await startDebugging(workbench);
        await waitForTopFrame(workbench, new RegExp(`^Stack Frame narrate, line ${NARRATE_RANGE.start.line}, pick-the-lock\\.plan\\.json$`));
        await arrangeDebugView(workbench);
        // The toolbar offers time travel: the adapter announces supportsStepBack.
        for (const action of ['Continue (F5)', 'Step Into (F11)', 'Step Back', 'Reverse']) {
          await workbench.page.locator(`.debug-toolbar .action-label[aria-label="${action}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
        }
        assert.ok(
          (await callStackRows(workbench)).some((row) => /^Thread narrate Paused on breakpoint$/.test(row.ariaLabel)),
          'the narrate thread is paused on the breakpoint',
        );
        // The editor shows the tool: the stack frame's line is its first line, and its whole object is selected.
        await waitFor(
          async () => (await decoratedLines(editor, 'debug-top-stack-frame-line')).includes(NARRATE_RANGE.start.line),
          UI_TIMEOUT_MS,
          'the editor highlights the stopped tool',
        ).catch(() => undefined);
        assert.deepEqual(
          await decoratedLines(editor, 'debug-top-stack-frame-line'),
          [NARRATE_RANGE.start.line],
          "the stopped line is the narrate tool's first line",
        );
        await waitForStatus(workbench, `Ln ${NARRATE_RANGE.end.line}, Col ${NARRATE_RANGE.end.column} (${NARRATE_RANGE.length} selected)`);
        // State holds what the dice roller patched: dice.lastRoll, with the total its log line reported.
        const lastRoll = await expandVariables(workbench, ['Scope State', 'dice', 'lastRoll'], ['formula', 'total', 'dc', 'success']);
        assert.equal(lastRoll.get('formula'), '"1d20+3"');
        assert.equal(lastRoll.get('dc'), '15');
        const total = Number(lastRoll.get('total'));
        assert.ok(Number.isInteger(total) && total >= 4 && total <= 23, `a 1d20+3 total: ${lastRoll.get('total')}`);
        assert.equal(lastRoll.get('success'), String(total >= 15));
        const rolled = /Rolled 1d20\+3 for pick the lock: \[\d+\] \+ 3 = (\d+)/;
        const logged = await waitForDebugConsole(workbench, rolled);
        assert.equal(Number(rolled.exec(logged)![1]), total, 'State shows the roll the script logged');
        await park(workbench);
        await workbench.screenshot('d1-breakpoint-variables');
        await stopDebugging(workbench);
      }),
  );

  test(
    "D2. Step Into at the roll tool walks the dice roller's NDJSON events in a read-only document, the current line highlighted",
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'd2-step-into-events', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench }) => {
        const page = workbench.page;
        await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
        await setGutterBreakpoint(workbench, ROLL_LINE);
        await startDebugging(workbench);
        await waitForTopFrame(workbench, new RegExp(`^Stack Frame roll, line ${ROLL_RANGE.start.line}, pick-the-lock\\.plan\\.json$`));
        await arrangeDebugView(workbench);
        // Step Into: the first event the script wrote (its log line), in the document of the tool's output.
        await page.keyboard.press('F11');
        await waitForTopFrame(workbench, /^Stack Frame log info: Rolled 1d20\+3 for pick the lock.*, line 1, roll\.ndjson$/);
        const frames = (await callStackRows(workbench)).filter((row) => row.ariaLabel.startsWith('Stack Frame '));
        assert.match(
          frames[1]?.ariaLabel ?? '',
          new RegExp(`^Stack Frame roll · event 1, line ${ROLL_RANGE.start.line}, pick-the-lock\\.plan\\.json$`),
          "the tool's frame is under the event's",
        );
        await page.locator('.part.editor .tab.active', { hasText: 'roll.ndjson' }).waitFor({ timeout: UI_TIMEOUT_MS });
        const output = workbench.activeEditor();
        await waitForHighlightedLine(output, 1, /"type":"log","level":"info","message":"Rolled 1d20\+3 for pick the lock/);
        const event = await expandVariables(workbench, ['Scope Event'], ['type', 'level']);
        assert.equal(event.get('type'), '"log"');
        assert.equal(event.get('level'), '"info"');
        await park(workbench);
        await workbench.screenshot('d2-output-document');
        // The document is read-only: typing into it is refused.
        await output.locator('.view-lines').click();
        await page.keyboard.type('x');
        await page.locator('.monaco-editor-overlaymessage', { hasText: 'Cannot edit in read-only editor' }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        await page.keyboard.press('Escape');
        // Step Into again: the next event, the state patch with the roll, on the document's next line.
        await page.keyboard.press('F11');
        await waitForTopFrame(workbench, /^Stack Frame state_patch dice, line 2, roll\.ndjson$/);
        const patch = await expandVariables(workbench, ['Scope Event', 'patch', 'dice', 'lastRoll'], ['formula', 'total']);
        assert.equal(patch.get('formula'), '"1d20+3"');
        await park(workbench);
        await workbench.screenshot('d2-second-event');
        await waitForHighlightedLine(output, 2, /"type":"state_patch","patch":\{"dice":\{"lastRoll":\{"formula":"1d20\+3"/);
        await stopDebugging(workbench);
      }),
  );

  test("D3. Step Back from the narrate breakpoint goes back through the roll's events to the state before the roll", { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'd3-step-back', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench }) => {
      const page = workbench.page;
      await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
      await setGutterBreakpoint(workbench, NARRATE_LINE);
      await startDebugging(workbench);
      await waitForTopFrame(workbench, new RegExp(`^Stack Frame narrate, line ${NARRATE_RANGE.start.line}, `));
      await arrangeDebugView(workbench);
      const total = (await expandVariables(workbench, ['Scope State', 'dice', 'lastRoll'], ['total'])).get('total');
      // Each Step Back shows the point before: the roll's end, then its events from the last to the state patch.
      const visited: string[] = [];
      const stepBack = page.locator('.debug-toolbar .action-label[aria-label="Step Back"]');
      const backwards = [
        new RegExp(`^Stack Frame roll · finished, line ${ROLL_RANGE.start.line}, pick-the-lock\\.plan\\.json$`),
        /^Stack Frame done ok, line 4, roll\.ndjson$/,
        /^Stack Frame ui_event dice_roll, line 3, roll\.ndjson$/,
        /^Stack Frame state_patch dice, line 2, roll\.ndjson$/,
      ];
      for (const expected of backwards) {
        await stepBack.click();
        visited.push((await waitForTopFrame(workbench, expected)).replace(/^Stack Frame /, ''));
      }
      console.log(`[e2e] d3-step-back: stepped back through ${visited.join(' ← ')}`);
      await waitForHighlightedLine(workbench.activeEditor(), 2, /"type":"state_patch"/);
      // The Event scope shows the patch about to apply (the roll); State is as it was before it: no dice. (State
      // is expanded first: its children are then fetched before the Event scope's, which the wait below sees.)
      await expandVariables(workbench, ['Scope State'], []);
      const patch = await expandVariables(workbench, ['Scope Event', 'patch', 'dice', 'lastRoll'], ['total']);
      assert.equal(patch.get('total'), total, 'the patch is the roll State showed at narrate');
      const state = await scopeChildren(workbench, 'State');
      assert.ok(!state.includes('dice'), `State before the roll has no dice (it has: ${state.join(', ') || 'nothing'})`);
      await park(workbench);
      await workbench.screenshot('d3-step-back-state');
      // And forward again (Step Into from the history): the patch applied, State has the roll once more.
      await page.keyboard.press('F11');
      await waitForTopFrame(workbench, /^Stack Frame ui_event dice_roll, line 3, roll\.ndjson$/);
      assert.equal((await expandVariables(workbench, ['Scope State', 'dice', 'lastRoll'], ['total'])).get('total'), total);
      await stopDebugging(workbench);
    }),
  );

  test(
    'D4. a replay of a run record (launch.json "replay" + "plan", F5) stops at the same breakpoint with the recorded roll',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(
        current,
        'd4-replay',
        { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK, [LAUNCH_JSON_FILE]: LAUNCH_JSON } },
        async ({ workbench, story, server: codeServer }) => {
          const recorded = recordRun(codeServer, story.dir);
          const editor = await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
          await setGutterBreakpoint(workbench, NARRATE_LINE);
          await selectLaunchConfiguration(workbench, REPLAY_CONFIGURATION);
          await startDebugging(workbench);
          // One thread (the replay's plan thread): VS Code lists its frames at the top of the Call Stack.
          await waitForTopFrame(workbench, new RegExp(`^Stack Frame narrate, line ${NARRATE_RANGE.start.line}, pick-the-lock\\.plan\\.json$`));
          await arrangeDebugView(workbench);
          await workbench
            .viewPane('Call Stack')
            .locator('.pane-header', { hasText: /Paused on breakpoint/i })
            .waitFor({ timeout: UI_TIMEOUT_MS });
          await waitFor(
            async () => (await decoratedLines(editor, 'debug-top-stack-frame-line')).includes(NARRATE_RANGE.start.line),
            UI_TIMEOUT_MS,
            'the editor highlights the stopped tool',
          ).catch(() => undefined);
          assert.deepEqual(await decoratedLines(editor, 'debug-top-stack-frame-line'), [NARRATE_RANGE.start.line]);
          await waitForDebugConsole(
            workbench,
            new RegExp(`Replaying .*${PICK_THE_LOCK_ID}\\.json: 2 tool\\(s\\), \\d+ recorded point\\(s\\); nothing runs\\.`),
          );
          // The recorded roll, not a new one: nothing ran.
          const lastRoll = await expandVariables(workbench, ['Scope State', 'dice', 'lastRoll'], ['total']);
          assert.equal(Number(lastRoll.get('total')), recorded.total, 'State shows the recorded roll');
          await park(workbench);
          await workbench.screenshot('d4-replay-breakpoint');
          // Continue: the replay runs to the end of the record and the session ends.
          await workbench.page.keyboard.press('F5');
          await waitForDebugConsole(workbench, /The replay reached the end of the recorded run\./);
          await workbench.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
        },
      ),
  );
});

describe('plan debugger in Restricted Mode', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    server = await startCodeServer({ vsix: packagedVsix(), label: 'debugger-untrusted', workspaceTrust: true });
    console.log(`[e2e] code-server (debugger, workspace trust on) ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  // VS Code requests workspace trust before every debug session (DebugService.startDebugging), replays included, so
  // inside VS Code a replay needs trust too; the adapter's own rule (live launches refused, replays allowed for an
  // untrusted host) is covered at the protocol level in test/debug/debugAdapterTrust.test.ts.
  test(
    "D5. Restricted Mode: F5 on the plan starts nothing and the workspace stays untrusted; a replay is gated by VS Code's own trust request",
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'd5-restricted-mode', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench, story }) => {
        const page = workbench.page;
        await waitFor(() => workbench.isRestrictedMode(), 60_000, 'the workbench is in Restricted Mode');
        await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
        await setGutterBreakpoint(workbench, NARRATE_LINE);
        // F5 on the plan: a live launch, refused. The extension says so, unless VS Code's own workspace trust
        // request (which VS Code makes before every debug session) comes first; either way nothing starts.
        await page.keyboard.press('F5');
        const refusal = await waitForRefusal(workbench);
        console.log(`[e2e] d5-restricted-mode: F5 on the plan was answered by ${refusal}`);
        await park(workbench);
        await workbench.screenshot('d5-live-launch-refused');
        if (refusal === 'the workspace trust request') await answerTrustRequest(workbench, 'Cancel');
        assert.equal(await page.locator('.debug-toolbar').isVisible(), false, 'no debug session started');
        assert.ok(await workbench.isRestrictedMode(), 'the workspace is still untrusted');
        // The replay: launch.json names a record and the plan. VS Code asks for trust before it as well (before reading it).
        mkdirSync(path.join(story.dir, path.dirname(LAUNCH_JSON_FILE)), { recursive: true });
        writeFileSync(path.join(story.dir, LAUNCH_JSON_FILE), LAUNCH_JSON);
        await selectLaunchConfiguration(workbench, REPLAY_CONFIGURATION);
        await page.keyboard.press('F5');
        const trustRequest = trustDialog(workbench);
        await trustRequest.waitFor({ timeout: UI_TIMEOUT_MS });
        assert.match(await trustRequest.innerText(), /Debugging executes build tasks and program code from your workspace/);
        await park(workbench);
        await workbench.screenshot('d5-replay-trust-request');
        await answerTrustRequest(workbench, 'Cancel');
        assert.equal(await page.locator('.debug-toolbar').isVisible(), false, 'no debug session started');
        assert.ok(await workbench.isRestrictedMode(), 'the workspace is still untrusted');
      }),
  );
});

// ——— helpers ———

/** VS Code's modal workspace trust request ("Do you trust the authors of the files in this folder?"). */
function trustDialog(workbench: Workbench): Locator {
  return workbench.page.locator('.monaco-dialog-box', { hasText: 'Do you trust the authors' }).first();
}

async function answerTrustRequest(workbench: Workbench, button: 'Cancel'): Promise<void> {
  await trustDialog(workbench).locator('.monaco-button', { hasText: button }).first().click();
  await trustDialog(workbench).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** Waits until a live launch is refused: the extension's Restricted Mode message, or VS Code's trust request before it. */
async function waitForRefusal(workbench: Workbench): Promise<"the extension's refusal" | 'the workspace trust request'> {
  const message = workbench.page
    .locator('.notifications-toasts .notification-toast', { hasText: /Debugging the plan pick-the-lock\.plan\.json is off in Restricted Mode/ })
    .first();
  const dialog = trustDialog(workbench);
  await waitFor(async () => (await message.isVisible()) || (await dialog.isVisible()), UI_TIMEOUT_MS, 'F5 on the plan is refused');
  if (await message.isVisible()) {
    assert.match(await message.innerText(), /Trust the workspace to debug live runs/);
    return "the extension's refusal";
  }
  assert.match(await dialog.innerText(), /Debugging executes build tasks and program code from your workspace/);
  return 'the workspace trust request';
}

/**
 * Runs the plan once with the packaged CLI of the installed extension (`narratoria run`), which records it in
 * `<story>/.narratoria/runs/<requestId>.json`; returns the recorded roll's total.
 */
function recordRun(server: CodeServer, storyDir: string): { total: number } {
  const extension = readdirSync(server.extensionsDir).find((name) => name.startsWith('narratoria.'));
  assert.ok(extension, `the VSIX is installed in ${server.extensionsDir}`);
  const cli = path.join(server.extensionsDir, extension, 'dist', 'cli.cjs');
  // Margin: a safety net for two real scripts on a loaded machine.
  const run = spawnSync(process.execPath, [cli, 'run', PICK_THE_LOCK_FILE, '--root', storyDir], { cwd: storyDir, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `narratoria run failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  const record = JSON.parse(readFileSync(path.join(storyDir, RECORD_FILE), 'utf8')) as {
    tools: { roll: { result: { output: { state: { dice: { lastRoll: { total: number } } } } } } };
  };
  return { total: record.tools.roll.result.output.state.dice.lastRoll.total };
}

/** The 1-based line and column of the `within`-th character of the first `needle` in `text`. */
function positionOf(text: string, needle: string, within = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the plan`);
  return positionAt(text, offset + within);
}

function positionAt(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** The range of the JSON object around the first `needle` (its braces included): start, end (after the closing brace) and length. */
function objectRange(text: string, needle: string): { start: { line: number; column: number }; end: { line: number; column: number }; length: number } {
  const inside = text.indexOf(needle);
  assert.ok(inside >= 0, `"${needle}" is in the plan`);
  const open = text.lastIndexOf('{', inside);
  let depth = 0;
  let close = open;
  for (; close < text.length; close++) {
    if (text[close] === '{') depth++;
    if (text[close] === '}' && --depth === 0) break;
  }
  return { start: positionAt(text, open), end: positionAt(text, close + 1), length: close + 1 - open };
}
