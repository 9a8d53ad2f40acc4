// How close in meaning a player's words are to each skill's manifest, by the bundled word vectors: selection's fallback when no words match.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { dot, type WordVectors } from './relatedness/vectors.js';
import { termOf, wordsOf } from './textTerms.js';

/** One of the player's words and the manifest word closest to it in one skill. */
export interface TopicMatch {
  readonly word: string;
  readonly closest: string;
  readonly similarity: number;
  /** How much the word counts (rarer words more). */
  readonly weight: number;
}

/** A skill's closeness in meaning to the words: above the mean of the skills compared, so a word alike to everything tells nothing. */
export interface TopicScore {
  /** The skill's position in the skill set. */
  readonly position: number;
  readonly score: number;
}

/** The weights of the comparison: a player's word counts by how rare it is (`rarity`: the frequency rank at which it counts half). */
export interface TopicWeights {
  readonly rarity: number;
  /** The player's words among this many most frequent are left out ("make", "go", "look" are near everything). */
  readonly commonRank: number;
  /** The share of a word's closeness that is its closeness to the skill's words as a whole (their centroid), the rest to the closest one: a word of two meanings ("standing") then pulls less. */
  readonly centroidShare: number;
}

/** Player words whose closest manifest words are kept per skill set (a session repeats its words). */
const WORD_CACHE = 4096;

/** Per player word: its best similarity in each skill and the manifest word that gave it. */
interface WordCloseness {
  readonly best: Float32Array;
  readonly closest: Int32Array;
}

/** One of the player's words that counts: its closeness to each skill and its weight. */
interface WordCounted {
  readonly word: string;
  readonly closeness: WordCloseness;
  readonly weight: number;
}

export class SkillTopics {
  /** The distinct manifest words with a vector, and their unit vectors one after another. */
  private readonly words: string[] = [];
  private readonly units: Float32Array;
  /** Per skill: the positions (in `words`) of its words. */
  private readonly columns: Int32Array[];
  /** Per skill: the unit centroid of its words' vectors. */
  private readonly centroids: Float32Array[];
  /** Each word as it counts in a comparison (null: it does not), kept as the closeness is. */
  private readonly counted = new Map<string, WordCounted | null>();
  /** The totals `rank` adds up, reused. */
  private totals = new Float64Array(0);

  constructor(
    skills: readonly NarratorSkill[],
    private readonly vectors: WordVectors,
    private readonly weights: TopicWeights,
  ) {
    const positions = new Map<string, number>();
    const perSkill = skills.map((skill) => {
      const columns = new Set<number>();
      const texts = [
        skill.name.replace(/-/g, ' '),
        skill.displayName,
        ...skill.capabilities,
        ...(skill.keywords ?? []),
        skill.description,
        ...skill.scripts.flatMap((script) => [script.name.replace(/[-_]/g, ' '), script.description ?? '', ...(script.examples ?? [])]),
      ];
      for (const word of texts.flatMap((text) => wordsOf(text))) {
        if (termOf(word) === undefined || !vectors.vectorOf(word)) continue;
        let at = positions.get(word);
        if (at === undefined) {
          at = this.words.length;
          positions.set(word, at);
          this.words.push(word);
        }
        columns.add(at);
      }
      return columns;
    });
    const dimensions = vectors.dimensions;
    this.units = new Float32Array(this.words.length * dimensions);
    this.words.forEach((word, at) => this.units.set(vectors.vectorOf(word)!, at * dimensions));
    this.columns = perSkill.map((columns) => Int32Array.from(columns));
    this.centroids = this.columns.map((columns) => {
      const centroid = new Float32Array(dimensions);
      for (const column of columns)
        for (let dimension = 0; dimension < dimensions; dimension++) centroid[dimension]! += this.units[column * dimensions + dimension]!;
      const length = Math.sqrt(dot(centroid, centroid)) || 1;
      return centroid.map((value) => value / length);
    });
  }

  /**
   * The skills at `positions`, closest in meaning to `input` (its text, or its words) first (scores relative to their
   * mean); empty when no word of the input has a vector. Words for which `weighed` is true (the manifests' own words,
   * which selection already scored) are left out.
   */
  rank(input: string | readonly string[], positions: readonly number[], weighed: (word: string) => boolean = () => false): TopicScore[] {
    const totals = this.totalsOf(input, positions, weighed);
    if (!totals) return [];
    return positions.map((position, at) => ({ position, score: totals.scoreAt(at) })).sort((left, right) => right.score - left.score);
  }

  /** The first two of {@link rank}, without ranking the others (what the fallback on meaning compares). */
  closestTwo(input: string | readonly string[], positions: readonly number[], weighed: (word: string) => boolean = () => false): TopicScore[] {
    const totals = this.totalsOf(input, positions, weighed);
    if (!totals) return [];
    // As the stable sort of rank() orders them: a later skill passes an earlier one only with a higher score.
    let first = -1;
    let second = -1;
    let firstScore = 0;
    let secondScore = 0;
    for (let at = 0; at < positions.length; at++) {
      const score = totals.scoreAt(at);
      if (first < 0 || score > firstScore) {
        second = first;
        secondScore = firstScore;
        first = at;
        firstScore = score;
      } else if (second < 0 || score > secondScore) {
        second = at;
        secondScore = score;
      }
    }
    const found: TopicScore[] = [{ position: positions[first]!, score: firstScore }];
    if (second >= 0) found.push({ position: positions[second]!, score: secondScore });
    return found;
  }

  /** Each skill's total closeness to the input's words and how to score it; undefined for fewer than two skills or no word with a vector. */
  private totalsOf(
    input: string | readonly string[],
    positions: readonly number[],
    weighed: (word: string) => boolean,
  ): { readonly scoreAt: (at: number) => number } | undefined {
    if (positions.length < 2) return undefined;
    // (The comparison's own array, zeroed: a typed array costs more to make than to fill.)
    if (this.totals.length < positions.length) this.totals = new Float64Array(positions.length);
    const totals = this.totals.fill(0, 0, positions.length);
    let weightSum = 0;
    for (const { closeness, weight } of this.wordsOf(input, weighed)) {
      weightSum += weight;
      for (let at = 0; at < positions.length; at++) totals[at]! += weight * closeness.best[positions[at]!]!;
    }
    if (weightSum === 0) return undefined;
    let sum = 0;
    for (let at = 0; at < positions.length; at++) sum += totals[at]!;
    const mean = sum / positions.length;
    return { scoreAt: (at) => (totals[at]! - mean) / weightSum };
  }

  /** The player's words that pulled the skill at `position` closest, each with its closest manifest word, best first. */
  matches(input: string | readonly string[], position: number, weighed: (word: string) => boolean = () => false): TopicMatch[] {
    return this.wordsOf(input, weighed)
      .filter(({ closeness }) => closeness.closest[position]! >= 0)
      .map(({ word, closeness, weight }) => ({
        word,
        closest: this.words[closeness.closest[position]!]!,
        similarity: Math.round(closeness.best[position]! * 100) / 100,
        weight,
      }))
      .sort((left, right) => right.similarity * right.weight - left.similarity * left.weight);
  }

  /** The input's words that count, once each, with their closeness to every skill and their weight. */
  private wordsOf(input: string | readonly string[], weighed: (word: string) => boolean): WordCounted[] {
    const seen = new Set<string>();
    const found: WordCounted[] = [];
    for (const word of typeof input === 'string' ? wordsOf(input) : input) {
      // (A weighed word does not count here; one without a term, among the most frequent, or without a vector never
      // does. Weighed first: a weighed word's closeness is never worked out.)
      if (seen.has(word) || weighed(word)) continue;
      const counted = this.countedOf(word);
      if (!counted) continue;
      seen.add(word);
      found.push(counted);
    }
    return found;
  }

  /** A word's closeness and weight; null for a word without a term, among the most frequent or without a vector. Once per word, kept. */
  private countedOf(word: string): WordCounted | null {
    const cached = this.counted.get(word);
    if (cached !== undefined) return cached;
    const rank = this.vectors.rankOf(word) ?? 0;
    let found: WordCounted | null = null;
    if (termOf(word) !== undefined && rank >= this.weights.commonRank) {
      const closeness = this.closenessOf(word);
      if (closeness) found = { word, closeness, weight: rank / (rank + this.weights.rarity) };
    }
    if (this.counted.size >= WORD_CACHE) this.counted.delete(this.counted.keys().next().value!);
    this.counted.set(word, found);
    return found;
  }

  /** Each skill's closeness to `word` (its closest word's cosine and its centroid's, by the centroid share), kept by {@link countedOf}. */
  private closenessOf(word: string): WordCloseness | null {
    const unit = this.vectors.vectorOf(word);
    let found: WordCloseness | null = null;
    if (unit) {
      const dimensions = unit.length;
      const cosines = new Float32Array(this.words.length);
      for (let at = 0; at < this.words.length; at++) cosines[at] = dot(unit, this.units, at * dimensions);
      const best = new Float32Array(this.columns.length);
      const closest = new Int32Array(this.columns.length).fill(-1);
      const share = this.weights.centroidShare;
      this.columns.forEach((columns, skill) => {
        let top = 0;
        for (const column of columns) {
          if (cosines[column]! > top) {
            top = cosines[column]!;
            closest[skill] = column;
          }
        }
        best[skill] = share > 0 ? (1 - share) * top + share * dot(unit, this.centroids[skill]!) : top;
      });
      found = { best, closest };
    }
    return found;
  }
}
