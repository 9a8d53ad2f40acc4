// The fallback on meaning: when no skill's words match, the context skill whose manifest is closest in meaning to the player's words (the word vectors), when it stands out from the others.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import type { CueReading } from './cues.js';
import { wordVectors } from './relatedness/vectors.js';
import { scriptsOf } from './scriptChoice.js';
import { candidatesOf, contentIdOf, RECENT_INDEXES } from './selectionCache.js';
import { activeTuning, tuningVersion } from './selectionTuning.js';
import { round, type Evidence, type SelectedSkill } from './selectionTypes.js';
import type { Query, SkillIndex } from './skillIndex.js';
import { termOf, wordsOf } from './textTerms.js';
import { SkillTopics } from './topicSimilarity.js';

/** The context skills compared in meaning, and their comparison. */
interface MeaningComparison {
  readonly comparison: SkillTopics;
  readonly compared: readonly NarratorSkill[];
  /** Their positions in `compared` (0, 1, 2...). */
  readonly positions: readonly number[];
}

/** The context skills compared in meaning, by what they say (a set with a roll skill disabled compares the same ones), the most recent kept. */
const recentComparisons = new Map<string, SkillTopics>();

/** Each index's comparison, for the tuning and the word vectors it was made with. */
const comparisons = new WeakMap<SkillIndex, { readonly version: number; readonly vectors: unknown; readonly found: MeaningComparison | undefined }>();

/**
 * When no skill's words match: the context skill whose manifest is closest in meaning to the words, by the word
 * vectors ("How much do I still owe?" -> the moneylender, whose description says "repay"), when it stands out from
 * the others by the tuning's threshold and margin. Undefined without vectors or without such a skill.
 */
export function closestInMeaning(
  index: SkillIndex,
  input: string,
  reading: CueReading,
  query: Query,
  words: readonly string[] = wordsOf(input),
): SelectedSkill | undefined {
  const tuning = activeTuning();
  if (!Number.isFinite(tuning.meaningThreshold)) return undefined;
  const found = comparisonInMeaningOf(index);
  if (!found) return undefined;
  // The manifests' own words were weighed by the scores already ("stand" is the reputation skill's "standing", below its threshold).
  const weighed = (word: string) => index.wordOf(word).known;
  const [first, second] = found.comparison.closestTwo(words, found.positions, weighed);
  if (!first || !second || first.score < tuning.meaningThreshold || first.score - second.score < tuning.meaningMargin) return undefined;
  const matches = found.comparison.matches(words, first.position, weighed);
  if (matches.length === 0) return undefined;
  const entry = index.skills.find((each) => each.skill === found.compared[first.position])!;
  const choice = scriptsOf(index, entry, query, reading, input);
  const [script, ...alternatives] = choice.scripts;
  if (!script) return undefined;
  const evidence: Evidence[] = matches.slice(0, 3).map((match) => ({
    word: match.word,
    related: match.closest,
    similarity: match.similarity,
    fields: index.fieldsOf(entry.document, termOf(match.closest) ?? match.closest),
    contribution: match.similarity,
  }));
  const terms = matches.slice(0, 8).map((match) => match.word);
  const score = round(first.score);
  return {
    skill: entry.skill,
    script,
    alternatives,
    role: 'context',
    score,
    terms,
    cues: [],
    evidence,
    byMeaning: true,
    ...(choice.reason ? { scriptReason: choice.reason } : {}),
  };
}

/** This set's context skills (two at least: one alone is compared with nothing) and their comparison in meaning; undefined without them or without the vectors. */
function comparisonInMeaningOf(index: SkillIndex): MeaningComparison | undefined {
  const known = comparisons.get(index);
  if (known && known.version === tuningVersion() && known.vectors === wordVectors()) return known.found;
  const found = findComparisonInMeaning(index);
  comparisons.set(index, { version: tuningVersion(), vectors: wordVectors(), found });
  return found;
}

function findComparisonInMeaning(index: SkillIndex): MeaningComparison | undefined {
  const compared = candidatesOf(index)
    .filter((candidate) => candidate.role === 'context')
    .map((candidate) => candidate.entry.skill);
  if (compared.length < 2) return undefined;
  const vectors = wordVectors();
  if (!vectors) return undefined;
  const key = `${tuningVersion()}:${compared.map(contentIdOf).join(',')}`;
  let comparison = recentComparisons.get(key);
  if (comparison) {
    recentComparisons.delete(key);
  } else {
    const tuning = activeTuning();
    comparison = new SkillTopics(compared, vectors, {
      rarity: tuning.meaningRarity,
      commonRank: tuning.meaningCommonRank,
      centroidShare: tuning.meaningCentroidShare,
    });
    if (recentComparisons.size >= RECENT_INDEXES) recentComparisons.delete(recentComparisons.keys().next().value!);
  }
  recentComparisons.set(key, comparison);
  return { comparison, compared, positions: compared.map((_, position) => position) };
}
