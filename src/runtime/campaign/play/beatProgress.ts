// The beats' lifecycle scene by scene (docs/campaigns.md#the-beats-lifecycle): waiting, holding, done or skipped; priority first; timeouts, fallbacks, outcomes. Pure.
import { deriveSeed, seededRandom } from '../../common/seed.js';
import { beatRequirementsMet, checkBeat, type ConditionCheck, type StoryView } from './beatConditions.js';
import { PRIORITY_RANK, type StoryBeat, type StoryCampaign } from './storyCampaign.js';
import type { BeatRecord, CampaignState } from './storyState.js';

/** A beat that triggered this scene, and why. */
export interface TriggeredBeat {
  readonly beat: StoryBeat;
  readonly reason: string;
  /** Scenes between its conditions first holding and its trigger (0 or 1; FR-021 allows 2). */
  readonly lag: number;
  readonly outcome?: string;
}

/** What one scene did to the beats. */
export interface SceneBeats {
  readonly beats: Readonly<Record<string, BeatRecord>>;
  readonly triggered: readonly TriggeredBeat[];
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
  /** Each beat checked this scene (neither done nor skipped before), with its conditions' verdicts. */
  readonly checks: Readonly<Record<string, readonly ConditionCheck[]>>;
}

/** The condition kinds that are about other beats (the beat is "available" once they hold: its timeout counts from then). */
const BEAT_KINDS = new Set(['requires_beat', 'requires_any_beat']);

function freshRecord(beat: StoryBeat): BeatRecord {
  return { status: 'waiting', title: beat.title, priority: beat.priority };
}

/**
 * Advances every beat to `view.scene`: beats that can no longer trigger are skipped (their reason kept), beats whose
 * conditions hold start holding, a beat whose timeout passed is skipped and its fallback becomes due. Then the holding
 * beat of highest priority triggers (ties: the one holding longest, then file order), and so does every beat that has
 * been holding since an earlier scene, so none waits more than one scene. `seed` draws triggered beats' outcomes.
 */
export function advanceBeats(
  story: Pick<StoryCampaign, 'beats'>,
  prior: CampaignState,
  view: Omit<StoryView, 'done' | 'skipped' | 'enabled'>,
  seed: number,
): SceneBeats {
  const scene = view.scene;
  const records: Record<string, BeatRecord> = {};
  for (const beat of story.beats) records[beat.id] = prior.beats[beat.id] ?? freshRecord(beat);
  const skipped: { id: string; reason: string }[] = [];
  const checks: Record<string, ConditionCheck[]> = {};
  const ids = (status: BeatRecord['status']) => new Set(Object.entries(records).flatMap(([id, record]) => (record.status === status ? [id] : [])));
  const skip = (id: string, reason: string) => {
    records[id] = { ...records[id]!, status: 'skipped', scene, reason };
    skipped.push({ id, reason });
  };
  // Skipping one beat can make others impossible: check again until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    const done = ids('done');
    const gone = ids('skipped');
    const enabled = new Set(Object.entries(records).flatMap(([id, record]) => (record.enabledBy ? [id] : [])));
    const fullView: StoryView = { ...view, done, skipped: gone, enabled };
    for (const beat of story.beats) {
      const record = records[beat.id]!;
      if (record.status === 'done' || record.status === 'skipped' || record.status === 'holding') continue;
      const verdicts = checkBeat(beat, fullView);
      checks[beat.id] = verdicts;
      const available = verdicts.filter((check) => BEAT_KINDS.has(check.kind)).every((check) => check.holds);
      const availableSince = record.availableSince ?? (available ? scene : undefined);
      if (availableSince !== undefined && record.availableSince === undefined) records[beat.id] = { ...record, availableSince };
      const impossible = verdicts.find((check) => check.impossible)?.impossible;
      if (impossible) {
        skip(beat.id, impossible);
        changed = true;
        continue;
      }
      if (verdicts.every((check) => check.holds)) {
        records[beat.id] = { ...records[beat.id]!, status: 'holding', heldSince: scene, reason: holdingReason(verdicts) };
        continue;
      }
      if (beat.timeout && availableSince !== undefined && scene - availableSince >= beat.timeout.scenes) {
        skip(beat.id, `it timed out: ${beat.timeout.scenes} scene(s) after it became possible (scene ${availableSince}) its conditions still did not hold`);
        const fallback = beat.timeout.fallback;
        const target = fallback ? records[fallback] : undefined;
        if (fallback && target && (target.status === 'waiting' || target.status === 'holding'))
          records[fallback] = { ...target, status: 'holding', heldSince: target.heldSince ?? scene, fallbackOf: beat.id };
        changed = true;
      }
    }
  }
  const order = new Map(story.beats.map((beat) => [beat.id, beat]));
  const holding = story.beats
    .filter((beat) => records[beat.id]!.status === 'holding')
    .sort(
      (left, right) =>
        PRIORITY_RANK[left.priority] - PRIORITY_RANK[right.priority] ||
        (records[left.id]!.heldSince ?? scene) - (records[right.id]!.heldSince ?? scene) ||
        left.index - right.index,
    );
  const triggered: TriggeredBeat[] = [];
  holding.forEach((beat, position) => {
    const record = records[beat.id]!;
    const heldSince = record.heldSince ?? scene;
    if (position > 0 && heldSince >= scene) return;
    const reason = record.fallbackOf
      ? `the fallback of ${record.fallbackOf}, which timed out`
      : `its conditions held since scene ${heldSince}${record.reason ? `: ${record.reason}` : ''}`;
    const outcome = drawOutcome(beat, seed);
    records[beat.id] = { ...record, status: 'done', scene, reason, ...(outcome ? { outcome: outcome.description } : {}) };
    const enables = outcome?.triggersBeat;
    const target = enables ? records[enables] : undefined;
    if (enables && target && order.has(enables) && (target.status === 'waiting' || target.status === 'holding'))
      records[enables] = { ...target, enabledBy: beat.id };
    triggered.push({ beat, reason, lag: scene - heldSince, ...(outcome ? { outcome: outcome.description } : {}) });
  });
  // Beats the triggers made possible are possible from the next scene (their choices are offered, their timeout counts).
  const done = ids('done');
  const enabled = new Set(Object.entries(records).flatMap(([id, record]) => (record.enabledBy ? [id] : [])));
  for (const beat of story.beats) {
    const record = records[beat.id]!;
    if (record.status === 'waiting' && record.availableSince === undefined && beatRequirementsMet(beat, done, enabled))
      records[beat.id] = { ...record, availableSince: scene + 1 };
  }
  return { beats: records, triggered, skipped, checks };
}

/** A short why of a holding beat: its conditions' reasons. */
function holdingReason(checks: readonly ConditionCheck[]): string {
  return checks.length === 0 ? 'it has no conditions' : checks.map((check) => `${check.kind} (${check.reason})`).join('; ');
}

/** One of the beat's outcomes, drawn by their probabilities (the rest shared evenly) with a seed of the beat's own. */
export function drawOutcome(beat: Pick<StoryBeat, 'id' | 'outcomes'>, seed: number): StoryBeat['outcomes'][number] | undefined {
  if (beat.outcomes.length === 0) return undefined;
  const given = beat.outcomes.reduce((sum, outcome) => sum + (outcome.probability ?? 0), 0);
  const unweighted = beat.outcomes.filter((outcome) => outcome.probability === undefined).length;
  const share = unweighted > 0 ? Math.max(0, 1 - given) / unweighted : 0;
  const weights = beat.outcomes.map((outcome) => outcome.probability ?? share);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return beat.outcomes[0];
  let draw = seededRandom(deriveSeed(seed, 'beat', beat.id))() * total;
  for (const [index, weight] of weights.entries()) {
    draw -= weight;
    if (draw < 0) return beat.outcomes[index];
  }
  return beat.outcomes.at(-1);
}
