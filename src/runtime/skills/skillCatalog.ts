// What plan validation and the editor features know of a story's skills: every script by toolPath and real path, with its skill's health and enablement. Pure.
import * as path from 'node:path';
import type { Skill, SkillHealth } from './skillTypes.js';
import { isPathInside } from '../common/pathContainment.js';
import { hasErrors } from './skillProblems.js';
import { missingInterpretersOf } from './skillHealthLabel.js';
import { comparableSkillPath, scriptNameTable, scriptNamed, scriptReference, type ScriptNameTable } from './scriptAliases.js';

/** One script of a catalogued skill. */
export interface CatalogScript {
  readonly name: string;
  /** What a plan writes: relative to the story root with forward slashes (or absolute for scripts outside it). */
  readonly toolPath: string;
  /** Absolute real path of the script file. */
  readonly path: string;
  readonly description: string | undefined;
  /** The parsed input schema, when the manifest names one that loads. */
  readonly inputSchema: Record<string, unknown> | undefined;
  /** The input schema's file (absolute), when the manifest names one. */
  readonly inputSchemaFile: string | undefined;
  readonly timeoutMs: number;
  /** True when skill.json lists the script; false when it was only found in scripts/. */
  readonly declared: boolean;
  /** Its other names (the manifest's `aliases` that name no other script): a plan may use them instead. */
  readonly aliases: readonly string[];
  /** Why it cannot run on this machine (its interpreter is not on PATH), when so. */
  readonly missingInterpreter: string | undefined;
}

/** One skill, as the catalog shows it. */
export interface CatalogSkill {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly directory: string;
  readonly manifestPath: string;
  readonly health: SkillHealth;
  /** False when the skill has an `error` problem (a missing script, an invalid config): no narrator is offered it. */
  readonly usable: boolean;
  /** False when the user disabled the skill in this session. */
  readonly enabled: boolean;
  /** A sentence per script whose interpreter is not on PATH (the skill is then degraded). */
  readonly missingInterpreters: readonly string[];
  readonly scripts: readonly CatalogScript[];
}

/** A script the catalog found for a toolPath; `named` when the toolPath used a name rather than the script's file. */
export interface CatalogLookup {
  readonly skill: CatalogSkill;
  readonly script: CatalogScript;
  /** The name written (`roll-dice`) and whether it is an alias (else the script's own name in another form). */
  readonly named?: { readonly written: string; readonly alias: boolean; readonly script: string };
}

/** A read-only index of skills and their scripts. */
export interface SkillCatalog {
  readonly skills: readonly CatalogSkill[];
  /**
   * The script a plan's toolPath names: verbatim (e.g. `skills/dice-roller/scripts/roll.js`), or by a declared script's
   * name or alias in its skill folder (`skills/dice-roller/roll-dice.dart`; see scriptAliases.ts).
   */
  scriptByToolPath(toolPath: string): CatalogLookup | undefined;
  /** The script at a real (symlink-free) absolute path. */
  scriptByPath(realPath: string): { skill: CatalogSkill; script: CatalogScript } | undefined;
  /** The skill whose real directory holds `realPath`, whether or not the file is one of its scripts. */
  skillContaining(realPath: string): CatalogSkill | undefined;
  /** The skill named `name`. */
  skill(name: string): CatalogSkill | undefined;
}

/** Health and enablement of a skill in the current session (defaults: healthy and enabled). */
export type SkillSessionStatus = (name: string) => { readonly health: SkillHealth; readonly enabled: boolean } | undefined;

/** Builds a catalog from discovered skills, with their session status when a registry knows it. */
export function createSkillCatalog(skills: readonly Skill[], status?: SkillSessionStatus): SkillCatalog {
  const catalogued = skills.map((skill): CatalogSkill => {
    const declared = new Map((skill.manifest.scripts ?? []).map((script) => [script.name, script] as const));
    const current = status?.(skill.name);
    return {
      name: skill.name,
      displayName: skill.displayName,
      version: skill.version,
      description: skill.description,
      directory: skill.directory,
      manifestPath: skill.manifestPath,
      health: current?.health ?? 'healthy',
      usable: !hasErrors(skill.problems),
      enabled: current?.enabled ?? true,
      missingInterpreters: missingInterpretersOf(skill.scripts),
      scripts: skill.scripts.map((script): CatalogScript => {
        const schemaName = script.declared ? declared.get(script.name)?.inputSchema : undefined;
        return {
          name: script.name,
          toolPath: script.toolPath,
          path: script.path,
          description: script.description,
          inputSchema: script.inputSchema,
          inputSchemaFile: schemaName !== undefined ? path.resolve(skill.directory, schemaName) : undefined,
          timeoutMs: script.timeoutMs,
          declared: script.declared,
          aliases: script.aliases ?? [],
          missingInterpreter: script.missingInterpreter,
        };
      }),
    };
  });
  const byToolPath = new Map<string, { skill: CatalogSkill; script: CatalogScript }>();
  const byPath = new Map<string, { skill: CatalogSkill; script: CatalogScript }>();
  for (const skill of catalogued) {
    for (const script of skill.scripts) {
      if (!byToolPath.has(script.toolPath)) byToolPath.set(script.toolPath, { skill, script });
      if (!byPath.has(script.path)) byPath.set(script.path, { skill, script });
    }
  }
  const byName = new Map(catalogued.map((skill) => [skill.name, skill] as const));
  // By skill folder as plans write it: the declared scripts' names and aliases, for toolPaths that name a script.
  const byPlanPath = new Map<string, { skill: CatalogSkill; table: ScriptNameTable; declared: readonly CatalogScript[] }>();
  skills.forEach((skill, index) => {
    if (skill.planPath === undefined) return;
    const declared = catalogued[index]!.scripts.filter((script) => script.declared);
    byPlanPath.set(comparableSkillPath(skill.planPath), { skill: catalogued[index]!, table: scriptNameTable(declared), declared });
  });
  const byScriptName = (toolPath: string): CatalogLookup | undefined => {
    const reference = scriptReference(toolPath);
    const folder = reference && byPlanPath.get(reference.skillPath);
    const found = folder && scriptNamed(folder.table, reference.names);
    if (!found) return undefined;
    const script = folder.declared[found.entry.index]!;
    return { skill: folder.skill, script, named: { written: found.name, alias: found.entry.alias, script: script.name } };
  };
  // A skill's scripts lie in its real directory: the directory of any script's real path, up to scripts/.
  const realDirectories = catalogued.map((skill) => ({ skill, directories: new Set(skill.scripts.map((script) => skillDirectoryOf(script.path))) }));
  return {
    skills: catalogued,
    scriptByToolPath: (toolPath) => byToolPath.get(toolPath.replace(/^\.\//, '')) ?? byScriptName(toolPath),
    scriptByPath: (realPath) => byPath.get(realPath),
    skillContaining: (realPath) => {
      const found = realDirectories.find(({ skill, directories }) => [...directories, skill.directory].some((directory) => isPathInside(realPath, directory)));
      return found?.skill;
    },
    skill: (name) => byName.get(name),
  };
}

/** An empty catalog (no skills known). */
export const EMPTY_SKILL_CATALOG: SkillCatalog = createSkillCatalog([]);

function skillDirectoryOf(scriptPath: string): string {
  const directory = path.dirname(scriptPath);
  return path.basename(directory) === 'scripts' ? path.dirname(directory) : directory;
}
