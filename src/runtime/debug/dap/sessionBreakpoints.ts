// Every kind of breakpoint a debug session holds (line, function, beat, exception, data) and the DAP answers that set them, plus where they stop in recorded history.
import * as path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { BeatBreakpoints, isBeatBreakpointName, type BeatCatalog } from '../beatBreakpoints.js';
import { BreakpointSet, type BreakpointStatus } from '../breakpointSet.js';
import { DataBreakpointSet } from '../dataBreakpoints.js';
import type { DebugHistory, DebugPoint } from '../debugHistory.js';
import { exceptionFilterSet, pointException, type ExceptionFilter } from '../exceptionFilters.js';
import { RecordedHits } from '../recordedHits.js';
import type { PointHit } from '../timeTravel.js';
import { samePath, type DebugSources } from './debugSources.js';
import type { VariableStore } from './debugVariables.js';

/** A tool of the plan as function breakpoints name it. */
export interface NamedTool {
  readonly toolId: string;
  readonly skill: string | null;
}

export class SessionBreakpoints {
  /** Line and function breakpoints, shared with a live run. */
  readonly tools = new BreakpointSet();
  /** Data breakpoints on state pointers, shared with a live run. */
  readonly data = new DataBreakpointSet();
  /** Beat breakpoints (`beat:<id>`, or a line of a beat in the beats file), shared with a story turn. */
  readonly beats = new BeatBreakpoints(() => this.tools.allocateId());
  private readonly recordedHits: RecordedHits;
  private exceptionFilters = new Set<ExceptionFilter>();
  private filters: readonly string[] = [];

  constructor(history: () => DebugHistory) {
    this.recordedHits = new RecordedHits(history, this.tools);
  }

  /** The exception filter ids the client enabled (a live run applies them itself). */
  get filterIds(): readonly string[] {
    return this.filters;
  }

  /** Forgets the hit counts over recorded history: it was cut or replaced. */
  historyChanged(): void {
    this.recordedHits.reset();
  }

  /**
   * setBreakpoints: only the plan being debugged takes line breakpoints, or a story turn's beats file (each binds to a
   * beat); a `noDebug` session verifies none.
   */
  setLines(
    args: DebugProtocol.SetBreakpointsArguments,
    sources: DebugSources | undefined,
    noDebug: boolean,
    beats?: BeatCatalog | undefined,
  ): DebugProtocol.Breakpoint[] {
    const requests = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
    if (beats) {
      if (!beats.file || !args.source.path || !samePath(args.source.path, beats.file)) {
        const message = `a story turn stops where its beats trigger: set breakpoints on a beat in ${beats.file ?? "the campaign's beats file"}, or a function breakpoint beat:<id>`;
        return requests.map((request) => ({ verified: false, line: request.line, message }));
      }
      const source = { name: path.basename(beats.file), path: beats.file };
      return this.beats
        .setLines(noDebug ? [] : requests, beats)
        .map((status) => breakpointOf(status, { ...(status.line !== undefined ? { line: status.line } : {}), source }));
    }
    if (!sources || !sources.isPlan(args.source)) {
      const message = sources ? `breakpoints apply to the plan being debugged (${sources.planSource().name})` : 'the session has not launched yet';
      return requests.map((request) => ({ verified: false, line: request.line, message }));
    }
    const statuses = this.tools.setLineBreakpoints(sources.document, noDebug ? [] : requests);
    this.recordedHits.reset();
    return statuses.map((status) => breakpointOf(status, { ...(status.line !== undefined ? { line: status.line } : {}), source: sources.planSource() }));
  }

  /**
   * setFunctionBreakpoints: `beat:<id>` names a beat of a story turn's campaign; other names match a tool id or a skill
   * of a plan. The answers keep the request's order.
   */
  setFunctions(args: DebugProtocol.SetFunctionBreakpointsArguments, tools: readonly NamedTool[], beats?: BeatCatalog | undefined): DebugProtocol.Breakpoint[] {
    const isBeat = args.breakpoints.map((breakpoint) => isBeatBreakpointName(breakpoint.name));
    const byBeat = this.beats.setFunctions(
      args.breakpoints.filter((_, index) => isBeat[index]),
      beats,
    );
    const others = args.breakpoints.filter((_, index) => !isBeat[index]);
    const byTool = beats
      ? others.map((): BreakpointStatus => ({ id: this.tools.allocateId(), verified: false, message: STORY_FUNCTION_MESSAGE }))
      : this.tools.setFunctionBreakpoints(others, tools);
    if (beats) this.tools.setFunctionBreakpoints([], tools);
    this.recordedHits.reset();
    let beat = 0;
    let tool = 0;
    return isBeat.map((asBeat) => breakpointOf(asBeat ? byBeat[beat++]! : byTool[tool++]!, {}));
  }

  /** setExceptionBreakpoints: unknown filter ids are kept for the answer but stop nowhere. */
  setExceptions(args: DebugProtocol.SetExceptionBreakpointsArguments): DebugProtocol.Breakpoint[] {
    this.filters = [...args.filters, ...(args.filterOptions ?? []).map((option) => option.filterId)];
    this.exceptionFilters = exceptionFilterSet(this.filters);
    return this.filters.map(() => ({ verified: true }));
  }

  /** dataBreakpointInfo: a value of the State scope, or a JSON pointer typed in by hand. */
  dataInfo(args: DebugProtocol.DataBreakpointInfoArguments, variables: VariableStore): DebugProtocol.DataBreakpointInfoResponse['body'] {
    if (args.variablesReference !== undefined && args.variablesReference > 0) {
      const info = variables.dataIdOf(args.variablesReference, args.name);
      return { ...info, accessTypes: ['write'], canPersist: info.dataId !== null };
    }
    if (args.name.startsWith('/')) return { dataId: args.name, description: `state${args.name}`, accessTypes: ['write'], canPersist: true };
    return { dataId: null, description: 'watch a value of the State scope, or a JSON pointer such as /dice/lastRoll' };
  }

  /** setDataBreakpoints. */
  setData(args: DebugProtocol.SetDataBreakpointsArguments): DebugProtocol.Breakpoint[] {
    return this.data.set(args.breakpoints).map((status) => breakpointOf(status, {}));
  }

  /** The breakpoint that holds at a recorded point, in either direction; logpoints print (`log`) only when played forward, as they did live. */
  hitAt(point: DebugPoint, direction: 1 | -1, log: (message: string, toolId: string) => void): PointHit | undefined {
    if (point.kind === 'tool') {
      const decision = this.recordedHits.at(point);
      if (direction === 1) for (const message of decision.logs) log(message, point.toolId);
      return decision.stopIds.length > 0 ? { reason: 'breakpoint', hitBreakpointIds: decision.stopIds } : undefined;
    }
    if (point.kind === 'event' && point.event?.type === 'state_patch' && this.data.size > 0) {
      const changed = this.data.changedBy(point.state, point.event.patch);
      return changed.ids.length > 0
        ? { reason: 'data breakpoint', hitBreakpointIds: changed.ids, description: `state ${changed.pointers.join(', ')} changes` }
        : undefined;
    }
    const exception = pointException(point, this.exceptionFilters);
    return exception ? { reason: 'exception', hitBreakpointIds: [], description: exception } : undefined;
  }
}

const STORY_FUNCTION_MESSAGE =
  'a story turn stops where its beats trigger: name a beat, as in beat:beat_003 (tool and skill names stop in a plan being debugged)';

function breakpointOf(status: Pick<BreakpointStatus, 'id' | 'verified' | 'message'>, location: Partial<DebugProtocol.Breakpoint>): DebugProtocol.Breakpoint {
  const breakpoint: DebugProtocol.Breakpoint = { id: status.id, verified: status.verified, ...location };
  return status.message === undefined ? breakpoint : { ...breakpoint, message: status.message };
}
