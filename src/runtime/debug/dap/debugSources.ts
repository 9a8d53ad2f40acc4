// The documents a plan debug session shows: the plan file (or its recorded text, read-only) and each tool attempt's NDJSON output lines.
import * as path from 'node:path';
import { Source } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { PlanDocument } from '../../authoring/planDocument.js';
import type { DebugHistory } from '../debugHistory.js';

/** A range in a document (1-based lines and columns, end exclusive). */
export interface SourceRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export const PLAN_SOURCE_REFERENCE = 1;

/** One session's documents and their DAP source references. */
export class DebugSources {
  private readonly outputReferences = new Map<string, number>();
  private readonly outputs = new Map<number, { readonly toolId: string; readonly attempt: number }>();
  private nextReference = PLAN_SOURCE_REFERENCE + 1;

  constructor(
    /** The plan's text, parsed with positions. */
    readonly document: PlanDocument,
    /** The plan file; undefined when the plan is shown from its recorded text. */
    readonly planFile: string | undefined,
    private readonly history: () => DebugHistory,
    /** The plan's name when it has no file. */
    private readonly recordedName = 'recorded.plan.json',
  ) {}

  /** The plan as a DAP source: its file, or a read-only document of the recorded plan. */
  planSource(): DebugProtocol.Source {
    if (this.planFile) return new Source(path.basename(this.planFile), this.planFile) as DebugProtocol.Source;
    const source = new Source(this.recordedName, undefined, PLAN_SOURCE_REFERENCE, 'narratoria-replay') as DebugProtocol.Source;
    source.presentationHint = 'emphasize';
    return source;
  }

  /** True when a setBreakpoints request is for the plan being debugged. */
  isPlan(source: DebugProtocol.Source): boolean {
    if (this.planFile && source.path) return samePath(source.path, this.planFile);
    return !this.planFile && source.sourceReference === PLAN_SOURCE_REFERENCE;
  }

  /** The range of a tool's object in the plan (its toolId line when the text has no such tool). */
  toolRange(toolId: string): SourceRange | undefined {
    const tool = this.document.toolById(toolId);
    if (!tool) return undefined;
    const start = this.document.lines.positionAt(tool.span.offset);
    const end = this.document.lines.positionAt(tool.span.offset + tool.span.length);
    return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }

  /**
   * A read-only document of one attempt's output lines (one event per line, as the script wrote them). VS Code
   * fetches a source reference's text once, so each length of a still-growing output gets its own reference.
   */
  outputSource(toolId: string, attempt: number): DebugProtocol.Source {
    const key = `${toolId}\u0000${attempt}\u0000${this.history().eventsOf(toolId, attempt).length}`;
    let reference = this.outputReferences.get(key);
    if (reference === undefined) {
      reference = this.nextReference++;
      this.outputReferences.set(key, reference);
      this.outputs.set(reference, { toolId, attempt });
    }
    const name = `${toolId}${attempt > 1 ? ` (attempt ${attempt})` : ''}.ndjson`;
    return new Source(name, undefined, reference, 'narratoria-output') as DebugProtocol.Source;
  }

  /** The text of a source reference (DAP source request). */
  content(reference: number): { content: string; mimeType: string } | undefined {
    if (reference === PLAN_SOURCE_REFERENCE) return { content: this.document.text, mimeType: 'application/json' };
    const output = this.outputs.get(reference);
    if (!output) return undefined;
    const lines = this.history()
      .eventsOf(output.toolId, output.attempt)
      .map((point) => JSON.stringify(point.event));
    return { content: lines.length > 0 ? `${lines.join('\n')}\n` : '', mimeType: 'application/x-ndjson' };
  }
}

/** Whether two paths name the same file (case-insensitive where the file system usually is). */
export function samePath(left: string, right: string): boolean {
  const normalize = (file: string) => {
    const resolved = path.resolve(file);
    return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
  };
  return normalize(left) === normalize(right);
}
