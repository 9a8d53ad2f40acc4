// A BM25F index of what skills say about themselves (names, capabilities, keywords, examples, descriptions, prompt.md's guidance), built once per skill set and scored per player input.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { termsOf } from './textTerms.js';

/** Where a skill's words come from, and how much a match there counts. */
export const FIELD_WEIGHTS = {
  identity: 3, // name, display name, capabilities, keywords
  examples: 2.5, // player inputs the author says should select a script
  scriptNames: 2,
  description: 1.5,
  scriptDescriptions: 1,
  prompt: 0.6, // prompt.md's guidance, its input and output sections left out
} as const;

type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
const K1 = 1.2;
const NO_TERMS: readonly string[] = [];
const B = 0.75;

/** One document: a skill, or one script of a skill. */
interface Document {
  /** term → count, per field. */
  readonly counts: Record<Field, Map<string, number>>;
  readonly lengths: Record<Field, number>;
  /** term → BM25F's weighted, length-normalised frequency over the fields (filled once the index knows average lengths). */
  readonly frequencies: Map<string, number>;
}

/** A query's match with one document: its score and the terms that matched (best first). */
export interface Match {
  readonly score: number;
  readonly terms: readonly string[];
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
  }

  /** How rare `term` is among the skills (BM25's idf, never negative). */
  idf(term: string): number {
    const found = this.documentFrequency.get(term) ?? 0;
    const total = this.skills.length;
    return Math.log(1 + (total - found + 0.5) / (found + 0.5));
  }

  /**
   * BM25F of `query` (term → weight) against a skill's or a script's document, in units of the idf of a term only
   * one skill has: so a threshold means the same with 7 skills or 50.
   */
  score(document: Document, query: ReadonlyMap<string, number>, withTerms = true): Match {
    let score = 0;
    const matched: [string, number][] | undefined = withTerms ? [] : undefined;
    for (const [term, weight] of query) {
      const frequency = document.frequencies.get(term);
      if (frequency === undefined) continue;
      const contribution = weight * this.idf(term) * ((frequency * (K1 + 1)) / (frequency + K1));
      score += contribution;
      matched?.push([term, contribution]);
    }
    if (!matched) return { score: score / this.uniqueIdf, terms: NO_TERMS };
    matched.sort((left, right) => right[1] - left[1]);
    return { score: score / this.uniqueIdf, terms: matched.map(([term]) => term) };
  }
}

/** BM25F's per-term frequency: each field's count times its weight, over its length normalisation. */
function fillFrequencies(document: Document, averages: Record<Field, number>): void {
  for (const field of FIELDS) {
    const normalised = 1 - B + (B * document.lengths[field]) / averages[field];
    for (const [term, count] of document.counts[field]) document.frequencies.set(term, (document.frequencies.get(term) ?? 0) + (FIELD_WEIGHTS[field] * count) / normalised);
  }
}

function emptyDocument(): Document {
  return {
    frequencies: new Map<string, number>(),
    counts: Object.fromEntries(FIELDS.map((field) => [field, new Map<string, number>()])) as Record<Field, Map<string, number>>,
    lengths: Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<Field, number>,
  };
}

function addText(document: ReturnType<typeof emptyDocument>, field: Field, text: string | undefined): void {
  if (!text) return;
  for (const term of termsOf(text)) {
    const counts = document.counts[field];
    counts.set(term, (counts.get(term) ?? 0) + 1);
    document.lengths[field]++;
  }
}

function skillDocument(skill: NarratorSkill): Document {
  const document = emptyDocument();
  addText(document, 'identity', [skill.name.replace(/-/g, ' '), skill.displayName, ...skill.capabilities, ...(skill.keywords ?? [])].join(' '));
  addText(document, 'description', skill.description);
  addText(document, 'prompt', skill.prompt && promptGuidance(skill.prompt));
  for (const script of skill.scripts) {
    addText(document, 'scriptNames', script.name.replace(/[-_]/g, ' '));
    addText(document, 'scriptDescriptions', script.description);
    addText(document, 'examples', script.examples?.join(' '));
  }
  return document;
}

function scriptDocument(script: NarratorSkill['scripts'][number]): Document {
  const document = emptyDocument();
  addText(document, 'scriptNames', script.name.replace(/[-_]/g, ' '));
  addText(document, 'scriptDescriptions', script.description);
  addText(document, 'examples', script.examples?.join(' '));
  return document;
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
