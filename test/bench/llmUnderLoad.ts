// Bench (e) under load, optional (not in `npm run bench`): the share of plans the local model writes while 0, 1 or 2 cores are kept busy, with adaptive and fixed threads.
// Usage: node --import tsx test/bench/llmUnderLoad.ts [--quick] [--model FILE] [--prompt-cache DIR] [--turns N] [--threads adaptive|fixed|both]
// Writes test-output/bench-e-load.json. Needs `npm run build` (a fresh `play --once` per condition).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultThreads } from '../../src/runtime/narrator/llamaModel.js';
import { LlamaNarrator } from '../../src/runtime/narrator/llamaNarrator.js';
import type { LlmGenerationTimings } from '../../src/runtime/narrator/llamaDecision.js';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { makeShapedGguf, PHI35_MINI_SHAPE, SMALL_SHAPE } from '../fixtures/models/makeShapedGguf.js';
import { REPOSITORY_ROOT, TSX_WORKER } from '../runtime/narrator/narratorFixtures.js';
import { median } from './benchUtil.js';
import { INPUTS, playOnce } from './llmNarrator.js';

/** One condition's figures. */
interface Condition {
  readonly threads: 'adaptive' | 'fixed';
  readonly busyCores: number;
  readonly turns: number;
  readonly byModel: number;
  readonly turnP50Ms: number;
  readonly threadsMedian: number;
  readonly fallbackReasons: readonly string[];
  /** Worker processes started so far by this mode's narrator (a restart follows a kill). */
  readonly workerStarts: number;
  readonly fresh: { readonly narrator: string; readonly wallMs: number; readonly fallbackReason?: string };
}

/** `count` processes that each keep a core busy until killed. */
function busyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
}

async function stop(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      model: { type: 'string' },
      'prompt-cache': { type: 'string' },
      turns: { type: 'string' },
      threads: { type: 'string' },
    },
  });
  const quick = values.quick === true;
  const turns = Number(values.turns ?? (quick ? 4 : 10));
  const work = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-e-load-'));
  const story = path.join(work, 'story');
  mkdirSync(story);
  const promptCache = values['prompt-cache'] ?? path.join(work, 'prompt-cache');
  const loops: ChildProcess[] = [];
  try {
    const modelPath = values.model ?? path.join(work, 'model.gguf');
    if (values.model === undefined) makeShapedGguf(modelPath, { shape: quick ? SMALL_SHAPE : PHI35_MINI_SHAPE, quantization: quick ? 'Q4_0' : 'Q4_K_M' });
    const registry = await SkillRegistry.load({ root: story, extraSkillRoots: [path.join(REPOSITORY_ROOT, 'skills')] });
    const skills = registry.narratorSkills();
    registry.dispose();
    const fixedThreads = defaultThreads(statSync(modelPath).size);
    const narrator = (threads: 'adaptive' | 'fixed'): LlamaNarrator =>
      new LlamaNarrator({
        modelPath,
        root: REPOSITORY_ROOT,
        fallback: new PatternNarrator(),
        workerCommand: TSX_WORKER,
        promptCache,
        ...(threads === 'fixed' ? { threads: fixedThreads } : {}),
      });
    // The fixed prompt evaluated once and persisted (minutes for the full shape), on a quiet machine.
    const warm = narrator('adaptive');
    console.log(`evaluating the fixed prompt (${quick ? 'small model' : "Phi-3.5-mini's shape"})…`);
    await warm.prepare(skills);
    await warm.dispose();

    const conditions: Condition[] = [];
    const modes = (['adaptive', 'fixed'] as const).filter((mode) => (values.threads ?? 'both') === 'both' || values.threads === mode);
    for (const threads of modes) {
      const current = narrator(threads);
      check(await current.prepare(skills));
      const timings: LlmGenerationTimings[] = [];
      current.onDidGeneratePlan((timing) => timings.push(timing));
      for (const busyCores of [0, 1, 2]) {
        loops.push(...busyLoops(busyCores));
        // The worker's CPU sampler reads the load once a second.
        await delay(2500);
        const before = timings.length;
        const totals: number[] = [];
        const reasons: string[] = [];
        let byModel = 0;
        for (let turn = 0; turn < turns; turn++) {
          const started = performance.now();
          const generated = await current.generatePlan({ input: INPUTS[turn % INPUTS.length]!, skills, disabledSkills: [], attempt: 1, parentPlanId: null });
          totals.push(performance.now() - started);
          if (generated.narrator === 'llm') byModel++;
          else if (generated.fallbackReason) reasons.push(generated.fallbackReason);
        }
        const fresh = await playOnce(modelPath, story, promptCache, threads === 'fixed' ? ['--threads', String(fixedThreads)] : []);
        await stop(loops.splice(0));
        const used = timings.slice(before).map((timing) => timing.threads ?? Number.NaN);
        const condition: Condition = {
          threads,
          busyCores,
          turns,
          byModel,
          turnP50Ms: median(totals),
          threadsMedian: median(used),
          fallbackReasons: reasons,
          workerStarts: current.workerStarts,
          fresh: { narrator: fresh.narrator, wallMs: fresh.wallMs, ...(fresh.fallbackReason ? { fallbackReason: fresh.fallbackReason } : {}) },
        };
        conditions.push(condition);
        console.log(
          `${threads} threads, ${busyCores} busy core(s): ${byModel}/${turns} plans by the model (${Math.round((byModel / turns) * 100)}%), ` +
            `p50 ${(condition.turnP50Ms / 1000).toFixed(2)} s, threads median ${condition.threadsMedian}, worker starts ${condition.workerStarts}; ` +
            `a fresh play --once: ${fresh.narrator === 'llm' ? 'by the model' : `fell back (${fresh.fallbackReason})`} in ${(fresh.wallMs / 1000).toFixed(1)} s`,
        );
      }
      await current.dispose();
    }
    const output = path.join(REPOSITORY_ROOT, 'test-output', 'bench-e-load.json');
    mkdirSync(path.dirname(output), { recursive: true });
    const machine = {
      cores: os.availableParallelism(),
      loadAverage: os.loadavg(),
      fixedThreads,
      model: values.model ?? (quick ? 'small Q4_0' : 'Phi-3.5-mini shape Q4_K_M'),
    };
    writeFileSync(output, `${JSON.stringify({ date: new Date().toISOString(), machine, conditions }, null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), output)}`);
  } finally {
    await stop(loops);
    rmSync(work, { recursive: true, force: true });
  }
}

function check(failure: string | undefined): void {
  if (failure !== undefined) throw new Error(`the model did not load: ${failure}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
