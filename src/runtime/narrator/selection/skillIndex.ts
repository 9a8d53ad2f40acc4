// A BM25F index of what skills say about themselves (names, capabilities, keywords, examples, descriptions, prompt.md's guidance), built once per skill set and scored per player input, with words related by meaning (the bundled lexicon) or by topic (the bundled topics) counting as a share of a shared word.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { lexicon } from './relatedness/lexicon.js';
import { topics } from './relatedness/topics.js';
import { activeTuning, type Field } from './selectionTuning.js';
import { termOf, wordsOf } from './textTerms.js';

const FIELDS: readonly Field[] = ['identity', 'examples', 'scriptNames', 'description', 'scriptDescriptions', 'prompt'];
/** The fields whose words relatedness reaches (prompt.md's long prose would relate to everything). */
const RELATED_FIELDS: readonly Field[] = ['identity', 'examples', 'scriptNames', 'description', 'scriptDescriptions'];
const K1 = 1.2;
const B = 0.75;
const NO_TERMS: readonly string[] = [];
/** Player words whose related terms are kept per index (a session repeats its words). */
const RELATED_CACHE = 4096;

/** One document: a skill, or one script of a skill. */
interface Document {
  /** term → count, per field. */
  readonly counts: Record<Field, Map<string, number>>;
  readonly lengths: Record<Field, number>;
  /** term → BM25F's weighted, length-normalised frequency over the fields (filled once the index knows average lengths). */
  readonly frequencies: Map<string, number>;
  /** The same over the manifest's fields alone (prompt.md's prose aside): what a related word can match. */
  readonly manifestFrequencies: Map<string, number>;
}

/** A manifest's term related by meaning or by topic to a player's word. */
export interface RelatedTerm {
  readonly term: string;
  /** The manifest's word it stands for, for explanations. */
  readonly word: string;
  readonly similarity: number;
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
  private readonly relatedCache = new Map<string, readonly RelatedTerm[]>();
  /** term → the skills' documents that hold it (position in `skills`), with their frequencies: what `scoreAll` walks. */
  private readonly postings = new Map<string, Posting[]>();
  private readonly idfs = new Map<string, number>();
  /** The fields of each document that hold a term, as explanations ask (a document's terms are finite). */
  private readonly fieldsByDocument = new Map<Document, Map<string, readonly Field[]>>();
  /** Each term's best contribution per skill while `scoreAll` walks the query (all zero between calls). */
  private readonly best: Float64Array;
  private readonly bestManifest: Float64Array;

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
    this.skills.forEach(({ document }, position) => {
      for (const [term, frequency] of document.frequencies) {
        const list = this.postings.get(term) ?? [];
        list.push({ position, frequency: saturate(frequency), manifestFrequency: saturate(document.manifestFrequencies.get(term)) });
        this.postings.set(term, list);
      }
    });
    for (const term of this.documentFrequency.keys()) this.idfs.set(term, this.computeIdf(term));
    this.best = new Float64Array(this.skills.length);
    this.bestManifest = new Float64Array(this.skills.length);
  }

  /** Whether some skill's manifest (prompt.md aside) has `term`: a word the scores already weigh. */
  knows(term: string): boolean {
    return this.vocabulary.has(term);
  }

  /** How rare `term` is among the skills (BM25's idf, never negative). */
  idf(term: string): number {
    return this.idfs.get(term) ?? this.computeIdf(term);
  }

  private computeIdf(term: string): number {
    const found = this.documentFrequency.get(term) ?? 0;
    const total = this.skills.length;
    return Math.log(1 + (total - found + 0.5) / (found + 0.5));
  }

  /**
   * The scores of every skill's document (by position in `skills`), as `score` computes them without the matched terms,
   * walking only the documents that hold a query term: what ranking all the skills costs per turn.
   */
  scoreAll(query: Query): { readonly scores: Float64Array; readonly manifestScores: Float64Array } {
    const count = this.skills.length;
    const scores = new Float64Array(count);
    const manifestScores = new Float64Array(count);
    const { best, bestManifest } = this;
    const touched: number[] = [];
    const relatedWeight = activeTuning().relatedWeight;
    for (const [term, weight] of query.terms) {
      touched.length = 0;
      const own = this.postings.get(term);
      if (own) {
        const idf = this.idf(term);
        for (const posting of own) {
          if (best[posting.position] === 0 && bestManifest[posting.position] === 0) touched.push(posting.position);
          best[posting.position] = weight * idf * posting.frequency;
          bestManifest[posting.position] = weight * idf * posting.manifestFrequency;
        }
      }
      for (const candidate of query.related.get(term) ?? NO_RELATED) {
        const list = this.postings.get(candidate.term);
        if (!list) continue;
        const factor = weight * relatedWeight * candidate.similarity * this.idf(candidate.term);
        for (const posting of list) {
          if (posting.manifestFrequency === 0) continue;
          const value = factor * posting.manifestFrequency;
          if (best[posting.position] === 0 && bestManifest[posting.position] === 0) touched.push(posting.position);
          if (value > best[posting.position]!) best[posting.position] = value;
          if (value > bestManifest[posting.position]!) bestManifest[posting.position] = value;
        }
      }
      for (const position of touched) {
        scores[position]! += best[position]!;
        manifestScores[position]! += bestManifest[position]!;
        best[position] = 0;
        bestManifest[position] = 0;
      }
    }
    // (Clean for the next call, whatever a term left.)
    best.fill(0);
    bestManifest.fill(0);
    for (let position = 0; position < count; position++) {
      scores[position]! /= this.uniqueIdf;
      manifestScores[position]! /= this.uniqueIdf;
    }
    return { scores, manifestScores };
  }

  /** The manifests' terms related to a player's word (by meaning through the lexicon, by topic through the topics), best first. */
  related(word: string): readonly RelatedTerm[] {
    const cached = this.relatedCache.get(word);
    if (cached) return cached;
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
    const found = [...best.values()].sort((left, right) => right.similarity - left.similarity);
    if (this.relatedCache.size >= RELATED_CACHE) this.relatedCache.delete(this.relatedCache.keys().next().value!);
    this.relatedCache.set(word, found);
    return found;
  }

  /** The fields of a skill's document that hold `term` (for explanations). */
  fieldsOf(document: Document, term: string): readonly Field[] {
    let byTerm = this.fieldsByDocument.get(document);
    if (!byTerm) this.fieldsByDocument.set(document, (byTerm = new Map<string, readonly Field[]>()));
    let fields = byTerm.get(term);
    if (!fields) {
      fields = FIELDS.filter((field) => document.counts[field].has(term));
      byTerm.set(term, fields);
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
    for (const [term, weight] of query.terms) {
      const frequency = document.frequencies.get(term);
      const idf = frequency === undefined ? 0 : this.idf(term);
      let contribution = frequency === undefined ? 0 : weight * idf * ((frequency * (K1 + 1)) / (frequency + K1));
      const manifestFrequency = document.manifestFrequencies.get(term);
      let manifestContribution = manifestFrequency === undefined ? 0 : weight * idf * ((manifestFrequency * (K1 + 1)) / (manifestFrequency + K1));
      let via: RelatedTerm | undefined;
      const related = query.related.get(term);
      if (related) {
        for (const candidate of related) {
          const relatedFrequency = document.manifestFrequencies.get(candidate.term);
          if (relatedFrequency === undefined) continue;
          const value = weight * relatedWeight * candidate.similarity * this.idf(candidate.term) * ((relatedFrequency * (K1 + 1)) / (relatedFrequency + K1));
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
      matched?.push(via ? { term, contribution, via } : { term, contribution });
    }
    if (!matched) return { score: score / this.uniqueIdf, manifestScore: manifestScore / this.uniqueIdf, terms: NO_TERMS, matches: [] };
    matched.sort((left, right) => right.contribution - left.contribution);
    return {
      score: score / this.uniqueIdf,
      manifestScore: manifestScore / this.uniqueIdf,
      terms: matched.map((match) => match.term),
      matches: matched.map((match) => ({ ...match, contribution: match.contribution / this.uniqueIdf })),
    };
  }
}

/** One skill document holding a term: BM25's saturated frequencies, over all fields and over the manifest's. */
interface Posting {
  readonly position: number;
  readonly frequency: number;
  readonly manifestFrequency: number;
}

const NO_RELATED: readonly RelatedTerm[] = [];

/** BM25's saturation of a weighted frequency (0 for a term the document lacks). */
function saturate(frequency: number | undefined): number {
  return frequency === undefined ? 0 : (frequency * (K1 + 1)) / (frequency + K1);
}

/** BM25F's per-term frequency: each field's count times its weight, over its length normalisation. */
function fillFrequencies(document: Document, averages: Record<Field, number>): void {
  const weights = activeTuning().fieldWeights;
  for (const field of FIELDS) {
    const normalised = 1 - B + (B * document.lengths[field]) / averages[field];
    for (const [term, count] of document.counts[field]) {
      const value = (weights[field] * count) / normalised;
      document.frequencies.set(term, (document.frequencies.get(term) ?? 0) + value);
      if (field !== 'prompt') document.manifestFrequencies.set(term, (document.manifestFrequencies.get(term) ?? 0) + value);
    }
  }
}

/** The terms of the skills' manifests (not prompt.md), each with the first word that gave it. */
function vocabularyOf(skills: readonly NarratorSkill[]): Map<string, string> {
  const vocabulary = new Map<string, string>();
  for (const skill of skills) {
    for (const field of RELATED_FIELDS) {
      for (const text of fieldTexts(skill, field)) {
        for (const word of wordsOf(text)) {
          const term = termOf(word);
          if (term !== undefined && !vocabulary.has(term)) vocabulary.set(term, word);
        }
      }
    }
  }
  return vocabulary;
}

/** The texts of one field of a skill's manifest. */
function fieldTexts(skill: NarratorSkill, field: Field): string[] {
  switch (field) {
    case 'identity':
      return [skill.name.replace(/-/g, ' '), skill.displayName, ...skill.capabilities, ...(skill.keywords ?? [])];
    case 'description':
      return [skill.description];
    case 'scriptNames':
      return skill.scripts.map((script) => script.name.replace(/[-_]/g, ' '));
    case 'scriptDescriptions':
      return skill.scripts.map((script) => script.description ?? '');
    case 'examples':
      return skill.scripts.flatMap((script) => script.examples ?? []);
    case 'prompt':
      return skill.prompt ? [promptGuidance(skill.prompt)] : [];
  }
}

function emptyDocument(): Document {
  return {
    frequencies: new Map<string, number>(),
    manifestFrequencies: new Map<string, number>(),
    counts: Object.fromEntries(FIELDS.map((field) => [field, new Map<string, number>()])) as Record<Field, Map<string, number>>,
    lengths: Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<Field, number>,
  };
}

function addText(document: Document, field: Field, text: string | undefined): void {
  if (!text) return;
  for (const word of wordsOf(text)) {
    const term = termOf(word);
    if (term === undefined) continue;
    const counts = document.counts[field];
    counts.set(term, (counts.get(term) ?? 0) + 1);
    document.lengths[field]++;
  }
}

function skillDocument(skill: NarratorSkill): Document {
  const document = emptyDocument();
  for (const field of FIELDS) for (const text of fieldTexts(skill, field)) addText(document, field, text);
  return document;
}

function scriptDocument(script: NarratorSkill['scripts'][number]): Document {
  const document = emptyDocument();
  addText(document, 'scriptNames', script.name.replace(/[-_]/g, ' '));
  addText(document, 'scriptDescriptions', script.description);
  addText(document, 'examples', script.examples?.join(' '));
  // What its input names ("Where the player wants to go: the mill, the village"): "to the mill" asks for this script.
  addText(document, 'scriptDescriptions', inputWords(script.inputSchema));
  return document;
}

/** The descriptions, enum values and examples of an input schema's properties. */
function inputWords(schema: Record<string, unknown> | undefined): string | undefined {
  const properties = schema?.['properties'];
  if (typeof properties !== 'object' || properties === null) return undefined;
  const texts: string[] = [];
  for (const property of Object.values(properties as Record<string, Record<string, unknown>>)) {
    if (typeof property !== 'object' || property === null) continue;
    if (typeof property['description'] === 'string') texts.push(property['description']);
    for (const key of ['enum', 'examples'] as const) {
      const values = property[key];
      if (Array.isArray(values)) texts.push(...values.filter((value): value is string => typeof value === 'string'));
    }
  }
  return texts.length > 0 ? texts.join(' ') : undefined;
}

/** prompt.md without code blocks and without its sections about input, output, results or configuration. */
export function promptGuidance(prompt: string): string {
  const kept: string[] = [];
  let skipping = false;
  let inCode = false;
  for (const line of prompt.split('\n')) {
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      skipping = /\b(?:input|output|return|result|get\s+back|config|format|schema|example|state)\b/i.test(heading[1]!);
      continue;
    }
    if (!skipping) kept.push(line.replace(/`[^`]*`/g, ' '));
  }
  return kept.join('\n');
}
