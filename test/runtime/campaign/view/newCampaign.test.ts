// New Campaign in real folders: the starter written validates clean; a campaign or a file in the way stops it before anything is written.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateCampaign } from '../../../../src/runtime/campaign/index.js';
import { planNewCampaign, writeNewCampaign } from '../../../../src/runtime/campaign/view/newCampaign.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-new-campaign-'));
  folders.push(folder);
  return folder;
}

test('New Campaign writes a starter that validates clean, and never writes over a campaign or an existing file', async () => {
  const root = tempFolder();
  const target = path.join(root, 'salt-lantern');
  const plan = await planNewCampaign(target, 'complete');
  assert.equal(plan.kind, 'ready');
  const result = await writeNewCampaign(target, 'complete');
  assert.equal(result.failure, undefined);
  const validation = await validateCampaign(target);
  assert.deepEqual(validation?.diagnostics, []);
  assert.deepEqual(await planNewCampaign(target, 'minimal'), { kind: 'isCampaign' });

  const busy = path.join(root, 'busy');
  mkdirSync(path.join(busy, 'world'), { recursive: true });
  writeFileSync(path.join(busy, 'world', 'setting.md'), 'Mine.\n');
  writeFileSync(path.join(busy, 'plot'), 'a file where a folder goes');
  assert.deepEqual(await planNewCampaign(busy, 'minimal'), { kind: 'conflicts', paths: ['plot', 'world/setting.md'] });
  assert.equal(readFileSync(path.join(busy, 'world', 'setting.md'), 'utf8'), 'Mine.\n');
});
