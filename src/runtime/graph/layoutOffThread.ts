// Lays out big plan graphs in a worker thread (small ones inline): the extension host stays responsive while a 10,000-tool plan is laid out.
import { Worker } from 'node:worker_threads';
import { layoutPlanGraph } from './graphLayout.js';
import type { PlanGraphLayout, PlanGraphModel } from './graphTypes.js';

/** Plans with more tools than this are laid out in the worker. */
export const OFF_THREAD_FROM = 300;

export interface LayoutRequest {
  readonly id: number;
  readonly model: PlanGraphModel;
}

export type LayoutResponse = { readonly id: number; readonly layout: PlanGraphLayout } | { readonly id: number; readonly error: string };

/** One worker, started on first use and reused; dispose() ends it (pending layouts then reject). */
export class GraphLayoutWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (layout: PlanGraphLayout) => void; reject: (error: Error) => void }>();

  /** `workerScript`: the bundled layoutWorker.ts (dist/graphLayoutWorker.cjs). */
  constructor(private readonly workerScript: string) {}

  /** Lays out `model`: inline when small, otherwise in the worker. */
  layout(model: PlanGraphModel): Promise<PlanGraphLayout> {
    if (model.tools.length < OFF_THREAD_FROM) return Promise.resolve(layoutPlanGraph(model));
    return this.layoutInWorker(model);
  }

  /** Always in the worker (the benchmark and tests use this directly). */
  layoutInWorker(model: PlanGraphModel): Promise<PlanGraphLayout> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<PlanGraphLayout>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Referenced only while a layout is pending: an idle worker never keeps a process alive.
      worker.ref();
      worker.postMessage({ id, model } satisfies LayoutRequest);
    });
  }

  dispose(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the layout worker was stopped'));
    void worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerScript);
    worker.on('message', (response: LayoutResponse) => {
      const waiter = this.pending.get(response.id);
      if (!waiter) return;
      this.pending.delete(response.id);
      if (this.pending.size === 0) worker.unref();
      if ('layout' in response) waiter.resolve(response.layout);
      else waiter.reject(new Error(`layout failed: ${response.error}`));
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error(`the layout worker exited (code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
