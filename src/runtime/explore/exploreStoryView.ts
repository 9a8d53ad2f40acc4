// The Explore report's Story section as plain data: beats never triggered (closest session, playtest), skipped with reasons, the endings' histogram, median scenes, SC-004. Browser-safe.
import { plural } from '../common/humanText.js';
import type { ExploreStoryReport } from './exploreTypes.js';

/** A beat no session triggered: the problem, and the session that came closest. */
export interface NeverTriggeredView {
  readonly id: string;
  readonly title: string;
  /** "session 1, scene 10: 1 of 4 conditions held; npc_state: ..."; absent when no session checked it. */
  readonly closest?: string;
  /** The saved playtest of the closest session (as the report gives it: relative to the story root, or absolute). */
  readonly playtest?: string;
}

/** A beat skipped in some sessions, each reason with how many sessions it was skipped in for it. */
export interface SkippedBeatView {
  readonly id: string;
  readonly title: string;
  readonly sessions: number;
  readonly reasons: readonly { readonly reason: string; readonly sessions: number }[];
}

/** One bar of the endings' histogram. */
export interface EndingBarView {
  readonly id: string;
  /** The ending's id, or "no ending". */
  readonly label: string;
  readonly sessions: number;
  /** Its share of the sessions played, 0..1. */
  readonly share: number;
  /** Its bar's length against the longest bar, 0..1. */
  readonly length: number;
}

/** One row of the beats' table. */
export interface BeatRowView {
  readonly id: string;
  readonly title: string;
  /** "5 of 8". */
  readonly triggered: string;
  /** The median scene it triggered in, a dash when it never did. */
  readonly medianScene: string;
  readonly skipped: number;
  readonly neverTriggered: boolean;
}

export interface ExploreStoryView {
  readonly title: string;
  /** "6 beats: 3 triggered in some session, 3 never." */
  readonly summary: string;
  /** The unreachable-beat problem ("3 beats no session reached: ..."), absent when every beat triggered somewhere. */
  readonly problem?: string;
  readonly neverTriggered: readonly NeverTriggeredView[];
  readonly skipped: readonly SkippedBeatView[];
  readonly endings: readonly EndingBarView[];
  readonly beats: readonly BeatRowView[];
  /** SC-004 in words: "100.0% of held beats triggered within 2 scenes (21 of 21)". */
  readonly sc004: string;
}

/** The Story section of a report's `story`, over `sessions` played. */
export function exploreStoryView(story: ExploreStoryReport, sessions: number): ExploreStoryView {
  const never = story.beats.filter((beat) => beat.triggered === 0);
  const neverTriggered = never.map((beat): NeverTriggeredView => {
    const closest = beat.closest;
    return {
      id: beat.id,
      title: beat.title,
      ...(closest ? { closest: `session ${closest.session}, scene ${closest.scene}: ${closest.met} of ${closest.of} conditions held; ${closest.reason}` } : {}),
      ...(closest?.playtest ? { playtest: closest.playtest } : {}),
    };
  });
  const skipped = story.beats
    .filter((beat) => beat.skipped > 0)
    .map(
      (beat): SkippedBeatView => ({
        id: beat.id,
        title: beat.title,
        sessions: beat.skipped,
        reasons: Object.entries(beat.skipReasons)
          .map(([reason, count]) => ({ reason, sessions: count }))
          .sort((left, right) => right.sessions - left.sessions),
      }),
    );
  const counts = Object.entries(story.endings);
  const longest = Math.max(1, ...counts.map(([, count]) => count));
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  // The endings in the report's order, "no ending" last.
  const endings = [...counts.filter(([id]) => id !== 'none'), ...counts.filter(([id]) => id === 'none')].map(
    ([id, count]): EndingBarView => ({
      id,
      label: id === 'none' ? 'no ending' : id,
      sessions: count,
      share: total === 0 ? 0 : count / total,
      length: count / longest,
    }),
  );
  const beats = story.beats.map(
    (beat): BeatRowView => ({
      id: beat.id,
      title: beat.title,
      triggered: `${beat.triggered} of ${sessions}`,
      medianScene: beat.medianScene === null ? '\u2013' : String(beat.medianScene),
      skipped: beat.skipped,
      neverTriggered: beat.triggered === 0,
    }),
  );
  const reached = story.beats.length - never.length;
  return {
    title: story.title,
    summary: `${plural(story.beats.length, 'beat')}: ${reached} triggered in some session, ${never.length} never.`,
    ...(never.length > 0
      ? {
          problem:
            `${plural(never.length, 'beat')} no session reached: ${never.map((beat) => beat.id).join(', ')}. ` +
            'Each is a problem (narratoria explore exits 1); the session that came closest is saved as a playtest.',
        }
      : {}),
    neverTriggered,
    skipped,
    endings,
    beats,
    sc004: sc004Words(story.sc004),
  };
}

function sc004Words(sc004: ExploreStoryReport['sc004']): string {
  const late = sc004.tooLate > 0 ? `; ${sc004.tooLate} held too late in their session to count` : '';
  if (sc004.share === null) return `No beat's conditions held with two scenes left to play${late}.`;
  return `${(sc004.share * 100).toFixed(1)}% of the beats whose conditions held triggered within 2 scenes (${sc004.withinTwoScenes} of ${sc004.held}${late}).`;
}
