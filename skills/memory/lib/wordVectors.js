// memory/lib/wordVectors: reads only the wanted words' vectors from the runtime's word vectors file (NARRATORIA_WORD_VECTORS, the format of src/runtime/narrator/selection/relatedness/vectors.ts); never the whole vectors section.
'use strict';

const fs = require('node:fs');

/** The longest header line the reader accepts ("vectors <count> <dimensions>"). */
const HEADER_BYTES = 64;

/**
 * The vectors of the `wanted` words (a Set of lowercase words) that the file has, as unit vectors, with each word's
 * frequency rank (0 is the most frequent). The file is `vectors <count> <dimensions>\n`, the words one a line, most
 * frequent first, then count × dimensions signed bytes. Reads the header and the word list, then one row per word
 * found. Null when the file is missing or not in that format (the caller then ranks by words alone).
 */
function loadWordVectors(file, wanted) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(HEADER_BYTES, size));
    fs.readSync(fd, head, 0, head.length, 0);
    const newline = head.indexOf(10);
    const header = newline < 0 ? null : /^vectors (\d+) (\d+)$/.exec(head.toString('latin1', 0, newline));
    if (!header) return null;
    const count = Number(header[1]);
    const dimensions = Number(header[2]);
    const wordsStart = newline + 1;
    const vectorsStart = size - count * dimensions;
    if (count < 1 || dimensions < 1 || vectorsStart <= wordsStart) return null;
    const list = Buffer.alloc(vectorsStart - wordsStart);
    if (fs.readSync(fd, list, 0, list.length, wordsStart) !== list.length) return null;
    // One string per word (about 10 ms for the bundled 39,313 words); only the wanted words' rows are read after.
    const words = list.toString('latin1').split('\n');
    // The word list ends with a newline, right where the vectors start.
    if (words.length !== count + 1 || words[count] !== '') return null;
    const found = [];
    for (let rank = 0; rank < count; rank++) if (wanted.has(words[rank])) found.push([words[rank], rank]);
    const units = new Map();
    const ranks = new Map();
    const row = Buffer.alloc(dimensions);
    for (const [word, rank] of found) {
      if (units.has(word)) continue;
      if (fs.readSync(fd, row, 0, dimensions, vectorsStart + rank * dimensions) !== dimensions) return null;
      const unit = new Float32Array(dimensions);
      let squares = 0;
      for (let dimension = 0; dimension < dimensions; dimension++) {
        const value = row.readInt8(dimension);
        unit[dimension] = value;
        squares += value * value;
      }
      const length = Math.sqrt(squares) || 1;
      for (let dimension = 0; dimension < dimensions; dimension++) unit[dimension] /= length;
      units.set(word, unit);
      ranks.set(word, rank);
    }
    return { size: count, dimensions, units, ranks };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The cosine of two unit vectors. */
function cosine(left, right) {
  let sum = 0;
  for (let dimension = 0; dimension < left.length; dimension++) sum += left[dimension] * right[dimension];
  return sum;
}

module.exports = { cosine, loadWordVectors };
