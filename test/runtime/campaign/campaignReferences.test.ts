// Seeded mistakes in what campaign files name (one fixture each, real files): beat ids and links, requires_beat cycles, scene windows, NPCs and paths, at file, line and column.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, removeCampaignFolders, seeded, where, withCode } from './campaignFixture.js';

after(removeCampaignFolders);

const BEATS = 'plot/beats.json';

test('CAMPAIGN_DUPLICATE_BEAT_ID: a second beat_002, at its id, related to the first', async () => {
  const result = await seeded((campaign) => campaign.set(BEATS, ['beats', 2, 'id'], 'beat_002'));
  const [duplicate] = withCode(result.diagnostics, 'CAMPAIGN_DUPLICATE_BEAT_ID');
  assert.equal(where(duplicate!), at(result.folder, BEATS, '"id": "beat_002"', 2, '"id": '.length));
  assert.equal(duplicate!.related?.[0]?.pointer, '/beats/1/id');
  assert.equal(duplicate!.related?.[0]?.range?.start.line, Number(at(result.folder, BEATS, '"id": "beat_002"').split(':')[1]));
  assert.match(duplicate!.message, /beat 2, "Tamsin's Bargain"/);
});

test('CAMPAIGN_UNKNOWN_BEAT: requires_beat, requires_any_beat, triggers_beat and fallback_beat naming no beat, each at its value', async () => {
  const result = await seeded((campaign) => {
    campaign.set(BEATS, ['beats', 2, 'conditions', 'requires_beat'], 'beat_010');
    campaign.set(BEATS, ['beats', 3, 'conditions', 'requires_any_beat', 1], 'beat_033');
    campaign.set(BEATS, ['beats', 1, 'outcomes', 0, 'triggers_beat'], 'beat_040');
    campaign.set(BEATS, ['beats', 3, 'timeout', 'fallback_beat'], 'beat_500');
  });
  const unknown = withCode(result.diagnostics, 'CAMPAIGN_UNKNOWN_BEAT');
  assert.deepEqual(
    unknown.map(where),
    ['"beat_040"', '"beat_010"', '"beat_033"', '"beat_500"'].map((needle) => at(result.folder, BEATS, needle)),
  );
  assert.match(unknown[0]!.message, /^triggers_beat names "beat_040"/);
  assert.match(unknown[1]!.message, /^requires_beat names "beat_010", which is no beat of plot\/beats\.json; did you mean "beat_0\d\d"\?/);
  assert.match(unknown[2]!.message, /^requires_any_beat names "beat_033"; |^requires_any_beat names "beat_033", which is no beat/);
  assert.match(unknown[3]!.message, /^fallback_beat names "beat_500"/);
  assert.ok(unknown.every((diagnostic) => diagnostic.severity === 'error'));
});

test('CAMPAIGN_BEAT_CYCLE: beat_001 and beat_003 require each other; the path is in the message and every edge is related', async () => {
  const result = await seeded((campaign) => campaign.set(BEATS, ['beats', 0, 'conditions', 'requires_beat'], 'beat_003'));
  const [cycle] = withCode(result.diagnostics, 'CAMPAIGN_BEAT_CYCLE');
  assert.ok(cycle, JSON.stringify(result.diagnostics));
  assert.match(cycle.message, /requires_beat cycle: beat_001 -> beat_003 -> beat_001/);
  assert.equal(where(cycle), at(result.folder, BEATS, '"beat_003"'));
  assert.deepEqual(
    cycle.related?.map((information) => information.pointer),
    ['/beats/0/conditions/requires_beat', '/beats/2/conditions/requires_beat'],
  );
  // Beats that wait on the cycle (beat_002, beat_004…) are not reported as cycles themselves.
  assert.equal(withCode(result.diagnostics, 'CAMPAIGN_BEAT_CYCLE').length, 1);
});

test('CAMPAIGN_BEAT_CYCLE: a beat requiring itself', async () => {
  const result = await seeded((campaign) => campaign.set(BEATS, ['beats', 5, 'conditions', 'requires_beat'], ['beat_004', 'beat_006']));
  const [cycle] = withCode(result.diagnostics, 'CAMPAIGN_BEAT_CYCLE');
  assert.equal(cycle!.message, 'beat_006 requires itself, so it can never happen');
  assert.equal(where(cycle!), at(result.folder, BEATS, '"beat_006"', 2));
});

test('CAMPAIGN_SCENE_WINDOW: a window whose min is above its max, at the window', async () => {
  const result = await seeded((campaign) => campaign.set(BEATS, ['beats', 3, 'conditions', 'scene_count'], { min: 6, max: 3 }));
  const [window] = withCode(result.diagnostics, 'CAMPAIGN_SCENE_WINDOW');
  assert.equal(where(window!), at(result.folder, BEATS, '"scene_count": {', 2, '"scene_count": '.length));
  assert.match(window!.message, /beat_004 opens at scene 6 but closes at scene 3/);
});

test('CAMPAIGN_UNKNOWN_NPC: an npc_state key and a dialogue speaker with no profile; player and names by their words pass', async () => {
  const result = await seeded((campaign) => {
    campaign.set(BEATS, ['beats', 1, 'conditions', 'npc_state'], { tamsyn: 'worried' });
    campaign.set(BEATS, ['beats', 5, 'dialogue', 0, 'speaker'], 'Morwen');
  });
  const unknown = withCode(result.diagnostics, 'CAMPAIGN_UNKNOWN_NPC');
  assert.deepEqual(unknown.map(where), [at(result.folder, BEATS, '"tamsyn"'), at(result.folder, BEATS, '"Morwen"')]);
  assert.match(unknown[0]!.message, /npc_state of beat_002 names "tamsyn", who has no profile in characters\/npcs\/; did you mean "tamsin"\?/);
  assert.match(unknown[1]!.message, /the NPCs are alder, odile, tamsin/);
  assert.ok(unknown.every((diagnostic) => diagnostic.severity === 'warning'));
  // "Brother Alder" (a profile's name) and "player" raised nothing.
  assert.equal(unknown.length, 2);
});

test('CAMPAIGN_PATH_NOT_FOUND: portrait, voice, music, background and secrets paths that name no file (FR-031)', async () => {
  const result = await seeded((campaign) => {
    campaign.set('characters/npcs/odile/profile.json', ['portrait'], 'art/characters/odile.jpg');
    campaign.set('characters/npcs/tamsin/profile.json', ['voice'], 'music/voices/tamsin.ogg');
    campaign.remove('characters/npcs/odile/secrets.md');
    campaign.set(BEATS, ['beats', 0, 'music'], 'music/ambient/fog.wav');
    campaign.set(BEATS, ['beats', 3, 'background'], 'art/locations/tower.png');
  });
  const missing = withCode(result.diagnostics, 'CAMPAIGN_PATH_NOT_FOUND');
  assert.deepEqual(missing.map(where), [
    at(result.folder, 'characters/npcs/odile/profile.json', '"secrets.md"'),
    at(result.folder, 'characters/npcs/odile/profile.json', '"art/characters/odile.jpg"'),
    at(result.folder, 'characters/npcs/tamsin/profile.json', '"music/voices/tamsin.ogg"'),
    at(result.folder, BEATS, '"music/ambient/fog.wav"'),
    at(result.folder, BEATS, '"art/locations/tower.png"'),
  ]);
  assert.match(missing[1]!.message, /the portrait "art\/characters\/odile\.jpg" does not exist; did you mean "art\/characters\/odile\.png"\?/);
  assert.match(missing[0]!.message, /the secrets "secrets\.md" \(characters\/npcs\/odile\/secrets\.md in the campaign\) does not exist/);
  assert.ok(missing.every((diagnostic) => diagnostic.severity === 'warning'));
  assert.equal(result.valid, true);
});

test('paths: a portrait that is a sound is unexpected; a path leaving the campaign fails the schema; a file outside the known folders is found', async () => {
  const result = await seeded((campaign) => {
    campaign.set('characters/npcs/tamsin/profile.json', ['portrait'], 'music/ambient/foghorn.wav');
    campaign.set('characters/npcs/alder/profile.json', ['portrait'], '../alder.png');
    campaign.write('extras/odile-young.png', 'png').set('characters/npcs/odile/profile.json', ['portrait'], 'extras/odile-young.png');
  });
  const [unexpected] = withCode(result.diagnostics, 'CAMPAIGN_UNEXPECTED_FILE');
  assert.equal(where(unexpected!), at(result.folder, 'characters/npcs/tamsin/profile.json', '"music/ambient/foghorn.wav"'));
  assert.match(unexpected!.message, /should be an image/);
  const [outside] = withCode(result.diagnostics, 'SCHEMA_VIOLATION');
  assert.equal(where(outside!), at(result.folder, 'characters/npcs/alder/profile.json', '"../alder.png"'));
  assert.match(outside!.message, /is not a path inside the campaign/);
  assert.deepEqual(
    withCode(result.diagnostics, 'CAMPAIGN_PATH_NOT_FOUND').map((diagnostic) => diagnostic.file),
    ['characters/npcs/alder/profile.json'],
  );
});
