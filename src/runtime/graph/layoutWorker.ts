// Entry of the layout worker thread (dist/graphLayoutWorker.cjs): lays out plan graph models posted to it, so big plans never block the caller's thread.
import { parentPort } from 'node:worker_threads';
import { layoutPlanGraph } from './graphLayout.js';
import type { LayoutRequest, LayoutResponse } from './layoutOffThread.js';

parentPort?.on('message', (request: LayoutRequest) => {
  let response: LayoutResponse;
  try {
    response = { id: request.id, layout: layoutPlanGraph(request.model) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort?.postMessage(response);
});
