// A campaign played scene by scene (docs/campaigns.md#playing-a-campaign): the opening, each scene's beats, NPCs and lore, then what was told and the next choices. Pure.
import { deriveSeed } from '../../common/seed.js';
import type { Campaign } from '../campaignModel.js';
import type { LoreChunk } from '../lore/loreTypes.js';
import { advanceBeats, type SceneBeats } from './beatProgress.js';
import { ENDING_THRESHOLD, judgeByMeaning, type Evidence } from './meaningJudge.js';
import { loreFacts } from './loreRetrieval.js';
import { npcVoices } from './npcVoices.js';
import { emptyStoryTurn, type RecordedJudgement, type StoryContext, type StoryTurn, type ToldBeat } from './storyContext.js';
import { npcNamed, settingLine, storyCampaignOf, type StoryCampaign, type StoryEnding, type StoryNpc } from './storyCampaign.js';
import { beatChoices, choiceIds, ENDING_CHOICE, endingChoice, mergedChoices, npcsNamedIn, takenIds } from './storyChoices.js';
import { campaignStateOf, withCampaignState, type CampaignState, type OfferedChoice } from './storyState.js';
import { clip, sentencesOf } from './storyText.js';

/** What the session passes in before a turn. */
export interface SceneInput {
  /** The session state before the turn. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly input: string;
  /** The session's memories and scene summaries, newest first. */
  readonly memories: readonly Evidence[];
  /** The session's seed (outcomes, voices). */
  readonly seed: number;
}

/** A scene about to be played: the state the turn starts from, and what the narrators get. */
export interface SceneStart {
  readonly scene: number;
  readonly input: string;
  readonly state: Record<string, unknown>;
  readonly context: StoryContext;
  readonly beats: SceneBeats;
  readonly judgements: readonly RecordedJudgement[];
  readonly choices: readonly string[];
  readonly present: readonly StoryNpc[];
  readonly ending?: { readonly ending: StoryEnding; readonly reason: string };
}

/** What the turn did, as the scene's end reads it. */
export interface TurnTelling {
  readonly state: Record<string, unknown>;
  readonly narrative: string;
  readonly choices: readonly string[];
  /** What the storyteller said it told (its output.campaign); undefined when no storyteller ran. */
  readonly told?: { readonly beats: readonly string[]; readonly ending?: string } | undefined;
}

/** A scene played: the state after it, the narration (with what the runtime had to tell itself), the next choices. */
export interface SceneEnd {
  readonly state: Record<string, unknown>;
  readonly narrative: string;
  readonly choices: readonly string[];
  readonly story: StoryTurn;
  /** The memory skill's input for the scene summary. */
  readonly memory: {
    readonly summary: string;
    readonly characters: string[];
    readonly location?: string;
    readonly significance: number;
    readonly tags: string[];
  };
}

/** The opening scene: the premise and the first choices. */
export interface OpeningScene {
  readonly narrative: string;
  readonly choices: readonly string[];
  readonly state: Record<string, unknown>;
  readonly story: StoryTurn;
}

/** How many NPC voices a scene carries at most. */
const MAX_VOICES = 2;

export class CampaignStory {
  private readonly ids: readonly string[];

  constructor(readonly campaign: StoryCampaign) {
    this.ids = choiceIds(campaign);
  }

  /** Play's view of a loaded campaign and its lore chunks. */
  static of(campaign: Campaign, lore: readonly LoreChunk[]): CampaignStory {
    return new CampaignStory(storyCampaignOf(campaign, lore));
  }

  get title(): string {
    return this.campaign.title;
  }

  /** The opening: the premise told, the first choices offered; the state holds the campaign record and the player's starting items. */
  opening(state: Readonly<Record<string, unknown>> = {}): OpeningScene {
    const story = this.campaign;
    const offered = this.openingChoices();
    const campaign: CampaignState = {
      title: story.title,
      scene: 0,
      choices: [],
      offered,
      beats: Object.fromEntries(story.beats.map((beat) => [beat.id, { status: 'waiting' as const, title: beat.title, priority: beat.priority }])),
      active: [],
      endingsInReach: [],
      seeded: false,
    };
    const player = state['player'] ?? {
      ...(story.player.items.length > 0 ? { items: [...story.player.items] } : {}),
      ...(story.player.location ? { location: story.player.location } : {}),
    };
    const narrative = [story.title, ...(story.premise.length > 0 ? story.premise : story.setting.slice(0, 1))].join('\n\n');
    const summary = clip(`The story begins. ${story.premise.join(' ')}`, 400);
    return {
      narrative,
      choices: offered.map((choice) => choice.text),
      state: withCampaignState({ ...state, player }, campaign),
      story: { ...emptyStoryTurn(0, summary), opening: true },
    };
  }

  private openingChoices(): OfferedChoice[] {
    const story = this.campaign;
    const first = story.beats.filter((beat) => beat.conditions['requires_beat'] === undefined && beat.conditions['requires_any_beat'] === undefined);
    const records = Object.fromEntries(
      first.map((beat) => [beat.id, { status: 'waiting' as const, title: beat.title, priority: beat.priority, availableSince: 1 }]),
    );
    const offers: OfferedChoice[] = beatChoices(story, { ...campaignStateOf({}), beats: records });
    for (const beat of first) {
      const place = beat.location?.replace(/^the\s/i, 'the ');
      if (place) offers.push({ id: `go:${beat.id}`, text: `Go to ${place}` });
    }
    // Someone to talk to: the first beats' speakers, then the premise's people in the order it names them (not one it says is gone).
    const premise = story.premise.join(' ');
    const speakers = npcsNamedIn(
      story,
      first.flatMap((beat) => beat.dialogue.map((line) => line.speaker)),
    );
    const named = npcsNamedIn(story, [premise])
      .filter((npc) => !/\b(?:vanished|missing|dead|lost|gone)\b/i.test(npc.role))
      .sort((left, right) => firstMention(premise, left) - firstMention(premise, right));
    for (const npc of [...new Set([...speakers, ...named])].slice(0, 2)) offers.push({ id: `talk:${npc.key}`, text: `Talk to ${npc.name}` });
    offers.push({ id: 'look', text: 'Look around' });
    return offers.slice(0, 4);
  }

  /** Before a turn: the choice ids the move took, the beats advanced to the new scene, NPCs present, lore retrieved. */
  beginScene(input: SceneInput): SceneStart {
    const story = this.campaign;
    const prior = campaignStateOf(input.state, story.title);
    const scene = prior.scene + 1;
    const taken = takenIds(input.input, prior.offered, this.ids);
    // The player_choice ids taken, and the campaign's other choices taken (`state:<beat>`: not offered again).
    const choices = [...prior.choices, ...taken.filter((id) => (this.ids.includes(id) || id.startsWith('state:')) && !prior.choices.includes(id))];
    const beats = advanceBeats(
      story,
      { ...prior, choices },
      { scene, choices: new Set(choices), state: input.state, memories: input.memories, npcs: story.npcs },
      input.seed,
    );
    const done = new Set(Object.entries(beats.beats).flatMap(([id, record]) => (record.status === 'done' ? [id] : [])));
    const endingsInReach = story.endings.filter((ending) => ending.beats.length > 0 && ending.beats.every((id) => done.has(id))).map((ending) => ending.id);
    const ending = this.endingReached(taken, prior, input);
    const triggered = beats.triggered.map(
      ({ beat, reason, outcome }): ToldBeat => ({
        id: beat.id,
        title: beat.title,
        description: beat.description,
        reason,
        ...(beat.mood ? { mood: beat.mood } : {}),
        ...(beat.location ? { location: beat.location } : {}),
        dialogue: beat.dialogue.flatMap((line) => {
          if (/^(?:player|you)$/i.test(line.speaker)) return [];
          const speaker = npcNamed(story, line.speaker)?.name ?? line.speaker;
          return [{ speaker, line: line.line, ...(line.context ? { context: line.context } : {}) }];
        }),
        ...(outcome ? { outcome } : {}),
      }),
    );
    const active = triggered.length > 0 ? triggered.map((beat) => beat.id) : prior.active;
    const beatTexts = triggered.flatMap((beat) => [beat.description, ...beat.dialogue.map((line) => line.speaker)]);
    const present = this.presentNpcs(input.input, beats);
    const recent = recentSentences(input.state);
    const voices = npcVoices(story, present, input.state, [input.input, ...beatTexts], recent, deriveSeed(input.seed, 'scene', scene));
    const titles = (ids: readonly string[]) => ids.map((id) => ({ id, title: story.beats.find((beat) => beat.id === id)?.title ?? id }));
    const next = story.beats.flatMap((beat) => {
      const record = beats.beats[beat.id];
      if (!record || record.status !== 'waiting' || record.availableSince === undefined) return [];
      const waiting = beats.checks[beat.id]?.find((check) => !check.holds);
      return [{ id: beat.id, title: beat.title, waitingOn: waiting ? `${waiting.kind}: ${clip(waiting.reason, 120)}` : 'its turn' }];
    });
    const query = [input.input, ...triggered.flatMap((beat) => [beat.title, beat.description]), ...present.map((npc) => npc.name)].join(' ');
    const located = triggered.find((beat) => beat.location);
    const moody = triggered.find((beat) => beat.mood);
    const context: StoryContext = {
      title: story.title,
      scene,
      setting: settingLine(story, 240),
      constraints: story.constraints.map((line) => clip(sentencesOf(line)[0] ?? line, 140)),
      triggered,
      active: titles(active),
      next: next.slice(0, 3),
      npcs: voices,
      npcNames: story.npcs.flatMap((npc) => npc.aliases.map((alias) => ({ alias, name: npc.name }))),
      lore: loreFacts(query, story.lore),
      rules: { formula: story.rules.formula, bands: story.rules.bands },
      ...(ending ? { ending: { id: ending.ending.id, title: ending.ending.title, telling: ending.ending.telling } } : {}),
      ...(located?.location ? { location: located.location } : {}),
      ...(moody?.mood ? { mood: moody.mood } : {}),
    };
    const judgements = Object.entries(beats.checks).flatMap(([beat, checks]) =>
      checks.flatMap((check) => (check.judgement ? [{ beat, kind: check.kind, holds: check.holds, score: check.judgement.score, reason: check.reason }] : [])),
    );
    const campaign: CampaignState = { ...prior, title: story.title, scene, choices, beats: beats.beats, active, endingsInReach };
    return {
      scene,
      input: input.input,
      state: withCampaignState(input.state, campaign),
      context,
      beats,
      judgements,
      choices: taken.filter((id) => this.ids.includes(id)),
      present,
      ...(ending ? { ending } : {}),
    };
  }

  /**
   * The NPCs in the scene: the first one the player's words name (whom they address; others named are what they talk
   * about), then the triggered beats' speakers and the NPCs their npc_state names.
   */
  private presentNpcs(words: string, beats: SceneBeats): StoryNpc[] {
    const story = this.campaign;
    const addressed = npcsNamedIn(story, [words]).sort((left, right) => firstMention(words, left) - firstMention(words, right))[0];
    const fromBeats = beats.triggered.flatMap(({ beat }) => [
      ...beat.dialogue.map((line) => npcNamed(story, line.speaker)),
      ...Object.keys((beat.conditions['npc_state'] ?? {}) as Record<string, unknown>).map((name) => npcNamed(story, name)),
    ]);
    const present: StoryNpc[] = [];
    for (const npc of [addressed, ...fromBeats]) if (npc && !present.includes(npc)) present.push(npc);
    return present.slice(0, MAX_VOICES);
  }

  /** The ending this move reaches: its offered choice taken, or (for an ending naming no beats) its "Reached when" judged true. */
  private endingReached(taken: readonly string[], prior: CampaignState, input: SceneInput): SceneStart['ending'] {
    const chosen = taken.find((id) => id.startsWith(ENDING_CHOICE));
    const ending = chosen ? this.campaign.endings.find((each) => `${ENDING_CHOICE}${each.id}` === chosen) : undefined;
    if (ending && prior.endingsInReach.includes(ending.id)) return { ending, reason: `the player chose it, its beats (${ending.beats.join(', ')}) done` };
    for (const each of this.campaign.endings) {
      if (each.beats.length > 0 || !each.reachedWhen) continue;
      const judgement = judgeByMeaning(each.reachedWhen, input.memories, undefined, ENDING_THRESHOLD);
      if (judgement.holds) return { ending: each, reason: judgement.reason };
    }
    return undefined;
  }

  /** After the turn: beats and the ending told (by the runtime when the storyteller did not), the next choices, the summary. */
  finishScene(start: SceneStart, turn: TurnTelling): SceneEnd {
    const story = this.campaign;
    const told = new Set(turn.told?.beats ?? []);
    const added: string[] = [];
    const triggered = start.beats.triggered.map(({ beat, reason, lag, outcome }) => {
      const byStoryteller = told.has(beat.id);
      if (!byStoryteller) added.push(`${beat.title}. ${beat.description}`);
      return {
        id: beat.id,
        title: beat.title,
        reason,
        lag,
        ...(outcome ? { outcome } : {}),
        told: byStoryteller ? ('storyteller' as const) : ('runtime' as const),
      };
    });
    const ending = start.ending;
    if (ending && turn.told?.ending !== ending.ending.id) added.push(`${ending.ending.title}. ${ending.ending.telling}`);
    const narrative = [turn.narrative, ...added].filter((text) => text.trim() !== '').join('\n\n');
    const prior = campaignStateOf(start.state, story.title);
    const inReach = story.endings.filter((each) => prior.endingsInReach.includes(each.id) && each.id !== ending?.ending.id);
    const offers = ending ? [] : [...inReach.map(endingChoice), ...beatChoices(story, prior)];
    // Never a scene without a way on: when neither the beats nor the skills offer anything, someone to talk to and a look around.
    if (!ending && offers.length === 0 && turn.choices.length === 0)
      offers.push(...start.present.map((npc) => ({ id: `talk:${npc.key}`, text: `Talk to ${npc.name}` })), { id: 'look', text: 'Look around' });
    const choices = ending ? [] : mergedChoices(offers, turn.choices);
    const offered = offers.filter((offer) => choices.includes(offer.text));
    const campaign: CampaignState = {
      ...prior,
      offered,
      ...(ending ? { ending: { id: ending.ending.id, title: ending.ending.title, scene: start.scene, reason: ending.reason } } : {}),
    };
    const beatIds = triggered.map((beat) => beat.id);
    const summary = clip(
      `Scene ${start.scene}: ${start.input.trim().replace(/[.!?]*$/, '.')} ${sentencesOf(narrative.replace(/\s+/g, ' ')).slice(0, 3).join(' ')}`,
      500,
    );
    const location = start.context.location;
    return {
      state: withCampaignState(turn.state, campaign),
      narrative,
      choices,
      story: {
        scene: start.scene,
        triggered,
        skipped: start.beats.skipped,
        holding: Object.entries(prior.beats).flatMap(([id, record]) => (record.status === 'holding' ? [id] : [])),
        active: prior.active,
        judgements: start.judgements,
        waiting: waitingBeats(start.beats),
        lore: start.context.lore.map((fact) => ({ id: fact.id, score: fact.score })),
        npcs: start.present.map((npc) => npc.name),
        choices: start.choices,
        endingsInReach: prior.endingsInReach,
        ...(ending ? { ending: { id: ending.ending.id, title: ending.ending.title, reason: ending.reason } } : {}),
        summary,
      },
      memory: {
        summary,
        characters: start.present.map((npc) => npc.name),
        ...(location ? { location } : {}),
        significance: ending ? 5 : beatIds.length > 0 ? 4 : 2,
        tags: ['scene', `scene-${start.scene}`, ...beatIds, ...(ending ? [`ending-${ending.ending.id}`] : [])],
      },
    };
  }
}

/** Where a text first names an NPC (by any alias), or Infinity. */
function firstMention(text: string, npc: StoryNpc): number {
  const lower = text.toLowerCase();
  return Math.min(...npc.aliases.map((alias) => lower.indexOf(alias)).map((at) => (at < 0 ? Infinity : at)));
}

/** The beats checked this scene that still wait: how many of their conditions held, and the first that did not (explore's "closest"). */
function waitingBeats(beats: SceneBeats): StoryTurn['waiting'] {
  return Object.entries(beats.checks).flatMap(([id, checks]) => {
    if (beats.beats[id]?.status !== 'waiting') return [];
    const unmet = checks.find((check) => !check.holds);
    return [{ id, met: checks.filter((check) => check.holds).length, of: checks.length, reason: unmet ? `${unmet.kind}: ${unmet.reason}` : 'its turn' }];
  });
}

/** The storyteller's recent sentences (state.story.recentSentences), so a voice does not repeat itself. */
function recentSentences(state: Readonly<Record<string, unknown>>): string[] {
  const story = state['story'];
  const recent = story !== null && typeof story === 'object' ? (story as Record<string, unknown>)['recentSentences'] : undefined;
  return Array.isArray(recent) ? recent.filter((sentence): sentence is string => typeof sentence === 'string') : [];
}
