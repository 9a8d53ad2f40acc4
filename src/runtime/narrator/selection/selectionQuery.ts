// The query of each role from a player's words: their terms weighed by how common each word is, with their related terms, and each cue's words added for the role it asks for only.
import type { CueKind, CueReading } from './cues.js';
import type { SkillRole } from './selectionTypes.js';
import type { Query, RelatedTerm, SkillIndex } from './skillIndex.js';
import { CUE_ROLES } from './skillRoles.js';
import { termOf, wordsOf } from './textTerms.js';

/** Weight of a cue's added words against the player's own. */
const EXPANSION_WEIGHT = 1;

/** The queries of a player's words, by role, and what explanations need of them. */
export interface RoleQueries {
  readonly queries: ReadonlyMap<SkillRole, Query>;
  /** Each term's word as the player wrote it (or as a cue added it), for explanations. */
  readonly shown: ReadonlyMap<string, string>;
  /** The cues whose words added each term. */
  readonly cueTerms: ReadonlyMap<string, readonly CueKind[]>;
}

/**
 * The query of each role: the player's terms (and the manifests' terms related to them), plus the words of the cues
 * that ask for that role. `commonWordFrequency`: the tag count above which a word counts less (the tuning's).
 */
export function roleQueries(
  input: string,
  reading: CueReading,
  index: SkillIndex,
  commonWordFrequency: number,
  words: readonly string[] = wordsOf(input),
): RoleQueries {
  const query = new Map<string, number>();
  const shown = new Map<string, string>();
  /** The manifests' terms related to the player's own terms (cue words are not widened). */
  const related = new Map<string, readonly RelatedTerm[]>();
  for (const word of words) {
    const known = index.wordOf(word);
    const term = known.term;
    if (term === undefined) continue;
    query.set(term, (query.get(term) ?? 0) + commonness(known.tagCount, commonWordFrequency));
    if (!shown.has(term)) shown.set(term, word);
    if (!related.has(term)) related.set(term, known.related);
  }
  // A cue's words count only for skills of its kind: "roll dice chance" never drags in a skill that merely mentions dice.
  const cueTerms = new Map<string, CueKind[]>();
  const queries = new Map<SkillRole, Query>();
  for (const role of ['chance', 'context', 'options', 'visual'] as const) {
    // A role no cue changes shares the words' own query (and its scores).
    let expanded = query;
    const writable = () => (expanded === query ? (expanded = new Map(query)) : expanded);
    for (const cue of reading.cues) {
      if (CUE_ROLES[cue.kind] !== role) {
        // A trigger that is itself a word of the cue's kind ("roll", "options", "portrait") speaks for that kind only.
        const kindTerms = cueTermsOf(cue.expansion).terms;
        for (const word of wordsOf(cue.phrase)) {
          const term = termOf(word);
          if (term !== undefined && kindTerms.has(term) && expanded.has(term)) writable().delete(term);
        }
        continue;
      }
      for (const [term, word] of cueTermsOf(cue.expansion).words) {
        writable().set(term, Math.max(expanded.get(term) ?? 0, EXPANSION_WEIGHT));
        if (!shown.has(term)) shown.set(term, word);
        cueTerms.set(term, [...new Set([...(cueTerms.get(term) ?? []), cue.kind])]);
      }
    }
    queries.set(role, { terms: expanded, related });
  }
  return { queries, shown, cueTerms };
}

/** The terms of a cue's expansion, each with its first word, and as a set. */
interface ExpansionTerms {
  readonly words: ReadonlyMap<string, string>;
  readonly terms: ReadonlySet<string | undefined>;
}

const expansionTerms = new Map<string, ExpansionTerms>();

/** The terms of a cue's expansion, once per expansion (a cue rule's constant). */
function cueTermsOf(expansion: string): ExpansionTerms {
  let found = expansionTerms.get(expansion);
  if (!found) {
    const words = new Map<string, string>();
    const terms = new Set<string | undefined>();
    for (const word of wordsOf(expansion)) {
      const term = termOf(word);
      terms.add(term);
      if (term !== undefined && !words.has(term)) words.set(term, word);
    }
    found = { words, terms };
    expansionTerms.set(expansion, found);
  }
  return found;
}

/** A player's word's weight by how common it is in English (WordNet's tag counts): 1 up to `frequency`, then less ("left", "round", "tell" mean too many things). */
function commonness(count: number, frequency: number): number {
  if (!Number.isFinite(frequency)) return 1;
  return count <= frequency ? 1 : Math.sqrt(frequency / count);
}
