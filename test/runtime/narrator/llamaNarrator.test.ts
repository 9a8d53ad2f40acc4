// Tests of the LLM narrator through real node-llama-cpp, offline, with generated tiny GGUF models: decisions under the grammar composed into valid plans, the fixed prompt evaluated once and persisted, budget, corrupt/missing models, worker crash isolation.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENERATION_BUDGET_MS, type GeneratedPlan } from '../../../src/runtime/narrator/index.js';
import { LlamaNarrator, type LlamaNarratorOptions } from '../../../src/runtime/narrator/llamaNarrator.js';
import type { LlmGenerationTimings } from '../../../src/runtime/narrator/llamaDecision.js';
import { buildDecisionGrammar, buildDecisionSystemPrompt, decisionMaxTokens } from '../../../src/runtime/narrator/narratorDecision.js';
import { validatePlanValue } from '../../../src/runtime/validation/validatePlan.js';
import { createModelDirectory, planRequest, RecordingNarrator, REPOSITORY_ROOT, TSX_WORKER, type ModelDirectory } from './narratorFixtures.js';

/**
 * Margin: a generation budget no machine reaches. A tiny-model generation takes ~0.5 s here, a worker crash or a load
 * a few seconds; with a budget of minutes a loaded 2-core machine never turns an expected plan or crash into a
 * "timeout" fallback. (The budget itself is tested with a 1 ms budget below.)
 */
const NO_BUDGET_PRESSURE_MS = 10 * 60_000;

/**
 * Settings that suit the tiny model: one thread, a small prompt; no persisted prompt unless a test asks. Neither the
 * budget nor the preparation allowance presses a turn: a worker that takes over 20 s to start on a loaded machine
 * would turn a crash while loading into a timeout (the allowance is tested on its own, with 1 ms).
 */
const TINY: Omit<LlamaNarratorOptions, 'modelPath' | 'fallback'> = {
  root: REPOSITORY_ROOT,
  workerCommand: TSX_WORKER,
  threads: 1,
  contextSize: 4096,
  budgetMs: NO_BUDGET_PRESSURE_MS,
  // Starting the worker under tsx and loading the model took over the default 20 s at load average 12.
  preparationMs: NO_BUDGET_PRESSURE_MS,
  promptBudget: { behavioralPromptChars: 600 },
  promptCache: false,
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

  test('decides under the grammar: the model names only available scripts, and the plan is composed from its decision', async () => {
    const llm = narrator();
    assert.equal(llm.kind, 'llm');
    assert.equal(await llm.prepare(), undefined);
    const timings: LlmGenerationTimings[] = [];
    llm.onDidGeneratePlan((value) => timings.push(value));
    const request = planRequest({ input: 'I roll to pick the lock', attempt: 2, parentPlanId: '9b2f0c54-0d37-4a5e-9a44-3c1c7b0c2f11' });
    const grammar = buildDecisionGrammar(request) as { items?: { enum: number[] } };
    assert.deepEqual(grammar.items?.enum, [1], 'only the roll: the storyteller is never offered, it always narrates');
    const results: { result: GeneratedPlan; wallMs: number }[] = [];
    for (let seed = 0; seed < 6; seed++) {
      const started = performance.now();
      const result = await llm.generatePlan(request);
      results.push({ result, wallMs: performance.now() - started });
    }
    for (const { result } of results) {
      // Deterministic: one thread and no budget pressure, and any array of known names is a valid decision.
      assert.equal(result.narrator, 'llm', result.fallbackReason);
      const validation = await validatePlanValue(result.plan, { root: REPOSITORY_ROOT });
      assert.deepEqual(
        validation.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
        [],
      );
      assert.deepEqual(result.plan.metadata, { ...result.plan.metadata, generationAttempt: 2, parentPlanId: request.parentPlanId, narrator: 'llm' });
      const decision = (result.plan.metadata as Record<string, unknown> | undefined)?.['decision'] as {
        candidates: string[];
        chosen: string[];
        generatedTokens: number;
      };
      assert.deepEqual(decision.candidates, ['dice-roller/roll'], 'the pattern ranking proposes the roll');
      // The composition: each chosen script once, the storyteller last and depending on the roll.
      const paths = result.plan.tools.map((tool) => tool.toolPath);
      assert.deepEqual(paths.filter((toolPath) => toolPath.includes('/dice-roller/')).length, decision.chosen.length);
      assert.ok(paths.at(-1)!.endsWith('/storyteller/scripts/narrate.js'));
      if (decision.chosen.length > 0) assert.deepEqual(result.plan.tools.at(-1)!.dependencies, [result.plan.tools[0]!.toolId]);
      assert.ok(decision.generatedTokens <= decisionMaxTokens(request), `${decision.generatedTokens} tokens`);
    }
    // The fixed prompt is evaluated once: later turns evaluate only their own text.
    assert.ok(timings.length === results.length);
    const systemTokens = buildDecisionSystemPrompt(request.skills).length / 4;
    for (const timing of timings.slice(1))
      assert.ok((timing.promptTokens ?? Infinity) < systemTokens, `a later turn evaluated ${timing.promptTokens} prompt tokens`);
    const pairs = results.map(({ wallMs }, index) => ({ wallMs, generationMs: timings[index]?.generationMs ?? Number.NaN }));
    const overheads = pairs.map(({ wallMs, generationMs }) => wallMs - generationMs);
    console.log(
      `llm narrator (tiny model): ${timings.map((timing) => `${timing.promptTokens}+${timing.tokens}`).join(', ')} prompt+generated tokens; ` +
        `overhead median ${median(overheads).toFixed(1)} ms beyond median generation ${median(pairs.map((pair) => pair.generationMs)).toFixed(1)} ms`,
    );
  });

  test('the fixed prompt is evaluated once per model and skill set, persisted, and a new process starts from the file', async () => {
    const cache = fs.mkdtempSync(path.join(models.directory, 'prompt-cache-'));
    const first = narrator({ promptCache: cache });
    const sources: string[] = [];
    first.onDidPreparePrompt((preparation) => sources.push(preparation.source));
    assert.equal(await first.prepare(planRequest().skills), undefined);
    assert.deepEqual(sources, ['evaluated']);
    const files = fs.readdirSync(cache).filter((name) => name.endsWith('.state'));
    assert.equal(files.length, 1, `one cache entry: ${fs.readdirSync(cache).join(', ')}`);
    assert.ok(fs.statSync(path.join(cache, files[0]!)).size > 0);
    assert.equal((await first.generatePlan(planRequest())).narrator, 'llm');
    assert.deepEqual(sources, ['evaluated'], 'the turn found the prompt in memory');
    await first.dispose();

    // A new worker process (as a new `play --once` or a reload would start) loads the persisted state.
    const second = narrator({ promptCache: cache });
    second.onDidPreparePrompt((preparation) => sources.push(preparation.source));
    const result = await second.generatePlan(planRequest());
    assert.equal(result.narrator, 'llm', result.fallbackReason);
    assert.deepEqual(sources, ['evaluated', 'file']);

    // Another skill set is another prompt: another entry, the first one kept.
    const third = narrator({ promptCache: cache });
    assert.equal(await third.prepare(planRequest({ skills: planRequest().skills.filter((skill) => skill.name !== 'dice-roller') }).skills), undefined);
    assert.equal(fs.readdirSync(cache).filter((name) => name.endsWith('.state')).length, 2);
  });

  test('budget: the decision gets the budget once the model is ready; getting ready gets its own allowance', async () => {
    // Deterministic: no machine evaluates a turn's prompt and writes a decision within 1 ms.
    const fallback = new RecordingNarrator();
    const hurried = narrator({ budgetMs: 1, fallback });
    const result = await hurried.generatePlan(planRequest());
    assert.equal(result.narrator, 'pattern');
    assert.match(result.fallbackReason ?? '', /^timeout: no valid plan within 1 ms \(the model was ready after \d+ ms\)$/);
    assert.equal(fallback.calls, 1);
    assert.equal(GENERATION_BUDGET_MS, 5_000);
    // Deterministic: starting a worker process and loading a model takes more than 1 ms; the load goes on, and a
    // later turn (with a generous allowance) finds the model ready.
    const impatient = narrator({ preparationMs: 1 });
    const early = await impatient.generatePlan(planRequest());
    assert.match(early.fallbackReason ?? '', /^timeout: the model was not ready within 1 ms/);
    await impatient.settle(NO_BUDGET_PRESSURE_MS);
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
