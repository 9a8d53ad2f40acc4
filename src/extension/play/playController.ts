// Runs the workspace's play-through for the play panel: which saved session it is (Continue, New Game), turns, live tool progress as typed messages, details.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { PlaySession, SessionUnreadableError, type SessionFile } from '../../runtime/session/playSession.js';
import { deleteSession, listSessions, newSessionId, sessionFile } from '../../runtime/session/sessionStore.js';
import { adoptOlderSession, olderSessionOffer } from '../../runtime/session/olderSessionFile.js';
import { panelSessionToOpen, sessionPickEntries, type SessionPickEntry } from '../../runtime/session/sessionPicks.js';
import { sessionScope } from '../../runtime/skills/skillDataScope.js';
import { MAX_PLAN_ATTEMPTS } from '../../runtime/session/turnRunner.js';
import type { TurnResult } from '../../runtime/session/turnTypes.js';
import type { PlaySnapshot, ToPlayWebview } from '../../protocol/playPanelMessages.js';
import type { NarratorService } from '../narrator/narratorService.js';
import { executionLimits, type NarratoriaSettings } from '../settings.js';
import type { SkillsService } from '../skills/skillsService.js';
import { attemptViewOfLog, skillSummaryViews, turnView, type AssetUriResolver } from './turnViews.js';
import { ToolProgress } from './toolProgress.js';
import { turnLogLine } from '../../runtime/session/turnLogLine.js';
import { onNarrationChunk } from '../../runtime/session/narrationStream.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

export interface PlayControllerOptions {
  readonly root: string;
  readonly skills: SkillsService;
  readonly narrator: NarratorService;
  readonly settings: () => NarratoriaSettings;
  readonly log: vscode.LogOutputChannel;
}

/** Why a turn was not started. */
export type PlayRefusal = 'untrusted' | 'busy' | 'empty';

/**
 * One per workspace, independent of the panel: a turn keeps running while the panel is hidden or closed,
 * and a panel that (re)opens draws itself from `snapshot()`. Messages go to whichever panel is attached.
 */
export class PlayController implements vscode.Disposable {
  private session: Promise<PlaySession> | undefined;
  /** The play-through the panel plays: a session of the store by name (chosen on first use: the one played last, or a new one). */
  private current: string | undefined;
  private running: { readonly input: string; readonly abort: AbortController; finished?: Promise<unknown> } | undefined;
  /** Set when settings changed during a turn: the session is reopened once the turn ends. */
  private stale = false;
  private readonly results = new Map<number, TurnResult>();
  private readonly progress = new ToolProgress((message) => this.send(message));
  private notice: string | undefined;
  private post: ((message: ToPlayWebview) => void) | undefined;
  private readonly subscriptions = new DisposableStore();
  private readonly busyEmitter = new vscode.EventEmitter<boolean>();
  /** Fires when a turn starts (true) or ends (false). */
  readonly onDidChangeBusy = this.busyEmitter.event;
  /** Resolves asset paths to webview URIs; set by the attached panel. */
  resolveAssetUri: AssetUriResolver = () => undefined;

  constructor(private readonly options: PlayControllerOptions) {
    this.subscriptions.addAll(
      options.skills.onDidChangeSkills(() => this.send({ type: 'skillsChanged', skills: skillSummaryViews(options.skills) })),
      options.narrator.onDidChangeStatus((narrator) => this.send({ type: 'narratorChanged', narrator })),
      // A new narrator choice (settings, a downloaded model) changes the scripts' model environment.
      options.narrator.onDidChangeChoice(() => this.invalidateSession()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.send({ type: 'trustChanged', trusted: true })),
    );
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Attaches the panel that receives live messages (one at a time); returns a disposable that detaches it. */
  attach(post: (message: ToPlayWebview) => void): vscode.Disposable {
    this.post = post;
    return {
      dispose: () => {
        if (this.post === post) this.post = undefined;
      },
    };
  }

  /** Everything a panel needs to draw itself. Opening the session only reads the saved file. */
  async snapshot(): Promise<PlaySnapshot> {
    await this.options.skills.ready();
    const session = await this.openSession();
    // Only the last turn's attempts are in the tool panel, so only they carry their plan's graph.
    const turns = session.turns.map((record, position, all) =>
      turnView(record, this.options.root, this.resolveAssetUri, this.results.get(record.index), { graphs: position === all.length - 1 }),
    );
    return {
      sessionId: session.sessionId,
      sessionName: this.current ?? session.sessionId,
      turns,
      state: session.state,
      changedKeys: session.turns.at(-1)?.changedKeys ?? [],
      skills: skillSummaryViews(this.options.skills),
      narrator: this.options.narrator.status,
      trusted: vscode.workspace.isTrusted,
      busy: this.busy,
      ...(this.running
        ? {
            runningInput: this.running.input,
            runningAttempts: this.progress.runningAttempts(),
          }
        : {}),
      ...(this.notice ? { notice: this.notice } : {}),
    };
  }

  /** Plays `input` as the next turn. Resolves when the turn ended (or at once with the reason it did not start). */
  async play(input: string, choice?: number): Promise<PlayRefusal | TurnResult> {
    const text = input.trim();
    if (text === '') return 'empty';
    if (!vscode.workspace.isTrusted) {
      this.send({ type: 'trustChanged', trusted: false });
      return 'untrusted';
    }
    if (this.running) return 'busy';
    const abort = new AbortController();
    const running: { input: string; abort: AbortController; finished?: Promise<unknown> } = { input: text, abort };
    let settle: () => void = () => undefined;
    running.finished = new Promise<void>((resolve) => (settle = resolve));
    this.running = running;
    this.progress.clear();
    this.busyEmitter.fire(true);
    const subscriptions = new DisposableStore();
    try {
      const session = await this.openSession();
      this.send({ type: 'turnStarted', input: text, index: session.turns.length + 1 });
      const tools = new Map<string, readonly string[]>();
      subscriptions.addAll(
        session.onDidStartPlanRun(({ run, attempt, narrator }) => {
          tools.set(
            run.plan.requestId,
            run.plan.tools.map((tool) => tool.toolId),
          );
          subscriptions.add(this.progress.follow(run, attempt, narrator === 'llm' ? 'llm' : 'pattern'));
          subscriptions.add(onNarrationChunk(run, (piece) => this.send({ type: 'narrationStreamed', text: piece })));
        }),
        session.onDidLogAttempt((entry) => {
          this.options.log.debug(`plan attempt ${JSON.stringify(entry)}`);
          const attempt = attemptViewOfLog(entry, entry.planId ? (tools.get(entry.planId) ?? []) : []);
          this.progress.finishAttempt(entry.planId, attempt);
          this.send({ type: 'attemptFinished', attempt });
        }),
      );
      await this.options.skills.ready();
      const result = await session.play(text, abort.signal, choice);
      const record = session.turns.at(-1)!;
      this.results.set(record.index, result);
      this.progress.flush();
      this.logTurn(record.index, result);
      const maxAttemptsReached = result.fallback && !result.cancelled && result.attempts.length >= MAX_PLAN_ATTEMPTS;
      this.send({ type: 'turnFinished', turn: turnView(record, this.options.root, this.resolveAssetUri, result), state: result.state, maxAttemptsReached });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log.error(`the turn "${text}" failed: ${message}`);
      this.send({ type: 'turnFailed', message: `The turn could not be played: ${message}` });
      throw error;
    } finally {
      subscriptions.dispose();
      this.running = undefined;
      settle();
      if (this.stale) this.invalidateSession();
      this.busyEmitter.fire(false);
    }
  }

  /** Plays choice `choiceIndex` offered by turn `turnIndex` (only the last turn's choices can be taken). */
  async choose(turnIndex: number, choiceIndex: number): Promise<PlayRefusal | TurnResult | 'stale'> {
    const session = await this.openSession();
    const last = session.turns.at(-1);
    const choice = last?.index === turnIndex ? last.choices[choiceIndex] : undefined;
    if (choice === undefined) return 'stale';
    return this.play(choice, choiceIndex + 1);
  }

  cancel(): void {
    if (!this.running) return;
    this.options.log.info(`cancelling the turn "${this.running.input}"`);
    this.running.abort.abort();
  }

  /** The name of the play-through the panel plays (undefined until it was first opened). */
  get sessionName(): string | undefined {
    return this.current;
  }

  /** Starts a new play-through (named by the date and time); the current one stays saved and listed. Returns its name. */
  async newGame(): Promise<string> {
    await this.stopTurn();
    const id = await newSessionId(this.options.root);
    await this.switchTo(id);
    this.options.log.info(`new play-through ${id}`);
    return id;
  }

  /** Continues a saved play-through (the older session file is copied into the store first). Returns its name. */
  async continueSession(target: SessionPickEntry['target']): Promise<string> {
    await this.stopTurn();
    const id = target.kind === 'olderFile' ? await adoptOlderSession(this.options.root) : target.id;
    await this.switchTo(id);
    this.options.log.info(`continuing the play-through ${id}`);
    return id;
  }

  /** The session picker's entries: the saved play-throughs, last played first, and the older session file while it is offered. */
  async sessionPicks(): Promise<SessionPickEntry[]> {
    const root = this.options.root;
    return sessionPickEntries(await listSessions(root), await olderSessionOffer(root), this.current);
  }

  /** Deletes a saved play-through and its skills' data; never the one being played ('current'). */
  async deleteSession(id: string): Promise<'deleted' | 'current' | 'missing'> {
    if (id === this.current) return 'current';
    const deleted = await deleteSession(this.options.root, id);
    if (deleted) this.options.log.info(`deleted the play-through ${id}`);
    return deleted ? 'deleted' : 'missing';
  }

  /** Cancels a running turn and waits until it is saved. */
  private async stopTurn(): Promise<void> {
    const running = this.running;
    this.cancel();
    await running?.finished;
  }

  /** Makes `id` the current play-through and redraws the panel from it. */
  private async switchTo(id: string): Promise<void> {
    const previous = this.session;
    this.session = undefined;
    this.stale = false;
    void previous?.then(
      (session) => session.dispose(),
      () => undefined,
    );
    this.current = id;
    // Skill health is per play-through: a new or continued one starts with every skill healthy.
    this.options.skills.restartSession();
    this.results.clear();
    this.progress.clear();
    this.notice = undefined;
    this.send({ type: 'snapshot', snapshot: await this.snapshot() });
  }

  /** The full record of a turn (attempts, plans, tool results when known) as JSON for an editor. */
  async turnDetails(turnIndex: number): Promise<string | undefined> {
    const session = await this.openSession();
    const record = session.turns.find((turn) => turn.index === turnIndex);
    if (!record) return undefined;
    const result = this.results.get(turnIndex);
    return JSON.stringify(result ? { ...record, attemptsDetail: result.attempts, reflection: result.reflection } : record, null, 2);
  }

  /** The saved session as it is on disk now (its seed, its state before turn 1, its turns): what Save Session as Playtest writes from. */
  async savedSession(): Promise<SessionFile | undefined> {
    const session = await this.openSession();
    if (this.running) await this.running.finished;
    try {
      return JSON.parse(await readFile(session.file, 'utf8')) as SessionFile;
    } catch {
      return undefined;
    }
  }

  /** Closes the session so the next turn reopens it with the current settings. */
  invalidateSession(): void {
    if (this.running) {
      this.stale = true;
      return;
    }
    this.stale = false;
    const previous = this.session;
    this.session = undefined;
    void previous?.then(
      (session) => session.dispose(),
      () => undefined,
    );
  }

  dispose(): void {
    this.cancel();
    this.progress.dispose();
    this.subscriptions.dispose();
    this.busyEmitter.dispose();
    void this.session?.then(
      (session) => session.dispose(),
      () => undefined,
    );
  }

  private openSession(): Promise<PlaySession> {
    this.session ??= this.createSession().catch((error: unknown) => {
      this.session = undefined;
      throw error;
    });
    return this.session;
  }

  private async createSession(): Promise<PlaySession> {
    const root = this.options.root;
    if (this.current === undefined) {
      const chosen = await panelSessionToOpen(root);
      this.current = chosen.id;
      this.notice = chosen.notice;
      if (chosen.notice) this.options.log.warn(chosen.notice);
    }
    try {
      return await this.openCurrent();
    } catch (error) {
      if (!(error instanceof SessionUnreadableError)) throw error;
      // Refused, and left as it is: a new play-through starts, and the panel says why.
      const refused = this.current;
      this.current = await newSessionId(root);
      this.notice = `The play-through "${refused}" could not be opened: ${error.message} A new play-through "${this.current}" starts instead; Continue… lists the others.`;
      this.options.log.warn(this.notice);
      return this.openCurrent();
    }
  }

  /** Opens the current play-through: its file, its skills' data, and nothing set aside (an unreadable file is refused). */
  private async openCurrent(): Promise<PlaySession> {
    const settings = this.options.settings();
    const extraEnv = vscode.workspace.isTrusted ? await this.options.narrator.scriptEnvironment() : {};
    const id = this.current!;
    const session = await PlaySession.open({
      root: this.options.root,
      file: sessionFile(this.options.root, id),
      dataScope: sessionScope(this.options.root, id),
      refuseUnreadable: true,
      narrator: this.options.narrator.narrator,
      skills: this.options.skills,
      execution: {
        extraSkillRoots: this.options.skills.extraSkillRoots(),
        allowedToolRoots: this.options.skills.allowedToolRoots(),
        skillContext: this.options.skills,
        extraEnv,
        ...executionLimits(settings),
      },
      turnBudgetMs: settings.turnBudgetMs,
    });
    this.options.log.info(`play-through ${id} (${session.turns.length} turn(s)) from ${session.file}`);
    return session;
  }

  private logTurn(index: number, result: TurnResult): void {
    const line = turnLogLine(index, result);
    if (line.warning) this.options.log.warn(line.text);
    else this.options.log.info(line.text);
  }

  private send(message: ToPlayWebview): void {
    this.post?.(message);
  }
}
