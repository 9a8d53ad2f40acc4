// The "Narratoria Playtests" Test Controller: each *.playtest.json of the workspace is a test with a child per turn (at the turn's range), run by the runtime's playtest suite; failures carry expected and actual at the expectation's line.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ansiTextStyle } from '../../runtime/common/textStyle.js';
import { PatternNarrator } from '../../runtime/narrator/patternNarrator.js';
import { parsePlaytest, PLAYTEST_SUFFIX } from '../../runtime/playtest/playtestDocument.js';
import { runPlaytestSuite } from '../../runtime/playtest/playtestSuite.js';
import { FileRunStore, runsDirectory } from '../../runtime/persistence/runStore.js';
import type { NarratorChoice, Playtest, PlaytestProblem, PlaytestReport, TurnReport } from '../../runtime/playtest/playtestTypes.js';
import { LlamaNarrator } from '../../runtime/narrator/llamaNarrator.js';
import type { NarratorService } from '../narrator/narratorService.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { CoverageSession } from '../../runtime/coverage/coverageSession.js';
import type { TurnResult } from '../../runtime/session/turnTypes.js';
import { coverageDetails, SkillFileCoverage } from '../coverage/fileCoverage.js';
import type { SkillCoverageStore } from '../coverage/skillCoverageStore.js';

/** The test message context value of a failed turn (its menu offers the debugger's replay and the turn's graph). */
export const TURN_FAILURE_CONTEXT = 'narratoria.playtestTurnFailure';
const EXCLUDED = '{**/node_modules/**,**/.narratoria/**,**/.git/**}';

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

/** What a test item stands for: a playtest file, or one of its turns. */
interface ItemData {
  readonly file: string;
  /** 1-based turn number, for a turn's item. */
  readonly turn?: number;
}

export class PlaytestTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly data = new WeakMap<vscode.TestItem, ItemData>();
  /** The last run's record of each turn (by test item id): what Replay Turn in Debugger and Show Turn Graph open. */
  private readonly runIds = new Map<string, string>();
  /** The last run's outcome of each item (by id), as the Testing view shows it: for the extension-host tests and the log. */
  readonly outcomes = new Map<string, { readonly state: 'passed' | 'failed' | 'errored' | 'skipped'; readonly messages: readonly vscode.TestMessage[] }>();
  private llmProfile: vscode.TestRunProfile | undefined;
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: PlaytestTestsOptions) {
    this.controller = vscode.tests.createTestController('narratoria.playtests', 'Narratoria Playtests');
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token, {}), true);
    this.controller.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, (request, token) => this.run(request, token, { debug: true }), true);
    // Line, branch and function coverage of the story's JavaScript and TypeScript skill scripts, in VS Code's coverage view.
    const coverageProfile = this.controller.createRunProfile('Run with Coverage', vscode.TestRunProfileKind.Coverage, (request, token) => this.run(request, token, { coverage: true }), true);
    coverageProfile.loadDetailedCoverage = async (_run, fileCoverage) => (fileCoverage instanceof SkillFileCoverage ? coverageDetails(fileCoverage.data) : []);
    this.updateLlmProfile();
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${PLAYTEST_SUFFIX}`);
    this.disposables.addAll(
      this.controller,
      watcher,
      watcher.onDidCreate((uri) => void this.updateFromDisk(uri)),
      watcher.onDidChange((uri) => void this.updateFromDisk(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      vscode.workspace.onDidChangeTextDocument((event) => this.updateFromDocument(event.document)),
      vscode.workspace.onDidOpenTextDocument((document) => this.updateFromDocument(document)),
      options.narrator.onDidChangeStatus(() => this.updateLlmProfile()),
      options.skills.onDidChangeSkills(() => void this.discover()),
    );
  }

  /** Runs one playtest file with the Run profile, or the Debug one (Save Session as Playtest's "Run Playtest"; the tests). */
  async runFile(uri: vscode.Uri, debug = false): Promise<void> {
    await this.updateFromDisk(uri);
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
    return runId && this.options.root ? vscode.Uri.file(new FileRunStore(runsDirectory(this.options.root)).recordFile(runId)) : undefined;
  }

  /** Finds every playtest file of the workspace (node_modules, .narratoria and .git aside). */
  async discover(): Promise<void> {
    const files = await vscode.workspace.findFiles(`**/*${PLAYTEST_SUFFIX}`, EXCLUDED);
    const seen = new Set(files.map((uri) => uri.toString()));
    this.controller.items.forEach((item) => {
      if (!seen.has(item.id)) this.controller.items.delete(item.id);
    });
    await Promise.all(files.map((uri) => this.updateFromDisk(uri)));
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
      this.llmProfile = this.controller.createRunProfile('Run with LLM Narrator', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token, { narrator: 'llm' }), false);
    } else if (!available && this.llmProfile) {
      this.llmProfile.dispose();
      this.llmProfile = undefined;
    }
  }

  private async updateFromDisk(uri: vscode.Uri): Promise<void> {
    if (this.isExcluded(uri)) return;
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const text = open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri).then(undefined, () => new Uint8Array())).toString('utf8');
    this.update(uri, text);
  }

  private updateFromDocument(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file' || !document.uri.fsPath.endsWith(PLAYTEST_SUFFIX) || this.isExcluded(document.uri)) return;
    this.update(document.uri, document.getText());
  }

  private isExcluded(uri: vscode.Uri): boolean {
    return /[\\/](?:node_modules|\.narratoria|\.git)[\\/]/.test(uri.fsPath);
  }

  /** The file's item and its turns' children, from its text; a file with problems shows them as the item's error. */
  private update(uri: vscode.Uri, text: string): Playtest | undefined {
    const parsed = parsePlaytest(uri.fsPath, text, this.skillNames(), this.options.skills.brokenSkillReasons());
    const id = uri.toString();
    const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, path.basename(uri.fsPath), uri);
    this.data.set(item, { file: uri.fsPath });
    item.range = new vscode.Range(0, 0, 0, 0);
    if (!parsed.playtest) {
      item.error = problemsText(parsed.problems);
      item.children.replace([]);
      this.controller.items.add(item);
      return undefined;
    }
    const playtest = parsed.playtest;
    item.error = undefined;
    item.label = playtest.name;
    item.description = path.relative(this.options.root ?? path.dirname(uri.fsPath), uri.fsPath);
    item.children.replace(
      playtest.turns.map((turn, position) => {
        const child = this.controller.createTestItem(`${id}#turn-${position + 1}`, `Turn ${position + 1}: ${turn.input ?? `choice ${turn.choice}`}`, uri);
        child.range = new vscode.Range(turn.position.line - 1, turn.position.column - 1, turn.position.line - 1, turn.position.column - 1);
        this.data.set(child, { file: uri.fsPath, turn: position + 1 });
        return child;
      }),
    );
    this.controller.items.add(item);
    return playtest;
  }

  private skillNames(): ReadonlySet<string> | undefined {
    const names = this.options.skills.skills.map((skill) => skill.name);
    return names.length > 0 ? new Set(names) : undefined;
  }

  /** Runs the files of the request (a turn runs its whole file: turns depend on the ones before). */
  /** `debug`: once the run has ended, each failed turn's plan runs again live under the debugger (debugFailedTurns). */
  /** `coverage`: the scripts write V8 coverage, added to the run (VS Code's coverage view) and counted per skill for the Skills view. */
  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, mode: RunMode): Promise<void> {
    const { narrator, debug = false } = mode;
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
        const message = new vscode.TestMessage('Restricted Mode: playtests run skill scripts, and this workspace is not trusted. Trust the workspace (Manage Workspace Trust) to run them.');
        for (const item of files.values()) {
          run.enqueued(item);
          run.errored(item, message);
          this.outcomes.set(item.id, { state: 'errored', messages: [message] });
        }
        this.options.log.warn('playtests not run: the workspace is in Restricted Mode');
        return;
      }
      if (!this.options.root) {
        for (const item of files.values()) run.errored(item, new vscode.TestMessage('Open the story folder to run its playtests.'));
        return;
      }
      await this.options.skills.ready();
      const playtests: Playtest[] = [];
      const items = new Map<string, vscode.TestItem>();
      for (const item of files.values()) {
        const uri = item.uri!;
        const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
        const text = document ? document.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
        const playtest = this.update(uri, text);
        if (!playtest) {
          run.errored(item, new vscode.TestMessage(typeof item.error === 'string' ? item.error : item.error?.value ?? 'the playtest file has problems'));
          continue;
        }
        playtests.push(playtest);
        items.set(playtest.file, item);
        run.enqueued(item);
        item.children.forEach((child) => run.enqueued(child));
      }
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      const root = this.options.root;
      const coverage = mode.coverage ? new CoverageSession(root, this.options.skills.skills) : undefined;
      try {
        const report = await runPlaytestSuite(playtests, {
          ...(coverage ? { scriptEnvironment: coverage.environment(), onTurnPlayed: (_playtest: Playtest, result: TurnResult) => coverage.recordTurn(result) } : {}),
          root: this.options.root,
          extraSkillRoots: this.options.skills.extraSkillRoots(),
          jobs: 1,
          signal: abort.signal,
          transcriptStyle: ansiTextStyle(true),
          ...(narrator ? { narrator } : {}),
          narratorFor: (kind) => this.narratorFor(kind),
          onLog: (message) => this.options.log.debug(message),
          onPlaytestStarted: (playtest) => run.started(items.get(playtest.file)!),
          onTurnStarted: (playtest, index) => {
            const child = items.get(playtest.file)?.children.get(`${items.get(playtest.file)!.id}#turn-${index}`);
            if (child) run.started(child);
          },
          onTurnFinished: (playtest, turn) => this.reportTurn(run, items.get(playtest.file)!, turn),
          onPlaytestFinished: (playtest, report) => {
            const item = items.get(playtest.file)!;
            if (report.status === 'error') {
              const message = new vscode.TestMessage(`The playtest could not be played: ${report.error}`);
              run.errored(item, message, report.durationMs);
              this.outcomes.set(item.id, { state: 'errored', messages: [message] });
            } else if (report.status === 'failed') {
              const message = new vscode.TestMessage(`${report.turns.filter((turn) => turn.status === 'failed').length} of ${report.turns.length} turns failed`);
              run.failed(item, message, report.durationMs);
              this.outcomes.set(item.id, { state: 'failed', messages: [message] });
            } else {
              run.passed(item, report.durationMs);
              this.outcomes.set(item.id, { state: 'passed', messages: [] });
            }
            item.children.forEach((child) => {
              const index = this.data.get(child)?.turn;
              if (index !== undefined && !report.turns.some((turn) => turn.index === index)) {
                run.skipped(child);
                this.outcomes.set(child.id, { state: 'skipped', messages: [] });
              }
            });
          },
        });
        this.options.log.info(`playtests: ${report.summary.passed} passed, ${report.summary.failed + report.summary.errors} failed`);
        if (coverage) await this.reportCoverage(run, coverage, root);
        if (debug) await this.debugFailedTurns(report.playtests, root);
      } finally {
        cancel.dispose();
        coverage?.dispose();
      }
    } catch (error) {
      this.options.log.error(`running playtests failed: ${error instanceof Error ? error.message : String(error)}`);
      for (const item of files.values()) run.errored(item, new vscode.TestMessage(`Running the playtest failed: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      run.end();
    }
  }

  /** Adds each covered script to the run (the coverage view), keeps lcov.info under .narratoria/coverage/, and the per-skill counts. */
  private async reportCoverage(run: vscode.TestRun, coverage: CoverageSession, root: string): Promise<void> {
    const result = await coverage.finish(path.join(root, '.narratoria'));
    for (const file of result.files) run.addCoverage(new SkillFileCoverage(file));
    this.options.coverage.record(result);
    const { lines } = result.totals;
    this.options.log.info(`playtest coverage: ${lines.covered}/${lines.total} lines of ${result.files.length} script file(s)${result.lcovFile ? `; ${result.lcovFile}` : ''}${result.skillCoverageOnly.length > 0 ? `; skill coverage only for ${result.skillCoverageOnly.join(', ')}` : ''}`);
  }

  /**
   * Runs each failed turn's plan again, live, under the `narratoria` debugger: the plan its last attempt ran and the
   * state before it, from the turn's run record, written beside the runs (`.narratoria/playtests/debug/`). It stops on
   * entry; the user's exception filters (tool failures…) and function breakpoints apply.
   */
  private async debugFailedTurns(reports: readonly PlaytestReport[], root: string): Promise<void> {
    const folder = path.join(root, '.narratoria', 'playtests', 'debug');
    await mkdir(folder, { recursive: true });
    for (const playtest of reports) {
      for (const turn of playtest.turns.filter((candidate) => candidate.status === 'failed' && candidate.runId)) {
        const record = JSON.parse(await readFile(new FileRunStore(runsDirectory(root)).recordFile(turn.runId!), 'utf8')) as { plan: unknown; initialState?: unknown };
        const base = path.join(folder, `${path.basename(playtest.file, PLAYTEST_SUFFIX)}-turn-${turn.index}`);
        await writeFile(`${base}.plan.json`, `${JSON.stringify(record.plan, null, 2)}\n`);
        await writeFile(`${base}.state.json`, `${JSON.stringify(record.initialState ?? {}, null, 2)}\n`);
        const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root)), {
          type: 'narratoria',
          request: 'launch',
          name: `Debug ${playtest.name}, turn ${turn.index}`,
          plan: `${base}.plan.json`,
          state: `${base}.state.json`,
          root,
          stopOnEntry: true,
        });
        if (!started) this.options.log.warn(`the debugger did not start for ${playtest.name}, turn ${turn.index}`);
      }
    }
  }

  /** The extension's own narrators: the pattern narrator, or the local model the narrator service holds (never a second copy). */
  private async narratorFor(kind: NarratorChoice): Promise<{ narrator: PatternNarrator | LlamaNarrator; scriptEnvironment: Readonly<Record<string, string>> } | undefined> {
    if (kind === 'pattern') return { narrator: new PatternNarrator(), scriptEnvironment: {} };
    const choice = await this.options.narrator.currentChoice();
    if (choice.narrator instanceof LlamaNarrator || kind === 'auto') return { narrator: choice.narrator as LlamaNarrator | PatternNarrator, scriptEnvironment: choice.scriptEnvironment };
    throw new Error(`no local model: ${choice.reason}`);
  }

  private reportTurn(run: vscode.TestRun, file: vscode.TestItem, turn: TurnReport): void {
    const child = file.children.get(`${file.id}#turn-${turn.index}`);
    if (!child) return;
    if (turn.runId) this.runIds.set(child.id, turn.runId);
    if (turn.transcript) run.appendOutput(`Turn ${turn.index}: ${turn.input}\r\n${turn.transcript.replace(/\r?\n/g, '\r\n')}\r\n`, undefined, child);
    if (turn.status === 'passed') {
      run.passed(child, turn.durationMs);
      this.outcomes.set(child.id, { state: 'passed', messages: [] });
      return;
    }
    const messages = turn.failures.map((failure) => {
      const message = failure.expected !== undefined || failure.actual !== undefined ? vscode.TestMessage.diff(`${failure.expectation}: ${failure.message}`, shown(failure.expected), shown(failure.actual)) : new vscode.TestMessage(`${failure.expectation}: ${failure.message}`);
      message.location = new vscode.Location(file.uri!, new vscode.Position(failure.line - 1, failure.column - 1));
      message.contextValue = TURN_FAILURE_CONTEXT;
      return message;
    });
    run.failed(child, messages, turn.durationMs);
    this.outcomes.set(child.id, { state: 'failed', messages });
  }
}

/** A value as the diff shows it: text as itself, anything else as indented JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? '';
}

/** The file's problems as the item's error (plain text, one per line, as narratoria test prints them). */
function problemsText(problems: readonly PlaytestProblem[]): string {
  return problems.map((problem) => `${problem.line}:${problem.column} error ${problem.code}: ${problem.message}`).join('\n');
}
