// Builds the narrator a setting asks for: auto (LLM when a verified model is present), pattern, or llm.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { defaultWorkerCommand, modelWorkerScript } from './llamaModel.js';
import { LlamaNarrator } from './llamaNarrator.js';
import { localModelSupport } from './localModelSupport.js';
import { DEFAULT_MODEL, modelStatus } from './modelStore.js';
import { PatternNarrator } from './patternNarrator.js';
import type { Narrator } from './index.js';

export type NarratorMode = 'auto' | 'pattern' | 'llm';

export interface NarratorChoice {
  readonly narrator: Narrator;
  /** Why the choice was made (shown to the author), e.g. "no verified model: pattern narrator". */
  readonly reason: string;
  /**
   * Environment for skill scripts when a local model is in use: NARRATORIA_MODEL_PATH and
   * NARRATORIA_MODEL_WORKER (the worker command as a JSON array), and NARRATORIA_MODEL_ENDPOINT (the
   * narrator's loaded model: see modelEndpoint.ts), so a skill such as the storyteller can use the model
   * too. Empty with the pattern narrator.
   */
  readonly scriptEnvironment: Readonly<Record<string, string>>;
  /** Set when this install cannot run the local model at all (a universal package, a platform without a binary). */
  readonly localModelUnavailable?: true;
}

/**
 * The model for skill scripts: its endpoint (the narrator's loaded model, streaming), and the file and worker command
 * for a script run without a narrator (the Inspector), which then loads its own.
 */
async function modelEnvironment(modelPath: string, narrator: LlamaNarrator, onLog: ((message: string) => void) | undefined): Promise<Record<string, string>> {
  const worker = defaultWorkerCommand();
  const environment: Record<string, string> = { NARRATORIA_MODEL_PATH: modelPath, NARRATORIA_MODEL_WORKER: JSON.stringify([worker.command, ...worker.args]) };
  try {
    environment['NARRATORIA_MODEL_ENDPOINT'] = await narrator.openEndpoint();
  } catch (error) {
    onLog?.(`no model endpoint for skill scripts (they load the model themselves): ${error instanceof Error ? error.message : String(error)}`);
  }
  return environment;
}

export interface NarratorFactoryOptions {
  readonly mode: NarratorMode;
  readonly root: string;
  /** An explicit model file; otherwise the model cache is used. */
  readonly modelPath?: string | undefined;
  /** Model cache directory (default modelCacheDirectory()). */
  readonly modelDirectory?: string | undefined;
  readonly onLog?: ((message: string) => void) | undefined;
  /** The local model's budget per decision (docs/design-rules.md#the-generation-budget; default GENERATION_BUDGET_MS). */
  readonly budgetMs?: number | undefined;
  /** The local model's CPU threads (default: from the cores and the model's size). */
  readonly threads?: number | undefined;
}

/**
 * pattern: the pattern narrator. llm: the local model, falling back to the pattern narrator (with the
 * reason in each plan) when it is missing, invalid, slow or wrong. auto: llm when an explicit model file
 * exists or the cached default model is present and verified, otherwise pattern. Creating a narrator never
 * loads the model; the first plan does.
 */
export async function createNarrator(options: NarratorFactoryOptions): Promise<NarratorChoice> {
  const pattern = new PatternNarrator();
  if (options.mode === 'pattern') return { narrator: pattern, reason: 'pattern narrator (requested)', scriptEnvironment: {} };
  const support = localModelSupport(path.dirname(modelWorkerScript()));
  if (!support.supported) return { narrator: pattern, reason: `pattern narrator: ${support.reason}`, scriptEnvironment: {}, localModelUnavailable: true };
  const explicit = options.modelPath !== undefined ? path.resolve(options.modelPath) : undefined;
  const status = await modelStatus(options.modelDirectory ? { directory: options.modelDirectory } : {});
  const llm = (modelPath: string, expected: boolean) =>
    new LlamaNarrator({
      modelPath,
      root: options.root,
      fallback: pattern,
      ...(expected ? { expected: { sha256: DEFAULT_MODEL.sha256!, sizeBytes: DEFAULT_MODEL.sizeBytes! } } : {}),
      ...(options.onLog ? { onLog: options.onLog } : {}),
      ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
    });
  if (explicit !== undefined) {
    if (options.mode === 'auto' && !existsSync(explicit))
      return { narrator: pattern, reason: `pattern narrator: no model file at ${explicit}`, scriptEnvironment: {} };
    const narrator = llm(explicit, false);
    return {
      narrator,
      reason: `local model ${path.basename(explicit)} (falls back to the pattern narrator)`,
      scriptEnvironment: await modelEnvironment(explicit, narrator, options.onLog),
    };
  }
  if (status.state === 'present' && (status.verified || options.mode === 'llm')) {
    const narrator = llm(status.path, true);
    return {
      narrator,
      reason: `local model ${DEFAULT_MODEL.displayName} (falls back to the pattern narrator)`,
      scriptEnvironment: await modelEnvironment(status.path, narrator, options.onLog),
    };
  }
  if (options.mode === 'llm') {
    return {
      narrator: llm(status.path, true),
      reason: `local model requested but ${status.state === 'partial' ? 'only partly downloaded' : 'not downloaded'} (run "narratoria model pull"); plans fall back to the pattern narrator`,
      scriptEnvironment: {},
    };
  }
  const why =
    status.state === 'present'
      ? 'the cached model is not verified yet (run "narratoria model pull" to verify it)'
      : status.state === 'partial'
        ? 'the model download is incomplete (run "narratoria model pull" to resume)'
        : 'no local model (run "narratoria model pull")';
  return { narrator: pattern, reason: `pattern narrator: ${why}`, scriptEnvironment: {} };
}
