// The beat graph during a play session: each beat done, active, reachable or skipped, from the session's `campaign` state, with the words its tooltip says. Pure.
import { campaignStateOf, type BeatRecord } from '../play/storyState.js';

/** Where a beat stands in the session, as the beat graph colours it. */
export type BeatPlayStatus = 'done' | 'active' | 'reachable' | 'skipped';

/** One beat's place in the session. */
export interface BeatPlayView {
  readonly id: string;
  readonly status: BeatPlayStatus;
  /** Why, in a sentence: "triggered in scene 2: its conditions held since scene 1", "skipped in scene 4: ...". */
  readonly detail: string;
}

/** The session the beat graph shows: its name and scene, and each beat's status. */
export interface BeatPlayOverlay {
  /** "Play-through 2026-11-29-1015, scene 3". */
  readonly label: string;
  readonly beats: readonly BeatPlayView[];
}

/**
 * Each beat's status in a session state: **active** (triggered last: `campaign.active`), **done** (triggered before),
 * **skipped** (can no longer trigger), **reachable** (waiting or holding, and not among `unreachable`: the beats the
 * graph found can never happen, which keep their own mark). A beat the state does not know yet (a session begun before
 * it was written) is reachable unless unreachable.
 */
export function beatPlayStates(
  state: Readonly<Record<string, unknown>>,
  beatIds: readonly string[],
  unreachable: ReadonlySet<string> = new Set(),
): BeatPlayView[] {
  const campaign = campaignStateOf(state);
  const active = new Set(campaign.active);
  return beatIds.flatMap((id): BeatPlayView[] => {
    const record: BeatRecord | undefined = campaign.beats[id];
    if (record?.status === 'done')
      return [{ id, status: active.has(id) ? 'active' : 'done', detail: `${active.has(id) ? 'active, ' : ''}${sceneWords('triggered', record)}` }];
    if (record?.status === 'skipped') return [{ id, status: 'skipped', detail: sceneWords('skipped', record) }];
    if (unreachable.has(id)) return [];
    if (record?.status === 'holding')
      return [{ id, status: 'reachable', detail: `its conditions hold since scene ${record.heldSince ?? campaign.scene}: it triggers next scene` }];
    return [{ id, status: 'reachable', detail: 'can still happen: its conditions do not hold yet' }];
  });
}

/** "triggered in scene 2: <reason>". */
function sceneWords(event: string, record: BeatRecord): string {
  const scene = record.scene !== undefined ? ` in scene ${record.scene}` : '';
  return `${event}${scene}${record.reason ? `: ${record.reason}` : ''}`;
}

/** The overlay of a session: its label and each beat's status. */
export function beatPlayOverlay(
  sessionName: string,
  state: Readonly<Record<string, unknown>>,
  beatIds: readonly string[],
  unreachable: ReadonlySet<string> = new Set(),
): BeatPlayOverlay {
  const scene = campaignStateOf(state).scene;
  return { label: `Play-through ${sessionName}, scene ${scene}`, beats: beatPlayStates(state, beatIds, unreachable) };
}
