// Finding campaigns in real folders: a workspace folder that is one, campaigns one and two levels down, nothing deeper, hidden or in node_modules; New Campaign's plan and writing.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateCampaign } from '../../../../src/runtime/campaign/index.js';
import { campaignHolding, findCampaignFolders } from '../../../../src/runtime/campaign/view/campaignDiscovery.js';
import { planNewCampaign, writeNewCampaign } from '../../../../src/runtime/campaign/view/newCampaign.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-campaign-discovery-'));
  folders.push(folder);
  return folder;
}

function manifest(folder: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'manifest.json'), '{ "title": "T", "version": "1.0.0" }\n');
}

test('campaigns at depth 0, 1 and 2 are found; deeper, hidden and node_modules ones are not; a campaign is not searched inside', async () => {
  const root = tempFolder();
  manifest(path.join(root, 'one'));
  manifest(path.join(root, 'stories', 'two'));
  manifest(path.join(root, 'a', 'b', 'three-is-too-deep'));
  manifest(path.join(root, '.hidden'));
  manifest(path.join(root, 'node_modules', 'pkg'));
  manifest(path.join(root, 'one', 'nested'));
  assert.deepEqual(await findCampaignFolders([root]), [path.join(root, 'one'), path.join(root, 'stories', 'two')]);
  manifest(root);
  assert.deepEqual(await findCampaignFolders([root]), [root], 'a workspace folder that is a campaign');
  assert.deepEqual(await findCampaignFolders([path.join(root, 'missing')]), []);
  assert.equal(campaignHolding([root, path.join(root, 'one')], path.join(root, 'one', 'lore', 'x.md')), path.join(root, 'one'));
  assert.equal(campaignHolding([path.join(root, 'one')], path.join(root, 'one')), path.join(root, 'one'));
  assert.equal(campaignHolding([path.join(root, 'one')], path.join(root, 'onetwo', 'x.md')), undefined);
});

test("a web app's or a browser extension's manifest.json is no campaign for the view", async () => {
  const root = tempFolder();
  mkdirSync(path.join(root, 'web'), { recursive: true });
  writeFileSync(path.join(root, 'web', 'manifest.json'), '{ "name": "App", "short_name": "App", "start_url": "/" }\n');
  mkdirSync(path.join(root, 'addon'), { recursive: true });
  writeFileSync(path.join(root, 'addon', 'manifest.json'), '{ "title": "T", "manifest_version": 3 }\n');
  mkdirSync(path.join(root, 'story', 'plot'), { recursive: true });
  writeFileSync(path.join(root, 'story', 'manifest.json'), '{ "name": "no title, but a plot folder" }\n');
  assert.deepEqual(await findCampaignFolders([root]), [path.join(root, 'story')]);
});

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
