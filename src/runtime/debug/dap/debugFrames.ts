// Stack frames of a paused point: an event frame in the tool's output document above the tool's frame in the plan, with ids valid until the debuggee runs again.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ToolEvent } from '../../contractTypes/toolEvent.js';
import type { DebugPoint } from '../debugHistory.js';
import type { DebugSources } from './debugSources.js';
import type { TargetFrame } from './debugTarget.js';

/** What a frame id stands for. */
export interface FrameReference {
  readonly point: DebugPoint;
  readonly threadId: number;
  /** True for a live hold (edits reach the tool); false for a point in the history. */
  readonly live: boolean;
}

/** Frame ids for the current stop(s). */
export class FrameTable {
  private readonly frames = new Map<number, FrameReference>();
  private nextId = 1;

  reset(): void {
    this.frames.clear();
  }

  get(frameId: number): FrameReference | undefined {
    return this.frames.get(frameId);
  }

  /** The frames of a point, innermost first. `scriptFile` shows a lone script's tool frame in the script itself. */
  framesOf(reference: FrameReference, sources: DebugSources, scriptFile?: string): DebugProtocol.StackFrame[] {
    const point = reference.point;
    const frames: DebugProtocol.StackFrame[] = [];
    if (point.kind === 'event' && point.event) {
      frames.push({
        id: this.add(reference),
        name: `${point.event.type}${summary(point.event)}`,
        source: sources.outputSource(point.toolId, point.attempt),
        line: (point.eventIndex ?? 0) + 1,
        column: 1,
        presentationHint: 'normal',
      });
    }
    const range = sources.toolRange(point.toolId);
    const source = scriptFile ? { name: scriptFile.split(/[\\/]/).pop() ?? scriptFile, path: scriptFile } : sources.planSource();
    const toolFrame: DebugProtocol.StackFrame = {
      id: this.add(reference),
      name: toolFrameName(point),
      source,
      line: scriptFile ? 1 : (range?.line ?? 1),
      column: scriptFile ? 1 : (range?.column ?? 1),
      canRestart: point.kind !== 'replan',
    };
    if (range && !scriptFile) {
      toolFrame.endLine = range.endLine;
      toolFrame.endColumn = range.endColumn;
    }
    frames.push(toolFrame);
    return frames;
  }

  /** Frames a target drew itself (a story turn's beats and scene), every one standing for the same stop. */
  targetFrames(reference: FrameReference, frames: readonly TargetFrame[]): DebugProtocol.StackFrame[] {
    return frames.map((frame) => {
      const stackFrame: DebugProtocol.StackFrame = {
        id: this.add(reference),
        name: frame.name,
        line: frame.range?.line ?? 0,
        column: frame.range?.column ?? 0,
      };
      if (frame.file) stackFrame.source = { name: frame.file.split(/[\\/]/).pop() ?? frame.file, path: frame.file };
      if (frame.range) {
        stackFrame.endLine = frame.range.endLine;
        stackFrame.endColumn = frame.range.endColumn;
      }
      if (frame.label) stackFrame.presentationHint = 'label';
      return stackFrame;
    });
  }

  private add(reference: FrameReference): number {
    const id = this.nextId++;
    this.frames.set(id, reference);
    return id;
  }
}

function toolFrameName(point: DebugPoint): string {
  const attempt = point.attempt > 1 ? ` (attempt ${point.attempt})` : '';
  switch (point.kind) {
    case 'tool':
      return `${point.toolId}${attempt}`;
    case 'event':
      return `${point.toolId}${attempt} · event ${(point.eventIndex ?? 0) + 1}`;
    case 'finish':
      return `${point.toolId}${attempt} · ${point.ok ? 'finished' : `failed: ${point.failure?.category ?? 'error'}`}`;
    case 'replan':
      return `replan after ${point.toolId} (iteration ${point.iteration ?? 1})`;
  }
}

/** A few words about an event for its frame's name. */
function summary(event: ToolEvent): string {
  switch (event.type) {
    case 'state_patch':
      return ` ${Object.keys(event.patch).join(', ')}`;
    case 'log':
      return ` ${event.level}: ${clip(event.message)}`;
    case 'done':
      return event.ok ? ' ok' : ' failed';
    case 'error':
      return ` ${event.errorCode}`;
    case 'ui_event':
      return ` ${event.event}`;
    default:
      return '';
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
