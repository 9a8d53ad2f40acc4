// The names a plan may call a skill's scripts by: each declared script's name and its manifest `aliases`, who keeps a name two scripts claim, and a toolPath read as a skill folder and a name. Pure.
import * as path from 'node:path';

/** What the table needs of a manifest's script entry. */
export interface NamedScript {
  readonly name: string;
  readonly aliases?: readonly unknown[] | undefined;
}

/** Who answers to a name: the script's index in the manifest's `scripts`, and whether the name is one of its aliases. */
export interface ScriptNameEntry {
  readonly index: number;
  readonly alias: boolean;
}

/** An alias that cannot be used: another script already answers to it (by its name, or by an earlier alias). */
export interface AliasConflict {
  readonly scriptIndex: number;
  readonly aliasIndex: number;
  readonly alias: string;
  /** The name of the script that answers to it. */
  readonly owner: string;
  /** True when the owner answers to it by an alias, false by its name. */
  readonly ownerByAlias: boolean;
}

/** The names of one skill's declared scripts. */
export interface ScriptNameTable {
  /** Every name a plan may use, to its script. */
  readonly names: ReadonlyMap<string, ScriptNameEntry>;
  /** By script index: the aliases the script keeps. */
  readonly aliasesOf: readonly (readonly string[])[];
  readonly conflicts: readonly AliasConflict[];
}

/**
 * The names of a manifest's scripts. Names come first (a later script reusing a name is skipped, as discovery
 * skips it); then aliases in manifest order, each kept unless another script already answers to it, which is an
 * {@link AliasConflict}. An alias equal to its own script's name, or repeated in its list, adds nothing.
 */
export function scriptNameTable(scripts: readonly NamedScript[]): ScriptNameTable {
  const names = new Map<string, ScriptNameEntry>();
  const skipped = new Set<number>();
  scripts.forEach((script, index) => {
    if (names.has(script.name)) skipped.add(index);
    else names.set(script.name, { index, alias: false });
  });
  const conflicts: AliasConflict[] = [];
  const aliasesOf = scripts.map((script, index): string[] => {
    const kept: string[] = [];
    if (skipped.has(index)) return kept;
    (script.aliases ?? []).forEach((alias, aliasIndex) => {
      if (typeof alias !== 'string') return;
      const owner = names.get(alias);
      if (owner?.index === index) return;
      if (owner) {
        conflicts.push({ scriptIndex: index, aliasIndex, alias, owner: scripts[owner.index]!.name, ownerByAlias: owner.alias });
        return;
      }
      names.set(alias, { index, alias: true });
      kept.push(alias);
    });
    return kept;
  });
  return { names, aliasesOf, conflicts };
}

/** The names a toolPath's file name may stand for: the name as written, then without its extension (`roll-dice.dart` gives `roll-dice`). */
export function namesOfFile(fileName: string): string[] {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? [fileName, fileName.slice(0, dot)] : [fileName];
}

/** The script a name stands for in `table`, with the name that matched. */
export function scriptNamed(table: ScriptNameTable, candidates: readonly string[]): { entry: ScriptNameEntry; name: string } | undefined {
  for (const name of candidates) {
    const entry = table.names.get(name);
    if (entry) return { entry, name };
  }
  return undefined;
}

/**
 * A toolPath read as `<skill folder>/<name>` or `<skill folder>/scripts/<name>` (the forms other Narratoria runtimes
 * write: `skills/dice-roller/roll-dice.dart`, `skills/dice-roller/scripts/roll-dice`): the skill folder with forward
 * slashes and the names its file may stand for; undefined when the path has no folder. Pure string work.
 */
export function scriptReference(toolPath: string): { readonly skillPath: string; readonly names: readonly string[] } | undefined {
  const normalized = path.posix.normalize(toolPath.replace(/\\/g, '/')).replace(/^\.\//, '');
  const slash = normalized.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const fileName = normalized.slice(slash + 1);
  if (fileName === '' || fileName === '.' || fileName === '..') return undefined;
  let skillPath = normalized.slice(0, slash);
  if (skillPath.endsWith('/scripts')) skillPath = skillPath.slice(0, -'/scripts'.length);
  return skillPath === '' || skillPath === 'scripts' ? undefined : { skillPath, names: namesOfFile(fileName) };
}

/** A skill folder as {@link scriptReference} gives it, for comparing with a catalogued skill's planPath. */
export function comparableSkillPath(planPath: string): string {
  return path.posix.normalize(planPath.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/$/, '');
}

/**
 * How validation and the views say that a plan named a script by another name: `roll-dice is another name of roll
 * (skills/dice-roller/scripts/roll.js)`, or for the script's own name in another form `"skills/storyteller/narrate.dart"
 * names the script narrate (skills/storyteller/scripts/narrate.js)`.
 */
export function otherNameMessage(
  named: { readonly written: string; readonly alias: boolean; readonly script: string },
  toolPath: string,
  canonicalToolPath: string,
): string {
  return named.alias
    ? `${named.written} is another name of ${named.script} (${canonicalToolPath})`
    : `${JSON.stringify(toolPath)} names the script ${named.script} (${canonicalToolPath})`;
}
