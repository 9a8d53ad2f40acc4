// The local model's lifecycle: the worker process, the file verified before it loads (never again after it crashed the worker), one load per worker start.
import { stat } from 'node:fs/promises';
import * as os from 'node:os';
import { bundledOrSourceFile } from '../common/bundledFile.js';
import { failureReason, type Outcome } from './llamaBudget.js';
import { describeModelLoading, MODEL_LOADING_VARIABLE, modelLoadingFromEnvironment, type ModelLoading } from './modelLoading.js';
import { verifyModelFile, type ModelFileExpectation } from './modelStore.js';
import { ModelWorkerClient, ModelWorkerError, type WorkerCommand } from './modelWorkerClient.js';

/** What {@link LocalModel} loads, and how (the narrator's options of the same names). */
export interface LocalModelOptions {
  readonly modelPath: string;
  readonly expected?: ModelFileExpectation;
  readonly workerCommand?: WorkerCommand;
  /** CPU threads, always. Default: defaultThreads, fewer while other processes keep cores busy (cpuLoad.ts). */
  readonly threads?: number;
  readonly flashAttention?: boolean;
  /** The decision context's cells. Default: sized to the fixed prompt and a turn, grown when a turn needs more (contextSizing.ts). */
  readonly contextSize?: number;
  /** How the worker holds the weights and the KV cache. Default: NARRATORIA_MODEL_LOADING's words over DEFAULT_MODEL_LOADING (modelLoading.ts). */
  readonly loading?: ModelLoading;
  /** The worker's own log lines. */
  readonly onLog?: (message: string) => void;
}

/** Below this size a model is a test fixture: one thread (more only contend; auto threads took 15 s for a tiny model). */
const SMALL_MODEL_BYTES = 256 * 1024 * 1024;

/** A model file as it is now (size and modification time): a file replaced on disk is verified again. */
type FileSignature = string;

/**
 * The model in its worker. The file is verified (header, size and hash when known) before the worker loads it, once
 * per file as it is; a load is shared by concurrent callers and happens again only after the worker restarted.
 */
export class LocalModel {
  readonly client: ModelWorkerClient;
  readonly modelPath: string;
  /** The explicit decision context size; undefined: sized to need in the worker. */
  readonly contextSize: number | undefined;
  readonly flashAttention: boolean;
  readonly loading: ModelLoading;
  /** The load in progress, shared by concurrent callers. */
  private pendingLoad: Promise<Outcome | undefined> | undefined;
  /** startCount of the worker process that holds the model. */
  private loadedInWorker: number | undefined;
  private verified: { readonly signature: FileSignature; readonly failure: string | undefined } | undefined;
  private readonly crashedFiles = new Set<FileSignature>();
  private loadedRuntime = 'unknown';

  constructor(
    private readonly options: LocalModelOptions,
    private readonly log: (message: string) => void,
  ) {
    const onLog = options.onLog;
    this.client = new ModelWorkerClient({ command: options.workerCommand ?? defaultWorkerCommand(), ...(onLog ? { onLog } : {}) });
    this.modelPath = options.modelPath;
    this.contextSize = options.contextSize;
    this.flashAttention = options.flashAttention ?? false;
    if (options.loading) this.loading = options.loading;
    else {
      const asked = modelLoadingFromEnvironment();
      if (asked.problems.length > 0) log(`${MODEL_LOADING_VARIABLE}: not understood: ${asked.problems.join(' ')}`);
      this.loading = asked.loading;
    }
  }

  /** The llama.cpp release the worker reported ('unknown' before a load): part of the prompt cache key. */
  get runtime(): string {
    return this.loadedRuntime;
  }

  /** Verifies the file and loads it in the worker once per worker process; undefined when ready, else a failure. */
  ensureLoaded(): Promise<Outcome | undefined> {
    if (this.loadedInWorker === this.client.startCount && this.client.running) return Promise.resolve(undefined);
    this.pendingLoad ??= this.verifyAndLoad().finally(() => {
      this.pendingLoad = undefined;
    });
    return this.pendingLoad;
  }

  dispose(): Promise<void> {
    return this.client.dispose();
  }

  private async verifyAndLoad(): Promise<Outcome | undefined> {
    const { modelPath } = this;
    let signature: FileSignature;
    try {
      const file = await stat(modelPath);
      signature = `${file.size}:${file.mtimeMs}`;
    } catch {
      return { ok: false, reason: `no model: ${modelPath} does not exist` };
    }
    if (this.crashedFiles.has(signature)) return { ok: false, reason: `invalid model: ${modelPath} crashed the model worker while loading` };
    if (this.verified?.signature !== signature) {
      const verification = await verifyModelFile(modelPath, this.options.expected ?? {});
      this.verified = { signature, failure: verification.ok ? undefined : `invalid model: ${verification.message}` };
    }
    if (this.verified.failure) return { ok: false, reason: this.verified.failure };
    try {
      const file = await stat(modelPath);
      const loaded = await this.client.load({
        modelPath,
        ...(this.contextSize !== undefined ? { contextSize: this.contextSize } : {}),
        threads: this.options.threads ?? defaultThreads(file.size),
        adaptThreads: this.options.threads === undefined,
        flashAttention: this.flashAttention,
        loading: this.loading,
      });
      this.loadedInWorker = this.client.startCount;
      this.loadedRuntime = loaded.runtime ?? 'unknown';
      const context = loaded.contextSize !== undefined ? `context ${loaded.contextSize}` : 'context sized to the fixed prompt';
      this.log(`model loaded in ${loaded.loadMs.toFixed(0)} ms (binding ${loaded.bindingMs.toFixed(0)} ms, ${context}, ${describeModelLoading(this.loading)})`);
      return undefined;
    } catch (error) {
      if (error instanceof ModelWorkerError && error.code === 'exited') this.crashedFiles.add(signature);
      return { ok: false, reason: failureReason(error) };
    }
  }
}

/**
 * Threads from the cores and the model's size: a real model is bound by memory bandwidth and uses every core up to
 * four (on this 2-core machine, 2 threads with flash attention off decoded 3-4x faster than 1 thread with it on); a
 * tiny one, one thread.
 */
export function defaultThreads(modelBytes: number, cores: number = os.availableParallelism()): number {
  if (modelBytes < SMALL_MODEL_BYTES) return 1;
  return Math.max(1, Math.min(4, cores));
}

/** The bundled worker beside a CommonJS bundle, or the TypeScript source through tsx when running from sources. */
export function defaultWorkerCommand(): WorkerCommand {
  const script = modelWorkerScript();
  return script.endsWith('.cjs') ? { command: process.execPath, args: [script] } : { command: process.execPath, args: ['--import', 'tsx', script] };
}

/** The model worker's script: dist/modelWorker.cjs beside the bundle, or modelWorker.ts when run from sources. */
export function modelWorkerScript(): string {
  return bundledOrSourceFile('modelWorker.cjs', './modelWorker.ts', import.meta.url);
}
