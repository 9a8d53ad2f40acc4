// Tests of the word vectors a script is told about (NARRATORIA_WORD_VECTORS): the runtime's own file, in the format the memory skill reads.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { closeSync, openSync, readSync } from 'node:fs';
import { buildScriptEnvironment, wordVectorsFile } from '../../../src/runtime/process/scriptEnvironment.js';

test("every script gets NARRATORIA_WORD_VECTORS: the runtime's word vectors file, which an explicit extra overrides", () => {
  const file = wordVectorsFile();
  assert.ok(file, 'the sources hold vectors.bin');
  const env = buildScriptEnvironment({ root: '/story', toolId: 't1' }, {}, {});
  assert.equal(env['NARRATORIA_WORD_VECTORS'], file);
  const header = Buffer.alloc(32);
  const descriptor = openSync(file, 'r');
  try {
    readSync(descriptor, header, 0, header.length, 0);
  } finally {
    closeSync(descriptor);
  }
  assert.match(header.toString('latin1').split('\n')[0]!, /^vectors \d+ \d+$/);
  assert.equal(buildScriptEnvironment({ root: '/story' }, { NARRATORIA_WORD_VECTORS: '' }, {})['NARRATORIA_WORD_VECTORS'], '');
});
