// Plays the "told" corpora of issue 38 (author stories written blind: each turn's right skill and script, the fields to fill and the facts the narration must carry) through the real runtime with the pattern narrator, and grades each turn: selection, fields, facts, voice and false success.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { selectionOf } from '../../src/runtime/narrator/planExplanation.js';
import { runTurn } from '../../src/runtime/session/turnRunner.js';
import type { TurnResult } from '../../src/runtime/session/turnTypes.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { repoRoot } from './corpusKit.js';

export interface ToldTurn {
  readonly story: string;
  readonly input: string;
  readonly skill: string;
  readonly script: string;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly facts: readonly (string | readonly string[])[];
  readonly outcome: 'success' | 'refused';
  readonly note?: string;
}

export interface ToldGrade {
  readonly turn: ToldTurn;
  readonly narration: string;
  /** The tools of the last attempt: skill/script, input, state. */
  readonly tools: readonly { readonly skill: string; readonly script: string; readonly input: Record<string, unknown>; readonly state: string }[];
  readonly skillRight: boolean;
  readonly scriptRight: boolean;
  /** Expected fields, and how many were filled right (on the expected script's tool). */
  readonly fieldsExpected: number;
  readonly fieldsRight: number;
  readonly wrongFields: readonly string[];
  /** Every fact of the corpus in the narration. */
  readonly factsTold: boolean;
  /** The narration carries what each author tool that ran returned (its summary's names and numbers). */
  readonly resultTold: boolean;
  readonly voiceErrors: readonly string[];
  readonly falseSuccess: boolean;
}

/** The sample skills every story plays with (a story without its own copies uses the bundled ones). */
const BUNDLED = path.join(repoRoot, 'skills');

export function loadToldCorpus(name: string): { fixtures: string; turns: readonly ToldTurn[] } {
  const file = JSON.parse(readFileSync(path.join(repoRoot, 'test', 'narrator', `${name}.json`), 'utf8')) as { turns: ToldTurn[] };
  return { fixtures: path.join(repoRoot, 'test', 'fixtures', name), turns: file.turns };
}

/** Plays every turn of a corpus, each alone in a fresh session, in a copy of its story (so nothing is written into the repository). */
export async function playToldCorpus(name: string): Promise<ToldGrade[]> {
  const { fixtures, turns } = loadToldCorpus(name);
  const grades: ToldGrade[] = [];
  const stories = [...new Set(turns.map((turn) => turn.story))];
  for (const story of stories) {
    const root = mkdtempSync(path.join(os.tmpdir(), `narratoria-told-${story}-`));
    cpSync(path.join(fixtures, story), root, { recursive: true });
    const registry = await SkillRegistry.load({ root, extraSkillRoots: [BUNDLED] });
    try {
      const narrator = new PatternNarrator();
      for (const [index, turn] of turns.entries()) {
        if (turn.story !== story) continue;
        const result = await runTurn(turn.input, {
          narrator,
          skills: registry,
          state: {},
          execution: { root, extraSkillRoots: [BUNDLED], skillContext: registry, extraEnv: { NARRATORIA_SEED: String(5000 + index) } },
        });
        grades.push(gradeTold(turn, result));
      }
    } finally {
      registry.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  }
  return grades;
}

function skillOf(toolPath: string): { skill: string; script: string } {
  const parts = toolPath.split(/[\\/]/);
  const at = parts.lastIndexOf('scripts');
  return { skill: parts[at - 1] ?? '', script: (parts[at + 1] ?? '').replace(/\.[^.]+$/, '') };
}

/** "The Silver Compass" -> "silver compass". */
function plain(value: unknown): string {
  return String(value)
    .toLowerCase()
    .replace(/^(?:the|a|an|some|my|your|his|her|their)\s+/, '')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function fieldRight(expected: unknown, actual: unknown): boolean {
  if (actual === undefined) return false;
  if (Array.isArray(expected)) return expected.some((each) => fieldRight(each, actual));
  if (typeof expected === 'number') return actual === expected;
  if (typeof expected === 'boolean') return actual === expected;
  return plain(expected) === plain(actual);
}

/** The narration without quoted speech (a character's own words may say "I" and "you"). */
function unquoted(text: string): string {
  return text.replace(/“[^”]*”|"[^"]*"/g, ' ');
}

/** Pronoun and perspective errors: the player's first person left in, or "you <verb> you" ("you take you over"). */
export function voiceErrorsOf(narration: string): string[] {
  const text = unquoted(narration);
  const errors: string[] = [];
  const first = /\b(?:I|I'm|I've|I'll|me|my|mine|myself|we|us|our|ours)\b/.exec(text.replace(/\bI\b(?=\s*[.)])/g, ''));
  if (first) errors.push(`first person "${first[0]}"`);
  const doubled = /\byou\s+(?!are\b|were\b|will\b|would\b|can\b|could\b|should\b|might\b|must\b|may\b|have\b|had\b|do\b|did\b)([a-z']+)\s+you\b/i.exec(text);
  if (doubled) errors.push(`"${doubled[0]}"`);
  // An object pronoun as a subject ("what them found"), "you them", "You am", "you you", a sentence in lower case.
  const broken = /\b(?:what|where|who|when|how|whether|if|that)\s+(?:him|them)\s+[a-z]+|\byou\s+them\b|\byou\s+(?:am|is)\b|\byou\s+you\b/i.exec(text);
  if (broken) errors.push(`"${broken[0]}"`);
  if (/[.!?]\s+[a-z]/.test(text.replace(/\b(?:e\.g|i\.e|etc|vs)\./g, ''))) errors.push('a sentence starting in lower case');
  return errors;
}

/** The names and numbers of a summary: what a narration that tells it must carry. */
function keyFacts(summary: string): string[] {
  const numbers = summary.match(/\d+(?:[.,]\d+)?/g) ?? [];
  const names = (summary.match(/(?<![.!?]\s|^)\b[A-Z][a-z]{2,}\b/g) ?? []).filter((name) => !/^(?:You|The|Your|She|Her|His|They|Their|It|Its)$/.test(name));
  return [...numbers, ...names];
}

function gradeTold(turn: ToldTurn, result: TurnResult): ToldGrade {
  const attempt = result.attempts.at(-1);
  const tools = (attempt?.result.toolResults ?? []).map((tool) => {
    const planned = attempt?.plan.tools.find((each) => each.toolId === tool.toolId);
    // The script's manifest name (its file may be named otherwise: "trim-sails" runs trim_sails.py).
    const explained = selectionOf(attempt!.plan)?.find((each) => each.toolId === tool.toolId);
    const located = skillOf(tool.toolPath ?? planned?.toolPath ?? '');
    return {
      skill: explained?.skill ?? located.skill,
      script: explained?.script ?? located.script,
      input: (planned?.input ?? {}) as Record<string, unknown>,
      state: tool.state,
      summary: tool.output?.summary ?? '',
    };
  });
  const skillRight = tools.some((tool) => tool.skill === turn.skill);
  const expected = tools.find((tool) => tool.skill === turn.skill && tool.script === turn.script);
  const wrongFields: string[] = [];
  let fieldsRight = 0;
  for (const [field, value] of Object.entries(turn.fields)) {
    if (expected && fieldRight(value, expected.input[field])) fieldsRight++;
    else wrongFields.push(`${field}: ${JSON.stringify(expected?.input[field])} (want ${JSON.stringify(value)})`);
  }
  const narration = result.narrative;
  const lower = narration.toLowerCase();
  const factsTold = turn.facts.every((fact) => (Array.isArray(fact) ? fact : [fact]).some((each) => lower.includes(String(each).toLowerCase())));
  const authors = tools.filter(
    (tool) =>
      tool.state === 'success' &&
      tool.skill !== '' &&
      !['storyteller', 'dice-roller', 'memory', 'reputation', 'npc-perception', 'character-portraits', 'player-choices'].includes(tool.skill),
  );
  const resultTold = authors.every((tool) => keyFacts(tool.summary).every((fact) => narration.includes(fact)));
  // A refusal narrated as done: a sentence says the player did the act (their verb after "you"), with no "try".
  const verb = /^(?:(?:i|we)\s+(?:try\s+to\s+|want\s+to\s+|will\s+|'ll\s+)?)?([a-z]+)/i.exec(turn.input.trim())?.[1]?.toLowerCase() ?? '';
  const asserted = unquoted(narration)
    .split(/(?<=[.!?])\s+/)
    .some(
      (sentence) =>
        new RegExp(`(?<!\\b(?:let|lets|allow|allows|help|helps|make|makes|to|will|won't|can't|cannot|not)\\s)\\byou ${verb}\\b`, 'i').test(sentence) &&
        !/\b(?:try|tries|attempt|set out|do your best|ask|asks|would)\b/i.test(sentence),
    );
  const falseSuccess = turn.outcome === 'refused' && verb !== '' && asserted;
  return {
    turn,
    narration,
    tools: tools.map(({ skill, script, input, state }) => ({ skill, script, input, state })),
    skillRight,
    scriptRight: expected !== undefined,
    fieldsExpected: Object.keys(turn.fields).length,
    fieldsRight,
    wrongFields,
    factsTold,
    resultTold,
    voiceErrors: voiceErrorsOf(narration),
    falseSuccess,
  };
}

export interface ToldSummary {
  readonly turns: number;
  readonly skill: number;
  readonly script: number;
  readonly fieldsRight: number;
  readonly fieldsExpected: number;
  /** The same, on the turns where the right script ran (what filling alone gets right). */
  readonly fieldsRightOnScript: number;
  readonly fieldsExpectedOnScript: number;
  /** Turns whose narration carries the chosen skills' results. */
  readonly told: number;
  /** Turns whose narration carries the corpus's facts. */
  readonly facts: number;
  readonly voiceErrors: number;
  readonly falseSuccess: number;
}

export function summarise(grades: readonly ToldGrade[]): ToldSummary {
  return {
    turns: grades.length,
    skill: grades.filter((grade) => grade.skillRight).length,
    script: grades.filter((grade) => grade.scriptRight).length,
    fieldsRight: grades.reduce((sum, grade) => sum + grade.fieldsRight, 0),
    fieldsExpected: grades.reduce((sum, grade) => sum + grade.fieldsExpected, 0),
    fieldsRightOnScript: grades.filter((grade) => grade.scriptRight).reduce((sum, grade) => sum + grade.fieldsRight, 0),
    fieldsExpectedOnScript: grades.filter((grade) => grade.scriptRight).reduce((sum, grade) => sum + grade.fieldsExpected, 0),
    told: grades.filter((grade) => grade.resultTold).length,
    facts: grades.filter((grade) => grade.factsTold).length,
    voiceErrors: grades.filter((grade) => grade.voiceErrors.length > 0).length,
    falseSuccess: grades.filter((grade) => grade.falseSuccess).length,
  };
}

/** One line of figures. */
export function summaryLine(name: string, summary: ToldSummary): string {
  const percent = (part: number, whole: number) => `${part}/${whole} (${whole === 0 ? 0 : ((100 * part) / whole).toFixed(1)}%)`;
  return `${name}: told ${percent(summary.told, summary.turns)}, facts ${percent(summary.facts, summary.turns)}, filled ${percent(summary.fieldsRight, summary.fieldsExpected)} (${percent(summary.fieldsRightOnScript, summary.fieldsExpectedOnScript)} where the right script ran), skill ${percent(summary.skill, summary.turns)}, script ${percent(summary.script, summary.turns)}, voice errors ${summary.voiceErrors}, false success ${summary.falseSuccess}`;
}
