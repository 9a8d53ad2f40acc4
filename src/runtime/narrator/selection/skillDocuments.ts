// The documents a skill index scores: a skill's or a script's words by field (name, capabilities, examples, descriptions, prompt.md guidance), their BM25F frequencies, the vocabulary.
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { activeTuning, type Field } from './selectionTuning.js';
import { termOf, wordsOf } from './textTerms.js';

export const FIELDS: readonly Field[] = ['identity', 'examples', 'scriptNames', 'description', 'scriptDescriptions', 'prompt'];
/** The fields whose words relatedness reaches (prompt.md's long prose would relate to everything). */
const RELATED_FIELDS: readonly Field[] = ['identity', 'examples', 'scriptNames', 'description', 'scriptDescriptions'];
export const K1 = 1.2;
const B = 0.75;

/** One document: a skill, or one script of a skill. */
export interface Document {
  /** term → count, per field. */
  readonly counts: Record<Field, Map<string, number>>;
  readonly lengths: Record<Field, number>;
  /** term → BM25F's weighted, length-normalised frequency over the fields (filled once the index knows average lengths). */
  readonly frequencies: Map<string, number>;
  /** The same over the manifest's fields alone (prompt.md's prose aside): what a related word can match. */
  readonly manifestFrequencies: Map<string, number>;
  /** term → both, saturated as BM25 weighs them: what scoring looks up, once per term. */
  readonly saturated: Map<string, Saturated>;
  /** term → the fields that hold it, as explanations ask (filled on demand: a document's terms are finite). */
  readonly fields: Map<string, readonly Field[]>;
}

/** A document's term frequencies as BM25 counts them (saturated); `manifest` undefined when only prompt.md has the term. */
export interface Saturated {
  readonly frequency: number;
  readonly manifest: number | undefined;
}

/** BM25's saturation of a weighted frequency (0 for a term the document lacks). */
export function saturate(frequency: number | undefined): number {
  return frequency === undefined ? 0 : (frequency * (K1 + 1)) / (frequency + K1);
}

/** BM25F's per-term frequency: each field's count times its weight, over its length normalisation. */
export function fillFrequencies(document: Document, averages: Record<Field, number>): void {
  const weights = activeTuning().fieldWeights;
  for (const field of FIELDS) {
    const normalised = 1 - B + (B * document.lengths[field]) / averages[field];
    for (const [term, count] of document.counts[field]) {
      const value = (weights[field] * count) / normalised;
      document.frequencies.set(term, (document.frequencies.get(term) ?? 0) + value);
      if (field !== 'prompt') document.manifestFrequencies.set(term, (document.manifestFrequencies.get(term) ?? 0) + value);
    }
  }
  for (const [term, frequency] of document.frequencies) {
    const manifest = document.manifestFrequencies.get(term);
    document.saturated.set(term, { frequency: saturate(frequency), manifest: manifest === undefined ? undefined : saturate(manifest) });
  }
}

/** The terms of the skills' manifests (not prompt.md), each with the first word that gave it. */
export function vocabularyOf(skills: readonly NarratorSkill[]): Map<string, string> {
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
    saturated: new Map<string, Saturated>(),
    fields: new Map<string, readonly Field[]>(),
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

export function skillDocument(skill: NarratorSkill): Document {
  const document = emptyDocument();
  for (const field of FIELDS) for (const text of fieldTexts(skill, field)) addText(document, field, text);
  return document;
}

export function scriptDocument(script: NarratorSkill['scripts'][number]): Document {
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
