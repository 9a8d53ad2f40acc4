// Calibration tool (not a test): grid search of skill selection's weights and thresholds, with leave-one-corpus-out cross-validation over the tuning corpora; the frozen held-out corpora (author-heldout6, author-heldout7 and author-heldout8) are left out (test/narrator/authorCorpora.test.ts measures them).
// Run: node --import tsx test/narrator/calibrateSelection.ts [--quick | --common | --meaning | --topics]   (CLEAN_WEIGHT=0.2: how much clean plans count)
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import { DEFAULT_TUNING, useTuning, type SelectionTuning } from '../../src/runtime/narrator/selection/selectionTuning.js';
import { grade, loadCorpusSet, narratorsOf, type CorpusSet } from './corpusKit.js';

/** The corpora tuned on: the project's own, the four written for tuning, and the five that were held out until session 15. */
export const TUNING_CORPORA = [
  'corpus',
  'heldout',
  'authorDev',
  'authorDev2',
  'authorDev3',
  'authorDev4',
  'authorHeldOut',
  'authorHeldOut2',
  'authorHeldOut3',
  'authorHeldOut4',
  'authorHeldOut5',
] as const;

/** The share of a corpus's entries that are right under the tuning in force. */
export function accuracy(set: CorpusSet): number {
  return measure(set).right;
}

/** The shares of a corpus's entries that are right, and whose plans choose no unrelated skill (no shotgun plans). */
export function measure(set: CorpusSet): { right: number; clean: number } {
  const narrators = narratorsOf(set.skills);
  let right = 0;
  let clean = 0;
  for (const entry of set.entries) {
    const plan = buildPatternPlan({ input: entry.input, skills: set.skills, disabledSkills: [], attempt: 1, parentPlanId: null });
    const graded = grade(entry, plan, narrators);
    if (graded.right) right++;
    if (graded.unrelated.length === 0) clean++;
  }
  return { right: right / set.entries.length, clean: clean / set.entries.length };
}

/** How much a clean plan (no unrelated skill) counts against a right one: CLEAN_WEIGHT in the environment, else 0.2. */
const CLEAN_WEIGHT = cleanWeight(process.env.CLEAN_WEIGHT);

function cleanWeight(text: string | undefined): number {
  if (text === undefined) return 0.2;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`CLEAN_WEIGHT must be a number ≥ 0, not "${text}"`);
  return value;
}

/** What the calibration maximises: right answers first, clean plans second. */
function objective({ right, clean }: { right: number; clean: number }): number {
  return right + CLEAN_WEIGHT * clean;
}

/** The tunings tried: the grid over the parameters that matter most for manifests without keywords. */
function* grid(quick: boolean): Generator<SelectionTuning> {
  const minScores = quick ? [1.0, 1.68] : [0.8, 0.9, 1.0, 1.1, 1.2, 1.4, 1.68];
  const descriptions = quick ? [1.5] : [1.5, 2, 2.5];
  const scriptDescriptions = quick ? [1] : [1, 1.5];
  const relatedWeights = quick ? [0, 1.0] : [0, 0.7, 1.0, 1.3];
  const relatives = quick ? [0.5] : [0.4, 0.5];
  const strongScores = quick ? [1.5] : [1.5, 2, 100];
  for (const thresholdOnManifest of [true])
    for (const minScore of minScores)
      for (const description of descriptions)
        for (const scriptDescription of scriptDescriptions)
          for (const relatedWeight of relatedWeights)
            for (const relativeScore of relatives)
              for (const strongScore of strongScores)
                yield {
                  ...DEFAULT_TUNING,
                  fieldWeights: { ...DEFAULT_TUNING.fieldWeights, description, scriptDescriptions: scriptDescription },
                  minScore,
                  relatedWeight,
                  relativeScore,
                  strongScore,
                  thresholdOnManifest,
                };
}

/** The tunings of the fallback on meaning (the word vectors), the rest as the defaults: `--meaning`. */
function* meaningGrid(): Generator<SelectionTuning> {
  for (const meaningThreshold of [Infinity, 0.05, 0.08, 0.1, 0.15])
    for (const meaningMargin of Number.isFinite(meaningThreshold) ? [0, 0.02, 0.05] : [0])
      for (const meaningCommonRank of [0, 300])
        for (const meaningCentroidShare of [0, 0.5, 0.7]) yield { ...DEFAULT_TUNING, meaningThreshold, meaningMargin, meaningCommonRank, meaningCentroidShare };
}

/** The weight of common words, with the threshold: `--common`. */
function* commonGrid(): Generator<SelectionTuning> {
  for (const commonWordFrequency of [Infinity, 60, 120, 250])
    for (const minScore of [0.9, 1.0, 1.1, 1.2])
      for (const meaningThreshold of [Infinity, 0.05, 0.08, 0.1])
        for (const meaningMargin of Number.isFinite(meaningThreshold) ? [0, 0.02, 0.05] : [0])
          yield { ...DEFAULT_TUNING, commonWordFrequency, minScore, meaningThreshold, meaningMargin };
}

/** The weight of a relation through the bundled topics, with the threshold: `--topics`. */
function* topicsGrid(): Generator<SelectionTuning> {
  for (const topicWeight of [0, 0.6, 0.7, 0.8, 0.9, 1.0]) for (const minScore of [1.0, 1.1, 1.2]) yield { ...DEFAULT_TUNING, topicWeight, minScore };
}

function describe(tuning: SelectionTuning): string {
  const weights = tuning.fieldWeights;
  return `minScore ${tuning.minScore}${tuning.thresholdOnManifest ? ' (manifest)' : ''}, description ${weights.description}, scriptDescriptions ${weights.scriptDescriptions}, related × ${tuning.relatedWeight}, topics × ${tuning.topicWeight}, relative ${tuning.relativeScore} unless ${tuning.strongScore}, common words over ${tuning.commonWordFrequency}, meaning ≥ ${tuning.meaningThreshold} by ${tuning.meaningMargin} (rarity ${tuning.meaningRarity}, common rank ${tuning.meaningCommonRank}, centroid ${tuning.meaningCentroidShare})`;
}

/** Each tuning's measures on each set (one pass over the grid). */
function evaluate(tunings: readonly SelectionTuning[], sets: readonly CorpusSet[]): { right: number; clean: number }[][] {
  return tunings.map((tuning) => {
    useTuning(tuning);
    return sets.map((set) => measure(set));
  });
}

/** The best tuning by the mean accuracy over `on` (indexes into sets); ties go to the earlier, more conservative one. */
function bestOn(scores: readonly { right: number; clean: number }[][], on: readonly number[]): number {
  let best = 0;
  let bestValue = -1;
  scores.forEach((row, at) => {
    const value = on.reduce((sum, set) => sum + objective(row[set]!), 0) / on.length;
    if (value > bestValue + 1e-9) {
      best = at;
      bestValue = value;
    }
  });
  return best;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const tuningSets = await Promise.all(TUNING_CORPORA.map((name) => loadCorpusSet(name)));
  const tunings = process.argv.includes('--meaning')
    ? [...meaningGrid()]
    : process.argv.includes('--common')
      ? [...commonGrid()]
      : process.argv.includes('--topics')
        ? [...topicsGrid()]
        : [...grid(quick)];
  console.log(`${tunings.length} tunings × ${tuningSets.length} tuning corpora`);
  const scores = evaluate(tunings, tuningSets);
  // Leave one corpus out: tune on the others, measure on it.
  for (let left = 0; left < tuningSets.length; left++) {
    const others = tuningSets.map((_, at) => at).filter((at) => at !== left);
    const chosen = bestOn(scores, others);
    console.log(`cross-validation: tuned without ${tuningSets[left]!.name} → ${percent(scores[chosen]![left]!)} on it (${describe(tunings[chosen]!)})`);
  }
  const chosen = bestOn(
    scores,
    tuningSets.map((_, at) => at),
  );
  console.log(`tuned on all: ${tuningSets.map((set, at) => `${set.name} ${percent(scores[chosen]![at]!)}`).join(', ')} (${describe(tunings[chosen]!)})`);
  useTuning(DEFAULT_TUNING);
  console.log(`defaults in force: ${tuningSets.map((set) => `${set.name} ${percent(measure(set))}`).join(', ')} (${describe(DEFAULT_TUNING)})`);
}

function percent({ right, clean }: { right: number; clean: number }): string {
  return `${(100 * right).toFixed(1)}% right, ${(100 * clean).toFixed(0)}% clean`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
