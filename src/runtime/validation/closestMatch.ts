// "Did you mean …?" suggestions: edit distance (with transpositions) and the closest candidate within a tolerance.

/** Optimal-string-alignment edit distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
export function editDistance(left: string, right: string): number {
  if (left === right) return 0;
  if (left.length === 0) return right.length;
  if (right.length === 0) return left.length;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1]) {
        best = Math.min(best, beforePrevious[column - 2]! + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[right.length]!;
}

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo: at most a third of
 * the longer word's length (at least 1) and less than the shorter word's length. Case differences
 * alone always match. Ties keep the candidates' order.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = candidate.toLowerCase() === word.toLowerCase() ? 0.5 : editDistance(word, candidate);
    const tolerance = Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3));
    if (distance > tolerance || distance >= Math.min(word.length, candidate.length)) continue;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
