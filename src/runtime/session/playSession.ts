// A play session: turns in order, state carried between them, saved atomically after each turn (contracts/session.schema.json).
import { randomUUID } from 'node:crypto';
import { appendFile, copyFile, mkdir, readFile, rename } from 'node:fs/promises';
import * as path from 'node:path';
import { writeJsonAtomic } from '../common/atomicWrite.js';
import { Emitter, type Event } from '../common/event.js';
import type { Disposable } from '../common/disposable.js';
import { validateAgainst } from '../contracts/schemas.js';
import { deriveSeed, randomSeed } from '../common/seed.js';
import type { ExecutePlanOptions, PlanRun } from '../executor/planExecutor.js';
import type { Narrator } from '../narrator/index.js';
import { runTurn, type SkillSource } from './turnRunner.js';
import { sessionScope, type SkillDataScope } from '../skills/skillDataScope.js';
import { readSessionFile } from './sessionStore.js';
import { firstAttemptSkills } from './turnOutcome.js';
import type { AttemptLogEntry, TurnResult } from './turnTypes.js';
import { loadCampaignStory } from '../campaign/play/index.js';
import type { CampaignStory } from '../campaign/play/campaignStory.js';
import type { StoryTurn } from '../campaign/play/storyContext.js';
import { campaignStateOf } from '../campaign/play/storyState.js';
import { playStoryTurn } from './storyTurns.js';
import { endedTurn } from './storyEnd.js';

/** Mirrors one entry of `turns` in contracts/session.schema.json. */
export interface TurnRecord {
  readonly index: number;
  readonly input: string;
  /** The number (1-based) of the previous turn's choice this turn played, when it played one. */
  readonly choice?: number;
  /** The skills of the first attempt, in the order its plan first uses them (what a playtest expects). */
  readonly skills?: readonly string[];
  readonly narrative: string;
  readonly choices: readonly string[];
  readonly fallback: boolean;
  readonly cancelled: boolean;
  readonly narrator: TurnResult['narrator'];
  readonly disabledSkills: readonly string[];
  readonly changedKeys: readonly string[];
  readonly assets: TurnResult['assets'];
  readonly uiEvents: TurnResult['uiEvents'];
  readonly attempts: readonly {
    readonly attempt: number;
    readonly planId: string;
    readonly parentPlanId: string | null;
    readonly narrator: TurnResult['narrator'];
    readonly fallbackReason?: string;
    readonly outcome: string;
    readonly failedTools: readonly string[];
    readonly disabledSkills: readonly string[];
  }[];
  readonly startedAt: string;
  readonly durationMs: number;
  /** The opening scene of a campaign (its premise and first choices): no input was played. */
  readonly opening?: boolean;
  /** What the turn did to a campaign's story. */
  readonly story?: StoryTurn;
}

/** Mirrors contracts/session.schema.json. */
export interface SessionFile {
  readonly formatVersion: 1;
  readonly sessionId: string;
  readonly root: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly state: Record<string, unknown>;
  /** The session's seed: turn n plays with a seed derived from it, so the session can be replayed (absent in older files). */
  readonly seed?: number;
  /** The state before turn 1 (absent in older files: then {}). */
  readonly initialState?: Record<string, unknown>;
  readonly turns: readonly TurnRecord[];
}

export interface PlaySessionOptions {
  readonly root: string;
  /** Where the session is saved (default `<root>/.narratoria/session.json`). */
  readonly file?: string | undefined;
  readonly narrator: Narrator;
  /** The skills framework; restarting the session resets skill health. */
  readonly skills: SkillSource & { restartSession(): void };
  readonly execution?: Omit<ExecutePlanOptions, 'root'> | undefined;
  /** JSON-lines log of every plan attempt (default `<root>/.narratoria/logs/plan-attempts.jsonl`; null disables it). */
  readonly attemptLogFile?: string | null | undefined;
  /** A new session's seed (default: a fresh one); a saved session keeps its own. */
  readonly seed?: number | undefined;
  /** A new session's state before turn 1 (default {}). */
  readonly initialState?: Record<string, unknown> | undefined;
  /** Bounds each turn's whole replan loop, in milliseconds (default: the turn runner's, two plan timeouts). */
  readonly turnBudgetMs?: number | undefined;
  /**
   * Where the skills keep this session's data (default: `<root>/.narratoria/sessions/<sessionId>/data`, the story's
   * shared data in `.narratoria/shared`). A playtest or an explored session passes a scope of its own.
   */
  readonly dataScope?: SkillDataScope | undefined;
  /** A saved file that is damaged, or of another format version, is refused (SessionUnreadableError) and left as it is, instead of set aside. */
  readonly refuseUnreadable?: boolean | undefined;
  /**
   * The campaign the session plays (docs/campaigns.md#playing-a-campaign): by default the one at `root` when it holds a
   * manifest.json; null plays the story without one.
   */
  readonly story?: CampaignStory | null | undefined;
}

/** A saved session that cannot be played: damaged, or written by another version. The file is left untouched. */
export class SessionUnreadableError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`The session ${file} ${reason}. It was left as it is.`);
    this.name = 'SessionUnreadableError';
  }
}

/** Reported when a saved session could not be read and was set aside. */
export interface SessionRecovery {
  readonly file: string;
  readonly movedTo: string;
  readonly reason: string;
}

/**
 * The unit a player experiences. One turn runs at a time (later calls wait their turn); after each
 * turn the session file is replaced atomically, so a crash never leaves a half-written file.
 */
export class PlaySession implements Disposable {
  private readonly turnStartEmitter = new Emitter<{ readonly input: string; readonly index: number }>();
  private readonly turnEndEmitter = new Emitter<{ readonly result: TurnResult; readonly record: TurnRecord }>();
  private readonly planRunEmitter = new Emitter<{ readonly run: PlanRun; readonly attempt: number; readonly narrator: string }>();
  private readonly attemptEmitter = new Emitter<AttemptLogEntry>();
  private readonly restartEmitter = new Emitter<void>();
  readonly onDidStartTurn: Event<{ readonly input: string; readonly index: number }> = this.turnStartEmitter.event;
  readonly onDidFinishTurn: Event<{ readonly result: TurnResult; readonly record: TurnRecord }> = this.turnEndEmitter.event;
  readonly onDidStartPlanRun: Event<{ readonly run: PlanRun; readonly attempt: number; readonly narrator: string }> = this.planRunEmitter.event;
  readonly onDidLogAttempt: Event<AttemptLogEntry> = this.attemptEmitter.event;
  readonly onDidRestart: Event<void> = this.restartEmitter.event;

  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly options: PlaySessionOptions,
    readonly file: string,
    private data: SessionFile,
    /** Set when the saved file was unreadable and moved aside (nothing is ever deleted). */
    readonly recovery: SessionRecovery | undefined,
    /** The campaign the session plays, if any. */
    readonly story: CampaignStory | undefined,
  ) {}

  /** Opens the session file (creating a new session when there is none: a campaign's starts with its opening scene). */
  static async open(options: PlaySessionOptions): Promise<PlaySession> {
    const file = options.file ?? path.join(options.root, '.narratoria', 'session.json');
    const story = options.story === undefined ? await loadCampaignStory(options.root) : (options.story ?? undefined);
    const fresh = (): SessionFile => newSession(options, story);
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) return new PlaySession(options, file, fresh(), undefined, story);
    let reason: string | undefined;
    try {
      const value: unknown = JSON.parse(text);
      const problems = validateAgainst('session.schema.json', value);
      if (problems.length === 0) {
        const saved = value as SessionFile;
        return new PlaySession(options, file, saved.seed === undefined ? { ...saved, seed: options.seed ?? randomSeed() } : saved, undefined, story);
      }
      reason = `${problems[0]!.instancePath || '/'} ${problems[0]!.message ?? 'is invalid'}`;
    } catch (error) {
      reason = `not valid JSON: ${(error as Error).message}`;
    }
    if (options.refuseUnreadable) {
      const read = await readSessionFile(file);
      throw new SessionUnreadableError(file, read && 'problem' in read ? read.problem : `is damaged: ${reason}`);
    }
    const movedTo = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, movedTo);
    return new PlaySession(options, file, fresh(), { file, movedTo, reason }, story);
  }

  get sessionId(): string {
    return this.data.sessionId;
  }
  get state(): Record<string, unknown> {
    return this.data.state;
  }
  /** The session's seed (a session saved before seeds were kept gets one on opening). */
  get seed(): number {
    return this.data.seed!;
  }
  /** Where the skills keep this session's data: its own scope, else its folder under the story's `.narratoria/sessions`. */
  get dataScope(): SkillDataScope {
    return this.options.dataScope ?? sessionScope(this.options.root, this.data.sessionId);
  }

  /** The state before turn 1. */
  get initialState(): Record<string, unknown> {
    return this.data.initialState ?? {};
  }
  get turns(): readonly TurnRecord[] {
    return this.data.turns;
  }
  /** The choices offered by the last turn. */
  get lastChoices(): readonly string[] {
    return this.data.turns.at(-1)?.choices ?? [];
  }

  /** The ending a campaign session reached (then the story is over: a turn plays nothing). */
  get ending(): { readonly id: string; readonly title: string } | undefined {
    return this.story ? campaignStateOf(this.data.state).ending : undefined;
  }

  /** Plays one input (`choice`: the number of the last turn's choice it is, recorded for replays); resolves after the session has been saved. */
  play(input: string, signal?: AbortSignal, choice?: number): Promise<TurnResult> {
    return this.enqueue(input, choice, signal);
  }

  private enqueue(input: string, choice: number | undefined, signal: AbortSignal | undefined): Promise<TurnResult> {
    const next = this.queue.then(() => this.playNow(input, choice, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Plays the last turn's choice number `index` (0-based) as the next input. */
  choose(index: number, signal?: AbortSignal): Promise<TurnResult> {
    const choice = this.lastChoices[index];
    if (choice === undefined) return Promise.reject(new RangeError(`There is no choice ${index + 1}; the last turn offered ${this.lastChoices.length}.`));
    return this.enqueue(choice, index + 1, signal);
  }

  /**
   * Starts over: empty state, no turns, every skill healthy again. Saved at once. Waits for a running turn
   * to be saved first; a session with turns is copied to `<session dir>/history/session-<time>.json`
   * beforehand (nothing is lost), and that copy's path is returned.
   */
  async restart(): Promise<string | undefined> {
    await this.queue;
    let copy: string | undefined;
    if (this.data.turns.length > 0) {
      const history = path.join(path.dirname(this.file), 'history');
      await mkdir(history, { recursive: true });
      copy = path.join(history, `session-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
      await copyFile(this.file, copy);
    }
    this.options.skills.restartSession();
    this.data = newSession(this.options, this.story);
    await writeJsonAtomic(this.file, this.data);
    this.restartEmitter.fire();
    return copy;
  }

  dispose(): void {
    for (const emitter of [this.turnStartEmitter, this.turnEndEmitter, this.planRunEmitter, this.attemptEmitter, this.restartEmitter]) emitter.dispose();
  }

  private async playNow(input: string, choice: number | undefined, signal: AbortSignal | undefined): Promise<TurnResult> {
    const ending = this.ending;
    if (ending) return endedTurn(input, this.data.state, ending);
    const index = this.data.turns.length + 1;
    this.turnStartEmitter.fire({ input, index });
    const logFile =
      this.options.attemptLogFile === undefined ? path.join(this.options.root, '.narratoria', 'logs', 'plan-attempts.jsonl') : this.options.attemptLogFile;
    const logLines: string[] = [];
    const execution = { ...this.options.execution, root: this.options.root, dataScope: this.dataScope };
    const turnOptions = {
      narrator: this.options.narrator,
      skills: this.options.skills,
      state: this.data.state,
      execution,
      seed: deriveSeed(this.seed, 'turn', index),
      turnBudgetMs: this.options.turnBudgetMs,
      signal,
      onAttemptLogged: (entry: AttemptLogEntry) => {
        logLines.push(JSON.stringify({ sessionId: this.data.sessionId, turn: index, ...entry }));
        this.attemptEmitter.fire(entry);
      },
      onPlanRunStarted: (run: PlanRun, attempt: number, generated: { readonly narrator: string }) =>
        this.planRunEmitter.fire({ run, attempt, narrator: generated.narrator }),
    };
    const result = this.story
      ? await playStoryTurn(this.story, {
          input,
          state: this.data.state,
          summaries: this.data.turns.flatMap((turn) => (turn.story ? [turn.story.summary] : [])),
          seed: this.seed,
          index,
          skills: this.options.skills,
          execution,
          signal,
          play: (state, story) => runTurn(input, { ...turnOptions, state, story }),
        })
      : await runTurn(input, turnOptions);
    const record = toRecord(index, result, choice);
    this.data = { ...this.data, state: result.state, turns: [...this.data.turns, record], updatedAt: new Date().toISOString() };
    await writeJsonAtomic(this.file, this.data);
    if (logFile && logLines.length > 0) {
      await mkdir(path.dirname(logFile), { recursive: true });
      await appendFile(logFile, logLines.join('\n') + '\n');
    }
    this.turnEndEmitter.fire({ result, record });
    return result;
  }
}

/** A session with no turns (a campaign's: its opening scene): its seed, and its state before turn 1. */
function newSession(options: PlaySessionOptions, story: CampaignStory | undefined): SessionFile {
  const now = new Date().toISOString();
  const state = structuredClone(options.initialState ?? {});
  const opening = story?.opening(state);
  return {
    formatVersion: 1,
    sessionId: randomUUID(),
    root: options.root,
    createdAt: now,
    updatedAt: now,
    seed: options.seed ?? randomSeed(),
    initialState: structuredClone(state),
    state: opening ? opening.state : state,
    turns: opening ? [openingRecord(opening, now)] : [],
  };
}

/** The opening scene as the session's first turn: the premise told, no input played. */
function openingRecord(opening: { readonly narrative: string; readonly choices: readonly string[]; readonly story: StoryTurn }, now: string): TurnRecord {
  return {
    index: 1,
    input: '',
    skills: [],
    narrative: opening.narrative,
    choices: opening.choices,
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: [],
    changedKeys: [],
    assets: [],
    uiEvents: [],
    attempts: [],
    startedAt: now,
    durationMs: 0,
    opening: true,
    story: opening.story,
  };
}

function toRecord(index: number, result: TurnResult, choice: number | undefined): TurnRecord {
  return {
    index,
    input: result.input,
    ...(choice !== undefined ? { choice } : {}),
    skills: firstAttemptSkills(result),
    narrative: result.narrative,
    choices: result.choices,
    fallback: result.fallback,
    cancelled: result.cancelled,
    narrator: result.narrator,
    disabledSkills: result.disabledSkills,
    changedKeys: result.changedKeys,
    assets: result.assets,
    uiEvents: result.uiEvents,
    attempts: result.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      planId: attempt.plan.requestId,
      parentPlanId: attempt.plan.metadata?.parentPlanId ?? null,
      narrator: attempt.narrator,
      ...(attempt.fallbackReason ? { fallbackReason: attempt.fallbackReason } : {}),
      outcome: attempt.outcome,
      failedTools: attempt.result.failedTools,
      disabledSkills: attempt.disabledSkills,
    })),
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    ...(result.story ? { story: result.story } : {}),
  };
}
