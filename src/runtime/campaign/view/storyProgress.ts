// The play panel's view of a campaign session as plain data: the story header (title, scene, active and done beats), the beat timeline (when and why each beat triggered or was skipped). Pure.
import type { StoryTurn } from '../play/storyContext.js';
import { campaignStateOf, CAMPAIGN_STATE_KEY, type CampaignState } from '../play/storyState.js';

/** A beat as the panel names it. */
export interface BeatName {
  readonly id: string;
  readonly title: string;
}

/** One event of the beat timeline: a beat that triggered or was skipped, in which scene and turn, and why (the runtime's own reason). */
export interface BeatTimelineEntry extends BeatName {
  readonly event: 'triggered' | 'skipped';
  readonly scene: number;
  /** The session's turn (1-based, the opening is turn 1) whose scene it happened in; absent when no turn record says. */
  readonly turn?: number;
  readonly reason: string;
  /** The outcome drawn when it triggered. */
  readonly outcome?: string;
  /** Who told a triggered beat: the storyteller, or the runtime when no storyteller did. */
  readonly told?: 'storyteller' | 'runtime';
}

/** The story header and the beat timeline of a campaign session. */
export interface StoryProgressView {
  readonly title: string;
  /** Scenes played (0 at the opening). */
  readonly scene: number;
  /** The beats in play: triggered last. */
  readonly active: readonly BeatName[];
  /** The beats done, in the order they triggered. */
  readonly done: readonly BeatName[];
  readonly skipped: number;
  /** Every beat of the campaign. */
  readonly total: number;
  /** Beats whose conditions hold: they trigger in the next scene. */
  readonly holding: readonly BeatName[];
  /** Endings whose beats are all done (each scene offers a choice toward them). */
  readonly endingsInReach: readonly string[];
  readonly ending?: { readonly id: string; readonly title: string; readonly scene: number; readonly reason: string };
  /** Triggered and skipped beats, oldest first (by scene; in a scene, triggers before skips). */
  readonly timeline: readonly BeatTimelineEntry[];
}

/** What one turn did to the story, for its entry in the play panel. */
export interface TurnStoryView {
  readonly scene: number;
  readonly opening: boolean;
  readonly triggered: readonly (BeatName & { readonly reason: string; readonly outcome?: string; readonly told: 'storyteller' | 'runtime' })[];
  readonly skipped: readonly (BeatName & { readonly reason: string })[];
  readonly ending?: { readonly id: string; readonly title: string; readonly reason: string };
}

/** A turn as the timeline reads it: its index and what it did to the story. */
export interface StoryTurnRecord {
  readonly index: number;
  readonly story?: StoryTurn | undefined;
}

/** Whether a session state is a campaign's (the runtime keeps `campaign` in it). */
export function isCampaignState(state: Readonly<Record<string, unknown>>): boolean {
  const value = state[CAMPAIGN_STATE_KEY];
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The story header and beat timeline of a session, from its state and its turns; undefined when it plays no campaign. */
export function storyProgressOf(state: Readonly<Record<string, unknown>>, turns: readonly StoryTurnRecord[]): StoryProgressView | undefined {
  if (!isCampaignState(state)) return undefined;
  const campaign = campaignStateOf(state);
  const name = nameOf(campaign);
  const timeline = timelineOf(campaign, turns);
  const records = Object.entries(campaign.beats);
  const triggeredOrder = timeline.filter((entry) => entry.event === 'triggered').map((entry) => entry.id);
  const doneIds = records.filter(([, record]) => record.status === 'done').map(([id]) => id);
  const done = [...new Set([...triggeredOrder.filter((id) => doneIds.includes(id)), ...doneIds])].map(name);
  return {
    title: campaign.title,
    scene: campaign.scene,
    active: campaign.active.map(name),
    done,
    skipped: records.filter(([, record]) => record.status === 'skipped').length,
    total: records.length,
    holding: records.filter(([, record]) => record.status === 'holding').map(([id]) => name(id)),
    endingsInReach: campaign.endingsInReach,
    ...(campaign.ending ? { ending: campaign.ending } : {}),
    timeline,
  };
}

/**
 * The timeline: each turn's triggered and skipped beats with the turn they happened in, then the beats the state says are
 * done or skipped that no turn record carries (a session saved by an older version), with their scene and reason.
 */
function timelineOf(campaign: CampaignState, turns: readonly StoryTurnRecord[]): BeatTimelineEntry[] {
  const name = nameOf(campaign);
  const entries: BeatTimelineEntry[] = [];
  const seen = new Set<string>();
  for (const turn of turns) {
    const story = turn.story;
    if (!story) continue;
    for (const beat of story.triggered) {
      seen.add(`triggered:${beat.id}`);
      entries.push({
        ...name(beat.id),
        title: beat.title,
        event: 'triggered',
        scene: story.scene,
        turn: turn.index,
        reason: beat.reason,
        ...(beat.outcome ? { outcome: beat.outcome } : {}),
        told: beat.told,
      });
    }
    for (const beat of story.skipped) {
      seen.add(`skipped:${beat.id}`);
      entries.push({ ...name(beat.id), event: 'skipped', scene: story.scene, turn: turn.index, reason: beat.reason });
    }
  }
  for (const [id, record] of Object.entries(campaign.beats)) {
    const event = record.status === 'done' ? 'triggered' : record.status === 'skipped' ? 'skipped' : undefined;
    if (!event || seen.has(`${event}:${id}`)) continue;
    entries.push({
      ...name(id),
      event,
      scene: record.scene ?? campaign.scene,
      reason: record.reason ?? (event === 'triggered' ? 'its conditions held' : 'it could no longer happen'),
      ...(record.outcome ? { outcome: record.outcome } : {}),
    });
  }
  // Stable: turn order is kept within a scene; triggers come before skips.
  return entries
    .map((entry, position) => ({ entry, position }))
    .sort(
      (left, right) =>
        left.entry.scene - right.entry.scene ||
        Number(left.entry.event === 'skipped') - Number(right.entry.event === 'skipped') ||
        left.position - right.position,
    )
    .map(({ entry }) => entry);
}

/** What a turn did to the story, with the beats' titles from the session state; undefined for a turn of no campaign. */
export function turnStoryOf(story: StoryTurn | undefined, state: Readonly<Record<string, unknown>>): TurnStoryView | undefined {
  if (!story) return undefined;
  const name = nameOf(campaignStateOf(state));
  return {
    scene: story.scene,
    opening: story.opening === true,
    triggered: story.triggered.map((beat) => ({
      id: beat.id,
      title: beat.title,
      reason: beat.reason,
      ...(beat.outcome ? { outcome: beat.outcome } : {}),
      told: beat.told,
    })),
    skipped: story.skipped.map((beat) => ({ ...name(beat.id), reason: beat.reason })),
    ...(story.ending ? { ending: story.ending } : {}),
  };
}

function nameOf(campaign: CampaignState): (id: string) => BeatName {
  return (id) => ({ id, title: campaign.beats[id]?.title || id });
}
