// The live line of a long turn in a terminal: the tools still running and for how long ("… cross (ferryman) 4 s"), redrawn every second and cleared when they finish.
import type { PlanRun } from '../../runtime/executor/planExecutor.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { CliIo, Styler } from '../cliSupport.js';

/** A turn shorter than this shows no line (most turns take well under a second). */
export const PROGRESS_AFTER_MS = 1000;

/** Follows a turn's plan runs and keeps one status line at the bottom of a terminal while tools run. */
export class ProgressLine {
  private readonly running = new Map<string, { readonly label: string; readonly startedAt: number }>();
  private readonly subscriptions = new DisposableStore();
  private timer: NodeJS.Timeout | undefined;
  private shown = false;

  constructor(
    private readonly io: CliIo,
    private readonly style: Styler,
    private readonly enabled = Boolean(io.stdout.isTTY),
  ) {}

  follow(run: PlanRun): void {
    if (!this.enabled) return;
    this.subscriptions.addAll(
      run.onDidStartTool((event) => {
        this.running.set(`${event.planId}/${event.toolId}`, { label: event.skill ? `${event.toolId} (${event.skill})` : event.toolId, startedAt: Date.now() });
        this.timer ??= setInterval(() => this.draw(), 1000);
      }),
      run.onDidFinishTool((event) => {
        this.running.delete(`${event.planId}/${event.result.toolId}`);
        if (this.running.size === 0) this.clear();
      }),
    );
  }

  /** Clears the line and forgets the runs (at the end of a turn). */
  stop(): void {
    this.clear();
    this.running.clear();
    this.subscriptions.clear();
  }

  private draw(): void {
    const now = Date.now();
    const tools = [...this.running.values()].filter((tool) => now - tool.startedAt >= PROGRESS_AFTER_MS);
    if (tools.length === 0) return;
    const text = tools.map((tool) => `${tool.label} ${Math.floor((now - tool.startedAt) / 1000)} s`).join(', ');
    this.io.stdout.write(`\r\x1b[2K${this.style.dim(`\u2026 running ${text} (Ctrl+C cancels the turn)`)}`);
    this.shown = true;
  }

  private clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.io.stdout.write('\r\x1b[2K');
    this.shown = false;
  }
}
