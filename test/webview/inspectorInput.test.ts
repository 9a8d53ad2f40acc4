// The Inspector's input editor in headless Chromium: ready-made inputs, Run posting the edited JSON, the problems the extension sends back, Compare, and the state kept for a reload.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { InspectorSubject } from '../../src/protocol/inspectorMessages.js';
import * as path from 'node:path';
import { InspectorPanelPreview, inspectorScreenshotDir } from './inspectorPanelPreview.js';

let preview: InspectorPanelPreview;
before(async () => (preview = await InspectorPanelPreview.start()));
after(async () => preview?.close());

const subject: InspectorSubject = {
  title: 'lighthouse-keeper/look',
  source: 'live',
  input: '{"subject":"the fog"}',
  canRun: true,
  inputChoices: [
    { label: 'The last input used', text: '{"subject":"the rocks"}' },
    { label: 'Sample: fog.json', detail: 'samples/fog.json', text: '{ "subject": "the fog" }' },
  ],
  canCompare: false,
  restore: { kind: 'live', scriptPath: '/story/skills/lighthouse-keeper/scripts/look.js' },
};

test('Run posts the edited input; a ready-made input replaces the text; Ctrl+Enter runs too', async () => {
  const panel = await preview.open('dark');
  const page = panel.page;
  await panel.send({ type: 'reset', subject, running: false });
  const editor = page.getByLabel('The input as JSON (Ctrl+Enter runs it)');
  assert.deepEqual(JSON.parse(await editor.inputValue()), { subject: 'the fog' });
  await page.getByLabel('Start from a sample or the last input used').selectOption({ label: 'The last input used' });
  assert.deepEqual(JSON.parse(await editor.inputValue()), { subject: 'the rocks' });
  await page.locator('button.run').click();
  await editor.fill('{"subject": "the cliffs"}');
  await editor.press('Control+Enter');
  const runs = (await panel.posted()).filter((message) => message.type === 'run');
  assert.deepEqual(
    runs.map((message) => JSON.parse((message as { input: string }).input) as unknown),
    [{ subject: 'the rocks' }, { subject: 'the cliffs' }],
  );
  assert.deepEqual(
    await panel.savedState(),
    { filter: { type: 'all', mark: 'all', text: '' }, restore: subject.restore },
    'the view keeps what to show after a reload',
  );
});

test("text that is not a JSON object is flagged while typing; the extension's schema problems are listed; a recording's input is read-only", async () => {
  const panel = await preview.open('light');
  const page = panel.page;
  await panel.send({ type: 'reset', subject, running: false });
  const editor = page.getByLabel('The input as JSON (Ctrl+Enter runs it)');
  await editor.fill('{"subject": ');
  assert.match(await page.locator('.input-problem.error').innerText(), /Not valid JSON yet/);
  await panel.send({
    type: 'inputProblems',
    problems: [{ severity: 'error', pointer: '/subject', message: 'input.subject must be a string (lighthouse-keeper/look inputSchema), got number' }],
  });
  assert.match(await page.locator('.input-problem.error').innerText(), /✖ input\.subject must be a string/);
  await panel.screenshot(path.join(inspectorScreenshotDir, 'inspector-input-problems-light.png'));
  // The same script reset for its run keeps the problems and the typed text in view.
  await panel.send({ type: 'reset', subject, running: true });
  assert.equal(await editor.inputValue(), '{"subject": ');
  assert.equal(await page.locator('button.run').isDisabled(), true);
  await panel.send({ type: 'reset', subject: { title: 'look.ndjson', source: 'recording', input: '{"subject":"the fog"}', canRun: false }, running: false });
  assert.equal(await editor.isEditable(), false);
  assert.equal(await page.locator('.input-problem').count(), 0);
  assert.deepEqual(await panel.problems(), []);
});

test('Compare is enabled only when the extension keeps a previous run, and posts compare', async () => {
  const panel = await preview.open('dark');
  const page = panel.page;
  await panel.send({ type: 'reset', subject, running: false });
  assert.equal(await page.locator('button.compare').isDisabled(), true);
  await panel.send({ type: 'subject', subject: { ...subject, canCompare: true } });
  await page.locator('button.compare').click();
  assert.ok((await panel.posted()).some((message) => message.type === 'compare'));
});
