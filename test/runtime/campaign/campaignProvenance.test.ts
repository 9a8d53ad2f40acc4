// Seeded mistakes in sidecars and provenance (one fixture each, real files): orphan and empty sidecars, generated files without provenance, human files with one.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, removeCampaignFolders, seeded, where, withCode } from './campaignFixture.js';

after(removeCampaignFolders);

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const PROVENANCE = { source_model: 'local/tiny-model', generated_at: '2026-03-01T09:30:00Z', seed_data: 'a lighthouse island' };

test('CAMPAIGN_ORPHAN_SIDECAR: a keywords sidecar and a meta sidecar beside no file, with a "did you mean"', async () => {
  const result = await seeded((campaign) => {
    campaign.write('art/characters/tamsen.png.keywords.txt', 'tamsin\n');
    campaign.write('music/ambient/waves.ogg.meta.json', '{ "generated": false }\n');
  });
  const orphans = withCode(result.diagnostics, 'CAMPAIGN_ORPHAN_SIDECAR');
  assert.deepEqual(orphans.map(where), ['art/characters/tamsen.png.keywords.txt:1:1', 'music/ambient/waves.ogg.meta.json:1:1']);
  assert.match(orphans[0]!.message, /describes art\/characters\/tamsen\.png, which does not exist; did you mean a sidecar of "art\/characters\/tamsin\.png"\?/);
  assert.ok(orphans.every((diagnostic) => diagnostic.severity === 'warning'));
});

test('CAMPAIGN_EMPTY_SIDECAR: a keywords sidecar with only comments and blank lines (FR-039b)', async () => {
  const result = await seeded((campaign) => campaign.write('art/characters/odile.png.keywords.txt', '# to fill in\n\n   \n'));
  const [empty] = withCode(result.diagnostics, 'CAMPAIGN_EMPTY_SIDECAR');
  assert.equal(where(empty!), 'art/characters/odile.png.keywords.txt:1:1');
  assert.deepEqual(result.campaign.sidecars.find((sidecar) => sidecar.subject === 'art/characters/odile.png')?.keywords, []);
});

test('CAMPAIGN_PROVENANCE_MISSING: generated: true with no provenance, at the flag (FR-044)', async () => {
  const result = await seeded((campaign) => campaign.write('art/characters/tamsin.png.meta.json', '{\n  "generated": true\n}\n'));
  const [missing] = withCode(result.diagnostics, 'CAMPAIGN_PROVENANCE_MISSING');
  assert.equal(where(missing!), at(result.folder, 'art/characters/tamsin.png.meta.json', 'true'));
  assert.match(missing!.message, /marked generated but has no provenance/);
  assert.equal(result.valid, false);
});

test('CAMPAIGN_PROVENANCE_MISSING: a provenance without seed_data, at the provenance', async () => {
  const { seed_data: _omitted, ...partial } = PROVENANCE;
  const result = await seeded((campaign) => campaign.write('art/characters/tamsin.png.meta.json', json({ generated: true, provenance: partial })));
  const [missing] = withCode(result.diagnostics, 'CAMPAIGN_PROVENANCE_MISSING');
  assert.equal(where(missing!), at(result.folder, 'art/characters/tamsin.png.meta.json', '{\n    "source_model"'));
  assert.match(missing!.message, /its provenance has no seed_data/);
});

test('SCHEMA_FORMAT: a generated_at that is no ISO 8601 date-time (FR-044b), at the value', async () => {
  const provenance = { ...PROVENANCE, generated_at: 'last Tuesday' };
  const result = await seeded((campaign) => campaign.write('lore/places/gullhaven-harbour.md.meta.json', json({ generated: true, provenance })));
  const [format] = withCode(result.diagnostics, 'SCHEMA_FORMAT');
  assert.equal(where(format!), at(result.folder, 'lore/places/gullhaven-harbour.md.meta.json', '"last Tuesday"'));
  assert.match(format!.message, /is not a valid date-time/);
});

test('CAMPAIGN_PROVENANCE_ON_HUMAN_FILE: generated: false with a provenance, at its key (FR-044a)', async () => {
  const result = await seeded((campaign) => campaign.set('art/locations/lantern-tower.png.meta.json', ['provenance'], PROVENANCE));
  const [human] = withCode(result.diagnostics, 'CAMPAIGN_PROVENANCE_ON_HUMAN_FILE');
  assert.equal(where(human!), at(result.folder, 'art/locations/lantern-tower.png.meta.json', '"provenance"'));
  assert.equal(human!.severity, 'error');
});

test('SCHEMA_UNKNOWN_PROPERTY: a misspelt sidecar key, with a "did you mean"', async () => {
  const result = await seeded((campaign) => campaign.write('art/characters/odile.png.meta.json', '{ "generated": false, "alt_txt": "Odile" }\n'));
  const [unknown] = withCode(result.diagnostics, 'SCHEMA_UNKNOWN_PROPERTY');
  assert.equal(where(unknown!), at(result.folder, 'art/characters/odile.png.meta.json', '"alt_txt"'));
  assert.match(unknown!.message, /did you mean "alt_text"\?/);
});

test('CAMPAIGN_GENERATED_UNMARKED: a *_generated file without a sidecar marking it (FR-034); marked, it counts as generated content (FR-044c)', async () => {
  const unmarked = await seeded((campaign) => campaign.write('lore/history/rumours_generated.md', 'The keeper is said to sing at night.\n'));
  const [warning] = withCode(unmarked.diagnostics, 'CAMPAIGN_GENERATED_UNMARKED');
  assert.equal(where(warning!), 'lore/history/rumours_generated.md:1:1');
  assert.match(warning!.message, /no lore\/history\/rumours_generated\.md\.meta\.json marks it "generated": true/);

  const marked = await seeded((campaign) => {
    campaign.write('lore/history/rumours_generated.md', 'The keeper is said to sing at night.\n');
    campaign.write('lore/history/rumours_generated.md.meta.json', json({ generated: true, provenance: PROVENANCE }));
  });
  assert.deepEqual(
    marked.diagnostics.map((diagnostic) => `${where(diagnostic)} ${diagnostic.severity} ${diagnostic.code}`),
    ['manifest.json:1:1 info CAMPAIGN_GENERATED_CONTENT'],
  );
  assert.match(marked.diagnostics[0]!.message, /holds 1 generated file\(s\) \(lore\/history\/rumours_generated\.md\); review/);
  assert.equal(marked.valid, true);
});
