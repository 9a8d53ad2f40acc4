// What a skill index's scoreAll leaves for one query: every skill's scores, and each term's contribution to each skill, from which a skill's match is read back without scoring its document again.
import type { Match, RelatedTerm, TermMatch } from './skillIndex.js';

/** Every skill's scores for one query (by position in the index), and each skill's match. */
export interface ScoredSkills {
  readonly scores: Float64Array;
  /** The scores without prompt.md's prose. */
  readonly manifestScores: Float64Array;
  /** The match of the skill at `position`: exactly what `SkillIndex.score` gives for its document and the query. */
  match(position: number): Match;
  /** The posting that gave `term` its contribution to the skill at `position`, for `SkillIndex.postingFields` (-1: none). */
  postingOf(position: number, term: string): number;
}

/**
 * The arrays `SkillIndex.scoreAll` fills: per query term (in the query's order) and per skill, the term's contribution
 * (itself or its best related term, and which), as `SkillIndex.score` would add it. Reused from call to call.
 */
export class QueryScores implements ScoredSkills {
  readonly scores: Float64Array;
  readonly manifestScores: Float64Array;
  /** Row per term, column per skill. */
  contributions = new Float64Array(0);
  manifestContributions = new Float64Array(0);
  /** The related term that gave a contribution (undefined: the term itself, or none). */
  readonly vias: (RelatedTerm | undefined)[] = [];
  /** The posting that gave a contribution, plus one (0: none): the index knows its fields. */
  postings = new Int32Array(0);
  /** The query's terms, in order: the rows. */
  readonly terms: string[] = [];

  constructor(
    private readonly count: number,
    private readonly uniqueIdf: number,
  ) {
    this.scores = new Float64Array(count);
    this.manifestScores = new Float64Array(count);
  }

  /** Zeroes everything for a query of `termCount` terms. */
  reset(termCount: number): void {
    const cells = termCount * this.count;
    // (A cell's via and posting are written whenever its contribution is: never read where it stayed zero.)
    if (this.contributions.length < cells) {
      this.contributions = new Float64Array(cells);
      this.manifestContributions = new Float64Array(cells);
      this.postings = new Int32Array(cells);
    } else {
      this.contributions.fill(0, 0, cells);
      this.manifestContributions.fill(0, 0, cells);
    }
    if (this.vias.length < cells) this.vias.length = cells;
    this.terms.length = 0;
    this.scores.fill(0);
    this.manifestScores.fill(0);
  }

  /** The posting that gave `term` its contribution to the skill at `position` (itself or its related term), or -1. */
  postingOf(position: number, term: string): number {
    for (let row = 0; row < this.terms.length; row++) if (this.terms[row] === term) return this.postings[row * this.count + position]! - 1;
    return -1;
  }

  match(position: number): Match {
    let score = 0;
    let manifestScore = 0;
    const matched: TermMatch[] = [];
    for (let row = 0; row < this.terms.length; row++) {
      const cell = row * this.count + position;
      const contribution = this.contributions[cell]!;
      if (contribution === 0) continue;
      score += contribution;
      manifestScore += this.manifestContributions[cell]!;
      const via = this.vias[cell];
      const term = this.terms[row]!;
      insertByContribution(matched, via ? { term, contribution, via } : { term, contribution });
    }
    const unit = this.uniqueIdf;
    return {
      score: score / unit,
      manifestScore: manifestScore / unit,
      terms: matched.map((match) => match.term),
      matches: matched.map((match) =>
        match.via
          ? { term: match.term, contribution: match.contribution / unit, via: match.via }
          : { term: match.term, contribution: match.contribution / unit },
      ),
    };
  }
}

/**
 * Adds `match` to `matched` (best first) after those that contribute as much: what a stable sort by contribution
 * gives, without the copy a sort of a few items makes.
 */
export function insertByContribution(matched: TermMatch[], match: TermMatch): void {
  let at = matched.length;
  matched.push(match);
  for (; at > 0 && matched[at - 1]!.contribution < match.contribution; at--) matched[at] = matched[at - 1]!;
  matched[at] = match;
}
