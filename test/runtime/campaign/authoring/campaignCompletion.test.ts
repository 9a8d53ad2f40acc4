// Campaign completion and hover over the complete starter campaign (real files): beat ids in every beat link, NPC names in every place a file names a character, the beat and NPC hovers.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyTextEdits } from '../../../../src/runtime/authoring/textSpan.js';
import { completeCampaign, hoverCampaign, type CampaignCompletionItem } from '../../../../src/runtime/campaign/authoring/index.js';
import type { Campaign } from '../../../../src/runtime/campaign/index.js';
import { removeCampaignFolders } from '../campaignFixture.js';
import { BEATS, campaignFolder, load, offsetOf, textOf } from './authoringFixture.js';

after(removeCampaignFolders);

const PROFILE = 'characters/npcs/odile/profile.json';
const TEMPLATE = 'characters/player/template.json';

/** Completes at the `|` of `marked` (the file's text with a cursor mark), replacing the file's text with it. */
function complete(campaign: Campaign, file: string, marked: string): { items: CampaignCompletionItem[]; text: string; offset: number } {
  const offset = marked.indexOf('|');
  assert.ok(offset >= 0, 'the text has a cursor mark');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { items: completeCampaign(campaign, file, text, offset), text, offset };
}

/** The text after applying an item (its insert text, snippet tab stops removed). */
function accept(text: string, item: CampaignCompletionItem): string {
  const insert = item.isSnippet ? item.insertText.replace(/\$\d/g, '').replace(/\\(.)/g, '$1') : item.insertText;
  return applyTextEdits(text, [{ ...item.replaceSpan!, newText: insert }]);
}

test('requires_beat: every other beat, with its title; inside a started string the item replaces the whole string', async () => {
  const campaign = await load(campaignFolder());
  const source = textOf(campaign, BEATS);
  const { items, text } = complete(campaign, BEATS, source.replace('"requires_beat": "beat_003"', '"requires_beat": "beat_0|03"'));
  assert.deepEqual(
    items.map((item) => item.label),
    ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_006'],
    'all but beat_005, whose condition it is',
  );
  assert.equal(items[0]!.detail, 'The Dark Lantern');
  assert.match(items[0]!.documentation ?? '', /Priority: \*\*critical\*\* \| Scenes 1 to 2/);
  assert.equal(items[0]!.filterText, '"beat_001"', 'the typed text starts with the quote');
  const accepted = accept(text, items[3]!);
  assert.ok(accepted.includes('"requires_beat": "beat_004",'), 'the item replaced the string, quotes included');
});

test('requires_any_beat: the ids not listed yet, with a comma where the list needs one; a bare value becomes a list', async () => {
  const campaign = await load(campaignFolder());
  const source = textOf(campaign, BEATS);
  const marked = source.replace('"requires_any_beat": [\n          "beat_002",', '"requires_any_beat": [\n          "beat_002", |');
  const { items, text } = complete(campaign, BEATS, marked);
  assert.deepEqual(
    items.map((item) => item.label),
    ['beat_001', 'beat_005', 'beat_006'],
  );
  assert.ok(accept(text, items[0]!).includes('"beat_002", "beat_001",\n          "beat_003"'), accept(text, items[0]!).slice(2700, 2900));
  const bare = complete(
    campaign,
    BEATS,
    source.replace('"requires_beat": "beat_001",\n        "player_choice"', '"requires_any_beat": |\n        "player_choice"'),
  );
  assert.equal(accept(bare.text, bare.items[0]!).includes('"requires_any_beat": ["beat_001"],\n'), true);
});

test('triggers_beat and fallback_beat list beats too; a new beat id gets the next free one', async () => {
  const campaign = await load(campaignFolder());
  const source = textOf(campaign, BEATS);
  const triggers = complete(campaign, BEATS, source.replace('"triggers_beat": "beat_004"', '"triggers_beat": "|"'));
  assert.equal(triggers.items.length, 5);
  const fallback = complete(campaign, BEATS, source.replace('"fallback_beat": "beat_005"', '"fallback_beat": |'));
  assert.deepEqual(
    fallback.items.map((item) => item.label),
    ['beat_001', 'beat_002', 'beat_003', 'beat_005', 'beat_006'],
  );
  const added = source.replace(/\n {2}\]\n\}\n$/, ',\n    { "id": "|", "title": "New", "description": "A beat being written." }\n  ]\n}\n');
  const fresh = complete(campaign, BEATS, added);
  assert.deepEqual(
    fresh.items.map((item) => item.label),
    ['beat_007'],
  );
  assert.ok(fresh.items[0]!.preselect);
});

test('npc_state keys and dialogue speakers list the NPCs by folder name, with name and role; keys already there are left out', async () => {
  const campaign = await load(campaignFolder());
  const source = textOf(campaign, BEATS);
  const state = complete(campaign, BEATS, source.replace('"npc_state": {\n          "tamsin"', '"npc_state": {\n          |"tamsin"'));
  assert.deepEqual(
    state.items.map((item) => item.label),
    ['alder', 'odile', 'tamsin'],
    'on a key: every NPC, to replace it',
  );
  assert.ok(accept(state.text, state.items[0]!).includes('"alder": "worried about Odile"'), 'the key alone: it has its colon and value');
  const key = complete(
    campaign,
    BEATS,
    source.replace('"npc_state": {\n          "tamsin": "worried about Odile"', '"npc_state": {\n          "tamsin": "worried about Odile", |'),
  );
  assert.deepEqual(
    key.items.map((item) => item.label),
    ['alder', 'odile'],
    'tamsin is already a key of this npc_state',
  );
  assert.equal(key.items[0]!.detail, 'Brother Alder - Antagonist - priest of the Tide');
  assert.ok(accept(key.text, key.items[1]!).includes('"tamsin": "worried about Odile", "odile": ""\n'));
  const speaker = complete(campaign, BEATS, source.replace('"speaker": "odile"', '"speaker": "od|"'));
  assert.deepEqual(
    speaker.items.map((item) => item.label),
    ['alder', 'odile', 'tamsin'],
  );
  assert.equal(speaker.items[1]!.filterText, '"odile Odile Marrow"', 'the full name filters too');
  assert.match(speaker.items[1]!.documentation ?? '', /\*\*Odile Marrow\*\* \(`odile`\)/);
});

test("a profile's relationships offer the other NPCs; the player template's starting_relationships offer them all", async () => {
  const campaign = await load(campaignFolder());
  const profile = textOf(campaign, PROFILE);
  const relationships = complete(campaign, PROFILE, profile.replace('"relationships": {\n', '"relationships": {\n    |\n'));
  assert.deepEqual(
    relationships.items.map((item) => item.label),
    [],
    'odile already has tamsin and alder, and is not her own relation',
  );
  const emptied = profile.replace(/"relationships": \{[^}]*\}/, '"relationships": { | }');
  const open = complete(campaign, PROFILE, emptied);
  assert.deepEqual(
    open.items.map((item) => item.label),
    ['alder', 'tamsin'],
  );
  assert.equal(accept(open.text, open.items[0]!).includes('"relationships": { "alder": "" }'), true);
  const template = textOf(campaign, TEMPLATE);
  const starting = complete(campaign, TEMPLATE, template.replace('"starting_relationships": {\n', '"starting_relationships": {\n          "|": "x",\n'));
  assert.deepEqual(
    starting.items.map((item) => item.label),
    ['alder', 'odile'],
  );
  // Elsewhere in a profile: no beat or NPC completion.
  assert.equal(complete(campaign, PROFILE, profile.replace('"role": "', '"role": "|')).items.length, 0);
});

test('hover: a beat id shows title, priority, scene window, conditions and outcomes; an NPC name its role and personality', async () => {
  const campaign = await load(campaignFolder());
  const beat = hoverCampaign(campaign, BEATS, offsetOf(campaign, BEATS, '"id": "beat_002"', 1, '"id": "b'.length));
  assert.ok(beat);
  assert.equal(beat.span.offset, offsetOf(campaign, BEATS, '"beat_002"'));
  for (const expected of [
    /^\*\*beat\\_002\*\*: Tamsin's Bargain/,
    /Priority: \*\*high\*\* \| Any scene/,
    /- after `beat_001` \(The Dark Lantern\)/,
    /- the player chose `asked_tamsin_for_help`/,
    /- `tamsin`: worried about Odile/,
    /- The player accepts and keeps her secret, leads to `beat_004` \(The Keeper's Log\) \(60%\)/,
  ]) {
    assert.match(beat.markdown, expected);
  }
  const link = hoverCampaign(campaign, BEATS, offsetOf(campaign, BEATS, '"fallback_beat": "beat_005"', 1, '"fallback_beat": "b'.length));
  assert.match(link!.markdown, /\*\*beat\\_005\*\*: Voices Under the Jetty\n\nPriority: \*\*medium\*\* \| Any scene \| skippable/);
  const window = hoverCampaign(campaign, BEATS, offsetOf(campaign, BEATS, '"beat_004"', 2, 1));
  assert.match(
    window!.markdown,
    /Scenes 3 to 6[\s\S]*after one of `beat_002`[\s\S]*Timeout: after 4 scenes, the story aims for `beat_005`[\s\S]*Required by `beat_006`/,
  );
  const npc = hoverCampaign(campaign, BEATS, offsetOf(campaign, BEATS, '"Brother Alder"', 1, 2));
  assert.match(
    npc!.markdown,
    /^\*\*Brother Alder\*\* \(`alder`\)\n\n\*Antagonist \\- priest of the Tide\*\n\nTraits: eloquent, grieving, certain, tender with children/,
  );
  assert.match(npc!.markdown, /`characters\/npcs\/alder\/profile\.json`$/);
  assert.equal(hoverCampaign(campaign, BEATS, offsetOf(campaign, BEATS, 'The Dark Lantern')), undefined);
});
