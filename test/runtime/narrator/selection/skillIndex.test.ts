// Unit tests of the skill index: ranking every skill at once (scoreAll, the inverted walk) gives exactly the scores and the matches of scoring each skill's document alone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SkillIndex, type Query, type RelatedTerm } from '../../../../src/runtime/narrator/selection/skillIndex.js';
import { termOf, wordsOf } from '../../../../src/runtime/narrator/selection/textTerms.js';
import { loadCorpusSet } from '../../../narrator/corpusKit.js';

function queryOf(index: SkillIndex, input: string): Query {
  const terms = new Map<string, number>();
  const related = new Map<string, readonly RelatedTerm[]>();
  for (const word of wordsOf(input)) {
    const term = termOf(word);
    if (term === undefined) continue;
    terms.set(term, (terms.get(term) ?? 0) + 1);
    if (!related.has(term)) related.set(term, index.related(word));
  }
  return { terms, related };
}

test('scoreAll gives every skill the score and manifest score that score() gives its document, on two corpora', async () => {
  let compared = 0;
  let nonZero = 0;
  for (const name of ['corpus', 'authorDev'] as const) {
    const set = await loadCorpusSet(name);
    const index = new SkillIndex(set.skills);
    for (const entry of set.entries) {
      const query = queryOf(index, entry.input);
      const all = index.scoreAll(query);
      index.skills.forEach((indexed, position) => {
        const alone = index.score(indexed.document, query, false);
        assert.ok(Math.abs(all.scores[position]! - alone.score) < 1e-9, `${entry.input}: ${indexed.skill.name} ${all.scores[position]} vs ${alone.score}`);
        assert.ok(Math.abs(all.manifestScores[position]! - alone.manifestScore) < 1e-9, `${entry.input}: ${indexed.skill.name} manifest`);
        compared++;
        if (alone.score > 0) nonZero++;
      });
    }
  }
  assert.ok(compared > 1000 && nonZero > 100, `${compared} scores compared, ${nonZero} above zero`);
});

test("scoreAll's match of each skill is exactly score()'s match of its document (terms, contributions, related words, fields), on two corpora, its slots apart", async () => {
  let compared = 0;
  let matched = 0;
  for (const name of ['corpus', 'authorDev'] as const) {
    const set = await loadCorpusSet(name);
    const index = new SkillIndex(set.skills);
    for (const entry of set.entries) {
      const query = queryOf(index, entry.input);
      const all = index.scoreAll(query, 1);
      // Another slot's call (a shorter query) leaves this one's scores as they were.
      index.scoreAll(queryOf(index, 'roll'), 0);
      index.skills.forEach((indexed, position) => {
        assert.deepEqual(all.match(position), index.score(indexed.document, query), `${entry.input}: ${indexed.skill.name}`);
        // Each matched term's fields, kept with the posting that gave its contribution, are the document's.
        for (const each of all.match(position).matches) {
          const fields = index.postingFields(all.postingOf(position, each.term));
          assert.deepEqual(fields, index.fieldsOf(indexed.document, each.via?.term ?? each.term), `${entry.input}: ${each.term}`);
        }
        compared++;
        if (all.match(position).matches.length > 0) matched++;
      });
    }
  }
  assert.ok(compared > 1000 && matched > 100, `${compared} matches compared, ${matched} with terms`);
});
