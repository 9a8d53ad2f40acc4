// A campaign's story turns under the debugger (no DAP): plays the inputs in order, holding where a scene begins when a beat breakpoint, a step or a pause says so.
import type { Disposable } from '../common/disposable.js';
import { Emitter, type Event } from '../common/event.js';
import type { SceneStart } from '../campaign/play/campaignStory.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { BeatBreakpoints } from './beatBreakpoints.js';
import type { DebugOutput } from './debugStop.js';

/** Why a story turn holds: a gutter breakpoint on a beat, a `beat:<id>` function breakpoint, entry, a step or a pause. */
export type StoryStopReason = 'breakpoint' | 'function breakpoint' | 'entry' | 'step' | 'pause';

/** Where a story turn is held: at the start of a scene, its beats evaluated, its turn not played yet. */
export interface StoryStop {
  readonly reason: StoryStopReason;
  readonly description: string | undefined;
  readonly hitBreakpointIds: readonly number[];
  /** The turn (1-based) among the launch's inputs. */
  readonly turn: number;
  readonly scene: SceneStart;
  /** The triggered beats whose breakpoints hold here. */
  readonly beats: readonly string[];
}

export interface StoryTurnRunOptions {
  readonly inputs: readonly string[];
  /** The session's beat breakpoints; undefined runs without stopping (noDebug). */
  readonly breakpoints: BeatBreakpoints | undefined;
  /** Hold where the first scene begins. */
  readonly stopOnEntry: boolean;
}

/** Plays a turn of the session (PlaySession.play). */
export type PlayInput = (input: string, signal: AbortSignal) => Promise<TurnResult>;

export class StoryTurnRun implements Disposable {
  private held: { readonly stop: StoryStop; readonly release: () => void } | undefined;
  private stepRequested = false;
  private pauseRequested = false;
  private turn = 0;
  private readonly abort = new AbortController();
  private readonly stoppedEmitter = new Emitter<StoryStop>();
  private readonly outputEmitter = new Emitter<DebugOutput>();
  readonly onDidStop: Event<StoryStop> = this.stoppedEmitter.event;
  readonly onDidOutput: Event<DebugOutput> = this.outputEmitter.event;

  constructor(private readonly options: StoryTurnRunOptions) {}

  /** Where the story is held, if it is. */
  get stop(): StoryStop | undefined {
    return this.held?.stop;
  }

  /** Plays every input in order (stopping early once terminated); resolves with the turns played. */
  async start(play: PlayInput): Promise<TurnResult[]> {
    const results: TurnResult[] = [];
    for (const [index, input] of this.options.inputs.entries()) {
      if (this.abort.signal.aborted) break;
      this.turn = index + 1;
      const result = await play(input, this.abort.signal);
      results.push(result);
      this.output(turnLines(result));
      if (result.cancelled) break;
      if (result.story?.ending) {
        if (index + 1 < this.options.inputs.length)
          this.output([
            `The story reached its ending "${result.story.ending.title}": the ${this.options.inputs.length - index - 1} input(s) left do not play.`,
          ]);
        break;
      }
    }
    return results;
  }

  /** The session's hook where a scene has begun: reports its beats, and holds there when a breakpoint, entry, a step or a pause says so. */
  readonly beforeScene = async (scene: SceneStart): Promise<void> => {
    if (this.abort.signal.aborted) return;
    this.output(sceneLines(scene));
    const triggered = scene.beats.triggered.map((entry) => entry.beat.id);
    const decision = this.options.breakpoints?.atScene(triggered, { state: scene.state, dependencies: {} });
    for (const log of decision?.logs ?? []) this.output([log]);
    for (const error of decision?.errors ?? []) this.outputEmitter.fire({ category: 'stderr', text: `${error}\n` });
    const stepped = this.stepRequested || this.pauseRequested;
    const hit = decision !== undefined && decision.hitBreakpointIds.length > 0;
    const entry = this.turn === 1 && this.options.stopOnEntry && this.options.breakpoints !== undefined;
    if (!hit && !stepped && !entry) return;
    const reason: StoryStopReason = hit
      ? decision.byName
        ? 'function breakpoint'
        : 'breakpoint'
      : this.stepRequested
        ? 'step'
        : this.pauseRequested
          ? 'pause'
          : 'entry';
    this.stepRequested = false;
    this.pauseRequested = false;
    const beats = hit ? decision.beats : [];
    const stop: StoryStop = {
      reason,
      description: hit ? beatsDescription(scene, beats) : undefined,
      hitBreakpointIds: hit ? decision.hitBreakpointIds : [],
      turn: this.turn,
      scene,
      beats,
    };
    await new Promise<void>((release) => {
      this.held = { stop, release };
      this.stoppedEmitter.fire(stop);
    });
  };

  /** Runs on to the next breakpoint. */
  continue(): void {
    this.release();
  }

  /** Runs the held turn and holds where the next scene begins. */
  next(): void {
    this.stepRequested = true;
    this.release();
  }

  /** Holds where the next scene begins (a turn's plan runs to its end first). */
  pause(): void {
    if (!this.held) this.pauseRequested = true;
  }

  /** Cancels the turn being played and every turn after it; releases the hold. */
  terminate(): void {
    this.abort.abort();
    this.release();
  }

  dispose(): void {
    this.terminate();
    this.stoppedEmitter.dispose();
    this.outputEmitter.dispose();
  }

  private release(): void {
    const held = this.held;
    this.held = undefined;
    held?.release();
  }

  private output(lines: readonly string[]): void {
    if (lines.length > 0) this.outputEmitter.fire({ category: 'console', text: `${lines.join('\n')}\n` });
  }
}

/** The stop's description (VS Code shows it as the thread's state): the beats that hold and why each triggered. */
function beatsDescription(scene: SceneStart, beats: readonly string[]): string {
  const told = beats.map((id) => {
    const entry = scene.beats.triggered.find((candidate) => candidate.beat.id === id);
    return `${id} "${entry?.beat.title ?? id}", triggered in scene ${scene.scene}: ${entry?.reason ?? 'its conditions held'}`;
  });
  return `Paused on beat ${told.join('; and on beat ')}`;
}

/** What the Debug Console says when a scene begins: its input, the beats triggered and skipped. */
export function sceneLines(scene: SceneStart): string[] {
  const lines = [`scene ${scene.scene} > ${scene.input}`];
  for (const { beat, reason, outcome } of scene.beats.triggered)
    lines.push(`  beat ${beat.id} "${beat.title}" triggers: ${reason}${outcome ? ` (outcome: ${outcome})` : ''}`);
  for (const { id, reason } of scene.beats.skipped) lines.push(`  beat ${id} is skipped: ${reason}`);
  if (scene.ending) lines.push(`  the ending "${scene.ending.ending.title}" is reached: ${scene.ending.reason}`);
  return lines;
}

/** What the Debug Console says after a turn: its plan's skills, the narration, the next choices. */
export function turnLines(result: TurnResult): string[] {
  const last = result.attempts.at(-1);
  const lines: string[] = [];
  if (last) {
    const tools = last.plan.tools.map((tool) => tool.toolId).join(', ');
    lines.push(`  plan (${last.narrator}, attempt ${last.attempt}, ${last.outcome}): ${tools || 'no tools'}`);
  }
  if (result.cancelled) lines.push('  the turn was cancelled');
  else if (result.fallback) lines.push('  every attempt failed: the template narration tells the turn');
  lines.push(...result.narrative.split('\n').map((line) => (line === '' ? '' : `  ${line}`)));
  if (result.choices.length > 0) lines.push(`  choices: ${result.choices.map((choice, index) => `${index + 1}. ${choice}`).join('  ')}`);
  return lines;
}
