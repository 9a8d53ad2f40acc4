// Skill health (docs/design-rules.md#skill-health): the pure state machine, the mapping from ToolResults to its inputs, and a per-skill tracker with typed events.
import { Emitter, type Event } from '../common/event.js';
import type { Disposable } from '../common/disposable.js';
import type { ToolResult } from '../contractTypes/executionResult.js';
import type { SkillHealth } from './skillTypes.js';

/**
 * What happened to a skill. `success`: a tool of it succeeded. `transientFailure`: it failed by a
 * timeout or a network error. `failure`: it failed otherwise. `sessionRestart`: a new session began.
 */
export type HealthInput = 'success' | 'failure' | 'transientFailure' | 'sessionRestart';

/** A skill's health and the failures counted towards its next transition. */
export interface HealthStatus {
  readonly state: SkillHealth;
  /** Consecutive failures since the last transition (towards 3 → degraded, or 3 more → permanentFailure). */
  readonly consecutiveFailures: number;
}

/** Failures in a row that degrade a healthy skill, and that then fail a degraded one for good. */
export const FAILURE_THRESHOLD = 3;

/** Health at the start of a session. */
export const INITIAL_HEALTH: HealthStatus = { state: 'healthy', consecutiveFailures: 0 };

/**
 * The transition function of docs/design-rules.md#skill-health:
 *
 * | from | input | to | documented edge |
 * | --- | --- | --- | --- |
 * | healthy | transientFailure | temporaryFailure | timeout/network error |
 * | healthy | 3rd failure in a row | degraded | 3 consecutive failures |
 * | degraded | success | healthy | success |
 * | degraded | 3rd failure (either kind) in a row | permanentFailure | 3 more failures |
 * | temporaryFailure | success | healthy | retry success |
 * | temporaryFailure | failure or transientFailure | permanentFailure | max retries exceeded (the failed ToolResult is final: its retries are used up) |
 * | permanentFailure | sessionRestart | healthy | session restart |
 *
 * A session restart also resets degraded and temporaryFailure skills (a new session starts fresh).
 * Every other pair keeps the state; `success` clears the failure count, permanentFailure ignores
 * everything but a restart.
 */
export function nextHealth(current: HealthStatus, input: HealthInput): HealthStatus {
  if (input === 'sessionRestart') return INITIAL_HEALTH;
  switch (current.state) {
    case 'healthy':
      if (input === 'success') return INITIAL_HEALTH;
      if (input === 'transientFailure') return { state: 'temporaryFailure', consecutiveFailures: 0 };
      return countFailure(current, 'degraded');
    case 'degraded':
      if (input === 'success') return INITIAL_HEALTH;
      return countFailure(current, 'permanentFailure');
    case 'temporaryFailure':
      if (input === 'success') return INITIAL_HEALTH;
      return { state: 'permanentFailure', consecutiveFailures: 0 };
    case 'permanentFailure':
      return current;
  }
}

function countFailure(current: HealthStatus, next: SkillHealth): HealthStatus {
  const failures = current.consecutiveFailures + 1;
  return failures >= FAILURE_THRESHOLD ? { state: next, consecutiveFailures: 0 } : { state: current.state, consecutiveFailures: failures };
}

/** Error codes that mean the network failed (Node's system errors and a generic NETWORK… code). */
const NETWORK_ERROR_CODE = /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EHOSTUNREACH|ENETUNREACH|ENETDOWN|ENOTFOUND|EAI_AGAIN|EPIPE|ETIMEDOUT)$|NETWORK/i;

/**
 * The health input a final ToolResult stands for, or undefined when it says nothing about the skill:
 * - `success`, `rolledBack` (it succeeded; another tool's failure undid it) → success;
 * - `skipped`, `cancelled` → nothing;
 * - `timeout` state (a tool still running when the plan timed out included: it hung), error category `timeout`, or a network error (the error's code or `details.code`,
 *   `details.network === true`, or an `error` event of the script with such an `errorCode`) → transientFailure;
 * - any other `failed` → failure.
 */
export function healthInputOf(result: ToolResult): HealthInput | undefined {
  switch (result.state) {
    case 'success':
    case 'rolledBack':
      return 'success';
    case 'skipped':
    case 'cancelled':
      return undefined;
    case 'timeout':
    case 'failed':
      return result.state === 'timeout' || result.error?.category === 'timeout' || isNetworkFailure(result) ? 'transientFailure' : 'failure';
  }
}

function isNetworkFailure(result: ToolResult): boolean {
  const error = result.error;
  if (error) {
    if (NETWORK_ERROR_CODE.test(error.code)) return true;
    const details = error.details ?? {};
    if (details['network'] === true || (typeof details['code'] === 'string' && NETWORK_ERROR_CODE.test(details['code']))) return true;
  }
  return (result.events ?? []).some((event) => event.type === 'error' && (NETWORK_ERROR_CODE.test(event.errorCode) || event.details?.['network'] === true));
}

/** Fired when a skill's health state changes (not when only the failure count moves). */
export interface HealthChange {
  readonly skill: string;
  readonly previous: SkillHealth;
  readonly current: SkillHealth;
  /** The input that caused it, or `reset` for a user's reset. */
  readonly cause: HealthInput | 'reset';
  /** The tool whose result caused it, when known. */
  readonly toolId?: string;
}

/** Health of every skill of a session. Unknown skills are healthy. */
export class SkillHealthTracker implements Disposable {
  private readonly statuses = new Map<string, HealthStatus>();
  private readonly changeEmitter = new Emitter<HealthChange>();

  /** Fires once per state change. */
  readonly onDidChangeHealth: Event<HealthChange> = this.changeEmitter.event;

  /** Current status of `skill` (INITIAL_HEALTH when nothing was recorded). */
  status(skill: string): HealthStatus {
    return this.statuses.get(skill) ?? INITIAL_HEALTH;
  }

  /** Current state of `skill`. */
  health(skill: string): SkillHealth {
    return this.status(skill).state;
  }

  /** Applies `input` to `skill`; returns the change, if its state changed. */
  record(skill: string, input: HealthInput, toolId?: string): HealthChange | undefined {
    return this.apply(skill, nextHealth(this.status(skill), input), input, toolId);
  }

  /** Applies the input a final ToolResult stands for (see {@link healthInputOf}) to `skill`. */
  recordResult(skill: string, result: ToolResult): HealthChange | undefined {
    const input = healthInputOf(result);
    return input === undefined ? undefined : this.record(skill, input, result.toolId);
  }

  /** Back to healthy with no failures counted: one skill (a user's reset), or all of them when `skill` is omitted. */
  reset(skill?: string): HealthChange[] {
    const names = skill === undefined ? [...this.statuses.keys()] : [skill];
    return names.flatMap((name) => this.apply(name, INITIAL_HEALTH, 'reset') ?? []);
  }

  /** A new session: every skill goes through the `sessionRestart` edge. */
  restartSession(): HealthChange[] {
    return [...this.statuses.keys()].flatMap((name) => this.record(name, 'sessionRestart') ?? []);
  }

  /** Drops what is known about `skill` (it was removed) without firing an event. */
  forget(skill: string): void {
    this.statuses.delete(skill);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private apply(skill: string, next: HealthStatus, cause: HealthInput | 'reset', toolId?: string): HealthChange | undefined {
    const previous = this.status(skill);
    if (next.state === 'healthy' && next.consecutiveFailures === 0) this.statuses.delete(skill);
    else this.statuses.set(skill, next);
    if (previous.state === next.state) return undefined;
    const change: HealthChange = { skill, previous: previous.state, current: next.state, cause, ...(toolId !== undefined ? { toolId } : {}) };
    this.changeEmitter.fire(change);
    return change;
  }
}
