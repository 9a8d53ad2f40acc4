// Chooses the skills a player's words ask for (and each one's script) over a threshold, one per role; else the closest in meaning; and the storyteller.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { readCues, type CueKind } from './cues.js';
import { closestInMeaning } from './meaningFallback.js';
import { scriptsOf } from './scriptChoice.js';
import { indexOf, rankedCandidatesOf } from './selectionCache.js';
import { roleQueries } from './selectionQuery.js';
import { activeTuning } from './selectionTuning.js';
import { round, type Evidence, type MissReason, type NearMiss, type SelectedSkill, type Selection, type SkillRole } from './selectionTypes.js';
import type { IndexedSkill, Match, Query, ScoredSkills } from './skillIndex.js';
import { CUE_ROLES, narratorOf } from './skillRoles.js';
import { wordsOf } from './textTerms.js';

/** Skills besides the narrator, at most. */
const MAX_SKILLS = 3;
/** Near misses reported, at most. */
const NEAR_MISSES = 5;
const NO_CUES: readonly CueKind[] = [];

/** A candidate with its role's query and its scores (the matched terms are worked out only for the skills kept). */
interface Scored {
  readonly entry: IndexedSkill;
  /** Its place in the index. */
  readonly position: number;
  readonly role: SkillRole;
  readonly nameRank: number;
  readonly priority: number;
  readonly query: Query;
  readonly score: number;
  /** The score without prompt.md's prose. */
  readonly manifestScore: number;
}

/** Why a skill stayed out, and the score it needed. */
interface Miss {
  readonly reason: MissReason;
  readonly threshold: number;
  readonly detail?: string;
}

/** Reads the words, scores every skill, keeps those over the threshold (best first), and picks each one's script; says why the others that matched stayed out. */
export function selectSkills(input: string, skills: readonly NarratorSkill[]): Selection {
  const tuning = activeTuning();
  const reading = readCues(input);
  const index = indexOf(skills);
  // The words, read once for the queries and the comparison in meaning.
  const words = wordsOf(input);
  const { queries, shown, cueTerms } = roleQueries(input, reading, index, tuning.commonWordFrequency, words);
  // Scores first, each distinct query walking only the skills that hold its terms; the matched terms only for the skills kept.
  const queriesScored = new Map<ReadonlyMap<string, number>, ScoredSkills>();
  const scoresOf = (role: SkillRole) => {
    const asked = queries.get(role)!;
    let found = queriesScored.get(asked.terms);
    // (Each distinct query in its own slot of the index's arrays: all are read below.)
    if (!found) queriesScored.set(asked.terms, (found = index.scoreAll(asked, queriesScored.size)));
    return found;
  };
  const cuedRoles = new Set<SkillRole>();
  for (const cue of reading.cues) if (CUE_ROLES[cue.kind] !== 'context') cuedRoles.add(CUE_ROLES[cue.kind]);
  /** Over the threshold: what the manifest says, or (a higher bar) the manifest and prompt.md's prose together. */
  const passes = (score: number, manifestScore: number) =>
    tuning.thresholdOnManifest ? manifestScore >= tuning.minScore || score >= tuning.proseScore : score >= tuning.minScore;
  // A skill none of whose words were said can only be chosen when the words cue its role (a roll, choices, a
  // picture) or the tuning lets a zero score pass: the others are left out before sorting (most of a large set).
  const zeroPasses = passes(0, 0);
  // Best first: by score, then priority, then name. The candidates come by priority and name, and each goes in
  // after those that score as much (what a stable sort on all three gives, without its comparisons).
  const scored: Scored[] = [];
  for (const { entry, position, role, nameRank } of rankedCandidatesOf(index)) {
    const { scores, manifestScores } = scoresOf(role);
    const score = scores[position]!;
    const manifestScore = manifestScores[position]!;
    if (score === 0 && manifestScore === 0 && !zeroPasses && !cuedRoles.has(role)) continue;
    const item: Scored = { entry, position, role, nameRank, priority: entry.skill.priority, query: queries.get(role)!, score, manifestScore };
    let at = scored.length;
    scored.push(item);
    for (; at > 0 && scored[at - 1]!.score < score; at--) scored[at] = scored[at - 1]!;
    scored[at] = item;
  }
  const best = scored[0]?.score ?? 0;
  const selected: SelectedSkill[] = [];
  /** Why each skill that stayed out did, by its place in the index. */
  const misses: (Miss | undefined)[] = new Array<Miss | undefined>(index.skills.length);
  const belowThreshold: Miss = { reason: 'below-threshold', threshold: tuning.minScore };
  const onePerRole: Miss = { reason: 'one-per-role', threshold: tuning.minScore };
  const tooMany: Miss = { reason: 'too-many-skills', threshold: tuning.minScore };
  const kept = singlePerRole(scored, cuedRoles, passes);
  if (kept.length < scored.length) {
    const keptPositions = new Set<number>();
    for (const item of kept) keptPositions.add(item.position);
    for (const { position } of scored) if (!keptPositions.has(position)) misses[position] = onePerRole;
  }
  /** The evidence of a match read back from `scoredSkills` (the fields kept with its postings). */
  const evidenceOf = (entry: IndexedSkill, position: number, match: Match, scoredSkills: ScoredSkills): Evidence[] =>
    match.matches.map((each) => {
      const word = shown.get(each.term) ?? each.term;
      const posting = scoredSkills.postingOf(position, each.term);
      const fields = posting >= 0 ? index.postingFields(posting) : index.fieldsOf(entry.document, each.via?.term ?? each.term);
      const contribution = round(each.contribution);
      return each.via ? { word, related: each.via.word, similarity: each.via.similarity, fields, contribution } : { word, fields, contribution };
    });
  for (const { entry, position, role, query: asked, score, manifestScore } of kept) {
    if (selected.length >= MAX_SKILLS) {
      misses[position] = tooMany;
      continue;
    }
    if (!passes(score, manifestScore) && !cuedRoles.has(role)) {
      misses[position] = belowThreshold;
      continue;
    }
    // (What index.score(entry.document, asked) gives, read from the scores already walked.)
    const scoredSkills = scoresOf(role);
    const match = scoredSkills.match(position);
    // The cues of its terms, each once, in the order its terms first give them.
    const cues: CueKind[] = [];
    if (cueTerms.size > 0) for (const term of match.terms) for (const kind of cueTerms.get(term) ?? NO_CUES) if (!cues.includes(kind)) cues.push(kind);
    // A skill far behind the best one stays out, unless a phrase cue asked for its kind (a risky deed wants a roll too).
    const cueMatches = match.terms.filter((term) => cueTerms.has(term)).length;
    // A picture is drawn only when the words ask about a likeness: the appearance cue ("What does Mira look like?"),
    // or the skill's own name or capabilities ("draw a portrait"). Words its description happens to use ("head",
    // "old") do not: "I head north toward the old mill" draws nothing.
    const ownIdentityWord = () =>
      match.matches.some((each) => !each.via && !cueTerms.has(each.term) && index.fieldsOf(entry.document, each.term).includes('identity'));
    if (role === 'visual' && !cuedRoles.has('visual') && !ownIdentityWord()) {
      misses[position] = { reason: 'no-likeness-asked', threshold: round(tuning.minScore) };
      continue;
    }
    // A skill with strong evidence of its own (a second request in the same words: "..., then radio the team") stays.
    const strong = match.manifestScore >= tuning.strongScore;
    if (match.score < best * tuning.relativeScore && cueMatches < 2 && !cuedRoles.has(role) && !strong) {
      misses[position] = { reason: 'far-behind-best', threshold: round(best * tuning.relativeScore) };
      continue;
    }
    // A skill found mostly through related words, not the player's own, must be the best match: a word's other
    // meanings ("well" -> "good", "middle" -> "eye") must not add a second, unrelated skill.
    const relatedShare = match.matches.reduce((sum, each) => sum + (each.via ? each.contribution : 0), 0);
    // (The best among the skills chosen: one that stayed out, such as a picture nobody asked for, does not count.)
    const leader = selected.reduce((top, chosen) => Math.max(top, chosen.score), 0);
    if (tuning.relatedMustLead && relatedShare * 2 > match.score && match.score < leader && !cuedRoles.has(role)) {
      misses[position] = { reason: 'related-words-only', threshold: round(leader) };
      continue;
    }
    const choice = scriptsOf(index, entry, asked, reading, input);
    const [script, ...alternatives] = choice.scripts;
    if (!script) {
      misses[position] = { reason: 'act-not-asked', threshold: round(match.score), ...(choice.reason ? { detail: choice.reason } : {}) };
      continue;
    }
    const terms = match.terms.slice(0, 8).map((term) => shown.get(term) ?? term);
    const evidence = evidenceOf(entry, position, match, scoredSkills);
    selected.push({
      skill: entry.skill,
      script,
      alternatives,
      role,
      score: round(match.score),
      terms,
      cues,
      evidence,
      ...(choice.reason ? { scriptReason: choice.reason } : {}),
    });
  }
  if (selected.length === 0) {
    const closest = closestInMeaning(index, input, reading, queries.get('context')!, words);
    if (closest) {
      selected.push(closest);
      misses[index.skills.findIndex((entry) => entry.skill === closest.skill)] = undefined;
    }
  }
  const nearMisses: NearMiss[] = [];
  for (const { entry, position, role, score } of scored) {
    if (nearMisses.length >= NEAR_MISSES) break;
    const miss = misses[position];
    if (!(score > 0) || !miss) continue;
    const scoredSkills = scoresOf(role);
    const match = scoredSkills.match(position);
    const evidence = evidenceOf(entry, position, match, scoredSkills);
    nearMisses.push({
      skill: entry.skill.name,
      score: round(match.score),
      threshold: miss.threshold,
      reason: miss.reason,
      evidence,
      ...(miss.detail ? { detail: miss.detail } : {}),
    });
  }
  const narrator = narratorOf(skills);
  return { reading, selected, nearMisses, ...(narrator ? { narrator } : {}) };
}

/**
 * One roll, one set of choices, one picture per plan. When the words ask for that kind of move (a cue: a risky
 * attempt, a request for options, "what does she look like"), the skill of that role (by its capabilities) with the
 * highest priority is chosen, whatever its score: an author's own dice skill over the sample one. Otherwise the
 * highest priority among those that pass the threshold.
 */
function singlePerRole<T extends Scored>(
  scored: readonly T[],
  cuedRoles: ReadonlySet<SkillRole>,
  passes: (score: number, manifestScore: number) => boolean,
): T[] {
  const kept: T[] = [];
  const taken = new Set<SkillRole>();
  for (const item of scored) {
    const role = item.role;
    const cued = cuedRoles.has(role);
    if (role === 'context' || (!passes(item.score, item.manifestScore) && !cued)) {
      kept.push(item);
      continue;
    }
    if (taken.has(role)) continue;
    taken.add(role);
    const rivals = scored.filter((other) => other.role === role && (cued || passes(other.score, other.manifestScore)));
    const chosen = rivals.reduce((top, other) => (other.priority > top.priority ? other : top));
    kept.push(chosen);
  }
  return kept;
}
