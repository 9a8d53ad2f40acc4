// The starter campaigns (real files in temporary folders) validate with no diagnostic at all, and load into the model every view will read.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { CAMPAIGN_FORMATS, detectCampaignFormat, loadCampaign, validateCampaign } from '../../../src/runtime/campaign/index.js';
import { starterCampaignFiles } from '../../../src/runtime/campaign/starterCampaigns.js';
import { removeCampaignFolders, writeStarterCampaign } from './campaignFixture.js';

after(removeCampaignFolders);

test('the minimal campaign has fewer than 5 files (SC-002) and validates with no diagnostic', async () => {
  const files = starterCampaignFiles('minimal').map((file) => file.path);
  assert.deepEqual(files, ['manifest.json', 'world/setting.md', 'plot/premise.md']);
  const validation = await validateCampaign(writeStarterCampaign('minimal'));
  assert.ok(validation);
  assert.deepEqual(validation.diagnostics, []);
  assert.equal(validation.valid, true);
  assert.equal(validation.campaign.manifest?.title, 'The Night Train to Wrenhollow');
  assert.ok(validation.campaign.world.setting && validation.campaign.premise);
  assert.equal(validation.campaign.beats, undefined);
});

test('the complete campaign validates with no diagnostic and has every part of the format', async () => {
  const folder = writeStarterCampaign('complete');
  const validation = await validateCampaign(folder);
  assert.ok(validation);
  assert.deepEqual(
    validation.diagnostics.map((diagnostic) => `${diagnostic.file} ${diagnostic.code}: ${diagnostic.message}`),
    [],
  );
  const campaign = validation.campaign;
  assert.deepEqual(campaign.format, { id: 'folder-json', version: '1.0.0', label: CAMPAIGN_FORMATS[0]!.label });
  assert.ok(campaign.world.setting && campaign.world.rules && campaign.world.constraints && campaign.premise && campaign.player);
  assert.deepEqual(
    campaign.npcs.map((npc) => [npc.key, npc.name, npc.profile?.path]),
    [
      ['alder', 'Brother Alder', 'characters/npcs/alder/profile.json'],
      ['odile', 'Odile Marrow', 'characters/npcs/odile/profile.json'],
      ['tamsin', 'Tamsin Reed', 'characters/npcs/tamsin/profile.json'],
    ],
  );
  assert.deepEqual(
    campaign.npcs.find((npc) => npc.key === 'odile')!.paths.map((link) => [link.kind, link.target]),
    [
      ['portrait', 'art/characters/odile.png'],
      ['secrets', 'characters/npcs/odile/secrets.md'],
    ],
  );
  assert.deepEqual(
    campaign.endings.map((file) => file.path),
    ['plot/endings/departed.md', 'plot/endings/drowned.md', 'plot/endings/rekindled.md'],
  );
  // Lore in nested folders (FR-024), listed for the lore chunker.
  assert.ok(campaign.lore.length >= 5);
  assert.ok(campaign.lore.every((lore) => /^lore\/[^/]+\/[^/]+\.md$/.test(lore.file.path)));
  // Assets with their sidecars.
  const tower = campaign.assets.find((asset) => asset.file.path === 'art/locations/lantern-tower.png');
  assert.equal(tower?.keywordsSidecar?.path, 'art/locations/lantern-tower.png.keywords.txt');
  assert.equal(tower?.metaSidecar?.path, 'art/locations/lantern-tower.png.meta.json');
  assert.deepEqual(campaign.assets.map((asset) => asset.kind).sort(), ['audio', 'image', 'image', 'image', 'image']);
  assert.deepEqual(campaign.sidecars.find((sidecar) => sidecar.subject === 'art/characters/odile.png')?.keywords?.slice(0, 2), ['odile', 'keeper']);
});

test("the complete campaign's beats use conditions of several kinds, and every kind of link", async () => {
  const campaign = await loadCampaign(writeStarterCampaign('complete'));
  const beats = campaign!.beats!.beats;
  assert.deepEqual(
    beats.map((beat) => beat.id),
    ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_005', 'beat_006'],
  );
  const kinds = new Set(beats.flatMap((beat) => beat.conditionKinds));
  for (const kind of [
    'scene_count',
    'requires_beat',
    'requires_any_beat',
    'player_choice',
    'player_choices',
    'player_state',
    'npc_state',
    'world_state',
    'custom',
  ]) {
    assert.ok(kinds.has(kind), kind);
  }
  const links = new Set(beats.flatMap((beat) => beat.links.map((link) => link.kind)));
  assert.deepEqual([...links].sort(), ['fallback', 'requires', 'requiresAny', 'triggers']);
  assert.deepEqual(beats[0]!.sceneWindow, { min: 1, max: 2 });
  assert.equal(beats[4]!.priority, 'medium');
  assert.deepEqual(beats[5]!.idAt, { file: 'plot/beats.json', pointer: '/beats/5/id' });
  assert.deepEqual(
    beats[3]!.links.map((link) => `${link.kind} ${link.target} ${link.at.pointer}`),
    [
      'requiresAny beat_002 /beats/3/conditions/requires_any_beat/0',
      'requiresAny beat_003 /beats/3/conditions/requires_any_beat/1',
      'fallback beat_005 /beats/3/timeout/fallback_beat',
    ],
  );
});

test('a campaign is a folder with manifest.json at its root (FR-001); everything else is optional (FR-003)', async () => {
  const folder = writeStarterCampaign('minimal');
  assert.ok(await detectCampaignFormat(folder));
  assert.equal(await detectCampaignFormat(path.join(folder, 'world')), undefined);
  assert.equal(await loadCampaign(path.join(folder, 'plot')), undefined);
  // A manifest alone is a campaign: valid, with the missing setting and premise as one info.
  const manifestOnly = writeStarterCampaign('minimal');
  rmSync(path.join(manifestOnly, 'world'), { recursive: true });
  rmSync(path.join(manifestOnly, 'plot'), { recursive: true });
  const validation = await validateCampaign(manifestOnly);
  assert.equal(validation?.valid, true);
  assert.deepEqual(
    validation?.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code]),
    [['info', 'CAMPAIGN_RECOMMENDED_FILE_MISSING']],
  );
});

test('every starter file is ASCII text or a real PNG / WAV', () => {
  for (const kind of ['minimal', 'complete'] as const) {
    for (const file of starterCampaignFiles(kind)) {
      if (file.text !== undefined) assert.match(file.text, /^[\x09\x0a\x20-\x7e]*$/, file.path);
      else if (file.path.endsWith('.png')) assert.deepEqual([...file.bytes!.subarray(1, 4)], [0x50, 0x4e, 0x47], file.path);
      else assert.equal(Buffer.from(file.bytes!.subarray(8, 12)).toString('ascii'), 'WAVE', file.path);
    }
  }
});
