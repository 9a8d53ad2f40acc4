// Judges a free-text condition ("has the tower key") by meaning against evidence (state, memories, a profile): same stems or close word vectors, every name found.
import { wordVectors, type WordVectors } from '../../narrator/selection/relatedness/vectors.js';
import { ENGLISH_STOP_WORDS, stemOf, wordsOf } from '../../narrator/selection/textTerms.js';
import { clip } from './storyText.js';

/** One piece of evidence: where it comes from ("state player", "memory of scene 3") and its words. */
export interface Evidence {
  readonly source: string;
  readonly text: string;
}

/** A judgement of a free-text condition, with its reason (recorded in the session). */
export interface Judgement {
  readonly holds: boolean;
  /** 0..1: how much of the condition's meaning the best evidence carries. */
  readonly score: number;
  readonly reason: string;
  /** The evidence that carried it, when some did. */
  readonly source?: string;
}

/** The share of a condition's meaning the evidence must carry for it to hold. */
export const JUDGEMENT_THRESHOLD = 0.75;
/** An ending ends the play-through: its "Reached when" must be carried almost whole. */
export const ENDING_THRESHOLD = 0.9;
/** Below this cosine two words do not count as alike (GloVe: ship/boat 0.83, tavern/inn 0.78; tavern/blacksmith 0.58 are only neighbours). */
const ALIKE = 0.6;
/** Among the vectors' most frequent words, a word says little on its own: it weighs half. */
const COMMON_RANK = 300;
/** Words of conditions that name no state: who the condition is about, not what. */
const ABOUT_WORDS = new Set(['player', 'players', 'npc', 'character', 'state', 'currently', 'now', 'already']);

interface ClaimWord {
  readonly word: string;
  readonly stem: string;
  readonly weight: number;
  /** A word the vectors do not know (a name, a coined word): it must be found as it is. */
  readonly name: boolean;
}

function claimWords(text: string, vectors: WordVectors | null): ClaimWord[] {
  const seen = new Set<string>();
  const words: ClaimWord[] = [];
  for (const word of wordsOf(text)) {
    if (ENGLISH_STOP_WORDS.has(word) || ABOUT_WORDS.has(word) || word.length < 2 || seen.has(word)) continue;
    seen.add(word);
    const rank = vectors?.rankOf(word);
    const name = vectors !== null && rank === undefined;
    words.push({ word, stem: stemOf(word), weight: name ? 1.5 : rank !== undefined && rank < COMMON_RANK ? 0.5 : 1, name });
  }
  return words;
}

/** How well one piece of evidence carries the claim: the weighted share of its words found (same stem 1, alike by vectors their cosine). */
function carried(claim: readonly ClaimWord[], evidence: string, vectors: WordVectors | null): { score: number; found: string[]; missingName?: string } {
  const words = [...new Set(wordsOf(evidence).filter((word) => !ENGLISH_STOP_WORDS.has(word)))];
  const stems = new Set(words.map(stemOf));
  let total = 0;
  let sum = 0;
  const found: string[] = [];
  let missingName: string | undefined;
  for (const item of claim) {
    total += item.weight;
    let best = stems.has(item.stem) ? 1 : 0;
    let via = item.word;
    if (best < 1 && !item.name && vectors) {
      for (const word of words) {
        const similarity = vectors.similarity(item.word, word);
        if (similarity >= ALIKE && similarity > best) {
          best = similarity;
          via = `${item.word}~${word}`;
        }
      }
    }
    if (best > 0) found.push(via);
    else if (item.name) missingName ??= item.word;
    sum += item.weight * best;
  }
  return { score: total === 0 ? 0 : sum / total, found, ...(missingName ? { missingName } : {}) };
}

/**
 * Whether the evidence says what `condition` says. Alternatives joined by "or" are judged apart (one is enough); each
 * piece of evidence is judged on its own (words scattered over unrelated memories do not add up). A condition holds when
 * one piece carries at least {@link JUDGEMENT_THRESHOLD} of its weighted words and every name in it.
 */
export function judgeByMeaning(
  condition: string,
  evidence: readonly Evidence[],
  vectors: WordVectors | null = wordVectors(),
  threshold = JUDGEMENT_THRESHOLD,
): Judgement {
  const alternatives = condition
    .split(/\s*,?\s+\bor\b\s+/i)
    .map((part) => part.trim())
    .filter(Boolean);
  let best: { score: number; source?: string; text?: string; found: string[]; alternative: string; missingName?: string } = {
    score: 0,
    found: [],
    alternative: condition,
  };
  for (const alternative of alternatives) {
    const claim = claimWords(alternative, vectors);
    if (claim.length === 0) continue;
    for (const piece of evidence) {
      const result = carried(claim, piece.text, vectors);
      const score = result.missingName ? Math.min(result.score, threshold - 0.01) : result.score;
      if (score > best.score)
        best = {
          score,
          source: piece.source,
          text: piece.text,
          found: result.found,
          alternative,
          ...(result.missingName ? { missingName: result.missingName } : {}),
        };
    }
  }
  const score = Math.round(best.score * 100) / 100;
  const said = `"${clip(condition, 80)}"`;
  if (best.source === undefined) return { holds: false, score: 0, reason: `${said}: nothing in the state or the memories says so` };
  const where = `${best.source} "${clip(best.text ?? '', 90)}"`;
  if (score >= threshold)
    return { holds: true, score, source: best.source, reason: `${said} holds by meaning (${score.toFixed(2)}): ${where} (${best.found.join(', ')})` };
  const missing = best.missingName ? `; "${best.missingName}" is not named` : '';
  return {
    holds: false,
    score,
    source: best.source,
    reason: `${said} does not hold (best ${score.toFixed(2)} < ${threshold}: ${where}${missing})`,
  };
}
