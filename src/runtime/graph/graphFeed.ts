// Keeps a document's graph in step with its text: lays out each text that parses, keeps the last good graph while it does not.
import { prepareGraph, withRun, type GraphedDocument } from './planGraphDocument.js';
import type { PlanGraphLayout, PlanGraphModel, ScriptNames } from './graphTypes.js';

/** Lays out a model: inline, or off the UI thread for big plans (see layoutOffThread.ts). */
export type LayoutFunction = (model: PlanGraphModel) => Promise<PlanGraphLayout>;

/** The outcome of one text: a new graph, or the last good one with the reason the text does not parse. */
export type FeedUpdate =
  | { readonly kind: 'graph'; readonly graphed: GraphedDocument }
  | { readonly kind: 'stale'; readonly reason: string; readonly last: GraphedDocument | undefined }
  /** The text is the same as last time: nothing to draw. */
  | { readonly kind: 'unchanged' };

/** One per open graph. Callers await each update before starting the next. */
export class GraphFeed {
  private lastText: string | undefined;
  private last: GraphedDocument | undefined;

  constructor(
    private readonly layout: LayoutFunction,
    private readonly planOfRun?: (planId: string) => unknown,
    /** Made afresh for each text (the story's skills may have changed since the last one). */
    private readonly scriptNames?: () => ScriptNames | undefined,
  ) {}

  /** The last graph drawn. */
  get current(): GraphedDocument | undefined {
    return this.last;
  }

  /** Lays out `text` when it parses (the layout may run off the thread); otherwise says why not. */
  async update(text: string, onLayoutStarted?: (model: PlanGraphModel) => void): Promise<FeedUpdate> {
    if (text === this.lastText) return { kind: 'unchanged' };
    this.lastText = text;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      return { kind: 'stale', reason: parseErrorReason(text, error), last: this.last };
    }
    const prepared = prepareGraph(document, this.planOfRun, this.scriptNames?.());
    onLayoutStarted?.(prepared.model);
    const layout = await this.layout(prepared.model);
    this.last = { ...prepared, ...withRun(layout, prepared) };
    return { kind: 'graph', graphed: this.last };
  }
}

/** "line 4, column 7: Unexpected token …" from a JSON.parse error. */
export function parseErrorReason(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (!position) return message;
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
}
