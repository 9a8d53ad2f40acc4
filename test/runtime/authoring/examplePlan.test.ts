// Adding the starter example plan to a story: copied without the product-relative $schema, valid for the sample skills, never over an existing file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addExamplePlan, STARTER_EXAMPLE_PLAN } from '../../../src/runtime/authoring/examplePlan.js';
import { validatePlanText } from '../../../src/runtime/validation/validatePlan.js';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const examples = path.join(projectRoot, 'contracts', 'examples');

function story(t: { after: (cleanup: () => void) => void }): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-example-plan-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

test('the starter plan lands in plans/ without $schema, otherwise as shipped, and validates against the sample skills', async (t) => {
  const root = story(t);
  for (const skill of ['dice-roller', 'storyteller']) cpSync(path.join(projectRoot, 'skills', skill), path.join(root, 'skills', skill), { recursive: true });
  const added = await addExamplePlan(examples, root);
  assert.deepEqual(added, { file: path.join(root, 'plans', STARTER_EXAMPLE_PLAN), created: true });
  const copied = JSON.parse(readFileSync(added.file, 'utf8')) as Record<string, unknown>;
  const { $schema, ...shipped } = JSON.parse(readFileSync(path.join(examples, STARTER_EXAMPLE_PLAN), 'utf8')) as Record<string, unknown>;
  assert.equal($schema, '../plan-json.schema.json', 'the shipped example points at the product folder');
  assert.deepEqual(copied, shipped);
  const report = await validatePlanText(readFileSync(added.file, 'utf8'), { root });
  assert.equal(report.valid, true, JSON.stringify(report.diagnostics));
});

test('an existing plan of that name is left as it was', async (t) => {
  const root = story(t);
  const first = await addExamplePlan(examples, root);
  writeFileSync(first.file, '{ "mine": true }\n');
  const again = await addExamplePlan(examples, root);
  assert.deepEqual(again, { file: first.file, created: false });
  assert.equal(readFileSync(first.file, 'utf8'), '{ "mine": true }\n');
});

test('a name that is not an example plan in the folder is refused', async (t) => {
  const root = story(t);
  await assert.rejects(addExamplePlan(examples, root, '../package.json'), /not an example plan name/);
  await assert.rejects(addExamplePlan(examples, root, 'plan-json.schema.json'), /not an example plan name/);
});
