// Tests of the LLM narrator through real node-llama-cpp, offline, with generated tiny GGUF models: grammar-valid plans, budget, corrupt/missing models, worker crash isolation.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENERATION_BUDGET_MS, type GeneratedPlan } from '../../../src/runtime/narrator/index.js';
import { LlamaNarrator, type LlamaNarratorOptions, type LlmGenerationTimings } from '../../../src/runtime/narrator/llamaNarrator.js';
import { buildPlanGrammar } from '../../../src/runtime/narrator/planGrammar.js';
import { validatePlanValue } from '../../../src/runtime/validation/validatePlan.js';
import { createModelDirectory, planRequest, RecordingNarrator, REPOSITORY_ROOT, TSX_WORKER, type ModelDirectory } from './narratorFixtures.js';

/**
 * Margin: a generation budget no machine reaches. A tiny-model generation takes ~0.5 s here, a worker crash or a load
 * a few seconds; with a budget of minutes a loaded 2-core machine never turns an expected plan or crash into a
 * "timeout" fallback. (The budget itself is tested with a 1 ms budget below.)
 */
const NO_BUDGET_PRESSURE_MS = 10 * 60_000;

/** Settings that suit the tiny model: one thread, small prompts, short strings so random weights finish in time. */
const TINY: Omit<LlamaNarratorOptions, 'modelPath' | 'fallback'> = {
  root: REPOSITORY_ROOT,
  workerCommand: TSX_WORKER,
  threads: 1,
  contextSize: 4096,
  maxTokens: 400,
  budgetMs: NO_BUDGET_PRESSURE_MS,
  grammarLimits: { maxTools: 3, narrativeMaxLength: 60, inputStringMaxLength: 16 },
  promptBudget: { behavioralPromptChars: 600 },
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('LlamaNarrator with a tiny model (real node-llama-cpp, offline)', () => {
  let models: ModelDirectory;
  let modelPath: string;
  const narrators: LlamaNarrator[] = [];
  const narrator = (options: Partial<LlamaNarratorOptions> = {}): LlamaNarrator => {
    const created = new LlamaNarrator({ ...TINY, modelPath, fallback: new RecordingNarrator(), ...options });
    narrators.push(created);
    return created;
  };

  before(() => {
    models = createModelDirectory();
    modelPath = models.model('tiny.gguf');
  });
  after(async () => {
    await Promise.all(narrators.map((created) => created.dispose()));
    models.remove();
  });

  test('plans under the grammar: every result is a valid llm plan with scripts from the enum, or a fallback with a reason', async () => {
    const llm = narrator();
    assert.equal(llm.kind, 'llm');
    assert.equal(await llm.prepare(), undefined);
    const timings: LlmGenerationTimings[] = [];
    llm.onDidGeneratePlan((value) => timings.push(value));
    const request = planRequest({ attempt: 2, parentPlanId: '9b2f0c54-0d37-4a5e-9a44-3c1c7b0c2f11' });
    const toolPaths = new Set(buildPlanGrammar(request.skills, []).toolPaths);
    const results: { result: GeneratedPlan; wallMs: number }[] = [];
    for (let seed = 0; seed < 8; seed++) {
      const started = performance.now();
      const result = await llm.generatePlan(request);
      results.push({ result, wallMs: performance.now() - started });
    }
    for (const { result } of results) {
      if (result.narrator === 'pattern') {
        // Deterministic: fixed seeds, one thread and no budget pressure, so a fallback can only be an invalid plan.
        assert.match(result.fallbackReason ?? '', /^invalid plan: /);
        continue;
      }
      assert.equal(result.fallbackReason, undefined);
      const validation = await validatePlanValue(result.plan, { root: REPOSITORY_ROOT });
      assert.deepEqual(validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'), []);
      assert.ok(result.plan.tools.every((tool) => toolPaths.has(tool.toolPath)));
      assert.deepEqual(result.plan.metadata, { ...result.plan.metadata, generationAttempt: 2, parentPlanId: request.parentPlanId, narrator: 'llm' });
    }
    const valid = results.filter(({ result }) => result.narrator === 'llm');
    assert.ok(valid.length >= 1, `no valid llm plan in ${results.length} seeds: ${results.map(({ result }) => result.fallbackReason).join(' | ')}`);
    assert.ok(valid.some(({ result }) => result.plan.tools.length > 0), 'no llm plan with tools');
    // Overhead beyond token generation: wall time of generatePlan minus the worker's pure generation time. Only
    // logged (timings belong in benchmarks, not assertions).
    const pairs = valid.map(({ wallMs }, index) => ({ wallMs, generationMs: timings[index]?.generationMs ?? Number.NaN }));
    const overheads = pairs.map(({ wallMs, generationMs }) => wallMs - generationMs);
    console.log(
      `llm narrator overhead (tiny model, ${valid.length}/${results.length} valid): median ${median(overheads).toFixed(1)} ms ` +
        `(min ${Math.min(...overheads).toFixed(1)}, max ${Math.max(...overheads).toFixed(1)}) beyond median generation ` +
        `${median(pairs.map((pair) => pair.generationMs)).toFixed(1)} ms of median wall ${median(pairs.map((pair) => pair.wallMs)).toFixed(1)} ms`,
    );
  });

  test('budget: a 1 ms budget falls back with reason timeout', async () => {
    // Deterministic: this narrator's first generation must start a worker process and load the model, which no
    // machine does within 1 ms.
    const fallback = new RecordingNarrator();
    const hurried = narrator({ budgetMs: 1, fallback });
    const result = await hurried.generatePlan(planRequest());
    assert.equal(result.narrator, 'pattern');
    assert.match(result.fallbackReason ?? '', /^timeout: /);
    assert.equal(fallback.calls, 1);
    assert.equal(GENERATION_BUDGET_MS, 5_000);
  });

  test('no model: falls back with reason "no model"', async () => {
    const result = await narrator({ modelPath: path.join(models.directory, 'absent.gguf') }).generatePlan(planRequest());
    assert.equal(result.narrator, 'pattern');
    assert.match(result.fallbackReason ?? '', /^no model: .*absent\.gguf does not exist/);
  });

  test('a truncated or metadata-less GGUF is rejected by verification before any load', async () => {
    const truncated = path.join(models.directory, 'truncated.gguf');
    fs.writeFileSync(truncated, fs.readFileSync(modelPath).subarray(0, 200_000));
    const cut = await narrator({ modelPath: truncated }).generatePlan(planRequest());
    assert.match(cut.fallbackReason ?? '', /^invalid model: .*truncated GGUF/);
    const noTokenizer = models.model('no-tokenizer.gguf', { omitKeys: ['tokenizer.ggml.model'] });
    const bare = await narrator({ modelPath: noTokenizer }).generatePlan(planRequest());
    assert.match(bare.fallbackReason ?? '', /^invalid model: .*missing or invalid: tokenizer\.ggml\.model/);
    const wrongHash = await narrator({ expected: { sha256: '0'.repeat(64) } }).generatePlan(planRequest());
    assert.match(wrongHash.fallbackReason ?? '', /^invalid model: .*SHA-256/);
  });

  test('a GGUF that crashes llama.cpp natively (GGML_ASSERT) kills only the worker; the narrator falls back and does not retry that file', async () => {
    // head_count passes the header check but trips GGML_ASSERT inside llama.cpp's loader.
    const crashing = models.model('no-heads.gguf', { omitKeys: ['llama.attention.head_count'] });
    const logs: string[] = [];
    const victim = narrator({ modelPath: crashing, onLog: (message) => logs.push(message) });
    const first = await victim.generatePlan(planRequest());
    assert.equal(first.narrator, 'pattern');
    assert.match(first.fallbackReason ?? '', /^worker crashed: the model worker (was killed by SIG\w+|exited with code \d+)/);
    assert.match(first.fallbackReason ?? '', /GGML_ASSERT/);
    const second = await victim.generatePlan(planRequest());
    assert.match(second.fallbackReason ?? '', /^invalid model: .*crashed the model worker while loading/);
  });
});
