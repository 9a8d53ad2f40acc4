// The context every tool attempt of one run shares: the runners, script paths and skill names, skill contexts, the data scope, the seed and the run's emitters.
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { randomSeed } from '../common/seed.js';
import { snapshotHostEnvironment } from '../process/scriptEnvironment.js';
import { ManifestSkillContextProvider } from '../skills/skillContext.js';
import { DEFAULT_SESSION_ID, sessionScope } from '../skills/skillDataScope.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';
import type { JsonObject } from '../state/deepMerge.js';
import { DEFAULT_MAX_EVENTS_PER_TOOL } from './executorLimits.js';
import type { ExecutePlanOptions, PlanRun } from './planExecutor.js';
import { ProcessToolRunner } from './processToolRunner.js';
import { SubPlanRunner, type SubPlanExecutor } from './subPlanRunner.js';
import type { ToolRunContext } from './toolExecution.js';

/** What a run's context is made of. */
export interface ToolRunContextSource {
  readonly planRun: PlanRun;
  readonly options: ExecutePlanOptions;
  readonly root: string;
  /** The real path of each tool's script (validation's, then re-planning's); other tools resolve under the root. */
  readonly resolvedPaths: ReadonlyMap<string, string>;
  readonly executeSubPlan: SubPlanExecutor;
  readonly committedState: () => JsonObject;
}

/** Builds the context of one run. */
export function createToolRunContext(source: ToolRunContextSource): ToolRunContext {
  const { options, root, resolvedPaths } = source;
  const skillNames = new Map<string, string | null>();
  return {
    planId: source.planRun.planId,
    root,
    options,
    runner: options.toolRunner ?? new ProcessToolRunner({ maxLineBytes: options.maxLineBytes, killGraceMs: options.killGraceMs }),
    subPlanRunner: new SubPlanRunner({ ...options, root }, source.executeSubPlan),
    skillContext: options.skillContext ?? new ManifestSkillContextProvider(skillRoots(root, options.extraSkillRoots)),
    scriptPathOf: (tool) => resolvedPaths.get(tool.toolId) ?? path.resolve(root, tool.toolPath),
    skillOf: (tool) => {
      let skill = skillNames.get(tool.toolPath);
      if (skill === undefined) skillNames.set(tool.toolPath, (skill = skillNameOfPath(tool.toolPath)));
      return skill;
    },
    hooks: options.hooks,
    maxEvents: options.maxEventsPerTool ?? DEFAULT_MAX_EVENTS_PER_TOOL,
    ...source.planRun.internals,
    committedState: source.committedState,
    hostEnvironment: snapshotHostEnvironment(),
    runSeed: options.seed ?? options.resume?.seed ?? randomSeed(),
    createdDirectories: new Set<string>(),
    dataScope: options.dataScope ?? sessionScope(root, DEFAULT_SESSION_ID),
    knownSkillContexts: new Map(),
  };
}

function skillRoots(root: string, extra: readonly string[] | undefined): string[] {
  const roots = [path.join(root, 'skills'), ...(extra ?? [])];
  return roots.map((directory) => {
    try {
      return realpathSync(directory);
    } catch {
      return path.resolve(directory);
    }
  });
}
