// End-to-end scenarios of Plan JSON authoring in real VS Code (code-server + headless chromium) with the packaged VSIX: Problems with codes, a quick fix, toolPath completion, hover, Run Plan in a terminal.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCodeServer, type CodeServer } from './harness/codeServer.js';
import { repoRoot } from './harness/paths.js';
import { packagedVsix, scenario, SCENARIO_TIMEOUT_MS, UI_TIMEOUT_MS, waitFor } from './harness/scenario.js';
import type { Workbench } from './harness/workbench.js';

/** A plan with three problems the runtime's validator reports: a bad input type, an unknown dependency (a typo of "roll") and a cycle. */
const BROKEN_PLAN_FILE = 'plans/broken-turn.plan.json';
const BROKEN_PLAN = `{
  "requestId": "7d1c2f7e-3a41-4b7a-9c55-0e2b8f6a1d10",
  "narrative": "The guard blocks the door; a cursed idol waits behind it.",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": 20, "reason": "sneak past the guard" }
    },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "input": { "action": "I sneak past the guard" },
      "dependencies": ["rol"]
    },
    {
      "toolId": "recall",
      "toolPath": "skills/memory/scripts/recall.js",
      "input": { "query": "the idol" },
      "dependencies": ["store"]
    },
    {
      "toolId": "store",
      "toolPath": "skills/memory/scripts/store.js",
      "input": { "summary": "The idol is cursed." },
      "dependencies": ["recall"]
    }
  ]
}
`;

/** A plan being written: its toolPath is only started. */
const NEW_TURN_PLAN_FILE = 'plans/new-turn.plan.json';
const NEW_TURN_PLAN = `{
  "requestId": "0b6f3c2a-8d4e-4f1a-b7c9-5e2d1a3f4b60",
  "narrative": "You test the old rope bridge.",
  "tools": [
    {
      "toolId": "check",
      "toolPath": "skills/",
      "input": { "formula": "1d20", "reason": "cross the bridge" }
    }
  ]
}
`;

/**
 * The repository's example plan, in the story's plans/ folder: its toolPaths are relative to the story root,
 * which has skills/. Without its `$schema`, which points into the repository's contracts/ folder.
 */
const PICK_THE_LOCK_FILE = 'plans/pick-the-lock.plan.json';
const PICK_THE_LOCK = readFileSync(path.join(repoRoot, 'contracts', 'examples', 'pick-the-lock.plan.json'), 'utf8').replace(/^\s*"\$schema":.*\n/m, '');
const PICK_THE_LOCK_ID = (JSON.parse(PICK_THE_LOCK) as { requestId: string }).requestId;

/** The toolPath of every script of the sample skills (each story workspace has a copy of them under skills/). */
const SAMPLE_SCRIPTS = readdirSync(path.join(repoRoot, 'skills'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((skill) => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'skills', skill.name, 'skill.json'), 'utf8')) as { scripts: { path: string }[] };
    return manifest.scripts.map((script) => `skills/${skill.name}/${script.path}`);
  });
/** The scripts the toolPath completion lists first (catalog order: by skill name), in sight in the suggest widget. */
const FIRST_SCRIPTS = ['skills/character-portraits/scripts/portrait.js', 'skills/dice-roller/scripts/roll.js', 'skills/memory/scripts/recall.js'];

describe('plan authoring', () => {
  let server: CodeServer | undefined;
  const current = () => server ?? assert.fail('code-server did not start');

  before(async () => {
    const started = Date.now();
    // xterm draws on a WebGL canvas by default, which has no DOM text: its DOM renderer lets A5 read the terminal.
    server = await startCodeServer({ vsix: packagedVsix(), label: 'authoring', settings: { 'terminal.integrated.gpuAcceleration': 'off' } });
    console.log(`[e2e] code-server (authoring) with the VSIX ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${server.url}`);
  });
  after(async () => server?.stop());

  test(
    'A1. a plan with an unknown dependency, a cycle and a bad dice formula type shows them in the Problems panel with their codes',
    { timeout: SCENARIO_TIMEOUT_MS },
    () =>
      scenario(current, 'a1-problems', { files: { [BROKEN_PLAN_FILE]: BROKEN_PLAN } }, async ({ workbench }) => {
        await workbench.openFile(path.basename(BROKEN_PLAN_FILE));
        await workbench.showProblems();
        const expected = [
          { code: 'UNKNOWN_DEPENDENCY', message: /"narrate" depends on "rol".*did you mean "roll"\?/, at: positionOf(BROKEN_PLAN, '"rol"') },
          { code: 'DEPENDENCY_CYCLE', message: /dependency cycle: recall -> store -> recall/, at: positionOf(BROKEN_PLAN, '"store"]') },
          { code: 'INPUT_TYPE_MISMATCH', message: /input\.formula must be a string .*got number/, at: positionOf(BROKEN_PLAN, '20, "reason"') },
        ];
        const rowOf = (rows: string[], code: string) => rows.find((row) => row.includes(code));
        // Deterministic: the diagnostics are published once the skills are loaded and the plan validated; wait
        // until the panel lists all three (the deadline is a safety net), then check each row.
        const rows = await waitForProblems(workbench, (found) => expected.every(({ code }) => rowOf(found, code) !== undefined));
        console.log(`[e2e] a1-problems: Problems rows:\n  ${rows.join('\n  ')}`);
        for (const { code, message, at } of expected) {
          const row = rowOf(rows, code)!;
          assert.match(row, message, `${code}: "${row}"`);
          // The row shows `narratoria(CODE)`, the code a link to its docs ("narratoria CODE" in the row's text).
          assert.match(row, new RegExp(`narratoria\\s*\\(?\\s*${code}\\b`), `${code} comes from narratoria: "${row}"`);
          assert.match(row, new RegExp(`\\[Ln ${at.line}, Col ${at.column}\\]`), `${code} is at line ${at.line}, column ${at.column}: "${row}"`);
        }
        assert.ok(
          rows.some((row) => row.includes(path.basename(BROKEN_PLAN_FILE))),
          'the problems are grouped under the plan file',
        );
      }),
  );

  test('A2. the quick fix of the unknown dependency replaces "rol" with "roll"; the problem goes, the others stay', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'a2-quick-fix', { files: { [BROKEN_PLAN_FILE]: BROKEN_PLAN } }, async ({ workbench, story }) => {
      const page = workbench.page;
      await workbench.openFile(path.basename(BROKEN_PLAN_FILE));
      await workbench.showProblems();
      // Deterministic: the code actions are computed from the published diagnostics, so wait for them first.
      await waitForProblems(workbench, (rows) => rows.some((row) => row.includes('UNKNOWN_DEPENDENCY')));
      const inside = positionOf(BROKEN_PLAN, '"rol"', 2);
      await workbench.goToPosition(inside.line, inside.column);
      const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Replace with "roll"' }).first();
      // Deterministic: Ctrl+. opens the quick fix menu once the editor has the code actions; a press that lands
      // before that (seen on a loaded CI machine: the light bulb showed, the menu did not) is repeated until the
      // menu lists the fix. The 60 s deadline is a safety net.
      await waitFor(
        async () => {
          await workbench.goToPosition(inside.line, inside.column);
          await page.keyboard.press('Control+.');
          if (
            await fix.waitFor({ timeout: 5_000 }).then(
              () => true,
              () => false,
            )
          )
            return true;
          await page.keyboard.press('Escape');
          return false;
        },
        60_000,
        'the quick fix menu lists Replace with "roll"',
      ).catch(() => undefined);
      await fix.waitFor({ timeout: UI_TIMEOUT_MS });
      await workbench.screenshot('a2-quick-fix-menu');
      await fix.click();
      await fix.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await page.keyboard.press('Control+S');
      const file = path.join(story.dir, BROKEN_PLAN_FILE);
      const expectedText = BROKEN_PLAN.replace('["rol"]', '["roll"]');
      // Deterministic: wait until the save reached the disk (the deadline is a safety net), then compare.
      await waitFor(async () => readFileSync(file, 'utf8') === expectedText, UI_TIMEOUT_MS, 'the fixed plan is saved').catch(() => undefined);
      assert.equal(readFileSync(file, 'utf8'), expectedText, 'the fix changed only "rol" into "roll"');
      const rows = await waitForProblems(
        workbench,
        (found) =>
          !found.some((row) => row.includes('UNKNOWN_DEPENDENCY')) &&
          found.some((row) => row.includes('DEPENDENCY_CYCLE')) &&
          found.some((row) => row.includes('INPUT_TYPE_MISMATCH')),
      );
      assert.ok(!rows.some((row) => row.includes('UNKNOWN_DEPENDENCY')), 'the unknown dependency is gone from the Problems panel');
    }),
  );

  test("A3. completion in a toolPath lists the sample skills' scripts; picking one writes its toolPath", { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'a3-completion', { files: { [NEW_TURN_PLAN_FILE]: NEW_TURN_PLAN } }, async ({ workbench, story }) => {
      const page = workbench.page;
      await workbench.openFile(path.basename(NEW_TURN_PLAN_FILE));
      // Right after "skills/", inside the string.
      const cursor = positionOf(NEW_TURN_PLAN, '"skills/"', '"skills/'.length);
      await workbench.goToPosition(cursor.line, cursor.column);
      const suggest = page.locator('.editor-widget.suggest-widget.visible');
      const labels = async () =>
        (
          await suggest
            .locator('.monaco-list-row .label-name')
            .allInnerTexts()
            .catch(() => [])
        ).map((label) => label.trim());
      // The suggest list is virtualised: check the first scripts, which are in sight. Deterministic: wait until
      // they are listed (the deadline is a safety net; completion waits for the skills to be loaded).
      await page.keyboard.press('Control+Space');
      await waitFor(
        async () => {
          const shown = await labels();
          return FIRST_SCRIPTS.every((script) => shown.includes(script));
        },
        UI_TIMEOUT_MS,
        'the suggest widget lists the sample scripts',
      ).catch(() => undefined);
      const listed = await labels();
      console.log(`[e2e] a3-completion: suggestions: ${listed.join(', ')}`);
      for (const script of FIRST_SCRIPTS) assert.ok(listed.includes(script), `${script} is suggested (listed: ${listed.join(', ')})`);
      for (const label of listed) assert.ok(SAMPLE_SCRIPTS.includes(label), `${label} is a script of the sample skills`);
      await workbench.screenshot('a3-completion-list');
      // Typing filters the list down to the dice roller's script, which gets the focus and shows its skill.
      await page.keyboard.type('dice');
      await waitFor(async () => (await labels())[0] === 'skills/dice-roller/scripts/roll.js', UI_TIMEOUT_MS, 'the filtered list starts with roll.js').catch(
        () => undefined,
      );
      assert.equal((await labels())[0], 'skills/dice-roller/scripts/roll.js', `filtered: ${(await labels()).join(', ')}`);
      const focused = suggest.locator('.monaco-list-row.focused', { hasText: 'skills/dice-roller/scripts/roll.js' }).first();
      await focused.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match(await focused.innerText(), /Dice Roller · v1\.0\.0 · healthy/, 'the focused suggestion shows its skill, version and health');
      // Ctrl+Space again opens the suggestion's documentation beside the list: the script's markdown.
      await page.keyboard.press('Control+Space');
      const details = page.locator('.suggest-details:visible', { hasText: /roll — Roll a dice formula/ }).first();
      await details.waitFor({ timeout: UI_TIMEOUT_MS });
      assert.match(await details.innerText(), /Dice Roller/, 'the documentation names the skill');
      await workbench.screenshot('a3-completion-filtered');
      await page.keyboard.press('Enter');
      await suggest.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await page.keyboard.press('Control+S');
      const file = path.join(story.dir, NEW_TURN_PLAN_FILE);
      const expectedText = NEW_TURN_PLAN.replace('"skills/"', '"skills/dice-roller/scripts/roll.js"');
      // Deterministic: wait until the save reached the disk (the deadline is a safety net), then compare.
      await waitFor(async () => readFileSync(file, 'utf8') === expectedText, UI_TIMEOUT_MS, 'the completed plan is saved').catch(() => undefined);
      assert.equal(readFileSync(file, 'utf8'), expectedText, 'the completion replaced the started toolPath');
    }),
  );

  test('A4. hovering a toolPath shows its skill (Dice Roller and its version)', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'a4-hover', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench }) => {
      const page = workbench.page;
      await workbench.openFile(path.basename(PICK_THE_LOCK_FILE));
      const inside = positionOf(PICK_THE_LOCK, 'skills/dice-roller/scripts/roll.js', 'skills/dice'.length);
      await workbench.goToPosition(inside.line, inside.column);
      // The hover fills in as its providers answer (the document link's "ctrl + click" tooltip may come first).
      const hover = page.locator('.monaco-hover:visible', { hasText: /Dice Roller · v1\.0\.0/ }).first();
      // "Show or Focus Hover" (Ctrl+K Ctrl+I) at the cursor, again until ours is in it: a hover asked for while the
      // workbench is still settling can come back with the JSON schema's description only (seen once in CI). Each
      // attempt waits for the condition; the 60 s deadline is a safety net, not a time limit.
      const deadline = Date.now() + 60_000;
      for (;;) {
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        try {
          await hover.waitFor({ timeout: 5_000 });
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await page.keyboard.press('Escape');
          await workbench.goToPosition(inside.line, inside.column);
        }
      }
      const text = (await hover.innerText()).replace(/\s+/g, ' ');
      console.log(`[e2e] a4-hover: ${text.slice(0, 400)}`);
      assert.match(text, /Dice Roller · v1\.0\.0 · healthy/, 'the skill, its version and health');
      assert.match(text, /roll — Roll a dice formula/, 'the script and its description');
      assert.match(text, /formula/, 'the input summary names its properties');
    }),
  );

  test('A5. Run Plan on the pick-the-lock example runs both tools in a terminal and reports success', { timeout: SCENARIO_TIMEOUT_MS }, () =>
    scenario(current, 'a5-run-plan', { files: { [PICK_THE_LOCK_FILE]: PICK_THE_LOCK } }, async ({ workbench }) => {
      const page = workbench.page;
      const name = path.basename(PICK_THE_LOCK_FILE);
      const editor = await workbench.openFile(name);
      // The editor title has the Run Plan button; the code lens above "tools" runs the plan.
      await page
        .locator('.part.editor .editor-group-container.active .action-label.codicon-run[aria-label="Run Plan"]')
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
      const lens = editor.locator('.codelens-decoration a', { hasText: 'Run Plan' }).first();
      await lens.waitFor({ timeout: UI_TIMEOUT_MS });
      await lens.click();
      await page.locator('.part.panel .terminal-wrapper .xterm-rows').first().waitFor({ timeout: UI_TIMEOUT_MS });
      // Room for the whole transcript: xterm renders only the rows in sight.
      await workbench.runCommand('View: Toggle Maximized Panel');
      const expected = [
        new RegExp(`Run Plan ${escapeRegExp(name)} \\(2 tool\\(s\\), root `),
        /▶ roll dice-roller/,
        /✔ roll success \d+ ms Rolled 1d20\+3: \d+ vs DC 15/,
        /▶ narrate storyteller/,
        /✔ narrate success \d+ ms/,
        new RegExp(`Plan ${PICK_THE_LOCK_ID} succeeded in \\d+ ms \\(2 success\\)`),
      ];
      // Deterministic: wait until the terminal shows the end of the run (the deadline is a safety net for
      // two real scripts in code-server's extension host on a loaded machine), then check every line.
      await waitFor(
        async () => {
          const shown = terminalText(await readTerminal(workbench));
          return expected.every((pattern) => pattern.test(shown));
        },
        60_000,
        'the terminal shows the finished run',
      ).catch(() => undefined);
      const text = terminalText(await readTerminal(workbench));
      console.log(`[e2e] a5-run-plan: terminal:\n${text}`);
      for (const pattern of expected) assert.match(text, pattern);
      await page
        .locator('.part.panel', { hasText: `Run Plan: ${name}` })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await page
        .locator('.notifications-toasts .notification-toast', { hasText: `${name} succeeded in` })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
});

/** The 1-based line and column of the `within`-th character of the first `needle` in `text`. */
function positionOf(text: string, needle: string, within = 0): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" is in the plan`);
  const lines = text.slice(0, offset + within).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * Waits until the rows of the Problems panel satisfy `predicate` and returns them; a poll (every 250 ms) for a
 * condition, the 60 s deadline is a safety net (the first validation waits for the skills to load).
 */
async function waitForProblems(workbench: Workbench, predicate: (rows: string[]) => boolean): Promise<string[]> {
  let rows: string[] = [];
  await waitFor(async () => predicate((rows = await workbench.problemRows().catch(() => []))), 60_000, 'the Problems panel shows the expected rows').catch(() =>
    assert.fail(`the Problems panel never showed the expected rows; it shows:\n  ${rows.join('\n  ')}`),
  );
  return rows;
}

/** The rows the terminal in the panel shows (xterm's DOM renderer), one string per row. */
async function readTerminal(workbench: Workbench): Promise<string[]> {
  return workbench.page
    .locator('.part.panel .terminal-wrapper .xterm-rows')
    .first()
    .evaluate((rows) => Array.from(rows.children, (row) => (row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()))
    .catch(() => []);
}

/** Terminal rows as one text; rows that xterm wrapped are not joined, so the patterns above stay within one row's start. */
function terminalText(rows: string[]): string {
  return rows.join('\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
