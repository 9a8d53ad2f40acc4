// The campaign contracts (contracts/campaign/): each is draft 2020-12 and says where it differs from upstream; the two upstream oneOf mistakes are fixed; records and sidecars follow the provenance rules.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { contractSchemas, validateAgainst, type ContractName } from '../../../src/runtime/contracts/schemas.js';
import { starterCampaignFiles } from '../../../src/runtime/campaign/starterCampaigns.js';

const contracts = path.resolve(import.meta.dirname, '../../../contracts/campaign');

test('every campaign contract is registered, draft 2020-12, and its description says where it departs from upstream', () => {
  // lore-chunks.schema.json describes narratoria lore's output, not a file of the format: checked in test/cli/lore.test.ts.
  const files = readdirSync(contracts)
    .filter((file) => file !== 'lore-chunks.schema.json')
    .sort();
  assert.deepEqual(files, [
    'asset-metadata.schema.json',
    'asset-sidecar.schema.json',
    'beats.schema.json',
    'lore-queries.schema.json',
    'manifest.schema.json',
    'npc-profile.schema.json',
    'player-template.schema.json',
  ]);
  for (const file of files) {
    const schema = JSON.parse(readFileSync(path.join(contracts, file), 'utf8')) as { $schema: string; $id: string; description: string };
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', file);
    assert.equal(schema.$id, `https://narratoria.dev/contracts/campaign/${file}`);
    assert.deepEqual(contractSchemas[`campaign/${file}` as ContractName], schema, `${file} in contractSchemas`);
    assert.match(schema.description, /upstream/, `${file}: its description compares it with the upstream format`);
  }
});

test("the starter campaigns' JSON files follow their contracts", () => {
  const contractOf = (file: string): ContractName | undefined => {
    if (file === 'manifest.json') return 'campaign/manifest.schema.json';
    if (/^characters\/npcs\/[^/]+\/profile\.json$/.test(file)) return 'campaign/npc-profile.schema.json';
    if (file === 'characters/player/template.json') return 'campaign/player-template.schema.json';
    if (file === 'plot/beats.json') return 'campaign/beats.schema.json';
    if (file.endsWith('.meta.json')) return 'campaign/asset-sidecar.schema.json';
    if (file === 'lore.queries.json') return 'campaign/lore-queries.schema.json';
    return undefined;
  };
  let checked = 0;
  for (const file of [...starterCampaignFiles('minimal'), ...starterCampaignFiles('complete')]) {
    const contract = contractOf(file.path);
    if (!contract) continue;
    assert.deepEqual(validateAgainst(contract, JSON.parse(file.text!)), [], file.path);
    checked++;
  }
  assert.equal(checked, 10);
});

const profile = { name: 'Odile', role: 'Keeper', personality: { traits: ['dry'] } };

test('npc-profile.secrets: a path such as "secrets.md" and inline text are both valid (the upstream oneOf refused every path)', () => {
  assert.deepEqual(validateAgainst('campaign/npc-profile.schema.json', { ...profile, secrets: 'secrets.md' }), []);
  assert.deepEqual(validateAgainst('campaign/npc-profile.schema.json', { ...profile, secrets: 'She sold the saltlight.' }), []);
  assert.notDeepEqual(validateAgainst('campaign/npc-profile.schema.json', { ...profile, secrets: 42 }), []);
  assert.notDeepEqual(validateAgainst('campaign/npc-profile.schema.json', { ...profile, portrait: '/etc/passwd' }), []);
});

const image = {
  path: 'art/characters/odile.png',
  type: 'image',
  keywords: ['odile'],
  generated: false,
  checksum: `sha256:${'ab'.repeat(32)}`,
  created_at: '2026-03-01T09:30:00Z',
  data: Buffer.from('a portrait').toString('base64'),
  image_metadata: { format: 'png', width: 64, height: 64 },
};
const prose = {
  ...image,
  path: 'lore/places/harbour.md',
  type: 'prose',
  data: 'The harbour town climbs the cliff.\n\nTwo taverns.',
  image_metadata: undefined,
  prose_metadata: { word_count: 8, language: 'en', chunk_method: 'paragraph', chunk_metadata: [{ chunk_id: 0, paragraph_id: 0, token_count: 8 }] },
};
const provenance = { source_model: 'local/tiny-model', generated_at: '2026-03-01T09:30:00Z', seed_data: 'an island' };

test('asset-metadata.data: text for prose and base64 for images are valid (the upstream oneOf matched every string twice)', () => {
  assert.deepEqual(validateAgainst('campaign/asset-metadata.schema.json', image), []);
  assert.deepEqual(validateAgainst('campaign/asset-metadata.schema.json', JSON.parse(JSON.stringify(prose))), []);
  // An image's data must be base64; prose may be any text.
  assert.notDeepEqual(validateAgainst('campaign/asset-metadata.schema.json', { ...image, data: 'not base64!' }), []);
});

test('asset-metadata: generated needs the three provenance fields; a human record has no provenance (FR-044, FR-044a, FR-044b)', () => {
  const record = (value: Record<string, unknown>) => validateAgainst('campaign/asset-metadata.schema.json', { ...image, ...value });
  assert.deepEqual(record({ generated: true, provenance }), []);
  assert.deepEqual(record({ generated: true, provenance: { ...provenance, version: '1.0.0' } }), []);
  assert.notDeepEqual(record({ generated: true }), []);
  assert.notDeepEqual(record({ generated: true, provenance: { source_model: 'm', generated_at: '2026-03-01T09:30:00Z' } }), []);
  assert.notDeepEqual(record({ generated: true, provenance: { ...provenance, generated_at: 'yesterday' } }), []);
  assert.notDeepEqual(record({ generated: false, provenance }), []);
});

test('manifest: unknown keys pass the schema (validation warns instead), ratings may carry a note, versions are semantic', () => {
  const manifest = { title: 'The Salt Lantern', version: '1.0.0' };
  assert.deepEqual(validateAgainst('campaign/manifest.schema.json', { ...manifest, autor: 'me' }), []);
  assert.deepEqual(validateAgainst('campaign/manifest.schema.json', { ...manifest, content_rating: 'Teen (peril, grief)' }), []);
  assert.deepEqual(validateAgainst('campaign/manifest.schema.json', { ...manifest, version: '2.1.0-beta.1' }), []);
  assert.notDeepEqual(validateAgainst('campaign/manifest.schema.json', { ...manifest, content_rating: 'PG-13' }), []);
  assert.notDeepEqual(validateAgainst('campaign/manifest.schema.json', { ...manifest, version: 'v1' }), []);
  assert.notDeepEqual(validateAgainst('campaign/manifest.schema.json', { title: 'No version' }), []);
});
