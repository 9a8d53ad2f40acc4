// `model status --probe`: loads the local model in its worker as a play session does, prepares the story's fixed prompt, decides one turn, and reads the worker's memory.
import { LlamaNarrator } from './llamaNarrator.js';
import { describeModelLoading } from './modelLoading.js';
import type { ModelFileExpectation } from './modelStore.js';
import type { BufferBreakdown } from './modelWorkerProtocol.js';
import { PatternNarrator } from './patternNarrator.js';
import type { ProcessMemory } from './processMemory.js';
import type { NarratorSkill } from '../skills/skillTypes.js';

/** The turn a probe decides. */
export const PROBE_INPUT = 'I roll to pick the lock';

/** What a probe found. */
export interface ModelProbe {
  readonly modelPath: string;
  /** Set when the model could not be loaded (the reason a turn would fall back). */
  readonly failure?: string;
  readonly loadMs?: number;
  /** How the worker held the model (modelLoading.ts's words: `read`, `map lazy`, `read kv=q8_0`...). */
  readonly loading?: string;
  readonly prompt?: { readonly tokens: number; readonly source: 'memory' | 'file' | 'evaluated'; readonly ms: number; readonly contextSize?: number };
  readonly decision?: { readonly narrator: 'llm' | 'pattern'; readonly ms: number; readonly fallbackReason?: string };
  /** The worker's memory after the turn: now, at its peak, anonymous and file-backed; and what llama.cpp allocated. */
  readonly memory?: ProcessMemory & { readonly buffers?: BufferBreakdown };
}

export interface ModelProbeOptions {
  readonly modelPath: string;
  readonly root: string;
  readonly skills: readonly NarratorSkill[];
  readonly expected?: ModelFileExpectation;
  readonly threads?: number;
  readonly onLog?: (message: string) => void;
}

/** Loads, prepares the fixed prompt (from the prompt cache when it is there: evaluating it takes minutes on a CPU), decides one turn, reads the memory. */
export async function probeModel(options: ModelProbeOptions): Promise<ModelProbe> {
  const narrator = new LlamaNarrator({
    modelPath: options.modelPath,
    root: options.root,
    fallback: new PatternNarrator(),
    ...(options.expected ? { expected: options.expected } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.onLog ? { onLog: options.onLog } : {}),
  });
  try {
    let prompt: ModelProbe['prompt'];
    narrator.onDidPreparePrompt((preparation) => {
      const { tokens, source, ms, contextSize } = preparation;
      prompt = { tokens, source, ms, ...(contextSize !== undefined ? { contextSize } : {}) };
    });
    const loadStarted = performance.now();
    const failure = await narrator.prepare();
    if (failure !== undefined) return { modelPath: options.modelPath, failure };
    const loadMs = performance.now() - loadStarted;
    await narrator.prepare(options.skills);
    const started = performance.now();
    const generated = await narrator.generatePlan({ input: PROBE_INPUT, skills: options.skills, disabledSkills: [], attempt: 1, parentPlanId: null });
    const decision = {
      narrator: generated.narrator,
      ms: performance.now() - started,
      ...(generated.fallbackReason !== undefined ? { fallbackReason: generated.fallbackReason } : {}),
    };
    const read = await narrator.memory();
    const memory: ModelProbe['memory'] = read && {
      rssBytes: read.rssBytes,
      peakRssBytes: read.peakRssBytes,
      ...(read.anonBytes !== undefined ? { anonBytes: read.anonBytes } : {}),
      ...(read.fileBytes !== undefined ? { fileBytes: read.fileBytes } : {}),
      ...(read.buffers ? { buffers: read.buffers } : {}),
    };
    const loading = describeModelLoading(narrator.loading);
    return { modelPath: options.modelPath, loadMs, loading, ...(prompt ? { prompt } : {}), decision, ...(memory ? { memory } : {}) };
  } finally {
    await narrator.dispose();
  }
}
