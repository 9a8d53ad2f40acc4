// What plan validation and the editor features know of a story's skills: every script by toolPath and real path, with its skill's health and enablement. Pure.
import * as path from 'node:path';
import type { Skill, SkillHealth } from './skillTypes.js';
import { isPathInside } from '../common/pathContainment.js';
import { hasErrors } from './skillProblems.js';

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
  readonly scripts: readonly CatalogScript[];
}

/** A read-only index of skills and their scripts. */
export interface SkillCatalog {
  readonly skills: readonly CatalogSkill[];
  /** The script a plan's toolPath names verbatim (e.g. `skills/dice-roller/scripts/roll.js`). */
  scriptByToolPath(toolPath: string): { skill: CatalogSkill; script: CatalogScript } | undefined;
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
  // A skill's scripts lie in its real directory: the directory of any script's real path, up to scripts/.
  const realDirectories = catalogued.map((skill) => ({ skill, directories: new Set(skill.scripts.map((script) => skillDirectoryOf(script.path))) }));
  return {
    skills: catalogued,
    scriptByToolPath: (toolPath) => byToolPath.get(toolPath.replace(/^\.\//, '')),
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


