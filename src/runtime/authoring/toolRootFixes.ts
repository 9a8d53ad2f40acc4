// Quick fixes for TOOL_PATH_OUTSIDE_SKILLS: use the story's skills/ script of the same file name, or allow the script's folder in narratoria.allowedToolRoots. Pure: no file system.
import * as path from 'node:path';
import { isPathInside } from '../common/pathContainment.js';
import type { Diagnostic } from '../validation/diagnostic.js';
import { parsePointer } from '../validation/jsonLocator.js';
import { ALLOWED_TOOL_ROOTS_SETTING } from '../validation/toolPathPolicy.js';
import type { PlanDocument } from './planDocument.js';
import type { StringField } from './planTool.js';
import { toolOfSegments, type FixContext, type FixProposal } from './quickFixEdits.js';

/** The toolPath field a pointer names: `/tools/<i>/toolPath` or `/tools/<i>/rollback/toolPath`. */
function toolPathField(document: PlanDocument, segments: readonly string[]): StringField | undefined {
  const tool = toolOfSegments(document, segments);
  const rest = segments.slice(2).join('/');
  return rest === 'toolPath' ? tool?.toolPath : rest === 'rollback/toolPath' ? tool?.rollbackToolPath : undefined;
}

/**
 * TOOL_PATH_OUTSIDE_SKILLS: one "Use skills/<skill>/scripts/<file>" per script of the story's skills/
 * with the file name of the refused path (e.g. `tools/roll-dice.dart` -> `skills/dice-roller/scripts/roll-dice.dart`),
 * else with its name without the extension (other runtimes' `tools/torch-lighter` -> `skills/torch/scripts/torch-lighter.js`).
 * The preferred fix when there is exactly one.
 */
export function outsideSkillsFixes(context: FixContext, segments: readonly string[]): FixProposal[] {
  const field = toolPathField(context.document, segments);
  if (!field) return [];
  const fileName = path.posix.basename(field.value.replace(/\\/g, '/'));
  if (fileName === '' || fileName === '.' || fileName === '..') return [];
  // Catalogued scripts of the story's own skills have toolPaths relative to the story root, under skills/.
  const storyScripts = [...new Set(context.catalog.skills.flatMap((skill) => skill.scripts.map((script) => script.toolPath)))]
    .filter((toolPath) => toolPath.startsWith('skills/') && toolPath !== field.value)
    .sort();
  const sameFile = storyScripts.filter((toolPath) => path.posix.basename(toolPath) === fileName);
  const candidates = sameFile.length > 0 ? sameFile : storyScripts.filter((toolPath) => stemOf(path.posix.basename(toolPath)) === stemOf(fileName));
  return candidates.map((toolPath) => ({
    title: `Use ${toolPath}`,
    operations: [{ kind: 'replace', span: field.span, newText: JSON.stringify(toolPath) }],
    ...(candidates.length === 1 ? { isPreferred: true } : {}),
  }));
}

/** A file name without its extension (`roll-dice.js` -> `roll-dice`; a name without one is itself). */
function stemOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** What the Allow fix needs from the editor. */
export interface AllowToolRootOptions {
  /** The plan's story root (absolute): relative toolPaths resolve against it. */
  readonly root: string;
  /** The workspace folder the setting is written to (absolute); entries inside it are written relative to it. */
  readonly workspaceFolder: string | undefined;
  /** Whether the workspace is trusted: the setting does nothing otherwise, so the fix is not offered. */
  readonly trusted: boolean;
  /** The setting's current entries, as written. */
  readonly allowed: readonly string[];
}

/** "Allow <folder> in narratoria.allowedToolRoots": a change of the workspace setting, not of the plan text. */
export interface AllowToolRootFix {
  readonly title: string;
  /** The diagnostic this action fixes. */
  readonly diagnostic: Diagnostic;
  /** The setting it changes. */
  readonly setting: typeof ALLOWED_TOOL_ROOTS_SETTING;
  /** The folder to allow (absolute). */
  readonly folder: string;
  /** The entry written to the setting: relative to the workspace folder with forward slashes when inside it, else absolute. */
  readonly entry: string;
  /** The setting's new value: its entries with this one added. */
  readonly value: readonly string[];
}

/**
 * One Allow fix per refused folder among the TOOL_PATH_OUTSIDE_SKILLS diagnostics, in a trusted workspace
 * only. Not offered for a symbolic link under skills/ that leads out (allowing the link's folder would not
 * help), nor for the story folder or one of its ancestors (that would let a plan run every file of the story).
 */
export function allowToolRootFixes(document: PlanDocument, diagnostics: readonly Diagnostic[], options: AllowToolRootOptions): AllowToolRootFix[] {
  if (!options.trusted || !document.isWellFormed) return [];
  const root = path.resolve(options.root);
  const fixes: AllowToolRootFix[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.code !== 'TOOL_PATH_OUTSIDE_SKILLS') continue;
    let segments: string[];
    try {
      segments = parsePointer(diagnostic.pointer);
    } catch {
      continue;
    }
    const field = toolPathField(document, segments);
    if (!field || field.value === '' || field.value.includes('\0')) continue;
    const script = path.resolve(root, field.value);
    if (isPathInside(script, path.join(root, 'skills'))) continue;
    const folder = path.dirname(script);
    if (isPathInside(root, folder, { allowSame: true })) continue;
    const entry = settingEntry(folder, options.workspaceFolder);
    const value = withAllowedToolRoot(options.allowed, entry);
    if (value.length === options.allowed.length) continue;
    fixes.push({ title: `Allow ${entry} in ${ALLOWED_TOOL_ROOTS_SETTING}`, diagnostic, setting: ALLOWED_TOOL_ROOTS_SETTING, folder, entry, value });
  }
  return fixes;
}

/** The setting's entry for a folder: relative to the workspace folder (forward slashes) when inside it, else absolute. */
export function settingEntry(folder: string, workspaceFolder: string | undefined): string {
  if (workspaceFolder !== undefined && isPathInside(folder, workspaceFolder)) return path.relative(workspaceFolder, folder).split(path.sep).join('/');
  return folder;
}

/** The setting's entries with `entry` added at the end, unless an entry already names it (ignoring a trailing slash). */
export function withAllowedToolRoot(allowed: readonly string[], entry: string): string[] {
  const normalize = (value: string): string => value.trim().replace(/[\\/]+$/, '');
  if (allowed.some((existing) => normalize(existing) === normalize(entry))) return [...allowed];
  return [...allowed, entry];
}
