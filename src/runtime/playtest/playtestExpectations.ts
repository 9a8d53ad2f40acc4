// Checks a played turn against its expectations: skills (strict, unordered, superset, subset), skills it must not use, outcome, state, narration, events.
import { evaluateCondition, parseCondition } from '../state/conditionExpression.js';
import type { TurnResult } from '../session/turnTypes.js';
import { firstAttemptSkills, outcomeOf } from '../session/turnOutcome.js';
import type { ExpectationFailure, Expectations, FilePosition, PlaytestTurn, SkillsMatch } from './playtestTypes.js';
import { storyFailures } from './storyExpectations.js';

/** Whether `actual` holds everything `expected` has: objects key by key (extra keys allowed), arrays and values exactly. */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return Object.is(expected, actual);
  if (Array.isArray(expected))
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, index) => partialMatch(item, actual[index]));
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  return Object.entries(expected).every(
    ([key, value]) => Object.prototype.hasOwnProperty.call(actual, key) && partialMatch(value, (actual as Record<string, unknown>)[key]),
  );
}

/** Whether a skill list holds, by `match`; the storyteller aside for `subset`. */
export function skillsHold(expected: readonly string[], actual: readonly string[], match: SkillsMatch, narrators: ReadonlySet<string>): boolean {
  switch (match) {
    case 'strict':
      return expected.length === actual.length && expected.every((skill, index) => actual[index] === skill);
    case 'unordered':
      return expected.length === actual.length && expected.every((skill) => actual.includes(skill)) && actual.every((skill) => expected.includes(skill));
    case 'superset':
      return expected.every((skill) => actual.includes(skill));
    case 'subset':
      return actual.every((skill) => expected.includes(skill) || narrators.has(skill));
  }
}

/** What a turn did, for the checks. */
export interface PlayedTurn {
  readonly result: TurnResult;
  /** Every tool event of every attempt, each with its toolId. */
  readonly events: readonly Record<string, unknown>[];
}

/** Every failed expectation of a turn, each at its position in the file. `narrators`: skills that narrate (left aside by `subset`). */
export function checkTurn(turn: PlaytestTurn, played: PlayedTurn, narrators: ReadonlySet<string>): ExpectationFailure[] {
  const expect: Expectations = turn.expect;
  const failures: ExpectationFailure[] = [];
  const where = (name: string): FilePosition =>
    turn.expectationPositions.get(name) ?? turn.expectationPositions.get(name.replace(/\[\d+\]$|\..*$/, '')) ?? turn.position;
  const fail = (expectation: string, message: string, expected: unknown, actual: unknown, position = expectation) => {
    const at = where(position);
    failures.push({ expectation, message, expected, actual, line: at.line, column: at.column });
  };
  const { result } = played;
  const skills = firstAttemptSkills(result);
  if (expect.skills) {
    const match = expect.skillsMatch ?? 'superset';
    if (!skillsHold(expect.skills, skills, match, narrators))
      fail('skills', `the first attempt used [${skills.join(', ')}], not ${describeMatch(match)} [${expect.skills.join(', ')}]`, expect.skills, skills);
  }
  if (expect.notSkills) {
    const used = expect.notSkills.filter((skill) => skills.includes(skill));
    if (used.length > 0) fail('notSkills', `the first attempt used ${used.join(', ')}, which it must not`, expect.notSkills, skills);
  }
  const outcome = outcomeOf(result);
  if (expect.outcome && expect.outcome !== outcome) fail('outcome', `the turn ended in ${outcome}, not ${expect.outcome}`, expect.outcome, outcome);
  expect.state?.forEach((condition, index) => {
    const parsed = parseCondition(condition, { bareNamesInState: true });
    if (parsed.ok && !evaluateCondition(parsed.expression, { state: result.state, dependencies: {} })) {
      fail('state', `the condition "${condition}" is false after the turn`, condition, stateShown(condition, result.state), `state[${index}]`);
    }
  });
  const narration = result.narrative;
  const lower = narration.toLowerCase();
  const missing = expect.narration?.contains?.filter((text) => !lower.includes(text.toLowerCase())) ?? [];
  if (missing.length > 0) fail('narration.contains', `the narration does not contain ${missing.map(quoted).join(', ')}`, expect.narration!.contains, narration);
  const present = expect.narration?.notContains?.filter((text) => lower.includes(text.toLowerCase())) ?? [];
  if (present.length > 0) fail('narration.notContains', `the narration contains ${present.map(quoted).join(', ')}`, expect.narration!.notContains, narration);
  const pattern = expect.narration?.matches;
  if (pattern !== undefined && !new RegExp(pattern, 'i').test(narration))
    fail('narration.matches', `the narration does not match /${pattern}/i`, pattern, narration);
  expect.events?.forEach((wanted, index) => {
    if (!played.events.some((event) => partialMatch(wanted, event))) {
      fail('events', `no event of the turn matches ${JSON.stringify(wanted)}`, wanted, played.events.map(summaryOfEvent), `events[${index}]`);
    }
  });
  if (expect.maxAttempts !== undefined && result.attempts.length > expect.maxAttempts) {
    fail('maxAttempts', `the turn took ${result.attempts.length} attempts, more than ${expect.maxAttempts}`, expect.maxAttempts, result.attempts.length);
  }
  if (expect.maxDurationMs !== undefined && result.durationMs > expect.maxDurationMs) {
    fail('maxDurationMs', `the turn took ${result.durationMs} ms, more than ${expect.maxDurationMs} ms`, expect.maxDurationMs, result.durationMs);
  }
  for (const failure of storyFailures(expect, result)) fail(failure.expectation, failure.message, failure.expected, failure.actual);
  return failures;
}

/** A text in a message, as the author wrote it (not JSON-escaped). */
function quoted(text: string): string {
  return `"${text}"`;
}

function describeMatch(match: SkillsMatch): string {
  return { strict: 'exactly, in order,', unordered: 'the same set as', superset: 'at least', subset: 'only from' }[match];
}

/** An event as the report shows it: its type and its name, without bulky payloads. */
function summaryOfEvent(event: Record<string, unknown>): Record<string, unknown> {
  const { payload: _payload, patch: _patch, output: _output, ...rest } = event;
  return rest;
}

/** The values the condition reads, for the report's `actual` (its first path's value after the turn). */
function stateShown(condition: string, state: Record<string, unknown>): unknown {
  const path = /(?:state\.)?([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)/.exec(condition)?.[1];
  if (!path) return state;
  let value: unknown = state;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return { [path]: value ?? null };
}
