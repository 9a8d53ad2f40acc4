// A BM25F index of what skills say about themselves, built once per skill set and scored per player input, related words counting as a share.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { insertByContribution, QueryScores, type ScoredSkills } from './queryScores.js';
import { lexicon } from './relatedness/lexicon.js';
import { topics } from './relatedness/topics.js';
import { activeTuning, type Field } from './selectionTuning.js';
import { FIELDS, fillFrequencies, saturate, scriptDocument, skillDocument, vocabularyOf, type Document } from './skillDocuments.js';
import { termOf } from './textTerms.js';

export type { ScoredSkills } from './queryScores.js';

const NO_TERMS: readonly string[] = [];
/** Player words kept per index, with their terms and related terms (a session repeats its words). */
const WORDS_KEPT = 4096;

/** A manifest's term related by meaning or by topic to a player's word. */
export interface RelatedTerm {
  readonly term: string;
  /** The manifest's word it stands for, for explanations. */
  readonly word: string;
  readonly similarity: number;
}

/** A player's word as a query takes it: its term, the manifests' terms related to it, and how common it is in English (WordNet's tag count). */
export interface PlayerWord {
  readonly term: string | undefined;
  /** Some skill's manifest has its term ({@link SkillIndex.knows}). */
  readonly known: boolean;
  readonly related: readonly RelatedTerm[];
  readonly tagCount: number;
}

/** What a player's words ask: term → weight, and for the player's own terms, the manifests' terms related to them. */
export interface Query {
  readonly terms: ReadonlyMap<string, number>;
  readonly related: ReadonlyMap<string, readonly RelatedTerm[]>;
}

/** How one of the query's terms matched a document: itself, or through a related term. */
export interface TermMatch {
  readonly term: string;
  readonly contribution: number;
  /** The related manifest term that matched in its place (absent for a shared term). */
  readonly via?: RelatedTerm;
}

/** A query's match with one document: its score and the terms that matched (best first). */
export interface Match {
  readonly score: number;
  /** The score without prompt.md's prose: what the skill's manifest itself says (the threshold is on this). */
  readonly manifestScore: number;
  readonly terms: readonly string[];
  readonly matches: readonly TermMatch[];
}

export interface IndexedSkill {
  readonly skill: NarratorSkill;
  readonly document: Document;
  /** One document per script (its name, description and examples), to choose among a skill's scripts. */
  readonly scripts: readonly Document[];
}

export class SkillIndex {
  readonly skills: readonly IndexedSkill[];
  private readonly documentFrequency = new Map<string, number>();
  /** The idf of a term that one skill alone has (the unit of scores). */
  private readonly uniqueIdf: number;
  /** The manifests' terms (prompt.md aside), each with the first word that gave it: what a player's word can relate to. */
  private readonly vocabulary: ReadonlyMap<string, string>;
  /** Player words already looked up. */
  private readonly words = new Map<string, PlayerWord>();
  /** term → its idf and the skills' documents that hold it (a range of the posting arrays): what `scoreAll` walks. */
  private readonly postings = new Map<string, PostingList>();
  /** Each posting's term and skill (position in `skills`), and its term's saturated frequency there, over all fields and over the manifest's. */
  private readonly postingTerms: string[] = [];
  private readonly postingPositions: Int32Array;
  private readonly postingFrequencies: Float64Array;
  private readonly postingManifestFrequencies: Float64Array;
  /** Each posting's fields, once asked. */
  private readonly fieldsByPosting: (readonly Field[] | undefined)[] = [];
  /** What `scoreAll` fills, by slot. */
  private readonly scratch: QueryScores[] = [];
  /** The skills a term of the query reached, while `scoreAll` walks it. */
  private readonly touched: number[] = [];

  constructor(skills: readonly NarratorSkill[]) {
    this.skills = skills.map((skill) => ({ skill, document: skillDocument(skill), scripts: skill.scripts.map((script) => scriptDocument(script)) }));
    const totals = Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<Field, number>;
    for (const { document } of this.skills) {
      const seen = new Set<string>();
      for (const field of FIELDS) {
        totals[field] += document.lengths[field];
        for (const term of document.counts[field].keys()) seen.add(term);
      }
      for (const term of seen) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
    const count = Math.max(1, this.skills.length);
    const averages = Object.fromEntries(FIELDS.map((field) => [field, Math.max(1, totals[field] / count)])) as Record<Field, number>;
    for (const { document, scripts } of this.skills) for (const each of [document, ...scripts]) fillFrequencies(each, averages);
    this.uniqueIdf = Math.log(1 + (this.skills.length - 0.5) / 1.5) || 1;
    this.vocabulary = vocabularyOf(skills);
    // Each term's postings side by side in three arrays (few objects, walked in order), by term then position.
    const byTerm = new Map<string, number[]>();
    this.skills.forEach(({ document }, position) => {
      for (const term of document.frequencies.keys()) {
        const list = byTerm.get(term);
        if (list) list.push(position);
        else byTerm.set(term, [position]);
      }
    });
    let total = 0;
    for (const list of byTerm.values()) total += list.length;
    this.postingPositions = new Int32Array(total);
    this.postingFrequencies = new Float64Array(total);
    this.postingManifestFrequencies = new Float64Array(total);
    let at = 0;
    for (const [term, list] of byTerm) {
      const start = at;
      for (const position of list) {
        const document = this.skills[position]!.document;
        this.postingTerms.push(term);
        this.postingPositions[at] = position;
        this.postingFrequencies[at] = saturate(document.frequencies.get(term));
        this.postingManifestFrequencies[at] = saturate(document.manifestFrequencies.get(term));
        at++;
      }
      this.postings.set(term, { idf: this.computeIdf(term), start, end: at });
    }
  }

  /** Whether some skill's manifest (prompt.md aside) has `term`: a word the scores already weigh. */
  knows(term: string): boolean {
    return this.vocabulary.has(term);
  }

  /** How rare `term` is among the skills (BM25's idf, never negative). */
  idf(term: string): number {
    return this.postings.get(term)?.idf ?? this.computeIdf(term);
  }

  private computeIdf(term: string): number {
    const found = this.documentFrequency.get(term) ?? 0;
    const total = this.skills.length;
    return Math.log(1 + (total - found + 0.5) / (found + 0.5));
  }

  /**
   * The scores of every skill's document (by position in `skills`), as `score` computes them, walking only the documents
   * that hold a query term: what ranking all the skills costs per turn. Each term's contribution to each skill is kept,
   * so a skill's match is read back without scoring its document again. What is returned is the index's own, one per
   * `slot`, overwritten by the next call with the same slot (a typed array costs more to make than to fill).
   */
  scoreAll(query: Query, slot = 0): ScoredSkills {
    const count = this.skills.length;
    let found = this.scratch[slot];
    if (!found) this.scratch[slot] = found = new QueryScores(count, this.uniqueIdf);
    found.reset(query.terms.size);
    const { scores, manifestScores, contributions, manifestContributions, vias, terms, postings } = found;
    const touched = this.touched;
    const { postingPositions, postingFrequencies, postingManifestFrequencies } = this;
    const relatedWeight = activeTuning().relatedWeight;
    let offset = 0;
    for (const [term, weight] of query.terms) {
      terms.push(term);
      touched.length = 0;
      const own = this.postings.get(term);
      if (own) {
        const idf = own.idf;
        for (let at = own.start; at < own.end; at++) {
          const position = postingPositions[at]!;
          const cell = offset + position;
          if (contributions[cell] === 0 && manifestContributions[cell] === 0) touched.push(position);
          contributions[cell] = weight * idf * postingFrequencies[at]!;
          manifestContributions[cell] = weight * idf * postingManifestFrequencies[at]!;
          vias[cell] = undefined;
          postings[cell] = at + 1;
        }
      }
      for (const candidate of query.related.get(term) ?? NO_RELATED) {
        const list = this.postings.get(candidate.term);
        if (!list) continue;
        const factor = weight * relatedWeight * candidate.similarity * list.idf;
        for (let at = list.start; at < list.end; at++) {
          const manifestFrequency = postingManifestFrequencies[at]!;
          if (manifestFrequency === 0) continue;
          const value = factor * manifestFrequency;
          const position = postingPositions[at]!;
          const cell = offset + position;
          if (contributions[cell] === 0 && manifestContributions[cell] === 0) touched.push(position);
          if (value > contributions[cell]!) {
            contributions[cell] = value;
            vias[cell] = candidate;
            postings[cell] = at + 1;
          }
          if (value > manifestContributions[cell]!) manifestContributions[cell] = value;
        }
      }
      for (const position of touched) {
        scores[position]! += contributions[offset + position]!;
        manifestScores[position]! += manifestContributions[offset + position]!;
      }
      offset += count;
    }
    for (let position = 0; position < count; position++) {
      scores[position]! /= this.uniqueIdf;
      manifestScores[position]! /= this.uniqueIdf;
    }
    return found;
  }

  /** The manifests' terms related to a player's word (by meaning through the lexicon, by topic through the topics), best first. */
  related(word: string): readonly RelatedTerm[] {
    return this.wordOf(word).related;
  }

  /** What a query needs of a player's word, once per word (a session repeats its words): one lookup for all of it. */
  wordOf(word: string): PlayerWord {
    let found = this.words.get(word);
    if (!found) {
      const term = termOf(word);
      found = {
        term,
        known: term !== undefined && this.vocabulary.has(term),
        related: this.relatedTo(word),
        tagCount: lexicon()?.frequencyOf(word) ?? 0,
      };
      if (this.words.size >= WORDS_KEPT) this.words.delete(this.words.keys().next().value!);
      this.words.set(word, found);
    }
    return found;
  }

  private relatedTo(word: string): readonly RelatedTerm[] {
    const own = termOf(word);
    const best = new Map<string, RelatedTerm>();
    const tuning = activeTuning();
    const words = lexicon();
    const topicWords = tuning.topicWeight > 0 ? topics() : null;
    if (own !== undefined && (words || topicWords) && (tuning.relateKnownWords || !this.vocabulary.has(own))) {
      const frequency = words?.frequencyOf(word) ?? 0;
      const vagueness = frequency <= tuning.commonFrequency ? 1 : Math.sqrt(tuning.commonFrequency / frequency);
      const offer = (relatedWord: string, weight: number) => {
        const term = termOf(relatedWord);
        if (term === undefined || term === own || !this.vocabulary.has(term)) return;
        const similarity = Math.round(weight * vagueness * 100) / 100;
        const previous = best.get(term);
        if (!previous || previous.similarity < similarity) best.set(term, { term, word: relatedWord, similarity });
      };
      for (const related of words?.relatedTo(word) ?? [])
        offer(related.word, tuning.relationWeights[related.steps]! * (related.minorSense ? tuning.minorSenseWeight : 1));
      // The topics a word belongs to ("o2" → oxygen), which WordNet's relations miss.
      for (const topicWord of topicWords?.relatedTo(word) ?? []) offer(topicWord, tuning.topicWeight);
    }
    return [...best.values()].sort((left, right) => right.similarity - left.similarity);
  }

  /** The fields of a posting's skill that hold its term, as {@link fieldsOf} gives them, kept with the posting. */
  postingFields(at: number): readonly Field[] {
    let fields = this.fieldsByPosting[at];
    if (!fields) {
      const document = this.skills[this.postingPositions[at]!]!.document;
      const term = this.postingTerms[at]!;
      this.fieldsByPosting[at] = fields = FIELDS.filter((field) => document.counts[field].has(term));
    }
    return fields;
  }

  /** The fields of a skill's document that hold `term` (for explanations). */
  fieldsOf(document: Document, term: string): readonly Field[] {
    let fields = document.fields.get(term);
    if (!fields) {
      fields = FIELDS.filter((field) => document.counts[field].has(term));
      document.fields.set(term, fields);
    }
    return fields;
  }

  /**
   * BM25F of `query` against a skill's or a script's document, in units of the idf of a term only one skill has: so a
   * threshold means the same with 7 skills or 50. Each of the player's terms counts once: itself, or its best related term.
   */
  score(document: Document, query: Query, withTerms = true): Match {
    let score = 0;
    let manifestScore = 0;
    const matched: TermMatch[] | undefined = withTerms ? [] : undefined;
    const relatedWeight = activeTuning().relatedWeight;
    const saturated = document.saturated;
    for (const [term, weight] of query.terms) {
      // (A term the manifest has, the document has: one lookup gives both.)
      const frequencies = saturated.get(term);
      let contribution = 0;
      let manifestContribution = 0;
      if (frequencies !== undefined) {
        const idf = this.idf(term);
        contribution = weight * idf * frequencies.frequency;
        if (frequencies.manifest !== undefined) manifestContribution = weight * idf * frequencies.manifest;
      }
      let via: RelatedTerm | undefined;
      const related = query.related.get(term);
      if (related) {
        for (const candidate of related) {
          const relatedFrequency = saturated.get(candidate.term)?.manifest;
          if (relatedFrequency === undefined) continue;
          const value = weight * relatedWeight * candidate.similarity * this.idf(candidate.term) * relatedFrequency;
          if (value > contribution) {
            contribution = value;
            via = candidate;
          }
          manifestContribution = Math.max(manifestContribution, value);
        }
      }
      if (contribution === 0) continue;
      score += contribution;
      manifestScore += manifestContribution;
      if (matched) insertByContribution(matched, via ? { term, contribution, via } : { term, contribution });
    }
    if (!matched) return { score: score / this.uniqueIdf, manifestScore: manifestScore / this.uniqueIdf, terms: NO_TERMS, matches: [] };
    return {
      score: score / this.uniqueIdf,
      manifestScore: manifestScore / this.uniqueIdf,
      terms: matched.map((match) => match.term),
      matches: matched.map((match) =>
        match.via
          ? { term: match.term, contribution: match.contribution / this.uniqueIdf, via: match.via }
          : { term: match.term, contribution: match.contribution / this.uniqueIdf },
      ),
    };
  }
}

/** A term's idf and its postings: the range [start, end) of the index's posting arrays. */
interface PostingList {
  readonly idf: number;
  readonly start: number;
  readonly end: number;
}

const NO_RELATED: readonly RelatedTerm[] = [];
