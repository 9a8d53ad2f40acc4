// A pseudo-terminal that runs one plan through the runtime and shows what `narratoria run` prints; closing it or Ctrl+C cancels the run.
import * as vscode from 'vscode';
import { ansiTextStyle } from '../../runtime/common/textStyle.js';
import { startPlanRun, type ExecutePlanOptions, type PlanRun } from '../../runtime/executor/planExecutor.js';
import { formatSummary, reportProgress } from '../../runtime/executor/runTranscript.js';
import type { ExecutionResult, ToolResult } from '../../runtime/contractTypes/executionResult.js';
import type { Plan } from '../../runtime/contractTypes/plan.js';

/** Ctrl+C typed into the terminal. */
const INTERRUPT = '\u0003';

/** What the terminal tells its owner while the run goes. */
export interface PlanRunObserver {
  readonly onToolFinished?: (result: ToolResult, finished: number, total: number) => void;
  /** The run has started (e.g. for the plan graph's live overlay). */
  readonly onRunStarted?: (run: PlanRun) => void;
}

export class PlanRunTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  private readonly abort = new AbortController();
  private readonly style = ansiTextStyle(true);
  private resolveResult!: (result: ExecutionResult) => void;
  private rejectResult!: (error: unknown) => void;
  /** The run's result, once it ends (cancelled runs too). */
  readonly result = new Promise<ExecutionResult>((resolve, reject) => {
    this.resolveResult = resolve;
    this.rejectResult = reject;
  });
  private started = false;
  private over = false;

  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  constructor(
    private readonly plan: Plan,
    private readonly title: string,
    private readonly options: ExecutePlanOptions,
  ) {}

  /** Who hears about finished tools (set before the terminal opens). */
  observer: PlanRunObserver = {};

  /** Cancels the run: the runtime kills every process group it started. */
  cancel(): void {
    if (!this.abort.signal.aborted) {
      this.write(this.style.yellow('\n■ cancelling: stopping the running tools…\n'));
      this.abort.abort();
    }
  }

  open(): void {
    if (this.started) return;
    this.started = true;
    this.write(`${this.style.bold('Run Plan')} ${this.title} ${this.style.dim(`(${this.plan.tools.length} tool(s), root ${this.options.root})`)}\n`);
    if (this.plan.narrative) this.write(`${this.style.bold('Narrative:')} ${this.plan.narrative}\n`);
    let finished = 0;
    let run;
    try {
      run = startPlanRun(this.plan, { ...this.options, signal: this.abort.signal });
    } catch (error) {
      this.write(this.style.red(`The run could not start: ${error instanceof Error ? error.message : String(error)}\n`));
      this.rejectResult(error);
      return;
    }
    this.observer.onRunStarted?.(run);
    reportProgress(run, (text) => this.write(text), this.style);
    run.onDidFinishTool(({ result }) => this.observer.onToolFinished?.(result, ++finished, this.plan.tools.length));
    run.result.then(
      (result) => {
        this.write(formatSummary(result, this.style));
        this.write(this.style.dim('\nPress any key to close this terminal.\n'));
        this.over = true;
        this.resolveResult(result);
      },
      (error: unknown) => {
        this.write(this.style.red(`The run failed: ${error instanceof Error ? error.message : String(error)}\n`));
        this.over = true;
        this.rejectResult(error);
      },
    );
  }

  close(): void {
    this.cancel();
    this.dispose();
  }

  handleInput(data: string): void {
    if (data === INTERRUPT) {
      this.cancel();
      return;
    }
    // Once the run is over, any key closes the terminal.
    if (this.over) this.closeEmitter.fire(0);
  }

  private write(text: string): void {
    this.writeEmitter.fire(text.replace(/\r?\n/g, '\r\n'));
  }

  private dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}
