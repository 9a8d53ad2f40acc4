// The "Narratoria Playtests" Test Controller over the runtime's playtest runs: Run, Debug, Run with Coverage, Run with LLM Narrator; failures at their expectations' lines.
import * as vscode from 'vscode';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { errorMessage } from '../../runtime/common/errors.js';
import type { CoverageResult } from '../../runtime/coverage/coverageTypes.js';
import { PLAYTEST_SUFFIX } from '../../runtime/playtest/playtestDocument.js';
import { coverageLine, runPlaytestsForHost, summaryLine } from '../../runtime/playtest/playtestHostRun.js';
import { failureMessage, playtestVerdict, turnItemId, turnOutput, unplayedTurns, type ItemState } from '../../runtime/playtest/playtestOutcomes.js';
import type { NarratorChoice, Playtest, PlaytestReport, TurnReport } from '../../runtime/playtest/playtestTypes.js';
import { turnRunRecordFile, type TurnReplay } from '../../runtime/playtest/turnReplays.js';
import { coverageDetails, SkillFileCoverage } from '../coverage/fileCoverage.js';
import type { SkillCoverageStore } from '../coverage/skillCoverageStore.js';
import type { NarratorService } from '../narrator/narratorService.js';
import type { SkillsService } from '../skills/skillsService.js';
import { PlaytestItems } from './playtestItems.js';

/** The test message context value of a failed turn (its menu offers the debugger's replay and the turn's graph). */
export const TURN_FAILURE_CONTEXT = 'narratoria.playtestTurnFailure';
const RESTRICTED_MODE =
  'Restricted Mode: playtests run skill scripts, and this workspace is not trusted. Trust the workspace (Manage Workspace Trust) to run them.';

export interface PlaytestTestsOptions {
  readonly root: string | undefined;
  readonly skills: SkillsService;
  readonly narrator: NarratorService;
  readonly log: vscode.LogOutputChannel;
  /** Where a coverage run's per-skill counts go (the Skills view shows them). */
  readonly coverage: SkillCoverageStore;
}

/** How a run plays: the narrator, under the debugger afterwards, with coverage. */
interface RunMode {
  readonly narrator?: NarratorChoice;
  readonly debug?: boolean;
  readonly coverage?: boolean;
}

export class PlaytestTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly items: PlaytestItems;
  /** The last run's record of each turn (by test item id): what Replay Turn in Debugger and Show Turn Graph open. */
  private readonly runIds = new Map<string, string>();
  /** The last run's outcome of each item (by id), as the Testing view shows it: for the extension-host tests and the log. */
  readonly outcomes = new Map<string, { readonly state: ItemState; readonly messages: readonly vscode.TestMessage[] }>();
  private llmProfile: vscode.TestRunProfile | undefined;
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: PlaytestTestsOptions) {
    this.controller = vscode.tests.createTestController('narratoria.playtests', 'Narratoria Playtests');
    this.items = new PlaytestItems(this.controller, options.skills, options.root);
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token, {}), true);
    this.controller.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, (request, token) => this.run(request, token, { debug: true }), true);
    // Line, branch and function coverage of the story's JavaScript and TypeScript skill scripts, in VS Code's coverage view.
    const coverageProfile = this.controller.createRunProfile(
      'Run with Coverage',
      vscode.TestRunProfileKind.Coverage,
      (request, token) => this.run(request, token, { coverage: true }),
      true,
    );
    coverageProfile.loadDetailedCoverage = async (_run, fileCoverage) => (fileCoverage instanceof SkillFileCoverage ? coverageDetails(fileCoverage.data) : []);
    this.updateLlmProfile();
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${PLAYTEST_SUFFIX}`);
    this.disposables.addAll(
      this.controller,
      watcher,
      watcher.onDidCreate((uri) => void this.items.updateFromDisk(uri)),
      watcher.onDidChange((uri) => void this.items.updateFromDisk(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      vscode.workspace.onDidChangeTextDocument((event) => this.items.updateFromDocument(event.document)),
      vscode.workspace.onDidOpenTextDocument((document) => this.items.updateFromDocument(document)),
      options.narrator.onDidChangeStatus(() => this.updateLlmProfile()),
      options.skills.onDidChangeSkills(() => void this.discover()),
    );
  }

  /** Runs one playtest file with the Run profile, or the Debug one (Save Session as Playtest's "Run Playtest"; the tests). */
  async runFile(uri: vscode.Uri, debug = false): Promise<void> {
    await this.items.updateFromDisk(uri);
    const item = this.controller.items.get(uri.toString());
    if (!item) return;
    const cancellation = new vscode.CancellationTokenSource();
    try {
      await this.run(new vscode.TestRunRequest([item]), cancellation.token, { debug });
    } finally {
      cancellation.dispose();
    }
  }

  /** The run record of a turn's last attempt, from the last run of that turn's item. */
  runRecordOf(item: vscode.TestItem): vscode.Uri | undefined {
    const runId = this.runIds.get(item.id);
    return runId && this.options.root ? vscode.Uri.file(turnRunRecordFile(this.options.root, runId)) : undefined;
  }

  /** Finds every playtest file of the workspace (node_modules, .narratoria and .git aside). */
  discover(): Promise<void> {
    return this.items.discover();
  }

  dispose(): void {
    this.llmProfile?.dispose();
    this.disposables.dispose();
  }

  /** Offers "Run with LLM Narrator" while a local model is present (loaded or not yet). */
  private updateLlmProfile(): void {
    const state = this.options.narrator.status.state;
    const available = state === 'ready' || state === 'idle' || state === 'loading';
    if (available && !this.llmProfile) {
      this.llmProfile = this.controller.createRunProfile(
        'Run with LLM Narrator',
        vscode.TestRunProfileKind.Run,
        (request, token) => this.run(request, token, { narrator: 'llm' }),
        false,
      );
    } else if (!available && this.llmProfile) {
      this.llmProfile.dispose();
      this.llmProfile = undefined;
    }
  }

  /** Runs the files of the request (a turn runs its whole file: turns depend on the ones before). */
  /** `debug`: once the run has ended, each failed turn's plan runs again live under the debugger (debugTurn). */
  /** `coverage`: the scripts write V8 coverage, added to the run (VS Code's coverage view) and counted per skill for the Skills view. */
  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, mode: RunMode): Promise<void> {
    const run = this.controller.createTestRun(request);
    const files = new Map<string, vscode.TestItem>();
    const add = (item: vscode.TestItem) => {
      const file = item.parent ?? item;
      files.set(file.id, file);
    };
    if (request.include) request.include.forEach(add);
    else this.controller.items.forEach(add);
    for (const excluded of request.exclude ?? []) if (!excluded.parent) files.delete(excluded.id);
    try {
      if (!vscode.workspace.isTrusted) {
        const message = new vscode.TestMessage(RESTRICTED_MODE);
        for (const item of files.values()) {
          run.enqueued(item);
          this.errored(run, item, message);
        }
        this.options.log.warn('playtests not run: the workspace is in Restricted Mode');
        return;
      }
      const root = this.options.root;
      if (!root) {
        for (const item of files.values()) run.errored(item, new vscode.TestMessage('Open the story folder to run its playtests.'));
        return;
      }
      await this.options.skills.ready();
      const { playtests, items } = await this.playtestsOf(run, files.values());
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      try {
        const result = await runPlaytestsForHost(playtests, {
          root,
          extraSkillRoots: this.options.skills.extraSkillRoots(),
          signal: abort.signal,
          ...(mode.narrator ? { narrator: mode.narrator } : {}),
          hostNarrator: () => this.options.narrator.currentChoice(),
          ...(mode.coverage ? { coverageOf: this.options.skills.skills } : {}),
          ...(mode.debug ? { replayFailedTurns: true } : {}),
          onLog: (message) => this.options.log.debug(message),
          onPlaytestStarted: (playtest) => run.started(items.get(playtest.file)!),
          onTurnStarted: (playtest, index) => {
            const file = items.get(playtest.file);
            const child = file?.children.get(turnItemId(file.id, index));
            if (child) run.started(child);
          },
          onTurnFinished: (playtest, turn) => this.reportTurn(run, items.get(playtest.file)!, turn),
          onPlaytestFinished: (playtest, report) => this.reportPlaytest(run, items.get(playtest.file)!, report),
        });
        this.options.log.info(summaryLine(result.report));
        if (result.coverage) this.reportCoverage(run, result.coverage);
        for (const replay of result.replays) await this.debugTurn(replay, root);
      } finally {
        cancel.dispose();
      }
    } catch (error) {
      this.options.log.error(`running playtests failed: ${errorMessage(error)}`);
      for (const item of files.values()) run.errored(item, new vscode.TestMessage(`Running the playtest failed: ${errorMessage(error)}`));
    } finally {
      run.end();
    }
  }

  /** The playtests of the files, read again from their editors or the disk (enqueued); a file with problems errors. */
  private async playtestsOf(run: vscode.TestRun, files: Iterable<vscode.TestItem>): Promise<{ playtests: Playtest[]; items: Map<string, vscode.TestItem> }> {
    const playtests: Playtest[] = [];
    const items = new Map<string, vscode.TestItem>();
    for (const item of files) {
      const playtest = await this.items.read(item);
      if (!playtest) {
        run.errored(item, new vscode.TestMessage(typeof item.error === 'string' ? item.error : (item.error?.value ?? 'the playtest file has problems')));
        continue;
      }
      playtests.push(playtest);
      items.set(playtest.file, item);
      run.enqueued(item);
      item.children.forEach((child) => run.enqueued(child));
    }
    return { playtests, items };
  }

  private reportPlaytest(run: vscode.TestRun, item: vscode.TestItem, report: PlaytestReport): void {
    const verdict = playtestVerdict(report);
    if (verdict.state === 'passed') {
      run.passed(item, report.durationMs);
      this.outcomes.set(item.id, { state: 'passed', messages: [] });
    } else {
      const message = new vscode.TestMessage(verdict.message);
      if (verdict.state === 'errored') run.errored(item, message, report.durationMs);
      else run.failed(item, message, report.durationMs);
      this.outcomes.set(item.id, { state: verdict.state, messages: [message] });
    }
    const children = new Map<number, vscode.TestItem>();
    item.children.forEach((child) => {
      const turn = this.items.turnOf(child);
      if (turn !== undefined) children.set(turn, child);
    });
    for (const turn of unplayedTurns(report, [...children.keys()])) {
      run.skipped(children.get(turn)!);
      this.outcomes.set(children.get(turn)!.id, { state: 'skipped', messages: [] });
    }
  }

  /** Adds each covered script to the run (the coverage view), and the per-skill counts (the Skills view). */
  private reportCoverage(run: vscode.TestRun, coverage: CoverageResult): void {
    for (const file of coverage.files) run.addCoverage(new SkillFileCoverage(file));
    this.options.coverage.record(coverage);
    this.options.log.info(coverageLine(coverage));
  }

  /**
   * Runs a failed turn's plan again, live, under the `narratoria` debugger, from its replay (the plan its last attempt
   * ran and the state before it). It stops on entry; the user's exception filters (tool failures...) and function
   * breakpoints apply.
   */
  private async debugTurn(replay: TurnReplay, root: string): Promise<void> {
    const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root)), {
      type: 'narratoria',
      request: 'launch',
      name: replay.name,
      plan: replay.planFile,
      state: replay.stateFile,
      root,
      stopOnEntry: true,
    });
    if (!started) this.options.log.warn(`the debugger did not start for ${replay.playtest}, turn ${replay.turn}`);
  }

  private reportTurn(run: vscode.TestRun, file: vscode.TestItem, turn: TurnReport): void {
    const child = file.children.get(turnItemId(file.id, turn.index));
    if (!child) return;
    if (turn.runId) this.runIds.set(child.id, turn.runId);
    const output = turnOutput(turn);
    if (output) run.appendOutput(output, undefined, child);
    if (turn.status === 'passed') {
      run.passed(child, turn.durationMs);
      this.outcomes.set(child.id, { state: 'passed', messages: [] });
      return;
    }
    const messages = turn.failures.map((failure) => {
      const { text, diff, line, column } = failureMessage(failure);
      const message = diff ? vscode.TestMessage.diff(text, diff.expected, diff.actual) : new vscode.TestMessage(text);
      message.location = new vscode.Location(file.uri!, new vscode.Position(line - 1, column - 1));
      message.contextValue = TURN_FAILURE_CONTEXT;
      return message;
    });
    run.failed(child, messages, turn.durationMs);
    this.outcomes.set(child.id, { state: 'failed', messages });
  }

  private errored(run: vscode.TestRun, item: vscode.TestItem, message: vscode.TestMessage): void {
    run.errored(item, message);
    this.outcomes.set(item.id, { state: 'errored', messages: [message] });
  }
}
