// `narratoria play --once` on a campaign outside any saved play-through: the campaign's first scene, in a play-through of its own removed after.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PlanRun } from '../../runtime/executor/planExecutor.js';
import { PlaySession } from '../../runtime/session/playSession.js';
import type { TurnResult } from '../../runtime/session/turnTypes.js';
import { isolatedScope } from '../../runtime/skills/skillDataScope.js';

/** One turn of a campaign outside any saved play-through: its first scene, in a play-through of its own removed after. */
export async function onceInCampaign(
  input: string,
  signal: AbortSignal,
  follow: (run: PlanRun) => void,
  options: Omit<Parameters<typeof PlaySession.open>[0], 'file' | 'dataScope' | 'attemptLogFile'>,
): Promise<TurnResult> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-once-'));
  try {
    const session = await PlaySession.open({
      ...options,
      file: path.join(folder, 'session.json'),
      attemptLogFile: null,
      dataScope: await isolatedScope(options.root, 'once', folder),
    });
    session.onDidStartPlanRun(({ run }) => follow(run));
    try {
      return await session.play(input, signal);
    } finally {
      session.dispose();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
