// Host side of the model worker: spawns it, matches JSON-line responses to requests, restarts it after a crash, kills it on dispose and on host exit. Never loads a model itself.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as readline from 'node:readline';
import { CancellationError } from '../common/errors.js';
import {
  decodeMessage,
  encodeMessage,
  type GenerateRequest,
  type GeneratedResponse,
  type LoadedResponse,
  type LoadRequest,
  type MemoryResponse,
  type PrefixedResponse,
  type PrefixRequest,
  type WorkerRequest,
  type WorkerResponse,
} from './modelWorkerProtocol.js';

/** How to start the worker: an executable and its arguments. */
export interface WorkerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** A failed request: the worker's error code, or `exited` when the worker died (crash, kill) before answering. */
export class ModelWorkerError extends Error {
  override readonly name = 'ModelWorkerError';
  constructor(
    readonly code: 'exited' | 'disposed' | 'aborted' | 'not_loaded' | 'load_failed' | 'generation_failed' | 'bad_output' | 'bad_request',
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link ModelWorkerClient}. */
export interface ModelWorkerClientOptions {
  readonly command: WorkerCommand;
  readonly onLog?: (message: string) => void;
  /**
   * After a cancel, how long the worker may take to stop before it is killed. Default CANCEL_GRACE_MS: a decode step
   * cannot be interrupted, and a kill costs the next turn a reload.
   */
  readonly cancelGraceMs?: number;
}

interface Pending {
  readonly resolve: (response: WorkerResponse) => void;
  readonly reject: (error: Error) => void;
}

const STDERR_TAIL_CHARS = 2000;
/**
 * How long a cancelled request may run on. One decode step cannot be interrupted: on a 2-core machine with both
 * cores busy a turn's prompt took 10-24 s and a token 4 s, and a 2 s grace killed the worker after a timeout, so the
 * next turn waited 12-17 s for the model to load again (and fell back too).
 */
export const CANCEL_GRACE_MS = 30_000;
const liveWorkers = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;

/** Kills every worker still running when the host process exits (a synchronous 'exit' hook). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveWorkers) child.kill('SIGKILL');
  });
}

/**
 * One worker process at a time. A request starts it when none runs (so the next request after a crash
 * restarts it); every pending request fails with `exited` when it dies. The process does not keep the host
 * alive while no request is pending.
 */
export class ModelWorkerClient {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Where each streamed request's text goes, until it settles. */
  private readonly chunkListeners = new Map<number, (text: string) => void>();
  private nextId = 1;
  private stderrTail = '';
  private starts = 0;
  private disposed = false;
  /** Callers waiting for the worker to have no request in flight. */
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: ModelWorkerClientOptions) {}

  /** How many worker processes were started so far (1 + restarts). */
  get startCount(): number {
    return this.starts;
  }

  /** Process id of the running worker, if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True while a worker process is running. */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** Loads the model in the worker (starting the worker when needed). */
  async load(request: Omit<LoadRequest, 'type' | 'id'>): Promise<LoadedResponse> {
    const response = await this.request({ type: 'load', ...request });
    return expect(response, 'loaded');
  }

  /** Makes the worker's sequence hold the evaluated system prompt: from memory, from the cache file, or evaluated now (then saved). */
  async prefix(request: Omit<PrefixRequest, 'type' | 'id'>, signal?: AbortSignal): Promise<PrefixedResponse> {
    const response = await this.request({ type: 'prefix', ...request }, signal);
    return expect(response, 'prefixed');
  }

  /**
   * Generates under the given grammar; aborting `signal` cancels it in the worker (killed if it does not stop in time).
   * With `onChunk`, the text streams to it as it is written.
   */
  async generate(request: Omit<GenerateRequest, 'type' | 'id'>, signal?: AbortSignal, onChunk?: (text: string) => void): Promise<GeneratedResponse> {
    const response = await this.request({ type: 'generate', ...request, ...(onChunk ? { stream: true } : {}) }, signal, onChunk);
    return expect(response, 'generated');
  }

  /**
   * Resolves when the worker has no request in flight: none waiting for an answer, none cancelled and still running
   * (a decode step cannot be interrupted). A turn waits for it before its budget starts.
   */
  whenIdle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The worker's memory (answered at once, even during a generation); undefined when no worker runs. */
  async memory(): Promise<MemoryResponse | undefined> {
    if (!this.child || this.disposed) return undefined;
    return expect(await this.request({ type: 'memory' }), 'memory');
  }

  /** Stops the worker (politely, then by force) and fails pending requests. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end(encodeMessage({ type: 'dispose', id: this.nextId++ }));
    const timer = setTimeout(() => child.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  }

  private async request(
    body: Omit<LoadRequest, 'id'> | Omit<PrefixRequest, 'id'> | Omit<GenerateRequest, 'id'> | { readonly type: 'memory' },
    signal?: AbortSignal,
    onChunk?: (text: string) => void,
  ): Promise<WorkerResponse> {
    if (this.disposed) throw new ModelWorkerError('disposed', 'the model worker was disposed');
    if (signal?.aborted) throw new CancellationError('Generation cancelled');
    const child = this.child ?? this.start();
    const id = this.nextId++;
    if (onChunk) this.chunkListeners.set(id, onChunk);
    return new Promise<WorkerResponse>((resolve, reject) => {
      const onAbort = (): void => {
        this.settle(id);
        reject(new CancellationError('Generation cancelled'));
        this.cancelInWorker(child, id);
      };
      this.pending.set(id, {
        resolve: (response) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(response);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.setReferenced(true);
      const message: WorkerRequest = { ...body, id };
      child.stdin.write(encodeMessage(message));
    });
  }

  /** Tells the worker to stop request `id`; kills the worker if it has not answered within the grace period. */
  private cancelInWorker(child: ChildProcessWithoutNullStreams, id: number): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.write(encodeMessage({ type: 'cancel', id: this.nextId++, target: id }));
    const answered = new Promise<void>((resolve) => this.pending.set(id, { resolve: () => resolve(), reject: () => resolve() }));
    // Until the worker answers, it is busy (whenIdle waits): keep reading it.
    this.setReferenced(true);
    const timer = setTimeout(() => {
      if (this.pending.has(id) && this.child === child) {
        this.options.onLog?.(`model worker did not stop request ${id} in time: killing it`);
        child.kill('SIGKILL');
      }
    }, this.options.cancelGraceMs ?? CANCEL_GRACE_MS);
    timer.unref();
    void answered.then(() => clearTimeout(timer));
  }

  private start(): ChildProcessWithoutNullStreams {
    installExitHook();
    const { command, args } = this.options.command;
    // Inside VS Code process.execPath is Electron: ELECTRON_RUN_AS_NODE makes it run the worker as Node (plain Node ignores it).
    const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    this.child = child;
    this.starts++;
    this.stderrTail = '';
    liveWorkers.add(child);
    child.stdin.on('error', () => {
      // EPIPE after a crash: the 'exit' handler reports it.
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    // 'close', not 'exit': the process can exit before its stderr is read to the end, and the crash message
    // (e.g. a GGML_ASSERT) is in that tail. 'close' fires once every stdio stream has ended.
    child.on('close', (code, signal) => this.onExit(child, code, signal));
    child.on('error', (error) => this.onExit(child, null, null, error));
    return child;
  }

  private onLine(line: string): void {
    const message = decodeMessage(line);
    if (!message) return;
    if (message.type === 'log') {
      this.options.onLog?.(`model worker ${String(message['level'])}: ${String(message['message'])}`);
      return;
    }
    const id = message['id'];
    if (typeof id !== 'number') return;
    if (message.type === 'chunk') {
      if (typeof message['text'] === 'string') this.chunkListeners.get(id)?.(message['text']);
      return;
    }
    this.settle(id)?.resolve(message as unknown as WorkerResponse);
  }

  private onExit(child: ChildProcessWithoutNullStreams, code: number | null, signal: NodeJS.Signals | null, error?: Error): void {
    liveWorkers.delete(child);
    if (this.child !== child) return;
    this.child = undefined;
    const how = error ? `could not start (${error.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    const failure = this.disposed
      ? new ModelWorkerError('disposed', 'the model worker was disposed')
      : new ModelWorkerError('exited', `the model worker ${how}${tail ? `: ${tail}` : ''}`);
    for (const [id, pending] of [...this.pending]) {
      this.pending.delete(id);
      pending.reject(failure);
    }
    this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    if (this.pending.size > 0) return;
    for (const waiter of this.idleWaiters.splice(0)) waiter();
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    this.chunkListeners.delete(id);
    if (this.pending.size === 0) {
      this.setReferenced(false);
      // After the caller's own handlers (a turn waiting for the worker starts once the answer is handled).
      queueMicrotask(() => this.wakeIdleWaiters());
    }
    return pending;
  }

  private setReferenced(referenced: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as { ref?: () => void; unref?: () => void }[]) {
      if (referenced) handle.ref?.();
      else handle.unref?.();
    }
  }
}

function expect<T extends WorkerResponse['type']>(response: WorkerResponse, type: T): Extract<WorkerResponse, { type: T }> {
  if (response.type === type) return response as Extract<WorkerResponse, { type: T }>;
  if (response.type === 'error') throw new ModelWorkerError(response.code, response.message);
  throw new ModelWorkerError('bad_request', `unexpected ${response.type} response`);
}
