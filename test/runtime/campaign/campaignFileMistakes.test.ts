// Seeded mistakes in a campaign's files (one fixture each, real files): JSON syntax, schemas, the manifest, the layout and the prose, each at its file, line and column.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, removeCampaignFolders, seeded, where, withCode } from './campaignFixture.js';

after(removeCampaignFolders);

test('JSON_SYNTAX: a single-quoted string in an NPC profile, at its quote; the campaign is invalid', async () => {
  const result = await seeded((campaign) => campaign.replace('characters/npcs/odile/profile.json', '"role": "Mentor', `"role": 'Mentor`));
  const [syntax] = withCode(result.diagnostics, 'JSON_SYNTAX');
  assert.ok(syntax, JSON.stringify(result.diagnostics));
  assert.equal(where(syntax), at(result.folder, 'characters/npcs/odile/profile.json', `'Mentor`));
  assert.equal(syntax.severity, 'error');
  assert.equal(result.valid, false);
});

test('JSON_COMMENT: a comment in plot/beats.json is a warning at the comment, and the beats are still read', async () => {
  const result = await seeded((campaign) => campaign.replace('plot/beats.json', '"beats": [', '"beats": [ // the spine of the story'));
  const [comment] = withCode(result.diagnostics, 'JSON_COMMENT');
  assert.equal(where(comment!), at(result.folder, 'plot/beats.json', '// the spine'));
  assert.equal(comment!.severity, 'warning');
  assert.equal(result.valid, true);
  assert.equal(result.campaign.beats?.beats.length, 6);
});

test('SCHEMA_REQUIRED: a beat without a title, at the beat object that lacks it', async () => {
  const result = await seeded((campaign) => campaign.set('plot/beats.json', ['beats', 1, 'title'], undefined));
  const [required] = withCode(result.diagnostics, 'SCHEMA_REQUIRED');
  assert.equal(required!.pointer, '/beats/1/title');
  assert.equal(where(required!), at(result.folder, 'plot/beats.json', '{\n      "id": "beat_002"'));
  assert.match(required!.message, /missing required property "title"/);
});

test('SCHEMA_VIOLATION: a manifest version that is no semantic version, said in words, at the value', async () => {
  const result = await seeded((campaign) => campaign.set('manifest.json', ['version'], '1.0'));
  const [violation] = withCode(result.diagnostics, 'SCHEMA_VIOLATION');
  assert.equal(where(violation!), at(result.folder, 'manifest.json', '"1.0"'));
  assert.match(violation!.message, /^version: "1\.0" is not a semantic version such as 1\.0\.0$/);
});

test('SCHEMA_UNKNOWN_PROPERTY: a misspelt beat condition is an error with a "did you mean", at its key', async () => {
  const result = await seeded((campaign) =>
    campaign.replace('plot/beats.json', '"requires_beat": "beat_001",\n        "player_choice"', '"requires_beats": "beat_001",\n        "player_choice"'),
  );
  const [unknown] = withCode(result.diagnostics, 'SCHEMA_UNKNOWN_PROPERTY');
  assert.equal(where(unknown!), at(result.folder, 'plot/beats.json', '"requires_beats"'));
  assert.match(unknown!.message, /unknown property "requires_beats"; did you mean "requires_beat"\?/);
});

test('SCHEMA_TYPE: NPC traits given as a string, at the value', async () => {
  const result = await seeded((campaign) => campaign.set('characters/npcs/tamsin/profile.json', ['personality', 'traits'], 'quick'));
  const [type] = withCode(result.diagnostics, 'SCHEMA_TYPE');
  assert.equal(where(type!), at(result.folder, 'characters/npcs/tamsin/profile.json', '"quick"'));
});

test('CAMPAIGN_UNKNOWN_KEY: an unknown manifest key is a warning with a "did you mean" (upstream refuses it), at its key', async () => {
  const result = await seeded((campaign) => campaign.set('manifest.json', ['autor'], 'Someone'));
  const [unknown] = withCode(result.diagnostics, 'CAMPAIGN_UNKNOWN_KEY');
  assert.equal(where(unknown!), at(result.folder, 'manifest.json', '"autor"'));
  assert.equal(unknown!.severity, 'warning');
  assert.match(unknown!.message, /Did you mean "author"\?/);
  assert.equal(result.valid, true);
});

test('CAMPAIGN_RECOMMENDED_KEY_MISSING: a manifest without author and tone, and a profile without secrets, are infos', async () => {
  const result = await seeded((campaign) => {
    campaign.set('manifest.json', ['author'], undefined).set('manifest.json', ['tone'], undefined);
    campaign.set('characters/npcs/tamsin/profile.json', ['secrets'], undefined);
  });
  const missing = withCode(result.diagnostics, 'CAMPAIGN_RECOMMENDED_KEY_MISSING');
  assert.deepEqual(missing.map(where), ['characters/npcs/tamsin/profile.json:1:1', 'manifest.json:1:1']);
  assert.match(missing[1]!.message, /"author", "tone"/);
  assert.match(missing[0]!.message, /"secrets"/);
  assert.ok(missing.every((diagnostic) => diagnostic.severity === 'info'));
});

test('CAMPAIGN_FORMAT_VERSION: a campaign written for another major version of the format, at the value', async () => {
  const result = await seeded((campaign) => campaign.set('manifest.json', ['campaign_format_version'], '2.0.0'));
  const [version] = withCode(result.diagnostics, 'CAMPAIGN_FORMAT_VERSION');
  assert.equal(where(version!), at(result.folder, 'manifest.json', '"2.0.0"'));
  assert.match(version!.message, /format version 2\.0\.0; this Narratoria reads version 1\.0\.0/);
});

test('CAMPAIGN_FILE_MISSING: an NPC folder without profile.json is an error on that folder', async () => {
  const result = await seeded((campaign) => campaign.write('characters/npcs/morwen/notes.md', 'Morwen keeps the tavern.\n'));
  const [missing] = withCode(result.diagnostics, 'CAMPAIGN_FILE_MISSING');
  assert.equal(missing!.file, 'characters/npcs/morwen');
  assert.equal(missing!.range, undefined);
  assert.equal(result.valid, false);
});

test('CAMPAIGN_RECOMMENDED_FILE_MISSING: a campaign without a premise is an info on its manifest', async () => {
  const result = await seeded((campaign) => campaign.remove('plot/premise.md'), 'minimal');
  assert.deepEqual(
    result.diagnostics.map((diagnostic) => `${where(diagnostic)} ${diagnostic.severity} ${diagnostic.code}`),
    ['manifest.json:1:1 info CAMPAIGN_RECOMMENDED_FILE_MISSING'],
  );
  assert.match(result.diagnostics[0]!.message, /no plot\/premise\.md/);
});

test('CAMPAIGN_EMPTY_FILE: a setting with only a heading, an empty ending and an empty secrets file are errors at line 1', async () => {
  const result = await seeded((campaign) => {
    campaign.write('world/setting.md', '# Gullhaven Isle\n\n<!-- to write -->\n');
    campaign.write('plot/endings/drowned.md', '');
    campaign.write('characters/npcs/odile/secrets.md', '   \n');
  });
  const empty = withCode(result.diagnostics, 'CAMPAIGN_EMPTY_FILE');
  assert.deepEqual(empty.map(where), ['characters/npcs/odile/secrets.md:1:1', 'plot/endings/drowned.md:1:1', 'world/setting.md:1:1']);
  assert.match(empty[2]!.message, /holds only headings or comments/);
  assert.ok(empty.every((diagnostic) => diagnostic.severity === 'error'));
});

test('CAMPAIGN_EMPTY_LORE_FILE: an empty lore file is a warning', async () => {
  const result = await seeded((campaign) => campaign.write('lore/places/the-north-cove.md', '\n\n'));
  const [empty] = withCode(result.diagnostics, 'CAMPAIGN_EMPTY_LORE_FILE');
  assert.equal(where(empty!), 'lore/places/the-north-cove.md:1:1');
  assert.equal(result.valid, true);
});

test('CAMPAIGN_UNKNOWN_NAME: plot/beat.json and a musics/ folder are near misses of known names', async () => {
  const result = await seeded((campaign) => campaign.move('plot/beats.json', 'plot/beat.json').move('music', 'musics'));
  const names = withCode(result.diagnostics, 'CAMPAIGN_UNKNOWN_NAME');
  assert.deepEqual(names.map(where), ['musics', 'plot/beat.json:1:1']);
  assert.match(names[0]!.message, /folder "musics" .* did you mean "music"\?/);
  assert.match(names[1]!.message, /file "beat\.json" .* in plot\/; did you mean "beats\.json"\?/);
  assert.equal(result.campaign.beats, undefined);
});

test('CAMPAIGN_UNEXPECTED_FILE: a GIF in art/ and a text ending are not read', async () => {
  const result = await seeded((campaign) => campaign.write('art/sketch.gif', 'GIF89a').write('plot/endings/notes.txt', 'ideas\n'));
  const unexpected = withCode(result.diagnostics, 'CAMPAIGN_UNEXPECTED_FILE');
  assert.deepEqual(unexpected.map(where), ['art/sketch.gif:1:1', 'plot/endings/notes.txt:1:1']);
  assert.match(unexpected[0]!.message, /art\/ holds images: PNG, JPEG or WebP/);
});

test('CAMPAIGN_FILE_UNREADABLE: a lore file that links to nothing', async () => {
  const result = await seeded((campaign) => campaign.link('lore/places/lost.md', 'nowhere.md'));
  const [unreadable] = withCode(result.diagnostics, 'CAMPAIGN_FILE_UNREADABLE');
  assert.equal(unreadable!.file, 'lore/places/lost.md');
  assert.match(unreadable!.message, /link to nothing/);
  assert.equal(result.valid, false);
});

test("CAMPAIGN_GENERATED_SUPERSEDED: a generated stand-in beside the author's file is left aside (FR-036)", async () => {
  const result = await seeded((campaign) => {
    campaign.write('world/rules_generated.md', '# Rules\n\nRoll a d20.\n');
    campaign.write('world/rules_generated.md.meta.json', '{ "generated": false }\n');
  });
  const [superseded] = withCode(result.diagnostics, 'CAMPAIGN_GENERATED_SUPERSEDED');
  assert.equal(where(superseded!), 'world/rules_generated.md:1:1');
  assert.equal(result.campaign.world.rules?.path, 'world/rules.md');
  // Only the generated stand-in is left aside; without the author's file it stands in.
  const alone = await seeded((campaign) => campaign.move('world/rules.md', 'world/rules_generated.md'));
  assert.equal(alone.campaign.world.rules?.path, 'world/rules_generated.md');
});
