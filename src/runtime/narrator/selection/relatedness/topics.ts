// The bundled topics of story-game English (topics.txt): the words a player uses for a topic a manifest may name ("o2" -> oxygen); loaded once.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bundledOrSourceFile, loadedOnce } from '../../../common/bundledFile.js';
import { baseForms, lexicon } from './lexicon.js';

export interface Topics {
  /** How many topics there are. */
  readonly size: number;
  /** How long loading took, in milliseconds (reported by bench d). */
  readonly loadMs: number;
  /**
   * The words related to `word` through the topics: the topics it belongs to, and a topic's own words when it is one.
   * Words of one topic are not related to each other ("whisper" and "news" are both rumour's, but not alike), so a
   * topic's plural that is listed as its word ("potions") relates to the topic ("potion") only. A word no topic has
   * falls back to its base forms ("whispers" → whisper) unless it is a WordNet word of its own ("caring" is not
   * "car" + "ing").
   */
  relatedTo(word: string): readonly string[];
}

/** The process's topics, loaded on first call; null when the data file is missing or malformed (selection then works without them). */
export const topics: () => Topics | null = loadedOnce(
  () => topicsFile(),
  (file) => loadTopics(file),
);

/** dist/data/topics.txt beside a bundle, or the file beside this source when run from sources. */
export function topicsFile(): string {
  return bundledOrSourceFile(path.join('data', 'topics.txt'), './topics.txt', import.meta.url);
}

const NONE: readonly string[] = [];

/**
 * Reads topics.txt: `topic: word, word, …` a line, `#` comment lines and blank lines skipped; null when the file is
 * missing, or when a line is malformed or repeats a topic (the bundled file is checked whole by its test).
 */
export function loadTopics(file: string): Topics | null {
  const started = performance.now();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  /** Topic → its words; word → the topics it belongs to. */
  const members = new Map<string, string[]>();
  const topicsOf = new Map<string, string[]>();
  for (const raw of text.replace(/^\uFEFF/, '').split('\n')) {
    const line = raw.trimEnd();
    if (line === '' || line.startsWith('#')) continue;
    const found = /^([a-z0-9]+): ([a-z0-9]+(?:, [a-z0-9]+)*)$/.exec(line);
    if (!found || members.has(found[1]!)) return null;
    const topic = found[1]!;
    const words = found[2]!.split(', ').filter((word) => word !== topic);
    members.set(topic, words);
    for (const word of words) {
      const list = topicsOf.get(word);
      if (list) list.push(topic);
      else topicsOf.set(word, [topic]);
    }
  }
  const known = (word: string) => members.has(word) || topicsOf.has(word);
  const loadMs = performance.now() - started;
  return {
    size: members.size,
    loadMs,
    relatedTo(word) {
      const forms = known(word) ? [word] : lexicon()?.has(word) ? [] : baseForms(word).filter(known);
      if (forms.length === 0) return NONE;
      const related = new Set<string>();
      for (const form of forms) {
        for (const topic of topicsOf.get(form) ?? NONE) related.add(topic);
        for (const member of members.get(form) ?? NONE) related.add(member);
      }
      for (const form of forms) related.delete(form);
      return [...related];
    },
  };
}
