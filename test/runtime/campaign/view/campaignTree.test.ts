// The Campaign view's tree of real starter campaigns: its sections and entries, lore chunk counts, each entry's health from seeded mistakes, and the files entries open.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { chunkCampaignLore, loadTokenCounter } from '../../../../src/runtime/campaign/lore/index.js';
import { campaignEntries, type CampaignEntry } from '../../../../src/runtime/campaign/view/campaignTree.js';
import { LoreCounter } from '../../../../src/runtime/campaign/view/loreCounts.js';
import { removeCampaignFolders, seeded, writeStarterCampaign } from '../campaignFixture.js';
import { validateCampaign } from '../../../../src/runtime/campaign/index.js';

after(removeCampaignFolders);

/** "label (description)" of each entry, nested by two spaces. */
function outline(entries: readonly CampaignEntry[], depth = 0): string[] {
  return entries.flatMap((entry) => [
    `${'  '.repeat(depth)}${entry.label}${entry.description ? ` (${entry.description})` : ''}`,
    ...outline(entry.children, depth + 1),
  ]);
}

function find(entries: readonly CampaignEntry[], label: string): CampaignEntry {
  for (const entry of entries) {
    if (entry.label === label) return entry;
    const inner = entry.children.length > 0 ? findOrUndefined(entry.children, label) : undefined;
    if (inner) return inner;
  }
  assert.fail(`no entry ${label}`);
}

function findOrUndefined(entries: readonly CampaignEntry[], label: string): CampaignEntry | undefined {
  try {
    return find(entries, label);
  } catch {
    return undefined;
  }
}

test('the complete starter: every part of the campaign, healthy, with lore chunk counts', async () => {
  const folder = writeStarterCampaign('complete');
  const validation = (await validateCampaign(folder))!;
  const lore = new LoreCounter().count(validation.campaign, await loadTokenCounter());
  // The counts from the loaded texts are those of narratoria lore's chunking from the disk.
  const chunking = await chunkCampaignLore(folder);
  assert.deepEqual([...lore.files.values()], chunking.files);
  const entries = campaignEntries(validation, lore, false);
  assert.deepEqual(
    entries.map((entry) => entry.label),
    ['Manifest', 'World', 'NPCs', 'Player', 'Plot', 'Lore', 'Assets'],
  );
  const lines = outline(entries);
  assert.equal(lines[0], 'Manifest (The Salt Lantern · v1.0.0)');
  for (const expected of [
    '  Setting',
    '  Rules',
    '  Constraints',
    'NPCs (3 characters)',
    '  Brother Alder (Antagonist - priest of the Tide)',
    '    portrait.png',
    'Plot',
    '  Premise',
    '  Beats (6 beats)',
    '    The Dark Lantern (beat_001 · scenes 1-2)',
    '    Into Saltmere (beat_006)',
    '  Endings (3 endings)',
    '  Music (1 file)',
  ])
    assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
  const loreSection = entries.find((entry) => entry.label === 'Lore')!;
  assert.match(loreSection.description ?? '', /^\d+ files · \d+ chunks$/);
  for (const file of loreSection.children) assert.match(file.description ?? '', /^\d+ chunks?$/, file.label);
  const all = (list: readonly CampaignEntry[]): CampaignEntry[] => list.flatMap((entry) => [entry, ...all(entry.children)]);
  for (const entry of all(entries)) assert.equal(entry.health.level, 'healthy', `${entry.label}: ${entry.health.diagnostics.map((d) => d.message).join('; ')}`);
  const beat = find(entries, 'The Dark Lantern');
  assert.equal(beat.kind, 'beat');
  assert.equal(beat.beatId, 'beat_001');
  assert.equal(beat.open?.file, 'plot/beats.json');
  assert.ok(beat.open?.range && beat.open.range.start.line > 1, 'a beat opens beats.json at its range');
  assert.equal(find(entries, 'Setting').open?.file, 'world/setting.md');
});

test('before lore is counted the files have no counts; a campaign as a root entry holds its sections', async () => {
  const folder = writeStarterCampaign('complete');
  const validation = (await validateCampaign(folder))!;
  const [root] = campaignEntries(validation, undefined, true);
  assert.equal(root!.kind, 'campaign');
  assert.equal(root!.label, 'The Salt Lantern');
  const lore = root!.children.find((entry) => entry.label === 'Lore')!;
  assert.match(lore.description ?? '', /^\d+ files$/);
  assert.ok(lore.children.every((file) => file.description === undefined));
});

test('health: a broken link marks its beat, Beats and Plot as errors; a missing portrait its NPC as a warning; the rest stays healthy', async () => {
  const { diagnostics, campaign, folder } = await seeded((editor) => {
    editor.set('plot/beats.json', ['beats', 1, 'conditions', 'requires_beat'], 'beat_042');
    editor.set('characters/npcs/tamsin/profile.json', ['portrait'], 'characters/npcs/tamsin/nowhere.png');
  });
  assert.ok(diagnostics.length >= 2);
  const entries = campaignEntries({ campaign, diagnostics, valid: false }, undefined, false);
  const bargain = find(entries, "Tamsin's Bargain");
  assert.equal(bargain.health.level, 'error');
  assert.deepEqual(
    bargain.health.diagnostics.map((diagnostic) => diagnostic.code),
    ['CAMPAIGN_UNKNOWN_BEAT'],
  );
  assert.equal(find(entries, 'The Dark Lantern').health.level, 'healthy');
  assert.equal(find(entries, 'Beats').health.level, 'error');
  assert.equal(find(entries, 'Plot').health.level, 'error');
  assert.equal(find(entries, 'Tamsin Reed').health.level, 'warning');
  assert.equal(find(entries, 'World').health.level, 'healthy');
  assert.ok(folder);
});

test('problems of files no section lists are under Other problems, each opening its file at the problem', async () => {
  const { diagnostics, campaign } = await seeded((editor) => editor.write('world/map.png', 'not an image, and not Markdown'));
  const entries = campaignEntries({ campaign, diagnostics, valid: true }, undefined, false);
  const others = entries.at(-1)!;
  assert.equal(others.label, 'Other problems');
  assert.equal(others.health.level, 'warning');
  assert.equal(others.children[0]!.kind, 'problem');
  assert.match(others.children[0]!.description ?? '', /^world\/map\.png/);
});

test('the minimal starter shows only what it has', async () => {
  const folder = writeStarterCampaign('minimal');
  const validation = (await validateCampaign(folder))!;
  const entries = campaignEntries(validation, new LoreCounter().count(validation.campaign, await loadTokenCounter()), false);
  assert.deepEqual(outline(entries), ['Manifest (The Night Train to Wrenhollow · v1.0.0)', 'World', '  Setting', 'Plot', '  Premise']);
});

test('lore counts follow the texts: a changed file is chunked again, the others are kept; a file not of text is skipped', async () => {
  const folder = writeStarterCampaign('complete');
  const validation = (await validateCampaign(folder))!;
  let calls = 0;
  const counter = (text: string): number => {
    calls++;
    return text.split(/\s+/).length;
  };
  const lore = new LoreCounter();
  const first = lore.count(validation.campaign, counter);
  const firstCalls = calls;
  assert.ok(firstCalls > 0 && first.files.size === 5);
  calls = 0;
  lore.count(validation.campaign, counter);
  assert.equal(calls, 0, 'the same texts are not chunked again');
  const [changed] = [...first.files.keys()];
  const documents = new Map(validation.campaign.documents);
  documents.set(changed!, { ...documents.get(changed!)!, text: 'One paragraph only.' });
  const again = lore.count({ ...validation.campaign, documents }, counter);
  assert.equal(again.files.get(changed!)!.chunks, 1);
  assert.ok(calls > 0 && calls < firstCalls, `only the changed file is chunked (${calls} of ${firstCalls} counts)`);
  const withPicture = {
    ...validation.campaign,
    lore: [...validation.campaign.lore, { file: { path: 'lore/map.png', size: 3, role: 'lore' as const, generatedName: false } }],
  };
  assert.equal(lore.count(withPicture, counter).skipped.get('lore/map.png')?.kind, 'not-text');
});
