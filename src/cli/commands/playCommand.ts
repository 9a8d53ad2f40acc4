// `narratoria play`: an interactive play-test session in the terminal, or one turn with --once (TurnResult JSON).
import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { LlamaNarrator } from '../../runtime/narrator/llamaNarrator.js';
import { createNarrator, type NarratorMode } from '../../runtime/narrator/narratorFactory.js';
import { uiEventLine } from '../../runtime/session/uiEventLine.js';
import { explanationLines } from '../../runtime/narrator/planExplanation.js';
import { PlaySession, SessionUnreadableError } from '../../runtime/session/playSession.js';
import { readSessionFile } from '../../runtime/session/sessionStore.js';
import { chooseSession } from './playSessionChoice.js';
import { onNarrationChunk } from '../../runtime/session/narrationStream.js';
import { runTurn } from '../../runtime/session/turnRunner.js';
import type { PlanRun } from '../../runtime/executor/planExecutor.js';
import type { TurnResult } from '../../runtime/session/turnTypes.js';
import { SkillRegistry } from '../../runtime/skills/skillRegistry.js';
import { FileRunStore, runsDirectory } from '../../runtime/persistence/runStore.js';
import { disabledSkillLines, toolFailures } from '../../runtime/session/failureReport.js';
import { plural } from '../../runtime/common/humanText.js';
import { PlayInterrupts } from './playInterrupts.js';
import { ProgressLine } from './progressLine.js';
import { ExitCode, parseFormat, parseOptions, parsePositiveInteger, styler, toJson, UsageError, type CliIo, type Styler } from '../cliSupport.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { unusableSkillProblems, writeSkillProblems } from '../skillProblemLines.js';
import { storyLines } from '../../runtime/campaign/play/storyExplanation.js';
import { loadCampaignStory } from '../../runtime/campaign/play/index.js';
import { onceInCampaign } from './playCampaignOnce.js';

export async function playCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, {
    root: { type: 'string' },
    narrator: { type: 'string' },
    model: { type: 'string' },
    session: { type: 'string' },
    once: { type: 'string' },
    format: { type: 'string' },
    concurrency: { type: 'string' },
    'tool-timeout': { type: 'string' },
    'plan-timeout': { type: 'string' },
    'no-bundled-skills': { type: 'boolean' },
    explain: { type: 'boolean' },
    threads: { type: 'string' },
    'budget-ms': { type: 'string' },
    'turn-budget': { type: 'string' },
    new: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`play takes no positional arguments (got "${positionals[0]}"); use --once "TEXT" for one turn`);
  const format = parseFormat(values.format);
  const mode = (values.narrator ?? 'auto') as NarratorMode;
  if (!['auto', 'pattern', 'llm'].includes(mode)) throw new UsageError(`--narrator must be auto, pattern or llm, not "${values.narrator}"`);
  if (format === 'json' && values.once === undefined) throw new UsageError('--format json needs --once "TEXT" (the interactive session is text only)');
  const root = path.resolve(io.cwd, values.root ?? '.');
  const execution = {
    concurrency: parsePositiveInteger('concurrency', values.concurrency),
    toolTimeoutMs: parsePositiveInteger('tool-timeout', values['tool-timeout']),
    planTimeoutMs: parsePositiveInteger('plan-timeout', values['plan-timeout']),
  };
  const extraSkillRoots = values['no-bundled-skills'] || !io.bundledSkillsDirectory ? [] : [io.bundledSkillsDirectory];
  const registry = await SkillRegistry.load({ root, extraSkillRoots, environment: io.env as Record<string, string | undefined> });
  // Broken skills are loud: each problem that leaves a skill unusable, before the first turn (docs/writing-skills.md#when-a-skilljson-is-broken).
  writeSkillProblems((text) => io.stderr.write(text), unusableSkillProblems(registry), io.cwd, styler(io.stderr, io.env));
  const choice = await createNarrator({
    mode,
    root,
    modelPath: values.model !== undefined ? path.resolve(io.cwd, values.model) : undefined,
    modelDirectory: io.env['NARRATORIA_MODEL_DIR'],
    threads: parsePositiveInteger('threads', values.threads),
    budgetMs: parsePositiveInteger('budget-ms', values['budget-ms']),
  });
  const style = styler(io.stdout, io.env);
  const explain = values.explain === true;
  // Every attempt's plan run is recorded like `run`'s, so `narratoria runs list|show` reads what a turn did.
  const runStore = new FileRunStore(runsDirectory(root));
  const executionOptions = { ...execution, root, extraSkillRoots, skillContext: registry, extraEnv: choice.scriptEnvironment, runStore };
  const turnBudgetMs = parsePositiveInteger('turn-budget', values['turn-budget']);
  const records = { store: runStore, root, cwd: io.cwd };
  const chosen = await chooseSession(root, io.cwd, values.session, values.new === true, values.once !== undefined);
  if (chosen?.note) io.stderr.write(`${style.dim(chosen.note)}\n`);
  if (chosen?.file !== undefined && chosen.id !== undefined && values.new === true && (await readSessionFile(chosen.file)) !== undefined) {
    // --new with the name of a saved play-through: it is not overwritten.
    throw new UsageError(
      `the session "${chosen.id}" already exists; continue it without --new, or delete it first with "narratoria sessions delete ${chosen.id}"`,
    );
  }
  const sessionOptions = chosen ? { file: chosen.file, ...(chosen.dataScope ? { dataScope: chosen.dataScope } : {}), refuseUnreadable: true } : undefined;
  const openPlaySession = () =>
    openSession({ root, ...sessionOptions, narrator: choice.narrator, skills: registry, execution: executionOptions, turnBudgetMs });
  try {
    if (values.once !== undefined) {
      const once = values.once;
      let result: TurnResult;
      // In a terminal, a local-model retelling is shown as it is written.
      const streamed = new StreamedNarration(io, format === 'text');
      const progress = new ProgressLine(io, style, format === 'text' && Boolean(io.stdout.isTTY));
      const follow = (run: PlanRun) => {
        streamed.follow(run);
        progress.follow(run);
      };
      try {
        if (sessionOptions !== undefined) {
          const session = await openPlaySession();
          session.onDidStartPlanRun(({ run }) => follow(run));
          result = await session.play(once, signal);
        } else {
          const story = await loadCampaignStory(root);
          result = story
            ? await onceInCampaign(once, signal, follow, {
                root,
                story,
                narrator: choice.narrator,
                skills: registry,
                execution: executionOptions,
                turnBudgetMs,
              })
            : await runTurn(once, {
                narrator: choice.narrator,
                skills: registry,
                state: {},
                execution: executionOptions,
                turnBudgetMs,
                signal,
                onPlanRunStarted: follow,
              });
        }
      } finally {
        progress.stop();
      }
      if (format === 'json') io.stdout.write(toJson(result));
      else printTurn(result, io, style, true, explain, records, streamed.take());
      return result.cancelled ? ExitCode.Failure : ExitCode.Success;
    }
    return await interactive(io, signal, style, choice.reason, explain, records, await openPlaySession());
  } finally {
    // A fixed prompt still being evaluated is saved before the process ends, so the next `play` starts from it.
    if (choice.narrator instanceof LlamaNarrator && !signal.aborted && choice.narrator.preparingPrompt) {
      io.stderr.write("Saving the local model's evaluated prompt for the next session (Ctrl-C skips it)…\n");
      const skip = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([choice.narrator.settle(PROMPT_SAVE_WAIT_MS), skip]);
    }
    await choice.narrator.dispose();
    registry.dispose();
  }
}

/** Opens the play-through; a saved one that is damaged or of another version is a usage error (exit 2), left untouched. */
async function openSession(options: Parameters<typeof PlaySession.open>[0]): Promise<PlaySession> {
  try {
    return await PlaySession.open(options);
  } catch (error) {
    if (error instanceof SessionUnreadableError)
      throw new UsageError(`${error.message} Start another with --new, or delete it with "narratoria sessions delete".`);
    throw error;
  }
}

/** How long `play` waits, at exit, for the local model's fixed prompt to be evaluated and saved (about a minute on a 2-core CPU). */
const PROMPT_SAVE_WAIT_MS = 180_000;

async function interactive(
  io: CliIo,
  signal: AbortSignal,
  style: Styler,
  narratorReason: string,
  explain: boolean,
  records: RunRecords,
  session: PlaySession,
): Promise<ExitCode> {
  io.stdout.write(`${style.bold('Narratoria')} — ${narratorReason}. Session ${session.file}\n`);
  if (session.story) io.stdout.write(`${style.bold(session.story.title)}: a campaign, played scene by scene (docs/campaigns.md#playing-a-campaign).\n`);
  if (session.recovery)
    io.stdout.write(style.yellow(`The saved session could not be read (${session.recovery.reason}); it was moved to ${session.recovery.movedTo}.\n`));
  io.stdout.write(style.dim('Type what you do, a choice number, /state, /restart, /help or /quit.\n'));
  const played = session.turns.filter((turn) => !turn.opening).length;
  if (session.turns.length > 0) io.stdout.write(`${played > 0 ? `${style.dim(`(${played} turn(s) so far)`)}\n` : ''}${session.turns.at(-1)!.narrative}\n`);
  printChoices(session.lastChoices, io, style);
  const streamed = new StreamedNarration(io, true);
  const progress = new ProgressLine(io, style);
  session.onDidStartPlanRun(({ run }) => {
    streamed.follow(run);
    progress.follow(run);
  });
  const reader = createInterface({ input: io.stdin ?? process.stdin, output: io.stdout as NodeJS.WritableStream, terminal: Boolean(io.stdout.isTTY) });
  // Lines are read through the iterator, which buffers them: piped input (`play < turns.txt`) plays every line, even
  // those that arrive while a turn runs. Ctrl+C at the prompt (a terminal's readline catches it) or the CLI's cancel ends the loop.
  const lines = reader[Symbol.asyncIterator]();
  const stop = () => reader.close();
  const interrupts = new PlayInterrupts(reader);
  reader.on('SIGINT', () => {
    const outcome = interrupts.press();
    if (outcome === 'cancelled-turn') io.stdout.write(style.yellow('\nCancelling the turn… (Ctrl+C again to quit)\n'));
    else if (outcome === 'cleared-line') {
      // As a shell does: the half-typed line is dropped and a fresh prompt shown.
      reader.write(null, { ctrl: true, name: 'u' });
      io.stdout.write('\n');
      reader.prompt();
    } else stop();
  });
  signal.addEventListener('abort', stop, { once: true });
  reader.setPrompt(style.cyan('> '));
  try {
    for (;;) {
      if (signal.aborted || interrupts.quit) break;
      reader.prompt();
      const next = await lines.next();
      if (next.done) break; // Ctrl+C, Ctrl+D or the input closed
      const line = next.value.trim();
      // Piped input is not echoed by a terminal: the transcript shows each line after its prompt.
      if (!io.stdout.isTTY) io.stdout.write(`${next.value}\n`);
      if (line === '') continue;
      if (line === '/quit' || line === '/exit') break;
      if (line === '/help') {
        io.stdout.write(
          'Type an action ("I look around"), a number to pick a choice, /state to see the session state, /restart to start over, /quit to leave.\n',
        );
        continue;
      }
      if (line === '/state') {
        io.stdout.write(toJson(session.state));
        continue;
      }
      if (line === '/restart') {
        const copy = await session.restart();
        io.stdout.write(`The session starts over; every skill is healthy again.${copy ? ` The previous session was kept in ${copy}.` : ''}\n`);
        continue;
      }
      const number = /^\d+$/.test(line) ? Number(line) : undefined;
      // The first Ctrl+C cancels only this turn (its tools are killed with their process trees), then the prompt comes back.
      const turnSignal = interrupts.startTurn(signal);
      let result: TurnResult;
      try {
        result =
          number !== undefined && number >= 1 && number <= session.lastChoices.length
            ? await session.choose(number - 1, turnSignal)
            : await session.play(line, turnSignal);
      } finally {
        interrupts.endTurn();
        progress.stop();
      }
      printTurn(result, io, style, false, explain, records, streamed.take());
      // A campaign's ending ends the play-through.
      if (session.ending) {
        io.stdout.write(style.bold(`The end: ${session.ending.title}.\n`));
        break;
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
    reader.close();
  }
  return interrupts.quit || signal.aborted ? ExitCode.Interrupted : ExitCode.Success;
}

/** A turn's narration as the local model writes it, printed piece by piece while the plan runs. */
class StreamedNarration {
  private text = '';
  private readonly subscriptions = new DisposableStore();

  constructor(
    private readonly io: CliIo,
    private readonly enabled: boolean,
  ) {}

  follow(run: PlanRun): void {
    if (!this.enabled) return;
    this.subscriptions.addAll(
      onNarrationChunk(run, (text) => {
        this.text += text;
        this.io.stdout.write(text);
      }),
    );
  }

  /** What was shown for the turn (then forgets it and its runs). */
  take(): string {
    const text = this.text;
    this.text = '';
    this.subscriptions.dispose();
    return text;
  }
}

/**
 * `explain`: under each attempt, why the narrator chose each tool (the pattern narrator's matched words, score and
 * cues). `streamed`: the narration already shown as it was written (the final text is printed only if it differs).
 */
function printTurn(result: TurnResult, io: CliIo, style: Styler, verbose: boolean, explain: boolean, records: RunRecords, streamed = ''): void {
  if (streamed !== '') {
    io.stdout.write('\n');
    if (streamed.replace(/\s+/g, ' ').trim() === result.narrative.replace(/\s+/g, ' ').trim()) result = { ...result, narrative: '' };
  }
  if (verbose || explain || result.attempts.length > 1 || result.fallback) {
    for (const attempt of result.attempts) {
      const tools = attempt.plan.tools.map((tool) => tool.toolId).join(', ') || 'narrative only';
      const reason = attempt.fallbackReason ? ` (LLM fell back: ${attempt.fallbackReason})` : '';
      io.stdout.write(
        style.dim(
          `attempt ${attempt.attempt} [${attempt.narrator}${reason}] ${tools}: ${attempt.outcome}${attempt.result.failedTools.length ? ` — failed: ${attempt.result.failedTools.join(', ')}` : ''}\n`,
        ),
      );
      if (explain) for (const line of explanationLines(attempt.plan)) io.stdout.write(style.dim(`  why ${line}\n`));
    }
  }
  printFailures(result, io, style, records);
  if (result.story) for (const line of storyLines(result.story, explain)) io.stdout.write(style.dim(`${explain ? '  story ' : ''}${line}\n`));
  for (const ui of result.uiEvents) {
    if (ui.event === 'dice_roll') io.stdout.write(style.cyan(`🎲 ${String(ui.payload?.['formula'] ?? '')} → ${String(ui.payload?.['total'] ?? '')}\n`));
    // A skill's own event (a price list, a card drawn), one line each where the play panel draws a card.
    const line = uiEventLine(ui);
    if (line !== undefined) io.stdout.write(style.cyan(`▸ ${line}\n`));
  }
  if (result.narrative !== '' || streamed === '') io.stdout.write(`${result.fallback ? style.yellow(result.narrative) : result.narrative}\n`);
  for (const asset of result.assets) io.stdout.write(style.dim(`[${asset.kind}] ${asset.path}\n`));
  if (verbose && result.reflection) {
    io.stdout.write(style.dim(`reflection (${result.reflection.source}): ${result.reflection.summary}\n`));
    for (const suggestion of result.reflection.suggestions) io.stdout.write(style.dim(`  hint: ${suggestion}\n`));
  }
  printChoices(result.choices, io, style);
}

/** Where the CLI's play turns are recorded, to name each failed attempt's record. */
interface RunRecords {
  readonly store: FileRunStore;
  readonly root: string;
  readonly cwd: string;
}

/** A path as the user would type it from `cwd`: relative inside it, absolute outside. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/** Every failed tool of the turn: its error code and message, the last lines of its stderr and its run record; then each disabled skill with its reason, and a spent budget. */
function printFailures(result: TurnResult, io: CliIo, style: Styler, records: RunRecords): void {
  const failures = toolFailures(result);
  const write = (text: string) => io.stdout.write(`${text}\n`);
  for (const failure of failures) {
    write(style.red(`✖ attempt ${failure.attempt}: ${failure.line}${failure.skill ? ` (skill ${failure.skill})` : ''}`));
    if (failure.code !== undefined && !failure.line.includes(failure.code)) write(`    ${failure.code}: ${failure.message ?? ''}`);
    if (failure.stderr.length > 0) {
      write(style.dim(`    stderr (last ${plural(failure.stderr.length, 'line')}):`));
      for (const line of failure.stderr) write(style.dim(`    | ${line}`));
    }
  }
  const rootFlag = records.root === records.cwd ? '' : ` --root ${shownPath(records.root, records.cwd)}`;
  for (const planId of new Set(failures.map((failure) => failure.planId)))
    write(style.dim(`    run record: ${shownPath(records.store.recordFile(planId), records.cwd)} (narratoria runs show ${planId}${rootFlag})`));
  for (const line of disabledSkillLines(result)) write(style.yellow(line));
  if (result.budgetSpentMs !== undefined)
    write(style.yellow(`The turn's budget of ${(result.budgetSpentMs / 1000).toFixed(1)} s was spent; raise it with --turn-budget MS.`));
}

function printChoices(choices: readonly string[], io: CliIo, style: Styler): void {
  choices.forEach((choice, index) => io.stdout.write(`  ${style.bold(String(index + 1))}. ${choice}\n`));
}
