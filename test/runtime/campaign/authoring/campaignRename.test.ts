// Campaign rename over the complete starter campaign (real files): a beat id and an NPC renamed across files, applied to disk and validated clean; invalid and taken names refused.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { prepareRenameAt, renameAt, type CampaignRename } from '../../../../src/runtime/campaign/authoring/index.js';
import { validateCampaign } from '../../../../src/runtime/campaign/index.js';
import { removeCampaignFolders } from '../campaignFixture.js';
import { applyRename, BEATS, campaignFolder, load, offsetOf } from './authoringFixture.js';

after(removeCampaignFolders);

function edits(result: CampaignRename): { edits: Extract<CampaignRename, { ok: true }>['edits']; renames: Extract<CampaignRename, { ok: true }>['renames'] } {
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result;
}

test('renaming beat_003 renames its id and every link to it; the campaign still validates clean', async () => {
  const folder = campaignFolder();
  const campaign = await load(folder);
  const at = offsetOf(campaign, BEATS, '"requires_beat": "beat_003"', 1, '"requires_beat": "be'.length);
  const prepared = prepareRenameAt(campaign, BEATS, at);
  assert.ok(prepared.ok);
  assert.equal(prepared.placeholder, 'beat_003');
  assert.equal(prepared.span.offset, offsetOf(campaign, BEATS, '"beat_003"', 3, 1), 'the id between its quotes');
  const result = edits(renameAt(campaign, BEATS, at, 'beat_030'));
  assert.equal(result.edits.length, 3, 'its id, beat_004 requires_any_beat and beat_005 requires_beat');
  assert.ok(result.edits.every((edit) => edit.newText === 'beat_030' && edit.file === BEATS));
  assert.deepEqual(result.renames, []);
  applyRename(folder, result.edits, result.renames);
  const text = readFileSync(path.join(folder, BEATS), 'utf8');
  assert.equal(text.match(/beat_030/g)?.length, 3);
  assert.ok(!text.includes('beat_003'));
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, []);
});

test('a beat rename refuses an id that is not beat_NNN, and one another beat has', async () => {
  const campaign = await load(campaignFolder());
  const at = offsetOf(campaign, BEATS, '"id": "beat_002"', 1, '"id": "'.length);
  for (const wrong of ['beat_1', 'Beat_010', 'beat 010', 'chapter_001', '']) {
    const result = renameAt(campaign, BEATS, at, wrong);
    assert.ok(!result.ok && /is not a beat id: write beat_ and at least three digits/.test(result.reason), `${wrong}: ${JSON.stringify(result)}`);
  }
  const taken = renameAt(campaign, BEATS, at, 'beat_004');
  assert.ok(!taken.ok);
  assert.match(taken.reason, /beat_004 is already the id of beat 4 \("The Keeper's Log"\)/);
  // The same id: nothing to do.
  assert.deepEqual(renameAt(campaign, BEATS, at, 'beat_002'), { ok: true, edits: [], renames: [] });
  // A link to no beat is not renamed, and the title is no symbol.
  const broken = await load(campaign.folder, { [BEATS]: readFileSync(path.join(campaign.folder, BEATS), 'utf8').replace('"beat_005"', '"beat_050"') });
  const unknown = prepareRenameAt(broken, BEATS, offsetOf(broken, BEATS, '"beat_050"', 1, 1));
  assert.ok(!unknown.ok && /No beat has the id "beat_050"/.test(unknown.reason));
  const title = prepareRenameAt(campaign, BEATS, offsetOf(campaign, BEATS, "Tamsin's Bargain"));
  assert.ok(!title.ok && /Only a beat id or an NPC name can be renamed/.test(title.reason));
});

test('renaming a duplicated id at its second beat renames that beat only: the links keep the first', async () => {
  const folder = campaignFolder((editor) => editor.set(BEATS, ['beats', 4, 'id'], 'beat_003'));
  const campaign = await load(folder);
  assert.match((await validateCampaign(folder))!.diagnostics.map((diagnostic) => diagnostic.code).join(), /CAMPAIGN_DUPLICATE_BEAT_ID/);
  const second = offsetOf(campaign, BEATS, '"id": "beat_003"', 2, '"id": "'.length);
  const result = edits(renameAt(campaign, BEATS, second, 'beat_005'));
  assert.equal(result.edits.length, 1);
  assert.equal(result.edits[0]!.span.offset, second);
  applyRename(folder, result.edits, result.renames);
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, []);
});

test('renaming Brother Alder to Brother Ash: the profile name, each reference in its own form, the folder and the portrait path', async () => {
  const folder = campaignFolder();
  const campaign = await load(folder);
  const at = offsetOf(campaign, BEATS, '"alder": "preaching', 1, 2);
  const prepared = prepareRenameAt(campaign, BEATS, at);
  assert.ok(prepared.ok);
  assert.equal(prepared.placeholder, 'Brother Alder', "the rename starts from the profile's name");
  const result = edits(renameAt(campaign, BEATS, at, 'Brother Ash'));
  const summary = result.edits.map((edit) => `${edit.file}: ${edit.newText}`).sort();
  assert.deepEqual(summary, [
    'characters/npcs/alder/profile.json: Brother Ash',
    'characters/npcs/alder/profile.json: characters/npcs/ash/portrait.png',
    'characters/npcs/odile/profile.json: ash',
    'characters/npcs/tamsin/profile.json: ash',
    `${BEATS}: Brother Ash`,
    `${BEATS}: ash`,
  ]);
  assert.deepEqual(result.renames, [{ from: 'characters/npcs/alder', to: 'characters/npcs/ash' }]);
  applyRename(folder, result.edits, result.renames);
  assert.ok(existsSync(path.join(folder, 'characters/npcs/ash/portrait.png')));
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, [], 'every reference still names the NPC, the portrait is found');
});

test('renaming Tamsin Reed to a one-word name from a key: every form becomes the name, in the style it was written', async () => {
  const folder = campaignFolder();
  const campaign = await load(folder);
  const template = 'characters/player/template.json';
  const result = edits(renameAt(campaign, template, offsetOf(campaign, template, '"tamsin"', 1, 1), 'Morwen'));
  assert.deepEqual(result.edits.map((edit) => edit.newText).sort(), ['Morwen', 'morwen', 'morwen', 'morwen', 'morwen', 'morwen']);
  assert.deepEqual(result.renames, [{ from: 'characters/npcs/tamsin', to: 'characters/npcs/morwen' }]);
  applyRename(folder, result.edits, result.renames);
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, []);
});

test('an NPC rename refuses a name another NPC answers to, an empty name and a line break; quotes are escaped', async () => {
  const campaign = await load(campaignFolder());
  const at = offsetOf(campaign, BEATS, '"speaker": "odile"', 1, '"speaker": "o'.length);
  for (const [name, reason] of [
    ['Tamsin', /"tamsin" already names Tamsin Reed \(characters\/npcs\/tamsin\/profile\.json\)/],
    ['Reed Marrow', /"reed" already names Tamsin Reed/],
    ['   ', /is not a name/],
    ['Odile\nMarrow', /line break/],
    ['x'.repeat(121), /at most 120 characters/],
  ] as const) {
    const result = renameAt(campaign, BEATS, at, name);
    assert.ok(!result.ok, name);
    assert.match(result.reason, reason);
  }
  const quoted = edits(renameAt(campaign, BEATS, at, 'Odile "the Keeper" Marrow'));
  assert.ok(
    quoted.edits.some((edit) => edit.newText === 'Odile \\"the Keeper\\" Marrow'),
    'the profile name, escaped for JSON',
  );
  assert.deepEqual(quoted.renames, [], 'the folder, odile, is still the first word');
});

test('an NPC whose folder is not named after it keeps its folder, and references by the folder name stay', async () => {
  const folder = campaignFolder((editor) => {
    editor.move('characters/npcs/tamsin', 'characters/npcs/ferrywoman');
    editor.replace('characters/npcs/odile/profile.json', '"tamsin":', '"ferrywoman":');
  });
  const campaign = await load(folder);
  const at = offsetOf(campaign, 'characters/npcs/ferrywoman/profile.json', '"Tamsin Reed"', 1, 1);
  const result = edits(renameAt(campaign, 'characters/npcs/ferrywoman/profile.json', at, 'Morwen Reed'));
  assert.deepEqual(result.renames, []);
  assert.ok(!result.edits.some((edit) => edit.file === 'characters/npcs/odile/profile.json'), '"ferrywoman" is the folder name: it stays');
  applyRename(folder, result.edits, result.renames);
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, []);
});
