// The plan debugger's breakpoints: line breakpoints bound to the tool they sit in (or moved to the nearest one), function breakpoints by toolId or skill, conditions, hit counts and logpoints.
import type { PlanDocument, PlanTool } from '../authoring/planDocument.js';
import { evaluateCondition, parseCondition, type ConditionNode, type ConditionScope } from '../state/conditionExpression.js';
import { interpolateLogMessage, parseHitCondition, type HitCondition } from './hitCondition.js';

/** A breakpoint set in the plan file (DAP SourceBreakpoint). */
export interface LineBreakpointRequest {
  /** 1-based. */
  readonly line: number;
  readonly condition?: string | undefined;
  readonly hitCondition?: string | undefined;
  readonly logMessage?: string | undefined;
}

/** A breakpoint by name (DAP FunctionBreakpoint): a toolId or a skill name. */
export interface FunctionBreakpointRequest {
  readonly name: string;
  readonly condition?: string | undefined;
  readonly hitCondition?: string | undefined;
}

/** What the client is told about a breakpoint (DAP Breakpoint). */
export interface BreakpointStatus {
  readonly id: number;
  readonly verified: boolean;
  /** Where it is bound (for a line breakpoint moved to the nearest tool, that tool's line). */
  readonly line?: number | undefined;
  /** Why it is unverified, or where it was moved. */
  readonly message?: string | undefined;
}

/** A tool about to start, as breakpoints see it. */
export interface ToolAtBoundary {
  readonly toolId: string;
  readonly skill: string | null;
}

/** Whether to stop before a tool, which breakpoints hit, and what logpoints print. */
export interface BreakpointDecision {
  readonly stop: boolean;
  readonly hitBreakpointIds: readonly number[];
  readonly logs: readonly string[];
  /** Conditions that could not be evaluated (reported in the Debug Console; the breakpoint then stops). */
  readonly errors: readonly string[];
}

interface ArmedBreakpoint extends CountedBreakpoint {
  readonly matches: (tool: ToolAtBoundary) => boolean;
}

/** A breakpoint that matches a recorded boundary. */
export interface RecordedMatch {
  readonly id: number;
  readonly hitCondition: HitCondition | undefined;
  readonly logMessage: string | undefined;
}

/** One debug session's breakpoints. Ids are unique for the session's lifetime. */
export class BreakpointSet {
  private nextId = 1;
  private lineBreakpoints: ArmedBreakpoint[] = [];
  private functionBreakpoints: ArmedBreakpoint[] = [];

  /** A new breakpoint id, unique in the session (the beat breakpoints take theirs here too). */
  allocateId(): number {
    return this.nextId++;
  }

  /** Replaces the line breakpoints of the plan file (DAP setBreakpoints) and says where each is bound. */
  setLineBreakpoints(document: PlanDocument, requests: readonly LineBreakpointRequest[]): BreakpointStatus[] {
    this.lineBreakpoints = [];
    return requests.map((request) => {
      const id = this.nextId++;
      const bound = bindLine(document, request.line);
      if (!bound.tool) return { id, verified: false, line: request.line, message: bound.message };
      const toolId = bound.tool.toolId?.value;
      if (toolId === undefined) return { id, verified: false, line: request.line, message: 'this tool has no toolId yet' };
      const armed = arm(id, (tool) => tool.toolId === toolId, request);
      if (!armed.ok) return { id, verified: false, line: request.line, message: armed.message };
      this.lineBreakpoints.push(armed.breakpoint);
      return { id, verified: true, line: bound.line, ...(bound.message ? { message: bound.message } : {}) };
    });
  }

  /** Replaces the function breakpoints (DAP setFunctionBreakpoints): each names a toolId or a skill. */
  setFunctionBreakpoints(requests: readonly FunctionBreakpointRequest[], tools: readonly ToolAtBoundary[]): BreakpointStatus[] {
    this.functionBreakpoints = [];
    return requests.map((request) => {
      const id = this.nextId++;
      const name = request.name.trim();
      const armed = arm(id, (tool) => tool.toolId === name || tool.skill === name, request);
      if (!armed.ok) return { id, verified: false, message: armed.message };
      this.functionBreakpoints.push(armed.breakpoint);
      // Still armed when nothing matches yet: a replan may add a tool of that skill.
      const known = tools.some((tool) => tool.toolId === name || tool.skill === name);
      return known ? { id, verified: true } : { id, verified: false, message: `no tool or skill named "${name}" in this plan (yet)` };
    });
  }

  /**
   * The breakpoints (stopping ones and logpoints) whose tool and condition match a recorded boundary, for time travel
   * and replays; nothing is counted here (see RecordedHits for hit counts over a recorded run).
   */
  matchAt(tool: ToolAtBoundary, scope: ConditionScope): RecordedMatch[] {
    const found: RecordedMatch[] = [];
    for (const breakpoint of [...this.lineBreakpoints, ...this.functionBreakpoints]) {
      if (!breakpoint.matches(tool)) continue;
      if (breakpoint.condition) {
        try {
          if (!evaluateCondition(breakpoint.condition, scope)) continue;
        } catch {
          // A condition that cannot be evaluated stops, as it does live.
        }
      }
      found.push({ id: breakpoint.id, hitCondition: breakpoint.hitCondition, logMessage: breakpoint.logMessage });
    }
    return found;
  }

  /** Decides at a tool boundary. Hit counts advance only when a breakpoint's condition holds. */
  beforeTool(tool: ToolAtBoundary, scope: ConditionScope & { readonly input?: Record<string, unknown> }): BreakpointDecision {
    const hit: number[] = [];
    const logs: string[] = [];
    const errors: string[] = [];
    let stop = false;
    for (const breakpoint of [...this.lineBreakpoints, ...this.functionBreakpoints]) {
      if (!breakpoint.matches(tool) || !reachBreakpoint(breakpoint, scope, logs, errors)) continue;
      stop = true;
      hit.push(breakpoint.id);
    }
    return { stop, hitBreakpointIds: hit, logs, errors };
  }
}

function arm(
  id: number,
  matches: (tool: ToolAtBoundary) => boolean,
  request: BreakpointOptionsRequest,
): { ok: true; breakpoint: ArmedBreakpoint } | { ok: false; message: string } {
  const options = parseBreakpointOptions(request);
  return options.ok ? { ok: true, breakpoint: { id, matches, ...options.options, hits: 0 } } : options;
}

/** What any breakpoint may carry besides where it stops. */
export interface BreakpointOptionsRequest {
  readonly condition?: string | undefined;
  readonly hitCondition?: string | undefined;
  readonly logMessage?: string | undefined;
}

/** A breakpoint's condition and hit condition parsed (blank ones left out), with its logpoint message. */
export interface BreakpointOptions {
  readonly condition: ConditionNode | undefined;
  readonly hitCondition: HitCondition | undefined;
  readonly logMessage: string | undefined;
}

/** An armed breakpoint: its options and its hits so far. */
export interface CountedBreakpoint extends BreakpointOptions {
  readonly id: number;
  hits: number;
}

/**
 * A breakpoint reached where it matches: false when its condition does not hold (a condition that fails to evaluate
 * holds, with an error), when its hit condition does not match the hit it counts, or when it is a logpoint (its
 * message goes to `logs`); true when it stops.
 */
export function reachBreakpoint(breakpoint: CountedBreakpoint, scope: ConditionScope, logs: string[], errors: string[]): boolean {
  if (breakpoint.condition) {
    let holds: boolean;
    try {
      holds = evaluateCondition(breakpoint.condition, scope);
    } catch (error) {
      errors.push(`breakpoint ${breakpoint.id}: the condition failed (${error instanceof Error ? error.message : String(error)}); stopping`);
      holds = true;
    }
    if (!holds) return false;
  }
  breakpoint.hits++;
  if (breakpoint.hitCondition && !breakpoint.hitCondition.matches(breakpoint.hits)) return false;
  if (breakpoint.logMessage !== undefined) {
    logs.push(interpolateLogMessage(breakpoint.logMessage, scope));
    return false;
  }
  return true;
}

/** Parses a breakpoint's condition and hit condition; a message when one does not parse. */
export function parseBreakpointOptions(request: BreakpointOptionsRequest): { ok: true; options: BreakpointOptions } | { ok: false; message: string } {
  let condition: ConditionNode | undefined;
  if (request.condition !== undefined && request.condition.trim() !== '') {
    const parsed = parseCondition(request.condition);
    if (!parsed.ok) return { ok: false, message: `condition: ${parsed.message} (at column ${parsed.offset + 1})` };
    condition = parsed.expression;
  }
  let hitCondition: HitCondition | undefined;
  if (request.hitCondition !== undefined && request.hitCondition.trim() !== '') {
    const parsed = parseHitCondition(request.hitCondition);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    hitCondition = parsed.condition;
  }
  return { ok: true, options: { condition, hitCondition, logMessage: request.logMessage } };
}

/** The tool a line belongs to: the one it is inside, else the nearest one (by lines), with a note that it moved. */
function bindLine(document: PlanDocument, line: number): { tool?: PlanTool; line: number; message?: string } {
  const inside = line >= 1 && line <= document.lines.lineCount ? document.toolAtLine(line) : undefined;
  if (inside) return { tool: inside, line };
  let best: { tool: PlanTool; distance: number; line: number } | undefined;
  for (const tool of document.tools) {
    const first = document.lineOfTool(tool);
    const last = document.lines.positionAt(tool.span.offset + tool.span.length).line;
    const distance = line < first ? first - line : line > last ? line - last : 0;
    if (!best || distance < best.distance) best = { tool, distance, line: document.lines.positionAt((tool.toolId?.span ?? tool.span).offset).line };
  }
  if (!best) return { line, message: 'this plan has no tools to stop at' };
  const name = best.tool.toolId?.value ?? `tool ${best.tool.index + 1}`;
  return { tool: best.tool, line: best.line, message: `line ${line} is outside every tool: moved to "${name}"` };
}
