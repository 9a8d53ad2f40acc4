// Checks of the files a plan names: each toolPath (and rollback.toolPath) against the tool-path policy, and sub-plan files.
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { pointerFromPath } from './jsonLocator.js';
import type { ToolView } from './planChecks.js';
import { addString, findString, stringNumbering, type StringNumbering } from './stringNumbering.js';
import { isPathInside, pathFromRoot } from '../common/pathContainment.js';
import { otherNameMessage } from '../skills/scriptAliases.js';
import { resolveWith, toolPathResolver, type ToolPathPolicy, type ToolPathResolution, type ToolPathResolver } from './toolPathPolicy.js';

/** The resolutions of a plan's toolPaths, numbered in order of first use. */
export interface ToolPathResolutions {
  /** The distinct toolPaths and rollback.toolPaths, by number. */
  readonly paths: StringNumbering;
  /** Their resolutions, by number. */
  readonly resolutions: readonly ToolPathResolution[];
  /** By tool index: the number of the tool's toolPath, -1 without one or for a sub-plan tool. */
  readonly numberOfTool: Int32Array;
}

/**
 * Resolves each distinct toolPath (and rollback.toolPath) once and reports the failures. Every
 * validation reads the disk afresh (see toolPathResolver): a script created or deleted shows at once.
 */
export function checkToolPaths(tools: readonly ToolView[], policy: ToolPathPolicy, drafts: DiagnosticDraft[]): ToolPathResolutions {
  const resolver = toolPathResolver(policy);
  const paths = stringNumbering();
  const resolutions: ToolPathResolution[] = [];
  // Each tool's toolPath number is kept by index: the later checks read it without another lookup by path.
  const numberOfTool = new Int32Array(tools.length).fill(-1);
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    // A subPlan tool runs another plan; its toolPath is informational only.
    if (tool.toolPath !== undefined && !tool.hasSubPlan) numberOfTool[index] = numberOf(tool.toolPath, paths, resolutions, resolver);
    if (tool.rollbackToolPath !== undefined) numberOf(tool.rollbackToolPath, paths, resolutions, resolver);
  }
  if (resolutions.every((resolution) => resolution.ok && resolution.named === undefined)) return { paths, resolutions, numberOfTool };
  const report = (resolution: ToolPathResolution, toolPath: string, segments: readonly (string | number)[]): void => {
    if (!resolution.ok) {
      drafts.push({ severity: 'error', code: resolution.code, message: resolution.message, pointer: pointerFromPath(segments) });
    } else if (resolution.named) {
      // A script named by an alias or by its name in another form: validation, completion and the graph show its canonical path.
      const message = otherNameMessage(resolution.named, toolPath, pathFromRoot(resolution.named.file, resolver.root));
      drafts.push({ severity: 'info', code: DiagnosticCode.SCRIPT_ALIAS, message, pointer: pointerFromPath(segments) });
    }
  };
  for (const tool of tools) {
    const number = numberOfTool[tool.index]!;
    if (number >= 0) report(resolutions[number]!, tool.toolPath!, ['tools', tool.index, 'toolPath']);
    if (tool.rollbackToolPath !== undefined)
      report(resolutions[findString(paths, tool.rollbackToolPath)]!, tool.rollbackToolPath, ['tools', tool.index, 'rollback', 'toolPath']);
  }
  return { paths, resolutions, numberOfTool };
}

/** The skill of a toolPath's resolved script, null when it did not resolve or lies in no skill. */
export function resolvedSkill(resolutions: ToolPathResolutions, toolPath: string): string | null {
  const number = findString(resolutions.paths, toolPath);
  const resolution = number >= 0 ? resolutions.resolutions[number]! : undefined;
  return resolution?.ok ? resolution.skill : null;
}

/** The number of `toolPath`, resolving it when it is new. */
function numberOf(toolPath: string, paths: StringNumbering, resolutions: ToolPathResolution[], resolver: ToolPathResolver): number {
  const number = findString(paths, toolPath);
  if (number >= 0) return number;
  resolutions.push(resolveWith(resolver, toolPath));
  return addString(paths, toolPath);
}

/**
 * Sub-plan files must exist and, after symlinks, stay inside the story root (unless allowOutsideSkills).
 * Synchronous, like the toolPath checks (see toolPathResolver): cheaper than the promise API, never stale.
 */
export function checkSubPlans(tools: readonly ToolView[], policy: ToolPathPolicy, drafts: DiagnosticDraft[]): void {
  let found = false;
  for (let index = 0; index < tools.length && !found; index++) found = tools[index]!.subPlan !== undefined;
  if (!found) return;
  const root = realPathOrUndefined(policy.root) ?? path.resolve(policy.root);
  for (const tool of tools) {
    if (tool.subPlan === undefined) continue;
    const pointer = pointerFromPath(['tools', tool.index, 'subPlan']);
    const file = path.resolve(policy.root, tool.subPlan);
    const real = realPathOrUndefined(file);
    if (!real || !statSync(real).isFile()) {
      drafts.push({ severity: 'error', code: DiagnosticCode.SUB_PLAN_NOT_FOUND, message: `sub-plan file not found: ${file}`, pointer });
    } else if (!policy.allowOutsideSkills && !isPathInside(real, root)) {
      drafts.push({
        severity: 'error',
        code: DiagnosticCode.SUB_PLAN_OUTSIDE_ROOT,
        message: `sub-plan ${file} resolves to ${real}, outside the story root ${root}`,
        pointer,
      });
    }
  }
}

function realPathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}
