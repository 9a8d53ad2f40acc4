// Collects what one attempt of a tool emits: capped events, state patches, checked assets, UI events and done.
import { promises as fs, constants as fsConstants } from 'node:fs';
import * as path from 'node:path';
import type { AssetReference, RunWarning, ToolOutput } from '../contractTypes/executionResult.js';
import type { DoneEvent, ToolEvent } from '../contractTypes/toolEvent.js';
import type { Emitter } from '../common/event.js';
import type { ExecutionHooks, ToolEventEmittedEvent } from './executionEvents.js';
import { deepMerge, type JsonObject } from '../state/deepMerge.js';

/** What the collector needs from its run (a ToolRunContext satisfies it). */
export interface CollectorContext {
  readonly planId: string;
  readonly maxEvents: number;
  /** Directory relative asset paths resolve against (the script's working directory). */
  readonly root: string;
  readonly warn: (warning: RunWarning) => void;
  readonly hooks: ExecutionHooks | undefined;
  readonly emitters: { readonly emittedEvent: Emitter<ToolEventEmittedEvent> };
}

/** Per-attempt accumulator; the executor keeps the one of the final attempt. */
export class AttemptCollector {
  readonly events: ToolEvent[] = [];
  readonly patches: JsonObject[] = [];
  readonly assets: AssetReference[] = [];
  readonly uiEvents: { event: string; payload?: Record<string, unknown> }[] = [];
  droppedEvents = 0;
  done: DoneEvent | undefined;
  private count = 0;
  private assetIds: Set<string> | undefined;

  constructor(
    private readonly context: CollectorContext,
    private readonly toolId: string,
    private readonly attempt: number,
  ) {}

  /** Accepts one valid event in emission order; returns a promise when the stream must wait. */
  accept(event: ToolEvent): void | Promise<void> {
    const index = this.count++;
    const hook = this.context.hooks?.beforeEventApply;
    if (hook) {
      const held = hook({ planId: this.context.planId, toolId: this.toolId, attempt: this.attempt, event, index });
      if (held) return held.then(() => this.apply(event, index));
    }
    return this.apply(event, index);
  }

  /** The output dependents receive (from the events of this attempt). */
  output(ok: boolean): ToolOutput {
    let state: JsonObject = {};
    for (const patch of this.patches) state = deepMerge(state, patch);
    const done = this.done;
    const output: { -readonly [K in keyof ToolOutput]: ToolOutput[K] } = { ok, state, assets: this.assets, uiEvents: this.uiEvents };
    if (done) {
      if (done.summary !== undefined) output.summary = done.summary;
      if (done.output !== undefined) output.result = done.output;
      if (done.needsMoreContext !== undefined) output.needsMoreContext = done.needsMoreContext;
      if (done.contextSuggestion !== undefined) output.contextSuggestion = done.contextSuggestion;
    }
    return output;
  }

  private apply(event: ToolEvent, index: number): void | Promise<void> {
    if (this.events.length < this.context.maxEvents) this.events.push(event);
    else this.droppedEvents++;
    switch (event.type) {
      case 'state_patch':
        this.patches.push(event.patch);
        break;
      case 'ui_event':
        this.uiEvents.push(event.payload === undefined ? { event: event.event } : { event: event.event, payload: event.payload });
        break;
      case 'done':
        this.done = event;
        break;
      case 'asset':
        return this.registerAsset(event).then(() => this.applied(event, index));
      case 'log':
      case 'error':
        break;
    }
    this.applied(event, index);
  }

  private applied(event: ToolEvent, index: number): void {
    const emitter = this.context.emitters.emittedEvent;
    if (emitter.hasListeners) emitter.fire({ planId: this.context.planId, toolId: this.toolId, attempt: this.attempt, event, index });
  }

  private async registerAsset(event: Extract<ToolEvent, { type: 'asset' }>): Promise<void> {
    const warn = (code: string, message: string) =>
      this.context.warn({ code, message, toolId: this.toolId, details: { assetId: event.assetId, path: event.path } });
    if (this.assetIds?.has(event.assetId)) {
      warn('DUPLICATE_ASSET_ID', `asset "${event.assetId}" was announced twice; the first one is kept`);
      return;
    }
    const absolute = path.resolve(this.context.root, event.path);
    try {
      const stat = await fs.stat(absolute);
      if (!stat.isFile()) throw new Error('not a file');
      await fs.access(absolute, fsConstants.R_OK);
    } catch {
      warn('ASSET_MISSING', `asset "${event.assetId}" points to ${absolute}, which does not exist or cannot be read; it was not registered`);
      return;
    }
    (this.assetIds ??= new Set()).add(event.assetId);
    this.assets.push({
      assetId: event.assetId,
      kind: event.kind,
      mediaType: event.mediaType,
      path: absolute,
      ...(event.metadata ? { metadata: event.metadata } : {}),
      toolId: this.toolId,
    });
  }
}
