// The session state keys of campaign play (docs/campaigns.md#state-keys): `campaign` (scene, choices, beats, ending) kept by the runtime, and `player`, `npcs`, `world` that skills set. Pure readers.
import { asRecord } from '../modelReading.js';
import { nameKey } from './storyText.js';

/** The top-level state key the runtime keeps the campaign's progress under. */
export const CAMPAIGN_STATE_KEY = 'campaign';

/** Where a beat stands: waiting on its conditions, holding (they hold: it triggers within 2 scenes), done, or skipped. */
export type BeatStatus = 'waiting' | 'holding' | 'done' | 'skipped';

/** `campaign.beats.<id>`. */
export interface BeatRecord {
  readonly status: BeatStatus;
  readonly title: string;
  readonly priority: string;
  /** The first scene its conditions held in. */
  readonly heldSince?: number;
  /** The scene it triggered in (done) or was skipped in. */
  readonly scene?: number;
  /** Why it was skipped, or why it triggered (its conditions, a fallback, an outcome). */
  readonly reason?: string;
  /** The outcome drawn when it triggered (one of its `outcomes`). */
  readonly outcome?: string;
  /** The beat whose outcome enabled it (its beat requirements count as met). */
  readonly enabledBy?: string;
  /** The beat whose timeout made it due (it triggers whatever its conditions). */
  readonly fallbackOf?: string;
  /** The scene from which its timeout counts (when its required beats were done). */
  readonly availableSince?: number;
}

/** A choice the campaign offered: its id (a `player_choice` id, or `ending:<name>`) and its words. */
export interface OfferedChoice {
  readonly id: string;
  readonly text: string;
}

/** `campaign`: what the runtime records of the play-through. */
export interface CampaignState {
  readonly title: string;
  /** Scenes played: 0 at the opening, n after the nth turn. */
  readonly scene: number;
  /** The `player_choice` ids taken, in order. */
  readonly choices: readonly string[];
  /** The campaign's own choices the last scene offered. */
  readonly offered: readonly OfferedChoice[];
  readonly beats: Readonly<Record<string, BeatRecord>>;
  /** The beats triggered last: the story's current beats, until others trigger. */
  readonly active: readonly string[];
  /** Endings whose beats are all done: play is guided toward them. */
  readonly endingsInReach: readonly string[];
  readonly ending?: { readonly id: string; readonly title: string; readonly scene: number; readonly reason: string };
  /** Whether npc-perception and reputation were seeded from the profiles. */
  readonly seeded: boolean;
}

/** The campaign's record in a session state (an empty one when there is none yet). */
export function campaignStateOf(state: Readonly<Record<string, unknown>>, title = ''): CampaignState {
  const raw = asRecord(state[CAMPAIGN_STATE_KEY]) ?? {};
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  const offered = Array.isArray(raw['offered'])
    ? raw['offered'].flatMap((item) => {
        const choice = asRecord(item);
        return typeof choice?.['id'] === 'string' && typeof choice['text'] === 'string' ? [{ id: choice['id'], text: choice['text'] }] : [];
      })
    : [];
  const beats: Record<string, BeatRecord> = {};
  for (const [id, value] of Object.entries(asRecord(raw['beats']) ?? {})) {
    const record = asRecord(value);
    if (record && typeof record['status'] === 'string') beats[id] = record as unknown as BeatRecord;
  }
  const ending = asRecord(raw['ending']);
  return {
    title: typeof raw['title'] === 'string' ? raw['title'] : title,
    scene: typeof raw['scene'] === 'number' ? raw['scene'] : 0,
    choices: strings(raw['choices']),
    offered,
    beats,
    active: strings(raw['active']),
    endingsInReach: strings(raw['endingsInReach']),
    ...(ending && typeof ending['id'] === 'string' ? { ending: ending as unknown as NonNullable<CampaignState['ending']> } : {}),
    seeded: raw['seeded'] === true,
  };
}

/** The state with `campaign` replaced (every other key kept). */
export function withCampaignState(state: Readonly<Record<string, unknown>>, campaign: CampaignState): Record<string, unknown> {
  return { ...state, [CAMPAIGN_STATE_KEY]: campaign };
}

/** The value at a dotted path of the state (`player.saltlight`), or undefined. */
export function valueAt(state: Readonly<Record<string, unknown>>, dotted: string): unknown {
  let value: unknown = state;
  for (const segment of dotted.split('.')) {
    const record = asRecord(value);
    if (!record) return undefined;
    value = record[segment];
  }
  return value;
}

/** The entry of `npcs` naming an NPC (by any of its aliases: "Tamsin Reed", "tamsin"), with the key it is under. */
export function npcEntryOf(state: Readonly<Record<string, unknown>>, aliases: readonly string[]): { key: string; value: unknown } | undefined {
  const npcs = asRecord(state['npcs']);
  if (!npcs) return undefined;
  for (const [key, value] of Object.entries(npcs)) if (aliases.includes(nameKey(key))) return { key, value };
  return undefined;
}

/** A value as words for judging ("has the tower key" against `{ items: ["the tower key"] }`): keys and values, depth-first. */
export function wordsOfValue(value: unknown, prefix = '', depth = 0): string[] {
  if (depth > 4) return [];
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [`${prefix}${String(value)}`.trim()];
  if (Array.isArray(value)) return value.flatMap((item) => wordsOfValue(item, prefix, depth + 1));
  const record = asRecord(value);
  if (!record) return [];
  return Object.entries(record).flatMap(([key, item]) => wordsOfValue(item, `${key.replace(/[_.]/g, ' ')} `, depth + 1));
}

/** Whether two short values are the same (case, spaces, - and _ ignored; numbers as numbers). */
export function sameValue(actual: unknown, wanted: unknown): boolean {
  if (typeof wanted === 'number' || typeof wanted === 'boolean') return actual === wanted || String(actual) === String(wanted);
  if (typeof wanted !== 'string' || (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'boolean')) return false;
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim();
  return plain(String(actual)) === plain(wanted);
}
