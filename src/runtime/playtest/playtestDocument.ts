// Reads a *.playtest.json file: its value against contracts/playtest.schema.json, the skills it names, its conditions and patterns, with the file position of every problem and of every expectation.
import * as path from 'node:path';
import { contractSchemas, validateAgainst } from '../contracts/schemas.js';
import { parseCondition } from '../state/conditionExpression.js';
import { closestMatch } from '../validation/closestMatch.js';
import { parseJsonDocument, type JsonDocument } from '../validation/jsonLocator.js';
import { schemaProblems } from '../validation/schemaErrors.js';
import type { Expectations, FilePosition, NarratorChoice, Playtest, PlaytestProblem, PlaytestTurn } from './playtestTypes.js';

/** The file name ending of a playtest. */
export const PLAYTEST_SUFFIX = '.playtest.json';

/** Codes of playtest problems beyond the schema's (SCHEMA_* and JSON_SYNTAX, as for plans). */
export const PlaytestProblemCode = {
  UNKNOWN_SKILL: 'UNKNOWN_SKILL',
  SKILL_BROKEN: 'SKILL_BROKEN',
  CONDITION_SYNTAX: 'CONDITION_SYNTAX',
  INVALID_PATTERN: 'INVALID_PATTERN',
  CHOICE_ON_FIRST_TURN: 'CHOICE_ON_FIRST_TURN',
} as const;

export interface ParsedPlaytest {
  /** The playtest, when the file has no problem. */
  readonly playtest?: Playtest;
  readonly problems: readonly PlaytestProblem[];
}

/** The expectations that sit at one position each (their property key). */
const KEYED_EXPECTATIONS = [
  'skills',
  'skillsMatch',
  'notSkills',
  'outcome',
  'maxAttempts',
  'maxDurationMs',
  'events',
  'state',
  'narration',
  'beats',
  'ending',
  'lore',
] as const;

/**
 * Parses and checks a playtest. `skills`: the story's skill names; a name an expectation uses that is not among them
 * is a problem of the file (not a failure of the test): SKILL_BROKEN when `broken` (the story's broken skills, by
 * folder name, with why: see brokenSkillReason) has it, else UNKNOWN_SKILL. Never throws for bad input.
 */
export function parsePlaytest(
  file: string,
  text: string,
  skills?: ReadonlySet<string>,
  broken?: ReadonlyMap<string, string>,
  /** The story is a campaign: its opening scene offers choices, so the first turn may play one. */
  opening = false,
): ParsedPlaytest {
  const document = parseJsonDocument(text);
  const problems: PlaytestProblem[] = [];
  const at = (pointer: string, target: 'key' | 'value' = 'value'): FilePosition => document.rangeOfPointer(pointer, target)?.start ?? { line: 1, column: 1 };
  const problem = (code: string, message: string, position: FilePosition) =>
    problems.push({ file, code, message, line: position.line, column: position.column });
  if (document.syntaxProblems.length > 0) {
    const first = document.syntaxProblems[0]!;
    problem('JSON_SYNTAX', first.message, document.positionAt(first.offset));
    return { problems };
  }
  const value = document.value;
  const errors = validateAgainst('playtest.schema.json', value);
  if (errors.length > 0) {
    for (const found of schemaProblems(errors, value, contractSchemas['playtest.schema.json']))
      problem(found.code, turnMessage(found.pointer, found.message, value), at(found.pointer, found.target));
    return { problems: sortByPosition(problems) };
  }
  const body = value as {
    name?: string;
    narrator?: NarratorChoice;
    seed?: number;
    state?: Record<string, unknown>;
    turns: { input?: string; choice?: number; expect?: Expectations }[];
  };
  const turns = body.turns.map((turn, index): PlaytestTurn => {
    const base = `/turns/${index}`;
    const expect = turn.expect ?? {};
    if (index === 0 && turn.choice !== undefined && !opening)
      problem(PlaytestProblemCode.CHOICE_ON_FIRST_TURN, 'the first turn cannot play a choice: no turn before it offered any', at(`${base}/choice`, 'key'));
    for (const key of ['skills', 'notSkills'] as const) {
      (expect[key] ?? []).forEach((name, position) => {
        if (!skills || skills.has(name)) return;
        const reason = broken?.get(name);
        if (reason !== undefined) {
          problem(PlaytestProblemCode.SKILL_BROKEN, `the story's skill "${name}" is broken: ${reason}`, at(`${base}/expect/${key}/${position}`));
          return;
        }
        const close = closestMatch(name, skills);
        problem(
          PlaytestProblemCode.UNKNOWN_SKILL,
          `the story has no skill "${name}"${close ? ` (did you mean "${close}"?)` : ''}`,
          at(`${base}/expect/${key}/${position}`),
        );
      });
    }
    (expect.state ?? []).forEach((condition, position) => {
      const parsed = parseCondition(condition, { bareNamesInState: true });
      if (!parsed.ok)
        problem(
          PlaytestProblemCode.CONDITION_SYNTAX,
          `the condition "${condition}" cannot be read: ${parsed.message} (at character ${parsed.offset + 1})`,
          at(`${base}/expect/state/${position}`),
        );
    });
    const pattern = expect.narration?.matches;
    if (pattern !== undefined) {
      try {
        new RegExp(pattern, 'i');
      } catch (error) {
        problem(
          PlaytestProblemCode.INVALID_PATTERN,
          `"${pattern}" is not a regular expression: ${(error as Error).message}`,
          at(`${base}/expect/narration/matches`),
        );
      }
    }
    return {
      ...(turn.input !== undefined ? { input: turn.input } : {}),
      ...(turn.choice !== undefined ? { choice: turn.choice } : {}),
      expect,
      position: at(base),
      expectationPositions: expectationPositions(document, `${base}/expect`, expect),
    };
  });
  if (problems.length > 0) return { problems: sortByPosition(problems) };
  return {
    playtest: {
      file,
      name:
        body.name ??
        path
          .basename(file)
          .replace(/\.playtest\.json$/i, '')
          .replace(/\.json$/i, ''),
      narrator: body.narrator ?? 'pattern',
      seed: body.seed ?? 1,
      state: body.state ?? {},
      turns,
    },
    problems,
  };
}

/** Each expectation's position: its key, and each condition, event and narration check of its own. */
function expectationPositions(document: JsonDocument, base: string, expect: Expectations): Map<string, FilePosition> {
  const positions = new Map<string, FilePosition>();
  const put = (name: string, pointer: string, target: 'key' | 'value') => {
    const range = document.rangeOfPointer(pointer, target);
    if (range) positions.set(name, range.start);
  };
  put('expect', base, 'key');
  for (const key of KEYED_EXPECTATIONS) if (expect[key] !== undefined) put(key, `${base}/${key}`, 'key');
  expect.state?.forEach((_, index) => put(`state[${index}]`, `${base}/state/${index}`, 'value'));
  expect.events?.forEach((_, index) => put(`events[${index}]`, `${base}/events/${index}`, 'value'));
  for (const check of ['contains', 'notContains', 'matches'] as const)
    if (expect.narration?.[check] !== undefined) put(`narration.${check}`, `${base}/narration/${check}`, 'key');
  for (const check of ['triggered', 'notTriggered', 'active'] as const)
    if (expect.beats?.[check] !== undefined) put(`beats.${check}`, `${base}/beats/${check}`, 'key');
  return positions;
}

/** A turn's own words for its one rule the schema says obscurely: it plays an input or a choice, one of the two. */
function turnMessage(pointer: string, message: string, value: unknown): string {
  const turn = /^\/turns\/(\d+)(?:\/input|\/choice)?$/.exec(pointer);
  if (!turn) return message;
  const body = (value as { turns: unknown[] }).turns[Number(turn[1])];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return message;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(body, key);
  if (has('input') && has('choice')) return `turns/${turn[1]}: a turn plays "input" or "choice", not both`;
  if (!has('input') && !has('choice'))
    return `turns/${turn[1]}: a turn needs "input" (what the player types) or "choice" (the number of a choice the previous turn offered)`;
  return message;
}

function sortByPosition(problems: PlaytestProblem[]): PlaytestProblem[] {
  return problems.sort((left, right) => left.line - right.line || left.column - right.column);
}

/** One line per problem, as compilers print them: `file:line:column: error CODE: message`. */
export function formatProblem(problem: PlaytestProblem, relativeTo?: string): string {
  const shown = relativeTo ? path.relative(relativeTo, problem.file) || problem.file : problem.file;
  return `${shown}:${problem.line}:${problem.column}: error ${problem.code}: ${problem.message}`;
}
