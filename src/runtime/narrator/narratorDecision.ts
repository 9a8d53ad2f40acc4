// The LLM narrator decides, the runtime dictates: the model picks scripts by number under a grammar; the plan is composed as the pattern narrator's.
import type { Plan } from '../contractTypes/plan.js';
import type { NarratorSkill, SkillHealth } from '../skills/skillTypes.js';
import { withoutRePlanReport } from '../executor/rePlanning.js';
import { firstSentence } from '../authoring/scriptSummary.js';
import type { PlanRequest } from './index.js';
import { behavioralPrompts, oneLine, trimToBudget } from './narratorPrompt.js';
import { availableSkills, composePlan } from './patternNarrator.js';
import { readCues } from './selection/cues.js';
import type { SelectedSkill, Selection } from './selection/selectionTypes.js';
import { selectSkills } from './selection/skillSelection.js';
import { isNarrator, narratorOf, roleOf } from './selection/skillRoles.js';
import { wordsWithNames } from '../campaign/play/storyInputs.js';
import { storyFixedText, storyTurnText, STORY_TURN_CHARS } from '../campaign/play/storyPrompt.js';
import type { StoryContext } from '../campaign/play/storyContext.js';

/** A JSON schema in the subset node-llama-cpp turns into a grammar. */
export type GrammarSchema = Readonly<Record<string, unknown>>;

/** Health states the narrator may choose (docs/design-rules.md#skill-health: healthy normally, degraded with caution). */
const SELECTABLE_HEALTH: ReadonlySet<SkillHealth> = new Set<SkillHealth>(['healthy', 'degraded']);

/** The skills the model may choose from: selectable health and not disabled (docs/design-rules.md#choosing-skills). */
export function selectableSkills(skills: readonly NarratorSkill[], disabledSkills: readonly string[]): NarratorSkill[] {
  const disabled = new Set(disabledSkills);
  return skills.filter((skill) => !disabled.has(skill.name) && SELECTABLE_HEALTH.has(skill.health));
}

/**
 * The fixed prompt's size in characters (~1,300 Phi-3.5 tokens): with the turn's text and the answer it fits the
 * default 2,048-token context however many skills there are.
 */
export const SYSTEM_CHARS = 5000;
/** The catalog's share of it. */
const CATALOG_CHARS = 3000;

/** At most this many scripts per decision (besides the storyteller, which always narrates). */
export const MAX_DECIDED_SCRIPTS = 3;
/** Candidates the pattern narrator's ranking proposes in the per-turn text. */
const MAX_CANDIDATES = 3;
/** Size limits of the fixed prompt and of the per-turn text, in characters. */
export interface DecisionPromptBudget {
  /** The skills' behavioral prompts (prompt.md) together, in the fixed part (docs/design-rules.md#behavioral-prompts). */
  readonly behavioralPromptChars: number;
  readonly inputChars: number;
  readonly feedbackChars: number;
  readonly stateChars: number;
  /** A campaign's scene line (docs/campaigns.md#what-the-narrators-get). */
  readonly storyChars: number;
}

/** The guides' share of the fixed prompt (what the catalog leaves, up to this). */
export const DEFAULT_DECISION_BUDGET: DecisionPromptBudget = {
  behavioralPromptChars: 2000,
  inputChars: 600,
  feedbackChars: 300,
  stateChars: 160,
  storyChars: STORY_TURN_CHARS,
};

/** A script the model may choose: `skill/script`. */
export function scriptId(skill: NarratorSkill, script: NarratorSkill['scripts'][number]): string {
  return `${skill.name}/${script.name}`;
}

/** The skills whose scripts a decision can name: not narrators (the storyteller always narrates), with scripts. */
function decidable(skills: readonly NarratorSkill[]): NarratorSkill[] {
  return skills.filter((skill) => !isNarrator(skill) && skill.scripts.length > 0);
}

/** A script of the catalog, by its number in the fixed prompt. */
export interface CatalogScript {
  readonly number: number;
  /** `skill/script`. */
  readonly id: string;
  readonly skill: NarratorSkill;
}

/**
 * The numbered catalog of a skill set (the fixed prompt's): every decidable script, numbered from 1 in order. The
 * model answers with numbers: one or two tokens each, whatever the tokenizer, where a name costs a token or more
 * per syllable (and each generated token costs ~0.1-0.2 s on a CPU).
 */
export function decisionCatalog(skills: readonly NarratorSkill[]): CatalogScript[] {
  // Every skill, whatever its health: a skill failing during a turn keeps its number (the grammar leaves it out),
  // so the evaluated prompt stays valid.
  return decidable(skills)
    .flatMap((skill) => skill.scripts.map((script) => ({ id: scriptId(skill, script), skill })))
    .map((entry, index) => ({ ...entry, number: index + 1 }));
}

/** The catalog the request's fixed prompt shows. */
function catalogOf(request: PlanRequest): CatalogScript[] {
  return decisionCatalog(request.catalog ?? request.skills);
}

/** The catalog's scripts this request may run: enabled and not disabled (docs/design-rules.md#choosing-skills). */
function allowedOf(request: PlanRequest): CatalogScript[] {
  const allowed = new Set(
    decidable(selectableSkills(request.skills, request.disabledSkills)).flatMap((skill) => skill.scripts.map((script) => scriptId(skill, script))),
  );
  return catalogOf(request).filter((entry) => allowed.has(entry.id));
}

/**
 * The fixed part of the prompt: the rules, the catalog of every skill's scripts and the skills' behavioral
 * prompts. It depends only on the skill set, never on the turn, so its evaluation is computed once per model and
 * skill set (and persisted: promptCache.ts). Skills disabled for a replan stay listed; the grammar leaves them out.
 */
export function buildDecisionSystemPrompt(
  skills: readonly NarratorSkill[],
  budget: DecisionPromptBudget = DEFAULT_DECISION_BUDGET,
  story?: Pick<StoryContext, 'title' | 'setting' | 'constraints'>,
): string {
  const numbers = new Map(decisionCatalog(skills).map((entry) => [entry.id, entry.number]));
  const listed = decidable(skills);
  // The catalog shares CATALOG_CHARS: many skills get shorter descriptions, so the fixed prompt always fits the context.
  const lines = listed.reduce((count, skill) => count + 1 + skill.scripts.length, 0);
  const perLine = Math.max(40, Math.min(160, Math.floor(CATALOG_CHARS / Math.max(1, lines)) - 24));
  const catalog = listed.flatMap((skill) => [
    `- ${skill.name}: ${oneLine(skill.description, perLine)}`,
    ...skill.scripts.map(
      (script) =>
        `  ${numbers.get(scriptId(skill, script))}. ${scriptId(skill, script)}${script.description ? `: ${oneLine(firstSentence(script.description, 400), Math.min(110, perLine))}` : ''}`,
    ),
  ]);
  const rules = [
    "You are the narrator of an interactive story. For the player's words, choose which skill scripts run this turn.",
    `Answer with a JSON array of the scripts' numbers, most important first, at most ${MAX_DECIDED_SCRIPTS}, e.g. [2] or [1,4]; answer [] when no script helps.`,
    'A risky action needs a dice roll; a question about the past needs memory; ask for choices when the player is stuck.',
    'The storyteller always narrates the turn: never list it.',
  ];
  // A campaign's constant part takes its share of the same fixed size (the prompt's budget does not grow).
  const campaign = story ? storyFixedText(story) : '';
  // The guides get what the catalog leaves of the fixed prompt's size (docs/design-rules.md#behavioral-prompts: at least a little of each).
  const guides = behavioralPrompts(
    skills,
    Math.max(600, Math.min(budget.behavioralPromptChars - campaign.length, SYSTEM_CHARS - catalog.join('\n').length - campaign.length)),
  );
  return [
    ...rules,
    ...(campaign ? ['', campaign] : []),
    '',
    'Scripts:',
    ...(catalog.length > 0 ? catalog : ['(none: answer [])']),
    ...(guides.length > 0 ? ['', 'Skill guides:', ...guides] : []),
  ].join('\n');
}

/** The per-turn text, after the fixed part: the words, the likely scripts' numbers, and what a replan must know. Kept short: every token here is evaluated each turn. */
export function buildDecisionUserPrompt(request: PlanRequest, candidates: readonly string[], budget: DecisionPromptBudget = DEFAULT_DECISION_BUDGET): string {
  const lines = [`Player: ${trimToBudget(withoutRePlanReport(request.input).trim(), budget.inputChars)}`];
  const numbers = new Map(catalogOf(request).map((entry) => [entry.id, entry.number]));
  // Numbers only: the catalog in the fixed part says what they are, and every token here is evaluated each turn.
  const likely = candidates.flatMap((id) => (numbers.has(id) ? [String(numbers.get(id))] : []));
  if (likely.length > 0) lines.push(`Likely: ${likely.join(', ')}`);
  if (request.disabledSkills.length > 0) lines.push(`Unavailable: ${request.disabledSkills.join(', ')}`);
  if (request.feedback) lines.push(`The previous plan failed: ${trimToBudget(request.feedback, budget.feedbackChars)}`);
  const keys = request.state ? Object.keys(request.state) : [];
  if (keys.length > 0) lines.push(`State: ${trimToBudget(keys.join(', '), budget.stateChars)}`);
  if (request.story) lines.push(`Story: ${storyTurnText(request.story, budget.storyChars)}`);
  return lines.join('\n');
}

/** The decision's grammar as a JSON schema (for inspection and tests): an array of at most MAX_DECIDED_SCRIPTS numbers of allowed scripts. */
export function buildDecisionGrammar(request: PlanRequest): GrammarSchema {
  const numbers = allowedOf(request).map((entry) => entry.number);
  return numbers.length === 0 ? { type: 'array', maxItems: 0 } : { type: 'array', items: { enum: numbers }, maxItems: MAX_DECIDED_SCRIPTS };
}

/**
 * The grammar the model generates under: `[3,7]` with no whitespace anywhere, so every generated token is part of
 * the answer (a JSON-schema grammar lets a model pad with spaces). Only allowed scripts' numbers exist in it.
 */
export function buildDecisionGbnf(request: PlanRequest): string {
  const numbers = allowedOf(request).map((entry) => entry.number);
  if (numbers.length === 0) return 'root ::= "[]"';
  return [`root ::= "[" ( item ( "," item ){0,${MAX_DECIDED_SCRIPTS - 1}} )? "]"`, `item ::= ${numbers.map((number) => `"${number}"`).join(' | ')}`].join('\n');
}

/** Generated tokens allowed for a decision: one per character of the longest answer the grammar allows, and a margin. */
export function decisionMaxTokens(request: PlanRequest): number {
  const longest = Math.max(1, ...allowedOf(request).map((entry) => String(entry.number).length));
  return 8 + MAX_DECIDED_SCRIPTS * (longest + 1);
}

/** The pattern narrator's ranking of the words: the scripts it would choose, then the skills that just missed. */
export function decisionCandidates(request: PlanRequest): string[] {
  const available = availableSkills(request.skills, request.disabledSkills);
  const selection = selectSkills(withoutRePlanReport(request.input), available);
  const chosen = selection.selected.map((each) => scriptId(each.skill, each.script));
  const missed = selection.nearMisses.flatMap((miss) => {
    const skill = available.find((each) => each.name === miss.skill);
    return skill && skill.scripts[0] ? [scriptId(skill, skill.scripts[0])] : [];
  });
  return [...new Set([...chosen, ...missed])].slice(0, MAX_CANDIDATES);
}

/** The decision the model wrote (numbers), as the allowed scripts' names in order, each once (anything else is dropped). */
export function decidedScripts(output: unknown, request: PlanRequest): string[] {
  const allowed = new Map(allowedOf(request).map((entry) => [entry.number, entry.id]));
  const names = Array.isArray(output) ? output.flatMap((value) => (typeof value === 'number' && allowed.has(value) ? [allowed.get(value)!] : [])) : [];
  return [...new Set(names)].slice(0, MAX_DECIDED_SCRIPTS);
}

/** What the plan records about the decision (`metadata.decision`). */
export interface DecisionRecord {
  readonly candidates: readonly string[];
  readonly chosen: readonly string[];
  readonly promptTokens?: number;
  readonly generatedTokens?: number;
}

/** The plan of a decision: the chosen scripts composed like the pattern narrator's (roles, order, inputs from the words, the storyteller). */
export function planFromDecision(request: PlanRequest, chosen: readonly string[], record: DecisionRecord): Plan {
  const words = wordsWithNames(withoutRePlanReport(request.input), request.story);
  const available = availableSkills(request.skills, request.disabledSkills);
  const selected: SelectedSkill[] = chosen.flatMap((id) => {
    const [skillName, scriptName] = id.split('/');
    const skill = available.find((each) => each.name === skillName);
    const script = skill?.scripts.find((each) => each.name === scriptName);
    if (!skill || !script) return [];
    return [{ skill, script, alternatives: [], role: roleOf(skill), score: 0, terms: [], cues: [], evidence: [] }];
  });
  const narrator = narratorOf(available);
  const selection: Selection = { reading: readCues(words), selected, nearMisses: [], ...(narrator ? { narrator } : {}) };
  return composePlan(request, words, selection, {
    narrator: 'llm',
    explain: () => ({ reason: 'chosen by the model' }),
    metadata: { decision: record, createdAt: new Date().toISOString() },
  });
}
