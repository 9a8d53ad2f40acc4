// A failed turn to replay under the debugger: the plan its last attempt ran and the state before it, read from the turn's run record and written beside the runs.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { FileRunStore, runsDirectory } from '../persistence/runStore.js';
import { PLAYTEST_SUFFIX } from './playtestDocument.js';
import type { PlaytestReport } from './playtestTypes.js';

/** A failed turn's replay: the files a `narratoria` launch configuration runs, and what to call the session. */
export interface TurnReplay {
  /** The debug session's name: "Debug <playtest>, turn <n>". */
  readonly name: string;
  readonly playtest: string;
  /** The turn's number (1-based). */
  readonly turn: number;
  /** The plan of the turn's last attempt. */
  readonly planFile: string;
  /** The state before the turn. */
  readonly stateFile: string;
}

/** Where replays are written: `<root>/.narratoria/playtests/debug/`. */
export function turnReplaysDirectory(root: string): string {
  return path.join(root, '.narratoria', 'playtests', 'debug');
}

/** The run record of a turn's last attempt (Replay Turn in Debugger and Show Turn Graph open it). */
export function turnRunRecordFile(root: string, runId: string): string {
  return new FileRunStore(runsDirectory(root)).recordFile(runId);
}

/**
 * Writes the replay of every failed turn that has a recorded run, in the order of the reports: `<playtest file's
 * name>-turn-<n>.plan.json` and `.state.json`. Throws when a turn's run record is missing.
 */
export async function writeTurnReplays(reports: readonly PlaytestReport[], root: string): Promise<TurnReplay[]> {
  const folder = turnReplaysDirectory(root);
  await mkdir(folder, { recursive: true });
  const store = new FileRunStore(runsDirectory(root));
  const replays: TurnReplay[] = [];
  for (const playtest of reports) {
    for (const turn of playtest.turns) {
      if (turn.status !== 'failed' || !turn.runId) continue;
      const record = await store.load(turn.runId);
      if (!record) throw new Error(`the run of ${playtest.name}, turn ${turn.index} is not recorded (${store.recordFile(turn.runId)})`);
      const base = path.join(folder, `${path.basename(playtest.file, PLAYTEST_SUFFIX)}-turn-${turn.index}`);
      const replay = {
        name: `Debug ${playtest.name}, turn ${turn.index}`,
        playtest: playtest.name,
        turn: turn.index,
        planFile: `${base}.plan.json`,
        stateFile: `${base}.state.json`,
      };
      await writeFile(replay.planFile, `${JSON.stringify(record.plan, null, 2)}\n`);
      // (A record written by another runtime may have no initial state.)
      await writeFile(replay.stateFile, `${JSON.stringify(record.initialState ?? {}, null, 2)}\n`);
      replays.push(replay);
    }
  }
  return replays;
}
