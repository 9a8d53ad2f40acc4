// Checks tools against the skill catalog: undeclared scripts, disabled or permanently failing skills, and inputs against input schemas.
import * as path from 'node:path';
import type { CatalogScript, CatalogSkill, SkillCatalog } from '../skills/skillCatalog.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { checkToolInput } from './inputChecks.js';
import { pointerFromPath } from './jsonLocator.js';
import { toolName, type ToolView } from './planChecks.js';
import type { ToolPathResolution } from './toolPathPolicy.js';

/** What the catalog knows of one resolved toolPath. */
interface CatalogLookup {
  readonly skill: CatalogSkill | undefined;
  readonly script: CatalogScript | undefined;
  /** True when the file lies in a skill but its skill.json does not declare it. */
  readonly undeclared: boolean;
}

/**
 * For each tool (not a sub-plan) whose toolPath resolved, looks its real path up in the catalog
 * (once per distinct toolPath) and reports SCRIPT_NOT_DECLARED, SKILL_DISABLED and
 * SKILL_PERMANENT_FAILURE on the toolPath, then checks the tool's input against the script's
 * inputSchema. `root` is the story root, for naming files in messages. No I/O.
 */
export function checkSkillCatalog(
  tools: readonly ToolView[],
  resolutions: ReadonlyMap<string, ToolPathResolution>,
  catalog: SkillCatalog,
  root: string,
  drafts: DiagnosticDraft[],
): void {
  const lookups = new Map<string, CatalogLookup>();
  for (const tool of tools) {
    if (tool.toolPath === undefined || tool.hasSubPlan) continue;
    const resolution = resolutions.get(tool.toolPath);
    if (!resolution?.ok) continue;
    let lookup = lookups.get(tool.toolPath);
    if (lookup === undefined) {
      lookup = lookUp(catalog, resolution.realPath);
      lookups.set(tool.toolPath, lookup);
    }
    const { skill, script } = lookup;
    if (skill === undefined) continue;
    if (lookup.undeclared || !skill.enabled || skill.health === 'permanentFailure') warnAboutSkill(tool, lookup, skill, root, drafts);
    if (script?.inputSchema !== undefined) checkToolInput(tool, script.inputSchema, tool.toolPath, drafts);
  }
}

/** SCRIPT_NOT_DECLARED, SKILL_DISABLED and SKILL_PERMANENT_FAILURE on the tool's toolPath, as they apply. */
function warnAboutSkill(tool: ToolView, lookup: CatalogLookup, skill: CatalogSkill, root: string, drafts: DiagnosticDraft[]): void {
  const pointer = pointerFromPath(['tools', tool.index, 'toolPath']);
  const name = toolName(tool);
  if (lookup.undeclared) {
    const manifest = displayPath(skill.manifestPath, root);
    const message =
      `${name}: ${JSON.stringify(tool.toolPath)} is a file of the skill "${skill.name}" that ${manifest} does not declare; ` +
      'add it to "scripts" there so its description and inputSchema are known';
    drafts.push({ severity: 'warning', code: DiagnosticCode.SCRIPT_NOT_DECLARED, message, pointer });
  }
  if (!skill.enabled) {
    const message = `${name} uses the skill "${skill.name}", which is disabled; enable the skill or use another script`;
    drafts.push({ severity: 'warning', code: DiagnosticCode.SKILL_DISABLED, message, pointer });
  }
  if (skill.health === 'permanentFailure') {
    const message =
      `${name} uses the skill "${skill.name}", whose health is permanentFailure: its scripts kept failing this session, ` +
      'so it stays unavailable until the session restarts';
    drafts.push({ severity: 'warning', code: DiagnosticCode.SKILL_PERMANENT_FAILURE, message, pointer });
  }
}

function lookUp(catalog: SkillCatalog, realPath: string): CatalogLookup {
  const found = catalog.scriptByPath(realPath);
  if (found) return { skill: found.skill, script: found.script, undeclared: !found.script.declared };
  const skill = catalog.skillContaining(realPath);
  return { skill, script: undefined, undeclared: skill !== undefined };
}

/** A path relative to the story root when inside it (forward slashes), else as is. */
function displayPath(file: string, root: string): string {
  const relative = path.relative(root, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
