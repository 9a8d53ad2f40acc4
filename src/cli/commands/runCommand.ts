// `narratoria run <plan.json>`: validates, executes with live progress (text) or prints only the ExecutionResult (json).
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeJsonAtomic } from '../../runtime/common/atomicWrite.js';
import { startPlanRun, type ExecutePlanOptions } from '../../runtime/executor/planExecutor.js';
import { invalidPlanResult } from '../../runtime/executor/resultBuilder.js';
import type { ExecutionResult } from '../../runtime/contractTypes/executionResult.js';
import { FileRunStore, runsDirectory, type RunRecord } from '../../runtime/persistence/runStore.js';
import { isPlainObject } from '../../runtime/state/deepMerge.js';
import { SkillRegistry } from '../../runtime/skills/skillRegistry.js';
import { validatePlanText } from '../../runtime/validation/validatePlan.js';
import {
  batchedWriter,
  cannotRead,
  tuneV8ForRun,
  ExitCode,
  parseFormat,
  parseJsonObject,
  parseOptions,
  parsePositiveInteger,
  readInputFile,
  styler,
  toJson,
  UsageError,
  type CliIo,
} from '../cliSupport.js';
import { formatSummary, reportProgress } from '../../runtime/executor/runTranscript.js';
import { toReportDiagnostic } from '../../runtime/validation/diagnostic.js';
import { brokenSkillWarning, formatDiagnostic, unusedBrokenSkills } from './diagnosticLines.js';

const runOptions = {
  root: { type: 'string' },
  format: { type: 'string' },
  concurrency: { type: 'string' },
  'tool-timeout': { type: 'string' },
  'plan-timeout': { type: 'string' },
  'max-events': { type: 'string' },
  state: { type: 'string' },
  rollback: { type: 'boolean' },
  'allow-outside-skills': { type: 'boolean' },
  'allow-tool-root': { type: 'string', multiple: true },
  'no-save': { type: 'boolean' },
} as const;

/** How often progress is written when stdout is a pipe or a file. */
const PIPED_PROGRESS_INTERVAL_MS = 50;

export { runsDirectory } from '../../runtime/persistence/runStore.js';

export async function runCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, runOptions);
  const format = parseFormat(values.format);
  if (positionals.length !== 1) throw new UsageError('run needs exactly one plan file');
  const planFile = positionals[0]!;
  const root = path.resolve(io.cwd, values.root ?? '.');
  const statePath = values.state !== undefined ? path.resolve(io.cwd, values.state) : undefined;
  const settings = {
    concurrency: parsePositiveInteger('concurrency', values.concurrency),
    toolTimeoutMs: parsePositiveInteger('tool-timeout', values['tool-timeout']),
    planTimeoutMs: parsePositiveInteger('plan-timeout', values['plan-timeout']),
    maxEventsPerTool: parsePositiveInteger('max-events', values['max-events']),
  };
  const allowedToolRoots = (values['allow-tool-root'] ?? []).map((directory) => path.resolve(io.cwd, directory));
  const text = await readInputFile(planFile, io);
  const initialState = statePath ? await readState(statePath) : undefined;

  // The registry hands scripts their validated config; its broken skills are refused if the plan uses them, else warned about.
  const registry = await SkillRegistry.load({ root, environment: io.env as Record<string, string | undefined> });
  const validation = await validatePlanText(text, {
    root,
    allowOutsideSkills: values['allow-outside-skills'] === true,
    allowedToolRoots,
    brokenSkills: registry.brokenSkills,
  });
  const style = styler(io.stderr, io.env);
  for (const broken of unusedBrokenSkills(registry.brokenSkills, validation.resolvedToolPaths.values())) {
    for (const problem of broken.problems) io.stderr.write(formatDiagnostic('', brokenSkillWarning(problem, io.cwd), style));
  }
  if (!validation.valid || !validation.plan) {
    registry.dispose();
    for (const diagnostic of validation.diagnostics) io.stderr.write(formatDiagnostic(planFile, toReportDiagnostic(diagnostic), style));
    io.stderr.write(`The plan is invalid; nothing ran.\n`);
    if (format === 'json') {
      const plan = isPlainObject(validation.plan) ? validation.plan : ({ requestId: '', tools: [] } as never);
      io.stdout.write(toJson(invalidPlanResult(plan, validation.diagnostics, new Date())));
    }
    return ExitCode.Usage;
  }
  // Warnings do not stop a run, but say what it will do differently (a clamped retry policy, an ignored key).
  for (const diagnostic of validation.diagnostics) {
    if (diagnostic.severity === 'warning') io.stderr.write(formatDiagnostic(planFile, toReportDiagnostic(diagnostic), style));
  }
  return executeAndReport(
    validation.plan,
    root,
    {
      ...settings,
      initialState,
      rollbackOnFailure: values.rollback,
      allowOutsideSkills: values['allow-outside-skills'],
      allowedToolRoots,
      save: values['no-save'] !== true,
      statePath,
      format,
      registry,
    },
    io,
    signal,
  );
}

export interface ExecutionSettings {
  readonly concurrency?: number | undefined;
  readonly toolTimeoutMs?: number | undefined;
  readonly planTimeoutMs?: number | undefined;
  readonly maxEventsPerTool?: number | undefined;
  readonly initialState?: Record<string, unknown> | undefined;
  readonly rollbackOnFailure?: boolean | undefined;
  readonly allowOutsideSkills?: boolean | undefined;
  /** Folders outside skills/ whose scripts may run (`--allow-tool-root`), absolute. */
  readonly allowedToolRoots?: readonly string[] | undefined;
  readonly save: boolean;
  readonly statePath?: string | undefined;
  readonly format: 'text' | 'json';
  readonly resume?: RunRecord | undefined;
  /** The story's skills, when the caller loaded them already (disposed here); else loaded here. */
  readonly registry?: SkillRegistry | undefined;
}

/** Runs a validated plan, prints progress or JSON, writes --state back, and maps the outcome to an exit code. */
export async function executeAndReport(plan: RunRecord['plan'], root: string, settings: ExecutionSettings, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const options: ExecutePlanOptions = {
    root,
    signal,
    concurrency: settings.concurrency,
    toolTimeoutMs: settings.toolTimeoutMs,
    planTimeoutMs: settings.planTimeoutMs,
    maxEventsPerTool: settings.maxEventsPerTool,
    initialState: settings.initialState,
    rollbackOnFailure: settings.rollbackOnFailure,
    allowOutsideSkills: settings.allowOutsideSkills,
    allowedToolRoots: settings.allowedToolRoots,
    runStore: settings.save ? new FileRunStore(runsDirectory(root)) : undefined,
    resume: settings.resume,
  };
  // The registry hands scripts their validated config (defaults, ${VAR} substitution, x-env-var).
  const registry = settings.registry ?? (await SkillRegistry.load({ root, environment: io.env as Record<string, string | undefined> }));
  const restoreV8 = tuneV8ForRun(io.env);
  const run = startPlanRun(plan, { ...options, skillContext: registry });
  // Progress reaches a terminal as it happens, and a pipe or a file in chunks (fewer writes; nobody watches them line by line).
  const progress = batchedWriter((text) => io.stdout.write(text), io.stdout.isTTY ? 0 : PIPED_PROGRESS_INTERVAL_MS);
  if (settings.format === 'text') {
    const style = styler(io.stdout, io.env);
    if (plan.narrative) io.stdout.write(`${style.bold('Narrative:')} ${plan.narrative}\n`);
    reportProgress(run, progress.write, style);
  }
  const result: ExecutionResult = await run.result.finally(() => {
    restoreV8();
    progress.flush();
    registry.dispose();
  });
  if (settings.statePath && result.status !== 'cancelled') await writeJsonAtomic(settings.statePath, result.aggregatedState);
  if (settings.format === 'json') io.stdout.write(toJson(result));
  else io.stdout.write(formatSummary(result, styler(io.stdout, io.env)));
  return result.success ? ExitCode.Success : ExitCode.Failure;
}

/** Reads the --state file: missing means empty state; anything but a JSON object is a usage error. */
async function readState(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(cannotRead(`state file ${file}`, error));
  }
  return parseJsonObject(text, `state file ${file}`);
}
