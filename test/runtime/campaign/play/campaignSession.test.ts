// The complete starter campaign through a real PlaySession with the sample skills: the opening, beats triggered and told, NPC seeds, summaries in memory, an ending.
// Margin: every script here finishes in well under a second; the 120 s tool timeout only replaces the manifests' own, and no test asserts a duration.
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PlaySession } from '../../../../src/runtime/session/playSession.js';
import { PatternNarrator } from '../../../../src/runtime/narrator/patternNarrator.js';
import { SkillRegistry } from '../../../../src/runtime/skills/skillRegistry.js';
import { validateAgainst } from '../../../../src/runtime/contracts/schemas.js';
import { skillFolders } from '../../../../src/runtime/skills/skillDataScope.js';
import { campaignStateOf } from '../../../../src/runtime/campaign/play/storyState.js';
import { removeCampaignFolders, writeStarterCampaign } from '../campaignFixture.js';

const repo = path.resolve(import.meta.dirname, '../../../..');
after(removeCampaignFolders);

async function open(root: string, initialState: Record<string, unknown> = {}) {
  const registry = await SkillRegistry.load({ root, extraSkillRoots: [path.join(repo, 'skills')] });
  const session = await PlaySession.open({
    root,
    file: path.join(root, '.narratoria', 'sessions', 'test', 'session.json'),
    narrator: new PatternNarrator(),
    skills: registry,
    execution: { extraSkillRoots: [path.join(repo, 'skills')], skillContext: registry, toolTimeoutMs: 120_000 },
    attemptLogFile: null,
    seed: 7,
    initialState,
  });
  return { session, registry };
}

function choose(session: PlaySession, text: RegExp) {
  const index = session.lastChoices.findIndex((choice) => text.test(choice));
  assert.ok(index >= 0, `no choice like ${text} in ${JSON.stringify(session.lastChoices)}`);
  return session.choose(index);
}

test('the complete campaign opens on its premise; beats trigger by their conditions and the storyteller tells them; seeds and summaries land in the session', async () => {
  const root = writeStarterCampaign('complete');
  const { session, registry } = await open(root);
  try {
    assert.ok(session.story, 'the root holds a campaign');
    const opening = session.turns[0]!;
    assert.equal(opening.opening, true);
    assert.match(opening.narrative, /^The Salt Lantern\n\nYou come to Gullhaven on the last ferry/);
    assert.ok(opening.choices.includes("Go to the Lantern tower and the keeper's cottage"), JSON.stringify(opening.choices));
    assert.ok(opening.choices.includes('Talk to Tamsin Reed'));

    const first = await choose(session, /^Go to the Lantern tower/);
    assert.deepEqual(validateAgainst('turn-result.schema.json', first), []);
    assert.deepEqual(
      first.story?.triggered.map((beat) => [beat.id, beat.told, beat.lag]),
      [['beat_001', 'storyteller', 0]],
    );
    assert.match(first.narrative, /The Dark Lantern\. You land at the wrong pier and climb to the Lantern\./);
    assert.match(first.narrative, /"She never lets it go dark\. Never\." Tamsin Reed says, looking up at the tower from the boat\./);
    assert.ok((first.story?.lore.length ?? 0) > 0, 'lore is retrieved for the scene');
    assert.ok(first.choices.includes('Ask Tamsin for help'), JSON.stringify(first.choices));

    const second = await choose(session, /^Ask Tamsin for help$/);
    assert.deepEqual(second.story?.choices, ['asked_tamsin_for_help']);
    assert.deepEqual(
      second.story?.triggered.map((beat) => beat.id),
      ['beat_002'],
    );
    const judged = second.story?.judgements.find((judgement) => judgement.kind === 'npc_state.tamsin');
    assert.equal(judged?.holds, true);
    assert.match(judged?.reason ?? '', /"worried about Odile" holds by meaning .*the profile of Tamsin Reed/);
    // Tamsin speaks as her profile says: her name, one of her phrases, her attitude.
    assert.match(second.narrative, /Tamsin Reed, [a-z ]+ and cordial toward you, says: "(?:Hold the gunwale|She raised me)/);
    const campaign = campaignStateOf(session.state);
    assert.equal(campaign.scene, 2);
    assert.equal(campaign.beats['beat_002']?.status, 'done');
    assert.equal(campaign.beats['beat_001']?.scene, 1);

    // The profiles seeded npc-perception at the start; each scene's summary is in the memory skill's store of this session.
    const perceptions = JSON.parse(readFileSync(path.join(skillFolders(session.dataScope, 'npc-perception').data, 'perceptions.json'), 'utf8')) as {
      npcs: Record<string, { perception: number }>;
    };
    assert.deepEqual(Object.keys(perceptions.npcs).sort(), ['brother alder', 'odile marrow', 'tamsin reed']);
    assert.equal(perceptions.npcs['brother alder']!.perception, -10);
    // Brother Alder's faction is registered with the reputation skill (its config allows no new factions: the campaign declares it).
    const standings = JSON.parse(readFileSync(path.join(skillFolders(session.dataScope, 'reputation').data, 'reputation.json'), 'utf8')) as {
      factions: Record<string, { standing: number }>;
    };
    assert.deepEqual(Object.keys(standings.factions), ['The Chapel of the Tide']);
    assert.deepEqual((session.state['reputation'] as Record<string, unknown>)['The Chapel of the Tide'], { standing: 0, rank: 'neutral' });
    const memories = readFileSync(path.join(skillFolders(session.dataScope, 'memory').data, 'memories.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(memories.length, 2);
    assert.match(memories[1]!, /Scene 2: Ask Tamsin for help\./);
    assert.deepEqual(validateAgainst('session.schema.json', JSON.parse(readFileSync(session.file, 'utf8'))), []);

    await session.restart();
    assert.equal(session.turns.length, 1);
    assert.equal(session.turns[0]!.opening, true);
    assert.equal(campaignStateOf(session.state).scene, 0);
  } finally {
    session.dispose();
    registry.dispose();
  }
});

test('beats done lead to the endings in reach; choosing one ends the session, and a move after it plays nothing', async () => {
  const root = writeStarterCampaign('complete');
  // beat_006's custom condition reads player.saltlight and world.tide: a skill of the story would set them.
  const { session, registry } = await open(root, { player: { saltlight: 1 }, world: { tide: 'lowest' } });
  try {
    await choose(session, /^Go to the Lantern tower/);
    await choose(session, /^Ask Tamsin for help$/);
    const third = await choose(session, /^Take the tower key$/);
    assert.equal(third.story?.triggered.length, 0);
    const fourth = await session.play('I climb the stairs with the key');
    assert.deepEqual(
      fourth.story?.triggered.map((beat) => beat.id),
      ['beat_004'],
    );
    assert.match(fourth.story?.triggered[0]?.reason ?? '', /player_state \("has the tower key" holds by meaning/);
    const fifth = await session.play('I wait for the lowest tide');
    assert.deepEqual(
      fifth.story?.triggered.map((beat) => beat.id),
      ['beat_006'],
    );
    assert.deepEqual(fifth.story?.endingsInReach, ['departed', 'rekindled']);
    assert.ok(
      fifth.choices.some((choice) => /^Bring the story to its end: /.test(choice)),
      JSON.stringify(fifth.choices),
    );
    const last = await choose(session, /end: The keeper's choice$/);
    assert.equal(last.story?.ending?.id, 'departed');
    assert.match(last.narrative, /The keeper's choice\. Odile will not come back\./);
    assert.deepEqual(last.choices, []);
    assert.equal(session.ending?.id, 'departed');
    const turns = session.turns.length;
    const after = await session.play('I look around');
    assert.match(after.narrative, /^The story has ended: The keeper's choice\./);
    assert.equal(session.turns.length, turns, 'nothing was recorded');
    assert.ok(existsSync(session.file));
  } finally {
    session.dispose();
    registry.dispose();
  }
});
