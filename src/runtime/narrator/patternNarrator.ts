// The pattern narrator: chooses skills from what they say about themselves (selection/), fills their inputs, and composes the plan.
import { randomUUID } from 'node:crypto';
import type { Plan, ToolInvocation } from '../contractTypes/plan.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import type { GeneratedPlan, Narrator, NarratorKind, PlanRequest } from './index.js';
import type { EvidenceExplanation, NearMissExplanation, SelectionExplanation } from './planExplanation.js';
import { withoutRePlanReport } from '../executor/rePlanning.js';
import { fillInput, fillScriptInput } from './selection/inputFilling.js';
import { scriptKind } from './selection/scriptChoice.js';
import type { Evidence, SelectedSkill, Selection } from './selection/selectionTypes.js';
import { selectSkills } from './selection/skillSelection.js';
import { termsOf } from './selection/textTerms.js';
import { WordsContext } from './selection/wordsContext.js';
import { withStoryInputs, wordsWithNames, type ToolSlot } from '../campaign/play/storyInputs.js';

/**
 * Chooses skills by matching the player's words (and the words their phrase cues stand for) against each skill's
 * manifest and prompt, never a disabled one, and builds the plan: a roll and the context tools first, the narration
 * depending on them, choices after the narration, a portrait before it.
 */
export class PatternNarrator implements Narrator {
  readonly kind = 'pattern' as const;

  async generatePlan(request: PlanRequest): Promise<GeneratedPlan> {
    const started = performance.now();
    const plan = buildPatternPlan(request);
    return { plan, narrator: 'pattern', generationMs: performance.now() - started };
  }

  async dispose(): Promise<void> {}
}

/** Builds the plan synchronously (exported for tests and benchmarks). */
export function buildPatternPlan(request: PlanRequest): Plan {
  const available = availableSkills(request.skills, request.disabledSkills);
  // A campaign's NPC names read as names ("ask tamsin" -> "ask Tamsin"): the input fillers take them as people.
  const words = wordsWithNames(withoutRePlanReport(request.input), request.story);
  const selection = selectSkills(words, available);
  return composePlan(request, words, selection, {
    narrator: 'pattern',
    explain: (chosen) => {
      // (Its fields in this order, the optional ones only when they say something.)
      const explanation: Writable<Explanation> = { score: chosen.score, terms: chosen.terms };
      if (chosen.cues.length > 0) explanation.cues = chosen.cues;
      explanation.evidence = chosen.evidence.map(evidenceOf);
      if (chosen.byMeaning) explanation.by = 'meaning';
      explanation.reason = reasonFor(chosen);
      return explanation as Explanation;
    },
  });
}

/** What a composition says of a chosen skill (the plan adds its tool id, skill and script). */
type Explanation = Omit<SelectionExplanation, 'toolId' | 'skill' | 'script'>;
type Writable<T> = { -readonly [K in keyof T]?: T[K] };

/** How a composed plan says who chose its skills, and why each. */
export interface Composition {
  readonly narrator: NarratorKind;
  /** Why `chosen` was chosen: a new object each call (the plan completes it with the script's reason and the input's words). */
  readonly explain: (chosen: SelectedSkill) => Explanation;
  /** More of `metadata` (the LLM narrator's decision). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The plan of a selection, as the skill prompts describe it: the roll and the context tools first (context
 * optional), the storyteller depending on them, choices after the narration, a portrait before it; each script's
 * input filled from its schema and the words. The pattern narrator's selection and the LLM narrator's decision
 * are composed alike.
 */
export function composePlan(request: PlanRequest, words: string, selection: Selection, composition: Composition): Plan {
  const context = WordsContext.of(words, selection.reading);
  const tools: ToolInvocation[] = [];
  /** A skill ran another script than the one the words asked for (its input was not in the words). */
  let untried = false;
  /** The tools whose scripts act: if one fails, the player's act did not happen, and the narration says so. */
  const acts: string[] = [];
  const explanations: SelectionExplanation[] = [];
  const used = new Set<string>();
  /** The first of the skill's scripts (best first) whose input the words can fill, with each field's words; else the required fields no script could fill. */
  const filled = (
    chosen: SelectedSkill,
  ): { chosen: SelectedSkill; input: Record<string, unknown>; sources: Readonly<Record<string, string>> } | { missing: readonly string[] } => {
    const skillContext = context.forSkill(skillTermsOf(chosen.skill));
    let missing: readonly string[] | undefined;
    for (const script of [chosen.script, ...chosen.alternatives]) {
      const result = fillScriptInput(script.inputSchema, skillContext);
      if ('input' in result) {
        if (script === chosen.script) return { chosen, input: result.input, sources: result.sources };
        // The act asked for could not run: the narration must not tell it as done.
        if (!context.question && scriptKind(chosen.script).kind === 'acts') untried = true;
        return {
          chosen: { ...chosen, script, scriptReason: `"${chosen.script.name}" needs ${missingList(missing ?? [])}, which the words do not give` },
          input: result.input,
          sources: result.sources,
        };
      }
      missing ??= result.missing;
    }
    // The words plainly ask for this skill, but name nothing the way its best script wants: its best guess.
    const guessed = fillScriptInput(chosen.script.inputSchema, skillContext, true);
    return 'input' in guessed ? { chosen, input: guessed.input, sources: guessed.sources } : { missing: missing ?? [] };
  };
  const add = (
    chosen: Pick<SelectedSkill, 'skill' | 'script'>,
    input: Record<string, unknown>,
    extra: Partial<ToolInvocation>,
    explanation: Omit<SelectionExplanation, 'toolId' | 'skill' | 'script'>,
    slot: Omit<ToolSlot, 'accepts' | 'words'>,
  ): string => {
    const id = toolIdFor(chosen.skill.name, chosen.script.name, used);
    // A campaign's part of the input (docs/campaigns.md#what-the-narrators-get): beats, voices and lore for the narration, the rules' dice.
    const properties = chosen.script.inputSchema?.['properties'] as Record<string, unknown> | undefined;
    const storyInput = withStoryInputs(input, { ...slot, words, accepts: (field) => properties?.[field] !== undefined }, request.story);
    tools.push({ toolId: id, toolPath: chosen.script.toolPath, input: storyInput, ...extra });
    explanations.push({ toolId: id, skill: chosen.skill.name, script: chosen.script.name, ...explanation });
    return id;
  };
  const explain = composition.explain;
  const nearMisses: NearMissExplanation[] = selection.nearMisses.map((miss) => ({ ...miss, evidence: miss.evidence.map(evidenceOf) }));
  /** A chosen skill whose input the words cannot fill stays out: a near miss too, naming the fields. */
  const unfilled = (chosen: SelectedSkill, missing: readonly string[]) =>
    nearMisses.push({
      skill: chosen.skill.name,
      score: chosen.score,
      threshold: chosen.score,
      reason: 'input-not-filled',
      evidence: chosen.evidence.map(evidenceOf),
      ...(missing.length > 0 ? { fields: missing } : {}),
    });
  /** The explanation of a chosen skill, with its script's reason and its input's words. */
  const explained = (chosen: SelectedSkill, sources: Readonly<Record<string, string>>): Explanation => {
    // (The composition's explanation is a new object each time: the plan's own, completed here.)
    const explanation: Writable<Explanation> = explain(chosen);
    if (chosen.scriptReason) explanation.scriptReason = chosen.scriptReason;
    for (const field in sources) {
      if (Object.hasOwn(sources, field)) {
        explanation.inputs = sources;
        break;
      }
    }
    return explanation as Explanation;
  };

  /** The roll and context tools the narration depends on; the rolls alone, which choices depend on too. */
  const before: string[] = [];
  const rolls: string[] = [];
  const after: SelectedSkill[] = [];
  for (const candidate of selection.selected) {
    if (candidate.role === 'options') {
      after.push(candidate);
      continue;
    }
    const found = filled(candidate);
    if ('missing' in found) {
      unfilled(candidate, found.missing);
      continue;
    }
    const { chosen, input, sources } = found;
    if (chosen.role === 'visual') {
      // The narration tells what the portrait was drawn from, so it waits for it (optional: a failed picture
      // never stops the story).
      before.push(add(chosen, input, { required: false }, explained(chosen, sources), { role: chosen.role, sources }));
      continue;
    }
    const id = add(chosen, input, chosen.role === 'chance' ? {} : { required: false }, explained(chosen, sources), { role: chosen.role, sources });
    if (chosen.role === 'context' && scriptKind(chosen.script).kind === 'acts') acts.push(id);
    before.push(id);
    if (chosen.role === 'chance') rolls.push(id);
  }
  let narrateId: string | undefined;
  if (selection.narrator) {
    const filledInput = fillInput(selection.narrator.script.inputSchema, context) ?? {};
    // (Only for a narrator whose input takes them: an author's own storyteller may refuse unknown fields.)
    const accepts = (field: string) => (selection.narrator!.script.inputSchema?.['properties'] as Record<string, unknown> | undefined)?.[field] !== undefined;
    const input = { ...filledInput, ...(untried && accepts('tried') ? { tried: true } : {}), ...(acts.length > 0 && accepts('acts') ? { acts } : {}) };
    narrateId = add(
      selection.narrator,
      input,
      before.length > 0 ? { dependencies: before, required: true } : {},
      { reason: before.length > 0 ? `narrates the outcome of ${before.join(', ')}` : 'narrates the action' },
      { role: 'narrator', sources: {} },
    );
  }
  for (const candidate of after) {
    const found = filled(candidate);
    if ('missing' in found) {
      unfilled(candidate, found.missing);
      continue;
    }
    const { chosen, input, sources } = found;
    const dependencies = [...rolls, ...(narrateId ? [narrateId] : [])];
    add(chosen, input, { required: false, ...(dependencies.length > 0 ? { dependencies } : {}) }, explained(chosen, sources), { role: chosen.role, sources });
  }
  return {
    requestId: randomUUID(),
    ...optional('narrative', narrativeFor(selection, words)),
    tools,
    parallel: false,
    disabledSkills: [...request.disabledSkills],
    metadata: {
      generationAttempt: request.attempt,
      parentPlanId: request.parentPlanId,
      narrator: composition.narrator,
      selection: explanations,
      nearMisses,
      ...composition.metadata,
    },
  };
}

const filtered = new WeakMap<readonly NarratorSkill[], Map<string, readonly NarratorSkill[]>>();

/** The skills not disabled: the same array for the same skills and disabled names, so the skill index is built once. */
export function availableSkills(skills: readonly NarratorSkill[], disabledSkills: readonly string[]): readonly NarratorSkill[] {
  if (disabledSkills.length === 0) return skills;
  const key = [...disabledSkills].sort().join('\u0000');
  let byDisabled = filtered.get(skills);
  if (!byDisabled) filtered.set(skills, (byDisabled = new Map<string, readonly NarratorSkill[]>()));
  let available = byDisabled.get(key);
  if (!available) {
    const disabled = new Set(disabledSkills);
    available = skills.filter((skill) => !disabled.has(skill.name));
    if (byDisabled.size >= 16) byDisabled.clear();
    byDisabled.set(key, available);
  }
  return available;
}

const skillTerms = new WeakMap<NarratorSkill, ReadonlySet<string>>();

/** The terms of a skill's own words (name, display name, description, capabilities, scripts' names and descriptions), once per skill. */
function skillTermsOf(skill: NarratorSkill): ReadonlySet<string> {
  let terms = skillTerms.get(skill);
  if (!terms) {
    terms = new Set(
      termsOf(
        [
          skill.name,
          skill.displayName ?? '',
          skill.description,
          ...skill.capabilities,
          ...skill.scripts.flatMap((script) => [script.name, script.description ?? '']),
        ].join(' '),
      ),
    );
    skillTerms.set(skill, terms);
  }
  return terms;
}

/** "item" or "item" and "offer". */
function missingList(fields: readonly string[]): string {
  return fields.length === 0 ? 'an input' : fields.map((field) => `"${field}"`).join(' and ');
}

/** The script's name as its id ("roll", "recall"); a generic or taken one gets its skill's name ("reputation-query"). */
function toolIdFor(skill: string, script: string, used: Set<string>): string {
  const generic = /^(?:query|get|update|adjust|change|set|list|report|lookup|run|main|index|store|show)$/i.test(script);
  let id = generic || used.has(script) ? `${skill}-${script}` : script;
  id = id.replace(/[^A-Za-z0-9_.:-]/g, '-');
  const base = id;
  for (let suffix = 2; used.has(id); suffix++) id = `${base}${suffix}`;
  used.add(id);
  return id;
}

/** The evidence as the plan records it (rounded, no similarity: the fields say where). */
function evidenceOf(evidence: Evidence): EvidenceExplanation {
  // (Built whole rather than spread: a plan holds many of these.)
  return evidence.related
    ? { word: evidence.word, related: evidence.related, fields: evidence.fields, contribution: evidence.contribution }
    : { word: evidence.word, fields: evidence.fields, contribution: evidence.contribution };
}

function reasonFor(chosen: SelectedSkill): string {
  if (chosen.byMeaning)
    return `no skill's words matched; closest in meaning: ${chosen.evidence.map((each) => `"${each.word}" ~ "${each.related}"`).join(', ')} (${chosen.score} above the compared skills' mean)`;
  const cues = chosen.cues.length > 0 ? ` (cues: ${chosen.cues.join(', ')})` : '';
  return `matched ${chosen.terms
    .slice(0, 4)
    .map((term) => `"${term}"`)
    .join(', ')} with score ${chosen.score}${cues}`;
}

/**
 * The plan's own narrative, never the player's words quoted back. With a storyteller there is none (the narration
 * tells the turn, and a fixed preface would repeat turn after turn); without one it is the whole narration: the
 * action in the second person.
 */
function narrativeFor(selection: Selection, input: string): string | undefined {
  return selection.narrator ? undefined : secondPerson(input);
}

/** "I open the door." → "You open the door." (first person to second, the sentence kept). */
function secondPerson(input: string): string {
  const text = input
    .trim()
    .replace(/^["\u201c]|["\u201d]$/g, '')
    .replace(/[.!?]+$/, '');
  const turned = text
    .replace(/\bI'm\b/g, "you're")
    .replace(/\bI am\b/g, 'you are')
    .replace(/\b(?:I|we)\b/gi, 'you')
    .replace(/\b(?:my|our)\b/gi, 'your')
    .replace(/\b(?:me|us)\b/gi, 'you')
    .replace(/\b(?:myself|ourselves)\b/gi, 'yourself');
  const sentence = turned.charAt(0).toUpperCase() + turned.slice(1);
  return `${sentence}.`;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
