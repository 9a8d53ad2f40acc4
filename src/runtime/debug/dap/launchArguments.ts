// The `narratoria` debug type's launch arguments: checked, with clear errors, and resolved into what to debug (a plan, a replay, one script or a campaign's story turns).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { findStoryRoot } from '../../authoring/storyRoot.js';
import { readGraphSource, recordedPlan } from '../../graph/graphSource.js';
import type { ToolResult } from '../../contractTypes/executionResult.js';
import type { Plan } from '../../contractTypes/plan.js';
import { isPlainObject } from '../../state/deepMerge.js';
import { validatePlanText } from '../../validation/validatePlan.js';
import type { DebugHistory } from '../debugHistory.js';
import { replayHistory } from '../replayHistory.js';
import type { DebugHost } from './debugHost.js';
import { isStoryLaunch, resolveStoryLaunch, type StoryLaunchArguments, type StoryLaunchTarget } from './storyLaunch.js';

/** Launch arguments of the `narratoria` debug type (the contract of issue 11; a story turn's arguments added by issue 44). */
export interface NarratoriaLaunchArguments extends DebugProtocol.LaunchRequestArguments, StoryLaunchArguments {
  readonly plan?: string;
  readonly root?: string;
  readonly stopOnEntry?: boolean;
  readonly state?: string;
  readonly concurrency?: number;
  readonly toolTimeoutMs?: number;
  readonly planTimeoutMs?: number;
  readonly noDebug?: boolean;
  readonly replay?: string;
  readonly script?: string;
  /** The script's input: an object, or the path of a JSON file. */
  readonly input?: unknown;
  /** Relative paths resolve against it (VS Code passes the workspace folder). */
  readonly cwd?: string;
}

/** A launch that cannot go ahead, with the message the user sees. */
export class LaunchError extends Error {}

interface Common {
  readonly root: string;
  readonly initialState: Record<string, unknown>;
  /** The plan's text, shown by the debugger (the file's, or the recorded plan's). */
  readonly text: string;
  readonly plan: Plan;
}

export type LaunchTarget =
  | (Common & { readonly kind: 'plan'; readonly planFile: string })
  | (Common & { readonly kind: 'script'; readonly scriptFile: string })
  | (Common & {
      readonly kind: 'replay';
      /** Set when breakpoints in a plan file apply to the replay; else the recorded plan is shown read-only. */
      readonly planFile: string | undefined;
      readonly recordFile: string;
      readonly history: DebugHistory;
      readonly results: readonly ToolResult[];
    })
  | StoryLaunchTarget;

/** Checks the arguments and reads what they name. */
export async function resolveLaunch(args: NarratoriaLaunchArguments, host: DebugHost): Promise<LaunchTarget> {
  checkTypes(args);
  const base = args.cwd ?? host.workspaceFolder ?? process.cwd();
  const resolve = (file: string) => path.resolve(base, file);
  if (isStoryLaunch(args)) {
    const root = args.root !== undefined ? resolve(args.root) : (host.workspaceFolder ?? base);
    const initialState = args.state !== undefined ? await readObject(resolve(args.state), '"state"') : {};
    return resolveStoryLaunch(args, { root, initialState, resolve, fail });
  }
  const modes = [args.replay !== undefined, args.script !== undefined, args.plan !== undefined && args.replay === undefined].filter(Boolean).length;
  if (modes === 0)
    throw new LaunchError(
      'Nothing to debug: set "plan" (a *.plan.json file), "replay" (a run record or ExecutionResult), "script" with "input", ' +
        'or "playerInput" with "root" a campaign folder (a story turn).',
    );
  if (args.script !== undefined && (args.plan !== undefined || args.replay !== undefined))
    throw new LaunchError('"script" debugs one skill script on its own: leave out "plan" and "replay".');
  const initialState = args.state !== undefined ? await readObject(resolve(args.state), '"state"') : {};

  if (args.replay !== undefined) {
    const recordFile = resolve(args.replay);
    const document = await readJson(recordFile, '"replay"');
    const source = readGraphSource(document);
    if (source.kind === 'plan') throw new LaunchError(`"replay": ${recordFile} is neither a run record (.narratoria/runs/<id>.json) nor an ExecutionResult.`);
    const recordRoot = isPlainObject(document) && typeof document['root'] === 'string' ? document['root'] : undefined;
    const planFile = args.plan !== undefined ? resolve(args.plan) : undefined;
    const root = args.root !== undefined ? resolve(args.root) : (recordRoot ?? findStoryRoot(planFile ?? recordFile, host.workspaceFolder));
    const recorded = source.plan ?? (source.kind === 'executionResult' ? recordedPlan(root, source.result.planId) : undefined);
    const text = planFile
      ? await readText(planFile, '"plan"')
      : JSON.stringify(
          recorded ?? {
            requestId: source.kind === 'executionResult' ? source.result.planId : 'recorded',
            tools: source.results.map((result) => ({ toolId: result.toolId, toolPath: result.toolPath ?? '' })),
          },
          null,
          2,
        );
    const plan = JSON.parse(text) as Plan;
    const recordState = isPlainObject(document) && isPlainObject(document['initialState']) ? document['initialState'] : {};
    const state = args.state !== undefined ? initialState : recordState;
    const tools = Array.isArray(plan.tools) ? plan.tools : [];
    return {
      kind: 'replay',
      root,
      initialState: state,
      text,
      plan,
      planFile,
      recordFile,
      results: source.results,
      history: replayHistory({ results: source.results, initialState: state, tools }),
    };
  }

  if (args.script !== undefined) {
    const scriptFile = resolve(args.script);
    const root = args.root !== undefined ? resolve(args.root) : findStoryRoot(scriptFile, host.workspaceFolder);
    const input =
      typeof args.input === 'string'
        ? await readObject(resolve(args.input), '"input"')
        : isPlainObject(args.input)
          ? args.input
          : args.input === undefined
            ? {}
            : fail('"input" must be an object or the path of a JSON file');
    const toolId =
      path
        .basename(scriptFile)
        .replace(/\.[^.]*$/, '')
        .replace(/[^A-Za-z0-9_-]/g, '-') || 'script';
    const plan: Plan = { requestId: randomUUID(), tools: [{ toolId, toolPath: scriptFile, input }] };
    return { kind: 'script', root, initialState, text: JSON.stringify(plan, null, 2), plan, scriptFile };
  }

  const planFile = resolve(args.plan!);
  const root = args.root !== undefined ? resolve(args.root) : findStoryRoot(planFile, host.workspaceFolder);
  const text = await readText(planFile, '"plan"');
  const validation = await validatePlanText(text, {
    root,
    ...(host.extraSkillRoots ? { extraSkillRoots: host.extraSkillRoots } : {}),
    ...(host.allowedToolRoots ? { allowedToolRoots: host.allowedToolRoots } : {}),
  });
  if (!validation.valid || !validation.plan) {
    const problems = validation.diagnostics
      .filter((diagnostic) => diagnostic.severity === 'error')
      .slice(0, 5)
      .map(
        (diagnostic) =>
          `${path.basename(planFile)}${diagnostic.range ? `:${diagnostic.range.start.line}:${diagnostic.range.start.column}` : ''} ${diagnostic.code} ${diagnostic.message}`,
      );
    throw new LaunchError(`The plan is invalid; nothing ran.\n${problems.join('\n')}`);
  }
  return { kind: 'plan', root, initialState, text, plan: validation.plan, planFile };
}

function checkTypes(args: NarratoriaLaunchArguments): void {
  for (const key of ['plan', 'root', 'state', 'replay', 'script', 'cwd'] as const) {
    if (args[key] !== undefined && (typeof args[key] !== 'string' || args[key] === '')) fail(`"${key}" must be a path (a non-empty string)`);
  }
  for (const key of ['stopOnEntry', 'noDebug'] as const) {
    if (args[key] !== undefined && typeof args[key] !== 'boolean') fail(`"${key}" must be true or false`);
  }
  for (const key of ['concurrency', 'toolTimeoutMs', 'planTimeoutMs'] as const) {
    const value = args[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) fail(`"${key}" must be a positive whole number`);
  }
}

function fail(message: string): never {
  throw new LaunchError(message);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new LaunchError(`${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

async function readJson(file: string, what: string): Promise<unknown> {
  const text = await readText(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LaunchError(`${what}: ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function readObject(file: string, what: string): Promise<Record<string, unknown>> {
  const value = await readJson(file, what);
  if (!isPlainObject(value)) throw new LaunchError(`${what}: ${file} must hold a JSON object`);
  return value;
}
