// A recorded run (run record or ExecutionResult) as debugger history: the boundaries and events it passed, with the state at each, without running anything.
import type { AttemptRecord, ToolResult } from '../contractTypes/executionResult.js';
import { skillOfToolPath } from '../graph/planGraph.js';
import { deepMerge, isPlainObject } from '../state/deepMerge.js';
import { DebugHistory } from './debugHistory.js';

/** What a replay is built from. */
export interface RecordedRun {
  readonly results: readonly ToolResult[];
  readonly initialState: Record<string, unknown>;
  /** The plan's tools in plan order (for inputs and the order of tools that started together). */
  readonly tools: readonly {
    readonly toolId: string;
    readonly toolPath?: string | undefined;
    readonly input?: unknown;
    readonly dependencies?: readonly string[] | undefined;
  }[];
}

/**
 * Lays a recorded run out as points, tool by tool in the order they started: for each attempt a `tool` point,
 * its events (the final attempt's, which is all a record keeps) and a `finish` point. A tool's state is the
 * initial state plus the patches of the tools that had finished before it started; recorded events of tools
 * that ran side by side are replayed one tool after the other.
 */
export function replayHistory(run: RecordedRun): DebugHistory {
  const history = new DebugHistory();
  const planIndex = new Map(run.tools.map((tool, index) => [tool.toolId, index]));
  const started = run.results
    .filter((result) => result.state !== 'skipped')
    .sort((left, right) => timeOf(left.startedAt) - timeOf(right.startedAt) || (planIndex.get(left.toolId) ?? 0) - (planIndex.get(right.toolId) ?? 0));
  const origin = Math.min(...started.map((result) => timeOf(result.startedAt)).filter(Number.isFinite), Number.POSITIVE_INFINITY);
  const finishedByTime = [...started].filter((result) => result.state === 'success').sort((left, right) => timeOf(left.finishedAt) - timeOf(right.finishedAt));
  const outputs = new Map(run.results.map((result) => [result.toolId, result.output ?? null]));
  for (const result of started) {
    const tool = run.tools[planIndex.get(result.toolId) ?? -1];
    const input = isPlainObject(tool?.input) ? tool.input : {};
    const dependencies = Object.fromEntries((tool?.dependencies ?? []).map((dependency) => [dependency, outputs.get(dependency) ?? null]));
    const skill = result.skill ?? skillOfToolPath(result.toolPath ?? tool?.toolPath ?? '');
    let state = run.initialState;
    for (const earlier of finishedByTime) {
      if (earlier === result || timeOf(earlier.finishedAt) > timeOf(result.startedAt)) continue;
      for (const event of earlier.events ?? []) if (event.type === 'state_patch') state = deepMerge(state, event.patch);
    }
    const startMs = Number.isFinite(origin) ? Math.max(0, timeOf(result.startedAt) - origin) : 0;
    const attempts: readonly AttemptRecord[] =
      result.attempts && result.attempts.length > 0
        ? result.attempts
        : [
            {
              attempt: 1,
              durationMs: result.executionTimeMs ?? 0,
              ok: result.state === 'success',
              exitCode: result.exitCode ?? null,
              ...(result.error ? { error: result.error } : {}),
            },
          ];
    let offset = startMs;
    for (const attempt of attempts) {
      const last = attempt === attempts[attempts.length - 1];
      const base = { toolId: result.toolId, attempt: attempt.attempt, skill, input, dependencies };
      offset += attempt.backoffMs ?? 0;
      history.append({ ...base, kind: 'tool', state, timeMs: offset });
      let working = state;
      if (last) {
        (result.events ?? []).forEach((event, eventIndex) => {
          history.append({ ...base, kind: 'event', state: working, event, eventIndex, timeMs: offset });
          if (event.type === 'state_patch') working = deepMerge(working, event.patch);
        });
      }
      offset += attempt.durationMs ?? 0;
      const timedOut = last ? result.state === 'timeout' : attempt.error?.category === 'timeout';
      history.append({
        ...base,
        kind: 'finish',
        state: working,
        ok: attempt.ok,
        result: last ? { ...result } : { ...attempt },
        ...(attempt.ok
          ? {}
          : {
              failure: {
                category: timedOut ? 'timeout' : (attempt.error?.category ?? 'process_error'),
                message: attempt.error?.message ?? 'the tool failed',
                timedOut,
                willRetry: !last,
              },
            }),
        timeMs: offset,
      });
    }
  }
  return history;
}

function timeOf(iso: string | undefined): number {
  const time = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
}
