// Every named pattern of skill selection (the cue rules, the readings of the words, the roles, the script kinds) finds its examples and none of its counter-examples, and says what it is for.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CUE_RULES, HARMFUL } from '../../../../src/runtime/narrator/selection/cueRules.js';
import { READING_PATTERNS } from '../../../../src/runtime/narrator/selection/cues.js';
import type { NamedPattern } from '../../../../src/runtime/narrator/selection/namedPattern.js';
import { CAPABILITY_PATTERNS, INPUT_PATTERNS, SCRIPT_PATTERNS } from '../../../../src/runtime/narrator/selection/selectionPatterns.js';

const TABLES: Readonly<Record<string, readonly NamedPattern[]>> = {
  'cue rules': CUE_RULES,
  'harmful deed': [HARMFUL],
  'readings of the words': READING_PATTERNS,
  'roles by capability': CAPABILITY_PATTERNS,
  'script kinds': SCRIPT_PATTERNS,
  'what the words do': INPUT_PATTERNS,
};

for (const [table, entries] of Object.entries(TABLES)) {
  test(`${table}: every pattern finds its examples and none of its counter-examples`, () => {
    assert.ok(entries.length > 0);
    for (const entry of entries) {
      assert.ok(entry.examples.length > 0, `${entry.name} has an example`);
      assert.ok(entry.counterExamples.length > 0, `${entry.name} has a counter-example`);
      assert.ok(!entry.pattern.global && !entry.pattern.sticky, `${entry.name} keeps no state between tests`);
      for (const example of entry.examples) assert.match(example, entry.pattern, `${entry.name} must find "${example}"`);
      for (const counter of entry.counterExamples) assert.doesNotMatch(counter, entry.pattern, `${entry.name} must not find "${counter}"`);
    }
  });
}

test('every named pattern has a name of its own and says what it is for', () => {
  const entries = Object.values(TABLES).flat();
  const names = entries.map((entry) => entry.name);
  assert.equal(new Set(names).size, names.length, `duplicate names: ${names.filter((name, position) => names.indexOf(name) !== position).join(', ')}`);
  for (const entry of entries) assert.match(entry.purpose, /^[A-Z"'].{20,}\.$/, `${entry.name}: a sentence saying what it is for`);
});

test('each cue rule adds the words of its kind of skill', () => {
  for (const rule of CUE_RULES) assert.match(rule.expansion, /^[a-z]+(?: [a-z]+)+$/, rule.name);
});
