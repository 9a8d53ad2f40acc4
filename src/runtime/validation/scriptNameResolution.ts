// A toolPath naming no file but a script by its name or an alias (other runtimes' forms), read from its skill.json, inside a skills root only. Sync, on a miss only.
import { readFileSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isPathInside } from '../common/pathContainment.js';
import { namesOfFile, scriptNameTable, scriptNamed, type NamedScript } from '../skills/scriptAliases.js';
import { resolveInside } from '../skills/skillProblems.js';

/** How a toolPath named a script other than by its file. */
export interface ScriptNameMatch {
  /** The name the toolPath used: `roll-dice` (an alias), or `narrate` (the script's own name in another form). */
  readonly written: string;
  /** True when `written` is one of the script's aliases; false when it is the script's name. */
  readonly alias: boolean;
  /** The script's name in its skill.json. */
  readonly script: string;
  /** The script's file, as found in its skill folder (before symbolic links are followed). */
  readonly file: string;
}

/**
 * The script `absolutePath` names when no file is there: the path must be `<skills root>/<skill>/<name>` or
 * `<skills root>/<skill>/scripts/<name>`, with or without an extension, where `<skills root>` is one of
 * `skillsRoots` (as configured or real) and `<name>` is the name or an alias of a script the skill's skill.json
 * declares (docs/writing-skills.md#other-names-of-a-script). The skill folder must also be in a skills root after
 * symbolic links, and the script's file must stay inside it. Undefined otherwise; the caller still checks the file
 * against the tool-path policy.
 */
export function scriptByName(absolutePath: string, isSkillsRoot: (folder: string) => boolean): ScriptNameMatch | undefined {
  let skillDirectory = path.dirname(absolutePath);
  if (path.basename(skillDirectory) === 'scripts') skillDirectory = path.dirname(skillDirectory);
  if (!isSkillsRoot(path.dirname(skillDirectory))) return undefined;
  // The skill folder itself must lie in a skills root after symbolic links, whatever allowOutsideSkills says.
  const realDirectory = realPathOf(skillDirectory);
  if (realDirectory === undefined || !isSkillsRoot(path.dirname(realDirectory))) return undefined;
  const scripts = declaredScripts(path.join(skillDirectory, 'skill.json'));
  if (!scripts) return undefined;
  const found = scriptNamed(scriptNameTable(scripts), namesOfFile(path.basename(absolutePath)));
  if (!found) return undefined;
  const declared = scripts[found.entry.index]!;
  const file = resolveInside(skillDirectory, declared.path);
  const realFile = file === undefined ? undefined : realPathOf(file);
  if (file === undefined || realFile === undefined || !isPathInside(realFile, realDirectory)) return undefined;
  return { written: found.name, alias: found.entry.alias, script: declared.name, file };
}

/** The scripts of a skill.json that parses, with a string name and path each (the rest is discovery's to report). */
function declaredScripts(manifestPath: string): (NamedScript & { readonly path: string })[] | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  const scripts = (manifest as { scripts?: unknown } | null)?.scripts;
  if (!Array.isArray(scripts)) return undefined;
  return scripts.filter(
    (script): script is NamedScript & { path: string } =>
      typeof script === 'object' &&
      script !== null &&
      typeof script.name === 'string' &&
      typeof script.path === 'string' &&
      (script.aliases === undefined || Array.isArray(script.aliases)),
  );
}

function realPathOf(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}
