// Bench (e): local-model narrator overhead beyond token generation (tiny generated GGUF, real node-llama-cpp, offline).
import { LlamaNarrator, type LlmGenerationTimings } from '../../src/runtime/narrator/llamaNarrator.js';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { createModelDirectory, planRequest, REPOSITORY_ROOT, TSX_WORKER } from '../runtime/narrator/narratorFixtures.js';
import { check, median, meetsTarget, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

/** Overhead (validation, prompt, worker round trip) must stay under 5% of token generation. */
const TARGET: BenchTarget = { op: '<=', value: 0.05 };

export async function runLlmOverhead(options: BenchOptions): Promise<BenchResult> {
  const models = createModelDirectory();
  const narrator = new LlamaNarrator({
    modelPath: models.model('tiny.gguf'),
    root: REPOSITORY_ROOT,
    fallback: new PatternNarrator(),
    workerCommand: TSX_WORKER,
    // The tiny model's byte-level vocabulary spends about one token per character, so it gets the
    // test suite's larger context and a smaller prompt (the real Phi-3.5 tokenizer is ~4x denser).
    threads: 1,
    contextSize: 4096,
    budgetMs: 20_000,
    promptBudget: { behavioralPromptChars: 600 },
    promptCache: false,
  });
  try {
    const loadStarted = performance.now();
    const problem = await narrator.prepare();
    const loadMs = performance.now() - loadStarted;
    check(problem === undefined, `the tiny model did not load: ${problem}`);
    const timings: LlmGenerationTimings[] = [];
    narrator.onDidGeneratePlan((timing) => timings.push(timing));
    const request = planRequest();
    await narrator.generatePlan(request); // warm-up: grammar construction, prompt cache
    timings.length = 0;
    const generations = options.quick ? 4 : 12;
    for (let index = 0; index < generations; index++) await narrator.generatePlan(request);
    check(timings.length > 0, 'no generation produced a valid plan (all fell back)');
    const overheads = timings.map((timing) => timing.totalMs - timing.generationMs);
    const generation = median(timings.map((timing) => timing.generationMs));
    const overhead = median(overheads);
    const ratio = overhead / generation;
    const line =
      `(e) local-model narrator, tiny GGUF, ${timings.length}/${generations} valid plans: overhead beyond token generation median ${overhead.toFixed(1)} ms ` +
      `(max ${Math.max(...overheads).toFixed(1)}) vs generation median ${generation.toFixed(0)} ms → ${ratio.toFixed(3)}× ${targetText(ratio, TARGET)}; model load ${loadMs.toFixed(0)} ms`;
    return {
      id: 'e', title: 'LLM narrator overhead', line, ratio, target: TARGET, met: meetsTarget(ratio, TARGET),
      medians: { overheadMs: overhead, generationMs: generation, loadMs },
      samples: { overheadMs: overheads, generationMs: timings.map((timing) => timing.generationMs), tokens: timings.map((timing) => timing.tokens) },
      details: { generations, validPlans: timings.length, model: 'tiny generated GGUF (random weights), context 4096, 1 thread' },
    };
  } finally {
    await narrator.dispose();
    models.remove();
  }
}
