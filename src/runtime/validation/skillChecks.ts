// Checks tools against the skill catalog: undeclared scripts, disabled or permanently failing skills, scripts of broken skills, and inputs against input schemas.
import type { CatalogSkill, SkillCatalog } from '../skills/skillCatalog.js';
import { DiagnosticCode, type DiagnosticDraft } from './diagnostic.js';
import { checkToolInput, inputChecker, type InputChecker } from './inputChecks.js';
import { pointerFromPath } from './jsonLocator.js';
import { toolName, type ToolView } from './planChecks.js';
import type { ToolPathResolutions } from './pathChecks.js';
import { isPathInside, pathFromRoot } from '../common/pathContainment.js';
import { brokenSkillReason } from '../skills/skillProblems.js';
import type { BrokenSkill } from '../skills/skillTypes.js';

/** What the catalog knows of one resolved toolPath. */
interface CatalogLookup {
  readonly skill: CatalogSkill | undefined;
  /** True when the file lies in a skill but its skill.json does not declare it. */
  readonly undeclared: boolean;
  /** The script's input schema, ready to check inputs against. */
  readonly input: InputChecker | undefined;
  /** True when one of the warnings applies (read once per toolPath rather than for each tool). */
  readonly warns: boolean;
}

/**
 * For each tool (not a sub-plan) whose toolPath resolved, looks its real path up in the catalog
 * (once per distinct toolPath) and reports SCRIPT_NOT_DECLARED, SKILL_DISABLED and
 * SKILL_PERMANENT_FAILURE on the toolPath, then checks the tool's input against the script's
 * inputSchema. `root` is the story root (resolved when a message names a file). No I/O.
 */
export function checkSkillCatalog(
  tools: readonly ToolView[],
  toolPaths: ToolPathResolutions,
  catalog: SkillCatalog,
  root: string,
  drafts: DiagnosticDraft[],
): void {
  const { resolutions, numberOfTool } = toolPaths;
  // By toolPath number: each distinct toolPath is looked up once.
  const lookups: (CatalogLookup | undefined)[] = [];
  for (let index = 0; index < tools.length; index++) {
    const number = numberOfTool[index]!;
    if (number < 0) continue;
    const resolution = resolutions[number]!;
    if (!resolution.ok) continue;
    const lookup = (lookups[number] ??= lookUp(catalog, resolution.realPath));
    if (lookup.skill === undefined) continue;
    const tool = tools[index]!;
    if (lookup.warns) warnAboutSkill(tool, lookup, lookup.skill, root, drafts);
    if (lookup.input !== undefined) checkToolInput(tool, lookup.input, tool.toolPath!, drafts);
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
      `${name} uses the skill "${skill.name}", which is unusable: its scripts kept failing this session (health permanentFailure), ` +
      'so it stays unavailable until the session restarts';
    drafts.push({ severity: 'warning', code: DiagnosticCode.SKILL_PERMANENT_FAILURE, message, pointer });
  }
}

/**
 * SKILL_BROKEN on the toolPath of each tool (not a sub-plan) whose resolved script lies in the folder of a skill
 * whose skill.json is broken: the message names the skill and gives the manifest's first problem as
 * `file:line:column: CODE: message` (see brokenSkillReason). No I/O.
 */
export function checkBrokenSkills(
  tools: readonly ToolView[],
  toolPaths: ToolPathResolutions,
  broken: readonly BrokenSkill[],
  root: string,
  drafts: DiagnosticDraft[],
): void {
  const { resolutions, numberOfTool } = toolPaths;
  for (let index = 0; index < tools.length; index++) {
    const number = numberOfTool[index]!;
    const resolution = number >= 0 ? resolutions[number]! : undefined;
    if (!resolution?.ok) continue;
    const skill = broken.find((candidate) => isPathInside(resolution.realPath, candidate.realDirectory));
    if (!skill) continue;
    const tool = tools[index]!;
    const message = `${toolName(tool)} uses the skill "${skill.name}", which is unusable: ${brokenSkillReason(skill, root)}`;
    drafts.push({ severity: 'error', code: DiagnosticCode.SKILL_BROKEN, message, pointer: pointerFromPath(['tools', tool.index, 'toolPath']) });
  }
}

/** What the catalog knows of a resolved script (once per distinct toolPath). */
function lookUp(catalog: SkillCatalog, realPath: string): CatalogLookup {
  const found = catalog.scriptByPath(realPath);
  const skill = found ? found.skill : catalog.skillContaining(realPath);
  const undeclared = found ? !found.script.declared : skill !== undefined;
  const inputSchema = found?.script.inputSchema;
  return {
    skill,
    undeclared,
    input: inputSchema !== undefined ? inputChecker(inputSchema) : undefined,
    warns: skill !== undefined && (undeclared || !skill.enabled || skill.health === 'permanentFailure'),
  };
}

/** A path relative to the story root when inside it (forward slashes), else as is. */
function displayPath(file: string, root: string): string {
  return pathFromRoot(file, root);
}
