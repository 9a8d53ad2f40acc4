// Campaign navigation over the complete starter campaign (real files): the loader's text overlay, every beat id and NPC name found, go to definition and find references across files.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { definitionAt, referencesAt } from '../../../../src/runtime/campaign/authoring/index.js';
import { campaignSymbols } from '../../../../src/runtime/campaign/authoring/campaignSymbols.js';
import { validateCampaign, validateLoadedCampaign } from '../../../../src/runtime/campaign/index.js';
import { removeCampaignFolders } from '../campaignFixture.js';
import { BEATS, campaignFolder, load, offsetOf, placeOf, startOf, textOf } from './authoringFixture.js';

after(removeCampaignFolders);

test('the loader reads unsaved texts through readText; without it, the disk (the CLI validates as before)', async () => {
  const folder = campaignFolder();
  const onDisk = await validateCampaign(folder);
  assert.deepEqual(onDisk?.diagnostics, []);
  const disk = await load(folder);
  const broken = textOf(disk, BEATS).replace('"requires_beat": "beat_003"', '"requires_beat": "beat_009"');
  const unsaved = await validateLoadedCampaign(await load(folder, { [BEATS]: broken }));
  assert.deepEqual(
    unsaved.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.file}:${diagnostic.range?.start.line}:${diagnostic.range?.start.column}`),
    [`CAMPAIGN_UNKNOWN_BEAT ${placeOf(await load(folder, { [BEATS]: broken }), BEATS, '"beat_009"')}`],
  );
  // The disk is unchanged: the CLI's validation still finds nothing.
  assert.deepEqual((await validateCampaign(folder))?.diagnostics, []);
});

test('every beat id and NPC name of the JSON files is found, each NPC name resolved to its folder', async () => {
  const campaign = await load(campaignFolder());
  const found = campaignSymbols(campaign).occurrences.map((occurrence) => `${occurrence.context}:${occurrence.written}->${occurrence.key}`);
  const count = (context: string) => found.filter((entry) => entry.startsWith(`${context}:`)).length;
  assert.equal(count('beatId'), 6);
  assert.equal(count('requires_beat'), 4);
  assert.equal(count('requires_any_beat'), 2);
  assert.equal(count('triggers_beat'), 1);
  assert.equal(count('fallback_beat'), 1);
  assert.equal(count('npcName'), 3);
  assert.equal(count('relationships'), 6);
  assert.ok(found.includes('speaker:Brother Alder->alder'), 'a speaker named by the full name');
  assert.ok(found.includes('npc_state:tamsin->tamsin'));
  assert.ok(found.includes('starting_relationships:tamsin->tamsin'), "the player template's starting relationships");
  // "player" speaks in beat_006: no NPC, not an occurrence.
  assert.ok(!found.some((entry) => entry.includes(':player->')));
});

test('go to definition: a requires_beat lands on the beat id (the whole beat for peek); an NPC name on its profile name', async () => {
  const campaign = await load(campaignFolder());
  const inLink = offsetOf(campaign, BEATS, '"requires_beat": "beat_001"', 1, '"requires_beat": "beat_0'.length);
  const definition = definitionAt(campaign, BEATS, inLink);
  assert.ok(definition);
  assert.equal(startOf(definition.targets[0]!), placeOf(campaign, BEATS, '"id": "beat_001"', 1, '"id": "'.length));
  assert.equal(definition.targets[0]!.range.end.column - definition.targets[0]!.range.start.column, 'beat_001'.length, 'the id, without quotes');
  assert.equal(definition.targets[0]!.fullRange?.start.line, 3, 'the beat object starts on line 3');
  assert.equal(definition.origin.offset, offsetOf(campaign, BEATS, '"beat_001"', 2), 'the origin is the literal under the cursor');
  // A speaker written as the full name, and an npc_state key written as the folder's name.
  for (const [needle, shift] of [
    ['"Brother Alder"', 3],
    ['"alder": "preaching', 2],
  ] as const) {
    const target = definitionAt(campaign, BEATS, offsetOf(campaign, BEATS, needle, 1, shift))?.targets[0];
    assert.ok(target, needle);
    assert.equal(startOf(target), placeOf(campaign, 'characters/npcs/alder/profile.json', '"Brother Alder"', 1, 1));
  }
  // A relationship key in another profile, and the player template's.
  const inProfile = definitionAt(campaign, 'characters/npcs/odile/profile.json', offsetOf(campaign, 'characters/npcs/odile/profile.json', '"tamsin":', 1, 1));
  assert.equal(startOf(inProfile!.targets[0]!), placeOf(campaign, 'characters/npcs/tamsin/profile.json', '"Tamsin Reed"', 1, 1));
  // Nothing to go to from a title, or from a link to no beat.
  assert.equal(definitionAt(campaign, BEATS, offsetOf(campaign, BEATS, 'The Dark Lantern')), undefined);
  const broken = await load(campaign.folder, { [BEATS]: textOf(campaign, BEATS).replace('"fallback_beat": "beat_005"', '"fallback_beat": "beat_050"') });
  assert.equal(definitionAt(broken, BEATS, offsetOf(broken, BEATS, '"beat_050"', 1, 2)), undefined);
});

test('find references: every link to a beat, and every file naming an NPC, in file order; the definition on request', async () => {
  const campaign = await load(campaignFolder());
  const at = offsetOf(campaign, BEATS, '"id": "beat_003"', 1, '"id": "b'.length);
  const withDefinition = referencesAt(campaign, BEATS, at, { includeDeclaration: true }).map(startOf);
  assert.deepEqual(
    withDefinition,
    [placeOf(campaign, BEATS, '"beat_003"', 1), placeOf(campaign, BEATS, '"beat_003"', 2), placeOf(campaign, BEATS, '"beat_003"', 3)].map((place) =>
      place.replace(/:(\d+)$/, (_, column: string) => `:${Number(column) + 1}`),
    ),
  );
  assert.equal(referencesAt(campaign, BEATS, at, { includeDeclaration: false }).length, 2);

  const tamsin = referencesAt(campaign, 'characters/player/template.json', offsetOf(campaign, 'characters/player/template.json', '"tamsin"', 1, 1), {
    includeDeclaration: true,
  }).map((target) => target.file);
  assert.deepEqual(tamsin, [
    'characters/npcs/alder/profile.json',
    'characters/npcs/odile/profile.json',
    'characters/npcs/tamsin/profile.json',
    'characters/player/template.json',
    BEATS,
    BEATS,
  ]);
});

test('navigation follows the unsaved text: a beat added in the editor is found before it is saved', async () => {
  const folder = campaignFolder();
  const disk = await load(folder);
  const text = textOf(disk, BEATS)
    .replace('"requires_beat": "beat_003"', '"requires_beat": "beat_007"')
    .replace(/\n {2}\]\n\}\n$/, ',\n    { "id": "beat_007", "title": "A new beat", "description": "Written a moment ago, not saved yet." }\n  ]\n}\n');
  const campaign = await load(folder, { [BEATS]: text });
  const target = definitionAt(campaign, BEATS, offsetOf(campaign, BEATS, '"beat_007"', 1, 1))?.targets[0];
  assert.ok(target);
  assert.equal(startOf(target), placeOf(campaign, BEATS, '"beat_007"', 2, 1));
});
