// Save Session as Playtest: a play session (seed, state before turn 1, each turn's words) as a playtest expecting what happened, in a new file.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { SessionFile, TurnRecord } from '../session/playSession.js';
import { PLAYTEST_SUFFIX } from './playtestDocument.js';
import type { TurnOutcome } from './playtestTypes.js';

/** The playtest's JSON text for a session (2-space indented, a final newline). */
export function playtestFromSession(session: Pick<SessionFile, 'seed' | 'initialState' | 'turns'>, name: string): string {
  // A campaign's opening scene played no input: the playtest starts from it, as a new play-through does.
  const turns = session.turns
    .filter((turn) => !turn.opening)
    .map((turn) => {
      const played = turn.choice !== undefined ? { choice: turn.choice } : { input: turn.input };
      const expect: Record<string, unknown> = {};
      if (turn.skills) {
        expect['skills'] = turn.skills;
        expect['skillsMatch'] = 'strict';
      }
      expect['outcome'] = outcomeOfRecord(turn);
      // A campaign turn: the beats it triggered have triggered (by then).
      if (turn.story && turn.story.triggered.length > 0) expect['beats'] = { triggered: turn.story.triggered.map((beat) => beat.id) };
      if (turn.story?.ending) expect['ending'] = turn.story.ending.id;
      return { ...played, expect };
    });
  const playtest = { name, narrator: 'pattern', seed: session.seed ?? 1, state: session.initialState ?? {}, turns };
  return `${JSON.stringify(playtest, null, 2)}\n`;
}

/** A turn's outcome as a playtest says it: success (first attempt), replanned (a later one) or fallback. */
function outcomeOfRecord(turn: TurnRecord): TurnOutcome {
  if (turn.fallback || turn.cancelled) return 'fallback';
  return turn.attempts[0]?.outcome === 'success' ? 'success' : 'replanned';
}

/** `<folder>/<slug>.playtest.json`, or `<slug>-2…` when that file exists: an existing playtest is never replaced. */
export function freePlaytestFile(folder: string, name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'session';
  for (let number = 1; ; number++) {
    const file = path.join(folder, `${slug}${number === 1 ? '' : `-${number}`}${PLAYTEST_SUFFIX}`);
    if (!existsSync(file)) return file;
  }
}
