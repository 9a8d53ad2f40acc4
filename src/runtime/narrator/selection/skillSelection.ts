// Chooses the skills (and each one's script) a player's words ask for, from what the skills say about themselves, with a threshold so a weak match never drags a skill in (common words counting less); when no skill's words match, the one closest in meaning; and the storyteller that narrates.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { readCues, type CueKind, type CueReading } from './cues.js';
import { ACTING_VERBS, READING_VERBS } from './verbs.js';
import { SkillIndex, type IndexedSkill, type Match, type Query, type RelatedTerm } from './skillIndex.js';
import { activeTuning, tuningVersion, type Field } from './selectionTuning.js';
import { termOf, wordsOf } from './textTerms.js';
import { SkillTopics } from './topicSimilarity.js';
import { wordVectors } from './relatedness/vectors.js';
import { lexicon } from './relatedness/lexicon.js';

/** Where a chosen skill goes in the plan. */
export type SkillRole = 'chance' | 'context' | 'options' | 'visual';

/** The role of the skills each cue asks for. */
const CUE_ROLES: Readonly<Record<CueKind, SkillRole>> = {
  chance: 'chance',
  past: 'context',
  opinion: 'context',
  standing: 'context',
  deed: 'context',
  price: 'context',
  distance: 'context',
  time: 'context',
  options: 'options',
  dialogue: 'options',
  appearance: 'visual',
};

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
  /** Each matched word and where in the manifest it matched. */
  readonly evidence: readonly Evidence[];
  /** Chosen because its manifest is closest in meaning to the words (the word vectors), no skill's own words matching. */
  readonly byMeaning?: boolean;
  /** Why `script` beat the skill's other scripts (absent for a skill with one script). */
  readonly scriptReason?: string;
}

/** One of the player's words (or a cue's) that matched a skill: where, and through which related word of the manifest. */
export interface Evidence {
  readonly word: string;
  /** The manifest's word it matched through relatedness (e.g. "distances" for "far"), absent for the same word. */
  readonly related?: string;
  readonly similarity?: number;
  readonly fields: readonly Field[];
  /** What it added to the score. */
  readonly contribution: number;
}

/** Why a skill that matched some words stayed out of the plan. */
export type MissReason = 'below-threshold' | 'far-behind-best' | 'related-words-only' | 'no-likeness-asked' | 'one-per-role' | 'too-many-skills' | 'input-not-filled' | 'act-not-asked';

/** A skill that scored but stayed out: for authors, to see what their manifest lacks. */
export interface NearMiss {
  readonly skill: string;
  readonly score: number;
  /** The score it needed: the threshold, or the share of the best skill's score. */
  readonly threshold: number;
  readonly reason: MissReason;
  readonly evidence: readonly Evidence[];
  /** For `act-not-asked`: why. */
  readonly detail?: string;
}

export interface Selection {
  readonly reading: CueReading;
  readonly selected: readonly SelectedSkill[];
  /** The skill that narrates (capability narration), when one is available. */
  readonly narrator?: { readonly skill: NarratorSkill; readonly script: NarratorSkill['scripts'][number] };
  /** Skills that matched some words and stayed out, best first (at most NEAR_MISSES). */
  readonly nearMisses: readonly NearMiss[];
}

/** Weight of a cue's added words against the player's own. */
const EXPANSION_WEIGHT = 1;
/** Skills besides the narrator, at most. */
const MAX_SKILLS = 3;
/** Near misses reported, at most. */
const NEAR_MISSES = 5;

const NARRATION = /^(?:narration|narrate|narrator|storytelling|story|storyteller)$/i;
const CHANCE = /^(?:dice|chance|check|random|roll|luck)$/i;
/** Skills that offer the player choices (they run after the narration). "dialogue" alone is a character who talks: context, told by the narration. */
const OPTIONS = /^(?:choices|choice|options|decision|decisions)$/i;
const VISUAL = /^(?:portrait|image|images|art|picture|illustration|visual)$/i;
/** Script names that read (chosen for questions) and that act (chosen for deeds and actions). */
const READS = /^(?:query|get|report|lookup|look-?up|recall|list|show|status|wares|routes|forecast|find|search|info|describe|check|read)/i;
const ACTS = /^(?:update|adjust|change|set|store|save|record|add|buy|sell|journey|travel|go|move|apply|give|take|write|roll|draw|offer)(?:$|[-_ .])/i;
/** A script description that starts by reading ("Reports how much oxygen is left", "Lists the crew"); one that starts with another verb acts. */
const READING_DESCRIPTION = /^(?:lists|shows|checks|reports|tells|says|reads|finds|counts|looks|searches|reviews|scans|describes|displays|estimates|reveals|explains|predicts|forecasts|answers|recalls|identifies|examines|inspects|measures|gets|fetches|queries|returns)\b/i;
/** A verb of the third person ("Swaps", "Adds"), not a word that merely ends in s ("This", "Status", "Always"). */
const ACTING_DESCRIPTION = /^[A-Z][a-z]*[^s\W]s\b/;
const NOT_A_VERB = /^(?:this|is|was|has|does|its|his|hers|yes|status|details|stats|notes|always|perhaps|news|series|plus|thus|towards|afterwards|sometimes|nowadays)\b/i;

const NO_TERMS: readonly string[] = [];
const NO_RELATED: ReadonlyMap<string, readonly RelatedTerm[]> = new Map();
const indexes = new WeakMap<readonly NarratorSkill[], SkillIndex>();
/** Recent indexes by what their skills say (a turn, or a replan without a skill, rebuilds its array). */
const recentIndexes = new Map<string, SkillIndex>();
const RECENT_INDEXES = 8;
const cachedVersion = new WeakMap<SkillIndex, number>();
/** A number per distinct content of a skill (what the index reads), computed once per skill object. */
const contentIds = new Map<string, number>();
const contentIdOfSkill = new WeakMap<NarratorSkill, number>();
/** Contents remembered before starting afresh (ids keep counting up, so an old id never means a new content). */
const CONTENTS_KEPT = 1024;
let nextContentId = 0;

function contentIdOf(skill: NarratorSkill): number {
  let id = contentIdOfSkill.get(skill);
  if (id === undefined) {
    const content = JSON.stringify([skill.name, skill.displayName, skill.description, skill.capabilities, skill.keywords ?? [], skill.health, skill.scripts.map((script) => [script.name, script.toolPath, script.description ?? '', script.examples ?? []]), skill.prompt ?? '']);
    id = contentIds.get(content);
    if (id === undefined) {
      if (contentIds.size >= CONTENTS_KEPT) contentIds.clear();
      id = nextContentId++;
      contentIds.set(content, id);
    }
    contentIdOfSkill.set(skill, id);
  }
  return id;
}

/** A skill selection may choose (it has scripts and does not narrate): its place in the index, its role, and its name's rank (for ties). */
interface Candidate {
  readonly entry: IndexedSkill;
  readonly position: number;
  readonly role: SkillRole;
  /** Its place among the candidates' names in alphabetical order (the last tie-break). */
  readonly nameRank: number;
}

const candidates = new WeakMap<SkillIndex, readonly Candidate[]>();

/** The candidates of an index, once per index. */
function candidatesOf(index: SkillIndex): readonly Candidate[] {
  let found = candidates.get(index);
  if (!found) {
    const chosen = index.skills.map((entry, position) => ({ entry, position })).filter(({ entry }) => entry.skill.scripts.length > 0 && !isNarrator(entry.skill));
    const names = [...new Set(chosen.map(({ entry }) => entry.skill.name))].sort((left, right) => left.localeCompare(right));
    const rank = new Map(names.map((name, position) => [name, position]));
    found = chosen.map(({ entry, position }) => ({ entry, position, role: roleOf(entry.skill), nameRank: rank.get(entry.skill.name)! }));
    candidates.set(index, found);
  }
  return found;
}

/** The index of a skill set: cached by the array, then by what the skills say. */
function indexOf(skills: readonly NarratorSkill[]): SkillIndex {
  const cached = indexes.get(skills);
  if (cached && cachedVersion.get(cached) === tuningVersion()) return cached;
  // Everything the index reads: a keyword or a script description added by the author makes a new index.
  const key = `${tuningVersion()}:${skills.map(contentIdOf).join(',')}`;
  let index = recentIndexes.get(key);
  if (index) {
    recentIndexes.delete(key);
  } else {
    index = new SkillIndex(skills);
    cachedVersion.set(index, tuningVersion());
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

export function isNarrator(skill: NarratorSkill): boolean {
  return skill.capabilities.some((capability) => NARRATION.test(capability));
}

/** Reads the words, scores every skill, keeps those over the threshold (best first), and picks each one's script; says why the others that matched stayed out. */
export function selectSkills(input: string, skills: readonly NarratorSkill[]): Selection {
  const tuning = activeTuning();
  const reading = readCues(input);
  const index = indexOf(skills);
  const query = new Map<string, number>();
  /** Each term's word as the player wrote it (or as a cue added it), for explanations. */
  const shown = new Map<string, string>();
  /** The manifests' terms related to the player's own terms (cue words are not widened). */
  const related = new Map<string, readonly RelatedTerm[]>();
  for (const word of wordsOf(input)) {
    const term = termOf(word);
    if (term === undefined) continue;
    query.set(term, (query.get(term) ?? 0) + commonness(word, tuning.commonWordFrequency));
    if (!shown.has(term)) shown.set(term, word);
    if (!related.has(term)) related.set(term, index.related(word));
  }
  // A cue's words count only for skills of its kind: "roll dice chance" never drags in a skill that merely mentions dice.
  const cueTerms = new Map<string, CueKind[]>();
  const queries = new Map<SkillRole, Query>();
  for (const role of ['chance', 'context', 'options', 'visual'] as const) {
    // A role no cue changes shares the words' own query (and its scores).
    let expanded = query;
    const writable = () => (expanded === query ? (expanded = new Map(query)) : expanded);
    for (const cue of reading.cues) {
      if (CUE_ROLES[cue.kind] !== role) {
        // A trigger that is itself a word of the cue's kind ("roll", "options", "portrait") speaks for that kind only.
        const kindTerms = cueTermsOf(cue.expansion).terms;
        for (const word of wordsOf(cue.phrase)) {
          const term = termOf(word);
          if (term !== undefined && kindTerms.has(term) && expanded.has(term)) writable().delete(term);
        }
        continue;
      }
      for (const [term, word] of cueTermsOf(cue.expansion).words) {
        writable().set(term, Math.max(expanded.get(term) ?? 0, EXPANSION_WEIGHT));
        if (!shown.has(term)) shown.set(term, word);
        cueTerms.set(term, [...new Set([...(cueTerms.get(term) ?? []), cue.kind])]);
      }
    }
    queries.set(role, { terms: expanded, related });
  }
  // Scores first, each distinct query walking only the skills that hold its terms; the matched terms only for the skills kept.
  const queriesScored = new Map<ReadonlyMap<string, number>, ReturnType<SkillIndex['scoreAll']>>();
  const scoresOf = (role: SkillRole) => {
    const asked = queries.get(role)!;
    let found = queriesScored.get(asked.terms);
    if (!found) queriesScored.set(asked.terms, (found = index.scoreAll(asked)));
    return found;
  };
  const cuedRoles = new Set<SkillRole>(reading.cues.map((cue) => CUE_ROLES[cue.kind]).filter((role) => role !== 'context'));
  /** Over the threshold: what the manifest says, or (a higher bar) the manifest and prompt.md's prose together. */
  const passes = (match: Match) => (tuning.thresholdOnManifest ? match.manifestScore >= tuning.minScore || match.score >= tuning.proseScore : match.score >= tuning.minScore);
  // A skill none of whose words were said can only be chosen when the words cue its role (a roll, choices, a
  // picture) or the tuning lets a zero score pass: the others are left out before sorting (most of a large set).
  const zeroPasses = passes({ score: 0, manifestScore: 0, terms: NO_TERMS, matches: [] });
  const scored: { entry: IndexedSkill; role: SkillRole; nameRank: number; query: Query; match: Match }[] = [];
  for (const { entry, position, role, nameRank } of candidatesOf(index)) {
    const { scores, manifestScores } = scoresOf(role);
    const score = scores[position]!;
    if (score === 0 && manifestScores[position] === 0 && !zeroPasses && !cuedRoles.has(role)) continue;
    scored.push({ entry, role, nameRank, query: queries.get(role)!, match: { score, manifestScore: manifestScores[position]!, terms: NO_TERMS, matches: [] } });
  }
  scored.sort((left, right) => right.match.score - left.match.score || right.entry.skill.priority - left.entry.skill.priority || left.nameRank - right.nameRank);
  const best = scored[0]?.match.score ?? 0;
  const selected: SelectedSkill[] = [];
  const misses = new Map<IndexedSkill, { reason: MissReason; threshold: number; detail?: string }>();
  const kept = singlePerRole(scored, cuedRoles, passes);
  const keptEntries = new Set(kept.map((item) => item.entry));
  for (const { entry } of scored) if (!keptEntries.has(entry)) misses.set(entry, { reason: 'one-per-role', threshold: tuning.minScore });
  const evidenceOf = (entry: IndexedSkill, match: Match): Evidence[] =>
    match.matches.map((each) => ({
      word: shown.get(each.term) ?? each.term,
      ...(each.via ? { related: each.via.word, similarity: each.via.similarity } : {}),
      fields: index.fieldsOf(entry.document, each.via?.term ?? each.term),
      contribution: round(each.contribution),
    }));
  for (const { entry, role, query: asked, match: scoreOnly } of kept) {
    if (selected.length >= MAX_SKILLS) {
      misses.set(entry, { reason: 'too-many-skills', threshold: tuning.minScore });
      continue;
    }
    if (!passes(scoreOnly) && !cuedRoles.has(role)) {
      misses.set(entry, { reason: 'below-threshold', threshold: tuning.minScore });
      continue;
    }
    const match = index.score(entry.document, asked);
    const cues = [...new Set(match.terms.flatMap((term) => cueTerms.get(term) ?? []))];
    // A skill far behind the best one stays out, unless a phrase cue asked for its kind (a risky deed wants a roll too).
    const cueMatches = match.terms.filter((term) => cueTerms.has(term)).length;
    // A picture is drawn only when the words ask about a likeness: the appearance cue ("What does Mira look like?"),
    // or the skill's own name or capabilities ("draw a portrait"). Words its description happens to use ("head",
    // "old") do not: "I head north toward the old mill" draws nothing.
    if (role === 'visual' && !cuedRoles.has('visual') && !match.matches.some((each) => !each.via && !cueTerms.has(each.term) && index.fieldsOf(entry.document, each.term).includes('identity'))) {
      misses.set(entry, { reason: 'no-likeness-asked', threshold: round(tuning.minScore) });
      continue;
    }
    // A skill with strong evidence of its own (a second request in the same words: "…, then radio the team") stays.
    const strong = match.manifestScore >= tuning.strongScore;
    if (match.score < best * tuning.relativeScore && cueMatches < 2 && !cuedRoles.has(role) && !strong) {
      misses.set(entry, { reason: 'far-behind-best', threshold: round(best * tuning.relativeScore) });
      continue;
    }
    // A skill found mostly through related words, not the player's own, must be the best match: a word's other
    // meanings ("well" → "good", "middle" → "eye") must not add a second, unrelated skill.
    const relatedShare = match.matches.reduce((sum, each) => sum + (each.via ? each.contribution : 0), 0);
    // (The best among the skills chosen: one that stayed out, such as a picture nobody asked for, does not count.)
    const leader = selected.reduce((top, chosen) => Math.max(top, chosen.score), 0);
    if (tuning.relatedMustLead && relatedShare * 2 > match.score && match.score < leader && !cuedRoles.has(role)) {
      misses.set(entry, { reason: 'related-words-only', threshold: round(leader) });
      continue;
    }
    const choice = scriptsOf(index, entry, asked, reading, input);
    const [script, ...alternatives] = choice.scripts;
    if (!script) {
      misses.set(entry, { reason: 'act-not-asked', threshold: round(match.score), ...(choice.reason ? { detail: choice.reason } : {}) });
      continue;
    }
    selected.push({ skill: entry.skill, script, alternatives, role, score: round(match.score), terms: match.terms.slice(0, 8).map((term) => shown.get(term) ?? term), cues, evidence: evidenceOf(entry, match), ...(choice.reason ? { scriptReason: choice.reason } : {}) });
  }
  if (selected.length === 0) {
    const closest = closestInMeaning(index, input, reading, queries.get('context')!);
    if (closest) {
      selected.push(closest);
      misses.delete(index.skills.find((entry) => entry.skill === closest.skill)!);
    }
  }
  const nearMisses: NearMiss[] = scored
    .filter(({ entry, match }) => match.score > 0 && misses.has(entry))
    .slice(0, NEAR_MISSES)
    .map(({ entry, query: asked }) => {
      const match = index.score(entry.document, asked);
      const miss = misses.get(entry)!;
      return { skill: entry.skill.name, score: round(match.score), threshold: miss.threshold, reason: miss.reason, evidence: evidenceOf(entry, match), ...(miss.detail ? { detail: miss.detail } : {}) };
    });
  const narrator = narratorOf(skills);
  return { reading, selected, nearMisses, ...(narrator ? { narrator } : {}) };
}

/** The terms of a cue's expansion, each with its first word, and as a set; once per expansion (a cue rule's constant). */
function cueTermsOf(expansion: string): { readonly words: ReadonlyMap<string, string>; readonly terms: ReadonlySet<string | undefined> } {
  let found = expansionTerms.get(expansion);
  if (!found) {
    const words = new Map<string, string>();
    const terms = new Set<string | undefined>();
    for (const word of wordsOf(expansion)) {
      const term = termOf(word);
      terms.add(term);
      if (term !== undefined && !words.has(term)) words.set(term, word);
    }
    found = { words, terms };
    expansionTerms.set(expansion, found);
  }
  return found;
}

const expansionTerms = new Map<string, { readonly words: ReadonlyMap<string, string>; readonly terms: ReadonlySet<string | undefined> }>();

/** A player's word's weight by how common it is in English (WordNet's tag counts): 1 up to `frequency`, then less ("left", "round", "tell" mean too many things). */
function commonness(word: string, frequency: number): number {
  if (!Number.isFinite(frequency)) return 1;
  let count = tagCounts.get(word);
  if (count === undefined) {
    count = lexicon()?.frequencyOf(word) ?? 0;
    if (tagCounts.size >= 20_000) tagCounts.clear();
    tagCounts.set(word, count);
  }
  return count <= frequency ? 1 : Math.sqrt(frequency / count);
}

/** WordNet's tag count per player word, looked up once (a session repeats its words). */
const tagCounts = new Map<string, number>();

/** The context skills compared in meaning, by what they say (a set with a roll skill disabled compares the same ones), the most recent kept. */
const recentComparisons = new Map<string, SkillTopics>();

/** This set's context skills (two at least: one alone is compared with nothing) and their comparison in meaning; undefined without them or without the vectors. */
function comparisonInMeaningOf(index: SkillIndex): MeaningComparison | undefined {
  const known = comparisons.get(index);
  if (known && known.version === tuningVersion() && known.vectors === wordVectors()) return known.found;
  const found = findComparisonInMeaning(index);
  comparisons.set(index, { version: tuningVersion(), vectors: wordVectors(), found });
  return found;
}

/** The context skills compared in meaning, and their comparison. */
interface MeaningComparison {
  readonly comparison: SkillTopics;
  readonly compared: readonly NarratorSkill[];
}

/** Each index's comparison, for the tuning and the word vectors it was made with. */
const comparisons = new WeakMap<SkillIndex, { readonly version: number; readonly vectors: unknown; readonly found: MeaningComparison | undefined }>();

function findComparisonInMeaning(index: SkillIndex): MeaningComparison | undefined {
  const compared = candidatesOf(index).filter((candidate) => candidate.role === 'context').map((candidate) => candidate.entry.skill);
  if (compared.length < 2) return undefined;
  const vectors = wordVectors();
  if (!vectors) return undefined;
  const key = `${tuningVersion()}:${compared.map(contentIdOf).join(',')}`;
  let comparison = recentComparisons.get(key);
  if (comparison) {
    recentComparisons.delete(key);
  } else {
    const tuning = activeTuning();
    comparison = new SkillTopics(compared, vectors, { rarity: tuning.meaningRarity, commonRank: tuning.meaningCommonRank, centroidShare: tuning.meaningCentroidShare });
    if (recentComparisons.size >= RECENT_INDEXES) recentComparisons.delete(recentComparisons.keys().next().value!);
  }
  recentComparisons.set(key, comparison);
  return { comparison, compared };
}

/**
 * When no skill's words match: the context skill whose manifest is closest in meaning to the words, by the word
 * vectors ("How much do I still owe?" → the moneylender, whose description says "repay"), when it stands out from
 * the others by the tuning's threshold and margin. Undefined without vectors or without such a skill.
 */
function closestInMeaning(index: SkillIndex, input: string, reading: CueReading, query: Query): SelectedSkill | undefined {
  const tuning = activeTuning();
  if (!Number.isFinite(tuning.meaningThreshold)) return undefined;
  const found = comparisonInMeaningOf(index);
  if (!found) return undefined;
  // The manifests' own words were weighed by the scores already ("stand" is the reputation skill's "standing", below its threshold).
  const weighed = (word: string) => index.knows(termOf(word)!);
  const [first, second] = found.comparison.rank(input, found.compared.map((_, position) => position), weighed);
  if (!first || !second || first.score < tuning.meaningThreshold || first.score - second.score < tuning.meaningMargin) return undefined;
  const matches = found.comparison.matches(input, first.position, weighed);
  if (matches.length === 0) return undefined;
  const entry = index.skills.find((each) => each.skill === found.compared[first.position])!;
  const choice = scriptsOf(index, entry, query, reading, input);
  const [script, ...alternatives] = choice.scripts;
  if (!script) return undefined;
  const evidence: Evidence[] = matches.slice(0, 3).map((match) => ({ word: match.word, related: match.closest, similarity: match.similarity, fields: index.fieldsOf(entry.document, termOf(match.closest) ?? match.closest), contribution: match.similarity }));
  return { skill: entry.skill, script, alternatives, role: 'context', score: round(first.score), terms: matches.slice(0, 8).map((match) => match.word), cues: [], evidence, byMeaning: true, ...(choice.reason ? { scriptReason: choice.reason } : {}) };
}

/**
 * One roll, one set of choices, one picture per plan. When the words ask for that kind of move (a cue: a risky
 * attempt, a request for options, "what does she look like"), the skill of that role (by its capabilities) with the
 * highest priority is chosen, whatever its score: an author's own dice skill over the sample one. Otherwise the
 * highest priority among those that pass the threshold.
 */
function singlePerRole<T extends { readonly entry: IndexedSkill; readonly role: SkillRole; readonly match: Match }>(scored: readonly T[], cuedRoles: ReadonlySet<SkillRole>, passes: (match: Match) => boolean): T[] {
  const kept: T[] = [];
  const taken = new Set<SkillRole>();
  for (const item of scored) {
    const role = item.role;
    const cued = cuedRoles.has(role);
    if (role === 'context' || (!passes(item.match) && !cued)) {
      kept.push(item);
      continue;
    }
    if (taken.has(role)) continue;
    taken.add(role);
    const rivals = scored.filter((other) => other.role === role && (cued || passes(other.match)));
    const chosen = rivals.reduce((top, other) => (other.entry.skill.priority > top.entry.skill.priority ? other : top));
    kept.push(chosen);
  }
  return kept;
}

type Script = NarratorSkill['scripts'][number];

/** The scripts of a chosen skill, best first, and why the first beat the others (for --explain). */
interface ScriptChoice {
  readonly scripts: readonly Script[];
  readonly reason?: string;
}

/** Words that only look ("I walk along the bank looking for tracks"): a look never runs a script that acts. */
const LOOKING = /\b(?:look(?:s|ing)?\s+(?:at|for|around|over|into|about)|search(?:es|ing)?\s+for|peer(?:s|ing)?\s+(?:at|into|through|over|around)|watch(?:es|ing)?\s+(?:for|over|out)|observ(?:e|es|ing)\s+(?:the|a|an|how)|glanc(?:e|es|ing)\s+(?:at|around|over)|scan(?:s|ning)?\s+(?:the|for)|survey(?:s|ing)?\s+the)\b/i;
/** A question that is a polite request ("Can you take me across?"): it asks for the act. */
const POLITE_REQUEST = /^(?:(?:please|so|and|ok|okay),?\s+|[A-Za-z]+,\s+)?(?:(?:can|could|will|would)\s+you|(?:can|could|may)\s+(?:i|we)\s+(?:have|take|get|borrow|buy|hire|rent|use|book|order)|(?:i\s+)?(?:want|need)\s+(?:you\s+)?to|i(?:'d|\u2019d|\s+would)\s+like)\b/i;

const plainExamples = new WeakMap<Script, ReadonlySet<string>>();

/** A script's examples as plain words, once per script. */
function plainExamplesOf(script: Script): ReadonlySet<string> {
  let examples = plainExamples.get(script);
  if (!examples) {
    examples = new Set((script.examples ?? []).map(plainWords));
    plainExamples.set(script, examples);
  }
  return examples;
}

/** The words of an example, to compare with the player's ("I haggle over the rope." → "i haggle over the rope"). */
function plainWords(text: string): string {
  return text.toLowerCase().replace(/[\u2019\u2018]/g, "'").replace(/[^a-z0-9' ]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The skill's scripts, best first, with the reason the first won:
 * - a script whose `examples` hold the player's very words comes first;
 * - otherwise the one whose own words (name, description, examples) match best, a question preferring a script that
 *   reads and an action one that acts;
 * - a question or a look never runs a script that acts (moves, buys, attacks, stores…) when the skill has another
 *   script: such scripts are left out (a skill whose scripts all act was chosen by selection, and keeps its best);
 * - a script that acts is never the fallback of one that reads, for words that do not ask for an act.
 */
function scriptsOf(index: SkillIndex, entry: IndexedSkill, query: Query, reading: CueReading, input = ''): ScriptChoice {
  const scripts = entry.skill.scripts;
  const words = plainWords(input);
  const onlyAsking = (reading.question && !POLITE_REQUEST.test(input.trim())) || LOOKING.test(input) || reading.checking;
  const exampled = words === '' ? -1 : scripts.findIndex((script) => plainExamplesOf(script).has(words));
  if (exampled >= 0 && !(onlyAsking && scriptKind(scripts[exampled]!).kind === 'acts')) {
    const script = scripts[exampled]!;
    const others = scripts.filter((other) => other !== script);
    return { scripts: [script, ...others], ...(others.length > 0 ? { reason: `its example "${(script.examples ?? []).find((example) => plainWords(example) === words)}" is the player's words` } : {}) };
  }
  // A polite request ("Would you take 32 for the longsword?") asks for the act, like a command.
  const acting = !onlyAsking || reading.deedPolarity !== 0;

  // Only the player's own words choose among a skill's scripts: a related word ("coming" ~ "changes") is too loose here.
  const ownWords: Query = { terms: query.terms, related: NO_RELATED };
  let ranked = scripts
    .map((script, position) => {
      // A script's name says what it does more surely than its description's first verb, which counts half.
      const { kind, sure } = scriptKind(script);
      const verb = (kind === 'reads' ? (acting ? -0.5 : 1.5) : kind === 'acts' ? (acting ? 1.5 : -0.5) : 0) * (sure ? 1 : 0.5);
      const own = index.score(entry.scripts[position]!, ownWords);
      return { script, position, kind, own: own.score, terms: own.terms, score: own.score + verb };
    })
    // (Only where the skill has a script that does not act: otherwise choosing the skill at all was selection's call.)
    .filter((candidate, _, all) => !(onlyAsking && candidate.kind === 'acts' && all.some((other) => other.kind !== 'acts')))
    .sort((left, right) => right.score - left.score || left.position - right.position);
  // A script that acts runs only when the words ask for an act: never as the fallback of one that reads.
  if (ranked[0] && ranked[0].kind !== 'acts' && !acting) ranked = ranked.filter((candidate, position) => position === 0 || candidate.kind !== 'acts');
  const [first, second] = ranked;
  if (!first) return { scripts: [], reason: `a ${reading.question ? 'question' : 'look'} never runs a script that acts (${scripts.map((script) => script.name).join(', ')})` };
  const left = scripts.length - ranked.length;
  /** The player's words by their terms, to say which matched (only when there is a choice to explain). */
  const spoken = new Map<string, string>();
  if (scripts.length > 1 && first.own > 0) {
    for (const word of wordsOf(input)) {
      const term = termOf(word);
      if (term !== undefined && !spoken.has(term)) spoken.set(term, word);
    }
  }
  const reason = scripts.length === 1 ? undefined : [
    second ? (first.own > 0 ? `"${first.script.name}" matched ${first.terms.filter((term) => spoken.has(term)).slice(0, 3).map((term) => `"${spoken.get(term)}"`).join(', ')} (${round(first.own)} against "${second.script.name}" ${round(second.own)})` : `no script's own words matched; "${first.script.name}" ${first.kind === 'reads' ? 'reads' : first.kind === 'acts' ? 'acts' : 'comes first'}${first.kind ? `, as ${acting ? 'an action' : 'a question'} wants` : ''}`) : undefined,
    left > 0 ? `${left === 1 ? 'one script that acts was' : `${left} scripts that act were`} left out: a ${reading.question ? 'question' : 'look'} never runs them` : undefined,
  ].filter(Boolean).join('; ') || undefined;
  return { scripts: ranked.map(({ script }) => script), ...(reason ? { reason } : {}) };
}

/** Whether a script reads (a question wants it) or acts (a deed wants it): by its name, else by the first verb its description says. */
export function scriptKind(script: NarratorSkill['scripts'][number]): ScriptKind {
  let known = scriptKinds.get(script);
  if (!known) scriptKinds.set(script, (known = kindOf(script)));
  return known;
}

/** Whether a script reads or acts, and whether its name says so. */
export interface ScriptKind {
  readonly kind?: 'reads' | 'acts';
  readonly sure: boolean;
}

const scriptKinds = new WeakMap<Script, ScriptKind>();

/** A script's kind, worked out from its name and description. */
function kindOf(script: Script): ScriptKind {
  if (READS.test(script.name)) return { kind: 'reads', sure: true };
  if (ACTS.test(script.name)) return { kind: 'acts', sure: true };
  // "Old Pell hands out { count }", "The bosun's hands raise, lower or reef a sail", "Reports how high the river runs".
  const clause = (script.description?.trim() ?? '').split(/[;:.]/)[0]!.toLowerCase();
  const words = clause.split(/[^a-z'-]+/).filter((word) => word !== '');
  for (const [position, word] of words.entries()) {
    // "hands" is the bosun's hands unless "out" follows ("hands out").
    if (word === 'hands' || word === 'hand') {
      if (words[position + 1] === 'out' || words[position + 1] === 'over') return { kind: 'acts', sure: false };
      continue;
    }
    // A verb's base form only opens a description ("Trade caravans leaving…" is a noun); after a subject, its -s form.
    if (position > 0 && !/[^s]s$/.test(word)) continue;
    if (READING_VERBS.has(word)) return { kind: 'reads', sure: false };
    if (ACTING_VERBS.has(word)) return { kind: 'acts', sure: false };
  }
  const description = script.description?.trim() ?? '';
  if (READING_DESCRIPTION.test(description)) return { kind: 'reads', sure: false };
  if (ACTING_DESCRIPTION.test(description) && !NOT_A_VERB.test(description)) return { kind: 'acts', sure: false };
  return { sure: false };
}

/** The narrating skill of highest priority, and its script named like narrate (else its first). */
export function narratorOf(skills: readonly NarratorSkill[]): Selection['narrator'] {
  if (narrators.has(skills)) return narrators.get(skills);
  const found = findNarrator(skills);
  narrators.set(skills, found);
  return found;
}

/** The narrator of each skill set, once per set (undefined: the set has none). */
const narrators = new WeakMap<readonly NarratorSkill[], Selection['narrator']>();

function findNarrator(skills: readonly NarratorSkill[]): Selection['narrator'] {
  const narrator = skills
    .filter((skill) => skill.scripts.length > 0 && isNarrator(skill))
    .sort((left, right) => right.priority - left.priority || left.name.localeCompare(right.name))[0];
  if (!narrator) return undefined;
  return { skill: narrator, script: narrator.scripts.find((script) => /narrat|tell|describe/i.test(script.name)) ?? narrator.scripts[0]! };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
