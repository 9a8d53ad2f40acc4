// Chooses the skills (and each one's script) a player's words ask for, from what the skills say about themselves, with a threshold so a weak match never drags a skill in; and the storyteller that narrates.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { readCues, type CueKind, type CueReading } from './cues.js';
import { SkillIndex, type IndexedSkill } from './skillIndex.js';
import { termOf, wordsOf } from './textTerms.js';

/** Where a chosen skill goes in the plan. */
export type SkillRole = 'chance' | 'context' | 'options' | 'visual';

/** The role of the skills each cue asks for. */
const CUE_ROLES: Readonly<Record<CueKind, SkillRole>> = { chance: 'chance', past: 'context', opinion: 'context', standing: 'context', deed: 'context', options: 'options', dialogue: 'options', appearance: 'visual' };

export interface SelectedSkill {
  readonly skill: NarratorSkill;
  readonly script: NarratorSkill['scripts'][number];
  /** The skill's other scripts, best first: tried when `script`'s input cannot be filled from the words. */
  readonly alternatives: readonly NarratorSkill['scripts'][number][];
  readonly role: SkillRole;
  readonly score: number;
  /** The words that matched, best first: the player's own, or a cue's (e.g. "chance" for a risky attempt). */
  readonly terms: readonly string[];
  /** The cues whose words it matched. */
  readonly cues: readonly CueKind[];
}

export interface Selection {
  readonly reading: CueReading;
  readonly selected: readonly SelectedSkill[];
  /** The skill that narrates (capability narration), when one is available. */
  readonly narrator?: { readonly skill: NarratorSkill; readonly script: NarratorSkill['scripts'][number] };
}

/** Weight of a cue's added words against the player's own. */
const EXPANSION_WEIGHT = 1;
/**
 * A skill needs this score at least (BM25F in units of a unique term's idf: about one term that only this skill has,
 * matched in its name, capabilities or keywords, or two in its descriptions)…
 */
export const MIN_SCORE = 1.68;
/** …and this share of the best skill's score. */
const RELATIVE_SCORE = 0.4;
/** Skills besides the narrator, at most. */
const MAX_SKILLS = 3;

const NARRATION = /^(?:narration|narrate|narrator|storytelling|story|storyteller)$/i;
const CHANCE = /^(?:dice|chance|check|random|roll|luck)$/i;
const OPTIONS = /^(?:choices|choice|options|decision|decisions|dialogue)$/i;
const VISUAL = /^(?:portrait|image|images|art|picture|illustration|visual)$/i;
/** Script names that read (chosen for questions) and that act (chosen for deeds and actions). */
const READS = /^(?:query|get|report|lookup|look-?up|recall|list|show|status|wares|routes|forecast|find|search|info|describe|check|read)/i;
const ACTS = /^(?:update|adjust|change|set|store|save|record|add|buy|sell|journey|travel|go|move|apply|give|take|write|roll|draw|offer)/i;

const indexes = new WeakMap<readonly NarratorSkill[], SkillIndex>();
/** Recent indexes by what their skills say (a turn, or a replan without a skill, rebuilds its array). */
const recentIndexes = new Map<string, SkillIndex>();
const RECENT_INDEXES = 8;

/** The index of a skill set: cached by the array, then by what the skills say. */
function indexOf(skills: readonly NarratorSkill[]): SkillIndex {
  const cached = indexes.get(skills);
  if (cached) return cached;
  const key = skills.map((skill) => `${skill.name}\u0000${skill.description}\u0000${skill.scripts.map((script) => script.toolPath).join(',')}\u0000${skill.prompt?.length ?? 0}`).join('\u0001');
  let index = recentIndexes.get(key);
  if (index) {
    recentIndexes.delete(key);
  } else {
    index = new SkillIndex(skills);
    if (recentIndexes.size >= RECENT_INDEXES) recentIndexes.delete(recentIndexes.keys().next().value!);
  }
  recentIndexes.set(key, index);
  indexes.set(skills, index);
  return index;
}

const roles = new WeakMap<NarratorSkill, SkillRole>();

/** Where a skill goes in a plan, from its capabilities (dice → chance, choices → options, portrait → visual, else context). */
export function roleOf(skill: NarratorSkill): SkillRole {
  let role = roles.get(skill);
  if (role === undefined) {
    role = roleOfCapabilities(skill);
    roles.set(skill, role);
  }
  return role;
}

function roleOfCapabilities(skill: NarratorSkill): SkillRole {
  if (skill.capabilities.some((capability) => CHANCE.test(capability))) return 'chance';
  if (skill.capabilities.some((capability) => OPTIONS.test(capability))) return 'options';
  if (skill.capabilities.some((capability) => VISUAL.test(capability))) return 'visual';
  return 'context';
}

function isNarrator(skill: NarratorSkill): boolean {
  return skill.capabilities.some((capability) => NARRATION.test(capability));
}

/** Reads the words, scores every skill, keeps those over the threshold (best first), and picks each one's script. */
export function selectSkills(input: string, skills: readonly NarratorSkill[]): Selection {
  const reading = readCues(input);
  const index = indexOf(skills);
  const query = new Map<string, number>();
  /** Each term's word as the player wrote it (or as a cue added it), for explanations. */
  const shown = new Map<string, string>();
  for (const word of wordsOf(input)) {
    const term = termOf(word);
    if (term === undefined) continue;
    query.set(term, (query.get(term) ?? 0) + 1);
    if (!shown.has(term)) shown.set(term, word);
  }
  // A cue's words count only for skills of its kind: "roll dice chance" never drags in a skill that merely mentions dice.
  const cueTerms = new Map<string, CueKind[]>();
  const queries = new Map<SkillRole, Map<string, number>>();
  for (const role of ['chance', 'context', 'options', 'visual'] as const) {
    const expanded = new Map(query);
    for (const cue of reading.cues) {
      if (CUE_ROLES[cue.kind] !== role) {
        // A trigger that is itself a word of the cue's kind ("roll", "options", "portrait") speaks for that kind only.
        const kindTerms = new Set(wordsOf(cue.expansion).map((word) => termOf(word)));
        for (const word of wordsOf(cue.phrase)) {
          const term = termOf(word);
          if (term !== undefined && kindTerms.has(term)) expanded.delete(term);
        }
        continue;
      }
      for (const word of wordsOf(cue.expansion)) {
        const term = termOf(word);
        if (term === undefined) continue;
        expanded.set(term, Math.max(expanded.get(term) ?? 0, EXPANSION_WEIGHT));
        if (!shown.has(term)) shown.set(term, word);
        cueTerms.set(term, [...new Set([...(cueTerms.get(term) ?? []), cue.kind])]);
      }
    }
    queries.set(role, expanded);
  }
  const scored = index.skills
    .filter((entry) => entry.skill.scripts.length > 0 && !isNarrator(entry.skill))
    // Scores first (no allocation per skill); the matched terms only for the skills kept.
    .map((entry) => ({ entry, query: queries.get(roleOf(entry.skill))!, match: index.score(entry.document, queries.get(roleOf(entry.skill))!, false) }))
    .sort((left, right) => right.match.score - left.match.score || right.entry.skill.priority - left.entry.skill.priority || left.entry.skill.name.localeCompare(right.entry.skill.name));
  const best = scored[0]?.match.score ?? 0;
  const selected: SelectedSkill[] = [];
  const cuedRoles = new Set<SkillRole>(reading.cues.map((cue) => CUE_ROLES[cue.kind]).filter((role) => role !== 'context'));
  for (const { entry, query: asked, match: scoreOnly } of singlePerRole(scored, cuedRoles)) {
    if (selected.length >= MAX_SKILLS) break;
    const role = roleOf(entry.skill);
    if (scoreOnly.score < MIN_SCORE && !cuedRoles.has(role)) continue;
    const match = index.score(entry.document, asked);
    const cues = [...new Set(match.terms.flatMap((term) => cueTerms.get(term) ?? []))];
    // A skill far behind the best one stays out, unless a phrase cue asked for its kind (a risky deed wants a roll too).
    const cueMatches = match.terms.filter((term) => cueTerms.has(term)).length;
    if (match.score < best * RELATIVE_SCORE && cueMatches < 2 && !cuedRoles.has(role)) continue;
    const [script, ...alternatives] = scriptsOf(index, entry, asked, reading);
    selected.push({ skill: entry.skill, script: script!, alternatives, role: roleOf(entry.skill), score: round(match.score), terms: match.terms.slice(0, 8).map((term) => shown.get(term) ?? term), cues });
  }
  const narrator = narratorOf(skills);
  return { reading, selected, ...(narrator ? { narrator } : {}) };
}

/**
 * One roll, one set of choices, one picture per plan. When the words ask for that kind of move (a cue: a risky
 * attempt, a request for options, "what does she look like"), the skill of that role (by its capabilities) with the
 * highest priority is chosen, whatever its score: an author's own dice skill over the sample one. Otherwise the
 * highest priority among those that pass the threshold.
 */
function singlePerRole<T extends { readonly entry: IndexedSkill; readonly match: { readonly score: number } }>(scored: readonly T[], cuedRoles: ReadonlySet<SkillRole>): T[] {
  const kept: T[] = [];
  const taken = new Set<SkillRole>();
  for (const item of scored) {
    const role = roleOf(item.entry.skill);
    const cued = cuedRoles.has(role);
    if (role === 'context' || (item.match.score < MIN_SCORE && !cued)) {
      kept.push(item);
      continue;
    }
    if (taken.has(role)) continue;
    taken.add(role);
    const rivals = scored.filter((other) => roleOf(other.entry.skill) === role && (cued || other.match.score >= MIN_SCORE));
    const chosen = rivals.reduce((top, other) => (other.entry.skill.priority > top.entry.skill.priority ? other : top));
    kept.push(chosen);
  }
  return kept;
}

/** The skill's scripts, best first: the one whose own words match best; a question prefers a reading script, an action an acting one. */
function scriptsOf(index: SkillIndex, entry: IndexedSkill, query: ReadonlyMap<string, number>, reading: CueReading): NarratorSkill['scripts'][number][] {
  const scripts = entry.skill.scripts;
  if (scripts.length === 1) return [scripts[0]!];
  const acting = !reading.question || reading.deedPolarity !== 0;
  return scripts
    .map((script, position) => {
      const verb = READS.test(script.name) ? (acting ? -0.5 : 1.5) : ACTS.test(script.name) ? (acting ? 1.5 : -0.5) : 0;
      return { script, position, score: index.score(entry.scripts[position]!, query).score + verb };
    })
    .sort((left, right) => right.score - left.score || left.position - right.position)
    .map(({ script }) => script);
}

/** The narrating skill of highest priority, and its script named like narrate (else its first). */
function narratorOf(skills: readonly NarratorSkill[]): Selection['narrator'] {
  const narrator = skills
    .filter((skill) => skill.scripts.length > 0 && isNarrator(skill))
    .sort((left, right) => right.priority - left.priority || left.name.localeCompare(right.name))[0];
  if (!narrator) return undefined;
  return { skill: narrator, script: narrator.scripts.find((script) => /narrat|tell|describe/i.test(script.name)) ?? narrator.scripts[0]! };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
