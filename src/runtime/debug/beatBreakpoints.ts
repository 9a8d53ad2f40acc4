// The story debugger's beat breakpoints: `beat:<id>` function breakpoints and lines of a beat in the beats file, with conditions, hit counts and logpoints.
import type { ConditionScope } from '../state/conditionExpression.js';
import { closestMatch } from '../validation/closestMatch.js';
import {
  parseBreakpointOptions,
  reachBreakpoint,
  type BreakpointStatus,
  type CountedBreakpoint,
  type FunctionBreakpointRequest,
  type LineBreakpointRequest,
} from './breakpointSet.js';

/** The prefix of a function breakpoint that names a beat (`beat:beat_003`). */
export const BEAT_BREAKPOINT_PREFIX = 'beat:';

/** Whether a function breakpoint's name asks for a beat. */
export function isBeatBreakpointName(name: string): boolean {
  return name.trim().toLowerCase().startsWith(BEAT_BREAKPOINT_PREFIX);
}

/** A range in a file: 1-based lines and columns, the end exclusive. */
export interface BeatRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** A beat as breakpoints and frames see it: its id, its title, and where it is written. */
export interface BeatLocation {
  readonly id: string;
  readonly title: string;
  /** Absolute path of the file the beat is written in. */
  readonly file: string;
  /** The beat's object in that file, when it was located. */
  readonly range: BeatRange | undefined;
}

/** The beats of the campaign a story session debugs. */
export interface BeatCatalog {
  /** Absolute path of the beats file (plot/beats.json), when the campaign has one. */
  readonly file: string | undefined;
  readonly beats: readonly BeatLocation[];
}

/** Which beat breakpoints hold at a scene, and what its logpoints print. */
export interface BeatDecision {
  readonly hitBreakpointIds: readonly number[];
  /** The triggered beats whose breakpoints hold, in trigger order. */
  readonly beats: readonly string[];
  /** True when only function breakpoints (`beat:<id>`) hold: the stop's reason is `function breakpoint`. */
  readonly byName: boolean;
  readonly logs: readonly string[];
  /** Conditions that could not be evaluated (the breakpoint then holds). */
  readonly errors: readonly string[];
}

interface ArmedBeatBreakpoint extends CountedBreakpoint {
  readonly beat: string;
  readonly byName: boolean;
}

const NOT_A_STORY = 'beat breakpoints hold in a story turn: launch with "playerInput" (or "playerInputs") and "root" a campaign folder';

/** One story session's beat breakpoints. Ids come from the session's other breakpoints' sequence. */
export class BeatBreakpoints {
  private byName: ArmedBeatBreakpoint[] = [];
  private byLine: ArmedBeatBreakpoint[] = [];

  constructor(private readonly nextId: () => number) {}

  /** Replaces the `beat:<id>` function breakpoints: verified when the campaign has that beat. */
  setFunctions(requests: readonly FunctionBreakpointRequest[], catalog: BeatCatalog | undefined): BreakpointStatus[] {
    this.byName = [];
    return requests.map((request) => {
      const id = this.nextId();
      const name = request.name.trim().slice(BEAT_BREAKPOINT_PREFIX.length).trim();
      if (!catalog) return { id, verified: false, message: NOT_A_STORY };
      if (name === '') return { id, verified: false, message: 'name a beat after "beat:", as in beat:beat_003' };
      const beat = catalog.beats.find((candidate) => candidate.id === name);
      if (!beat) return { id, verified: false, message: unknownBeat(name, catalog) };
      const armed = this.arm(id, beat.id, true, request);
      if (typeof armed === 'string') return { id, verified: false, message: armed };
      this.byName.push(armed);
      return { id, verified: true, ...(beat.range ? { line: beat.range.line } : {}) };
    });
  }

  /** Replaces the breakpoints in the beats file: each binds to the beat whose object holds its line (else the nearest one). */
  setLines(requests: readonly LineBreakpointRequest[], catalog: BeatCatalog): BreakpointStatus[] {
    this.byLine = [];
    return requests.map((request) => {
      const id = this.nextId();
      const bound = beatAtLine(catalog, request.line);
      if (!bound.beat) return { id, verified: false, line: request.line, message: bound.message };
      const armed = this.arm(id, bound.beat.id, false, request);
      if (typeof armed === 'string') return { id, verified: false, line: request.line, message: armed };
      this.byLine.push(armed);
      return { id, verified: true, line: bound.line, ...(bound.message ? { message: bound.message } : {}) };
    });
  }

  /** Decides at a scene whose beats just triggered. Hit counts advance only where a breakpoint's condition holds. */
  atScene(triggered: readonly string[], scope: ConditionScope): BeatDecision {
    const hit: number[] = [];
    const beats: string[] = [];
    const logs: string[] = [];
    const errors: string[] = [];
    let byName = true;
    for (const beat of triggered) {
      for (const breakpoint of [...this.byLine, ...this.byName]) {
        if (breakpoint.beat !== beat || !reachBreakpoint(breakpoint, scope, logs, errors)) continue;
        hit.push(breakpoint.id);
        if (!beats.includes(beat)) beats.push(beat);
        if (!breakpoint.byName) byName = false;
      }
    }
    return { hitBreakpointIds: hit, beats, byName, logs, errors };
  }

  private arm(id: number, beat: string, byName: boolean, request: FunctionBreakpointRequest | LineBreakpointRequest): ArmedBeatBreakpoint | string {
    const parsed = parseBreakpointOptions(request);
    if (!parsed.ok) return parsed.message;
    return { id, beat, byName, ...parsed.options, hits: 0 };
  }
}

/** Why a `beat:` name names no beat of the campaign, with the closest id when it looks like a typo. */
function unknownBeat(name: string, catalog: BeatCatalog): string {
  const ids = catalog.beats.map((beat) => beat.id);
  const close = closestMatch(name, ids);
  if (close) return `no beat "${name}" in this campaign; did you mean "${close}"?`;
  const listed = ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, ...` : ids.join(', ');
  return ids.length === 0 ? `no beat "${name}": this campaign has no beats` : `no beat "${name}" in this campaign (its beats: ${listed})`;
}

/** The beat a line of the beats file belongs to: the one whose object holds it, else the nearest one, with a note that it moved. */
function beatAtLine(catalog: BeatCatalog, line: number): { beat?: BeatLocation; line: number; message?: string } {
  const located = catalog.beats.filter((beat) => beat.range !== undefined);
  const inside = located.filter((beat) => beat.range!.line <= line && line <= beat.range!.endLine);
  // The innermost object wins (a beat's range never nests another, but keep the smallest to be safe).
  const holder = inside.sort((left, right) => left.range!.endLine - left.range!.line - (right.range!.endLine - right.range!.line))[0];
  if (holder) return { beat: holder, line };
  let best: { beat: BeatLocation; distance: number } | undefined;
  for (const beat of located) {
    const distance = line < beat.range!.line ? beat.range!.line - line : line - beat.range!.endLine;
    if (!best || distance < best.distance) best = { beat, distance };
  }
  if (!best) return { line, message: 'this campaign has no beats to stop at' };
  return { beat: best.beat, line: best.beat.range!.line, message: `line ${line} is outside every beat: moved to "${best.beat.id}"` };
}
