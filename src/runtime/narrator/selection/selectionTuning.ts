// The weights and thresholds of skill selection, calibrated by test/narrator/calibrateSelection.ts with cross-validation over the corpora; one place, so the calibration tool can try others.

/** Where a skill's words come from. */
export type Field = 'identity' | 'examples' | 'scriptNames' | 'description' | 'scriptDescriptions' | 'prompt';

export interface SelectionTuning {
  /** How much a match in each field counts (BM25F). */
  readonly fieldWeights: Readonly<Record<Field, number>>;
  /** A skill needs this score at least, in units of the idf of a term only one skill has. */
  readonly minScore: number;
  /** Whether the threshold is on what the manifest says (prompt.md's prose aside)… */
  readonly thresholdOnManifest: boolean;
  /** …or, with prompt.md's prose counted, on this higher score (prose matches many words by chance). */
  readonly proseScore: number;
  /** …and this share of the best skill's score… */
  readonly relativeScore: number;
  /** …unless what its manifest says scores this much on its own (a second request in the same words). */
  readonly strongScore: number;
  /** A related word counts this share of the same word matched exactly, times the relation's weight below. */
  readonly relatedWeight: number;
  /** The weight of a relation by its steps: 0 the same meaning (synonym, derivation), then 1–4 hypernym steps up. */
  readonly relationWeights: readonly [number, number, number, number, number];
  /** The weight's share when the relation comes through one of the word's rarer senses. */
  readonly minorSenseWeight: number;
  /** The weight of a relation through the bundled topics: a word and its topic ("o2" and "oxygen"), 0 for none. */
  readonly topicWeight: number;
  /** A player's word more common than this (WordNet's tag count) relates in proportion less: "get" or "well" mean too many things. */
  readonly commonFrequency: number;
  /** A player's own word (matched as itself, not through a related word) more common than this (WordNet's tag count) counts in proportion less (Infinity: every word counts fully). */
  readonly commonWordFrequency: number;
  /** Whether a word the manifests already use relates to others too (else only words no manifest has are widened). */
  readonly relateKnownWords: boolean;
  /** Whether a skill found mostly through related words must be the best match to be chosen. */
  readonly relatedMustLead: boolean;
  /**
   * When no skill's words match, the skill closest in meaning (the word vectors) is chosen if its score, above the
   * mean of the skills compared, reaches this (Infinity: never)…
   */
  readonly meaningThreshold: number;
  /** …and leads the next skill by this much. */
  readonly meaningMargin: number;
  /** A player's word counts by how rare it is: half at this frequency rank of the vectors' corpus. */
  readonly meaningRarity: number;
  /** The player's words among this many most frequent in the vectors' corpus are left out of meaning ("make", "go", "look" are near everything). */
  readonly meaningCommonRank: number;
  /** The share of a word's closeness to a skill that is to its words as a whole (their centroid), the rest to the closest one. */
  readonly meaningCentroidShare: number;
}

export const DEFAULT_TUNING: SelectionTuning = {
  fieldWeights: {
    identity: 3, // name, display name, capabilities, keywords
    examples: 2.5, // player inputs the author says should select a script
    scriptNames: 2,
    description: 1.5,
    scriptDescriptions: 1,
    prompt: 0.6, // prompt.md's guidance, its input and output sections left out
  },
  minScore: 1.1,
  thresholdOnManifest: true,
  proseScore: 1.8,
  relativeScore: 0.5,
  strongScore: 1.5,
  relatedWeight: 1.0,
  relationWeights: [0.9, 0.85, 0.75, 0.65, 0.55],
  minorSenseWeight: 0.85,
  topicWeight: 0.8,
  commonFrequency: 60,
  commonWordFrequency: 120,
  relateKnownWords: false,
  relatedMustLead: true,
  meaningThreshold: 0.1,
  meaningMargin: 0.02,
  meaningRarity: 1000,
  meaningCommonRank: 300,
  meaningCentroidShare: 0.5,
};

let active: SelectionTuning = DEFAULT_TUNING;
let version = 0;

/** The tuning in force. */
export function activeTuning(): SelectionTuning {
  return active;
}

/** Which tuning is in force (skill indexes built under another are rebuilt). */
export function tuningVersion(): number {
  return version;
}

/** Puts another tuning in force: for the calibration tool and its tests only; the product never calls it. */
export function useTuning(tuning: SelectionTuning): void {
  active = tuning;
  version++;
}
