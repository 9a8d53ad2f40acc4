// The local model writes a post-run reflection (docs/plan-json-and-protocol.md#reflection) through the same worker, grammar-bounded and within the budget.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LlamaNarrator } from '../../../src/runtime/narrator/llamaNarrator.js';
import { PatternNarrator } from '../../../src/runtime/narrator/patternNarrator.js';
import { reflectOnRun } from '../../../src/runtime/executor/reflection.js';
import { createModelDirectory, REPOSITORY_ROOT, TSX_WORKER } from './narratorFixtures.js';

test('reflect: a grammar-bounded model reflection keeps the rule findings; a missing model gives none; off unless asked for', async () => {
  const models = createModelDirectory();
  const rules = reflectOnRun(
    [
      {
        toolId: 'roll',
        state: 'failed',
        retryCount: 2,
        executionTimeMs: 40,
        error: { code: 'NONZERO_EXIT', message: 'exited with code 1', category: 'process_error' },
      },
    ],
    [],
    120,
  );
  // Margin: reflect()'s budget covers starting the worker, loading the model and generating (~3 s here); 10 min is
  // beyond anything a loaded 2-core machine needs, so the expected reflection never turns into "none" for lack of time.
  const narrator = new LlamaNarrator({
    modelPath: models.model('tiny.gguf'),
    root: REPOSITORY_ROOT,
    fallback: new PatternNarrator(),
    workerCommand: TSX_WORKER,
    threads: 1,
    contextSize: 4096,
    budgetMs: 10 * 60_000,
    preparationMs: 10 * 60_000,
    modelReflections: true,
    promptCache: false,
  });
  const missing = new LlamaNarrator({
    modelPath: models.directory + '/none.gguf',
    root: REPOSITORY_ROOT,
    fallback: new PatternNarrator(),
    workerCommand: TSX_WORKER,
    modelReflections: true,
  });
  try {
    const written = await narrator.reflect({ input: 'I roll to pick the lock', reflection: rules });
    assert.ok(written, 'the tiny model wrote a reflection');
    assert.equal(written.source, 'llm');
    assert.ok(written.summary.length > 0 && written.summary.length <= 240);
    assert.ok(written.suggestions.length <= 3 && written.suggestions.every((suggestion) => suggestion.length <= 160));
    assert.deepEqual(written.findings, rules.findings);
    assert.equal(await missing.reflect({ input: 'x', reflection: rules }), undefined);
    // Off by default: on a CPU a reflection is 10-40 s more on the turn's path, for what the rules already say.
    const quiet = new LlamaNarrator({
      modelPath: models.model('tiny.gguf'),
      root: REPOSITORY_ROOT,
      fallback: new PatternNarrator(),
      workerCommand: TSX_WORKER,
    });
    assert.equal(await quiet.reflect({ input: 'I roll to pick the lock', reflection: rules }), undefined);
    await quiet.dispose();
  } finally {
    await narrator.dispose();
    await missing.dispose();
    models.remove();
  }
});
