// What skill selection gives: the skills chosen with their scripts, roles and evidence, and the near misses an author reads to see what a manifest lacks. Types, and how a score is shown.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import type { CueKind, CueReading } from './cues.js';
import type { Field } from './selectionTuning.js';

/** Where a chosen skill goes in the plan. */
export type SkillRole = 'chance' | 'context' | 'options' | 'visual';

/** A skill's script. */
export type Script = NarratorSkill['scripts'][number];

export interface SelectedSkill {
  readonly skill: NarratorSkill;
  readonly script: Script;
  /** The skill's other scripts, best first: tried when `script`'s input cannot be filled from the words. */
  readonly alternatives: readonly Script[];
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
export type MissReason =
  | 'below-threshold'
  | 'far-behind-best'
  | 'related-words-only'
  | 'no-likeness-asked'
  | 'one-per-role'
  | 'too-many-skills'
  | 'input-not-filled'
  | 'act-not-asked';

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
  readonly narrator?: { readonly skill: NarratorSkill; readonly script: Script };
  /** Skills that matched some words and stayed out, best first (at most NEAR_MISSES). */
  readonly nearMisses: readonly NearMiss[];
}

/** A score as selection reports it: two decimals. */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
