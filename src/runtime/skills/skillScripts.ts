// Finds a skill's scripts: those its manifest declares, then the runnable files of scripts/ (docs/design-rules.md#skill-discovery), with executable bits and input schemas.
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import type Ajv2020 from 'ajv/dist/2020.js';
import type AjvDraft07 from 'ajv';
import { errorMessage } from '../common/errors.js';
import { createDraft07Ajv, declaresDraft07 } from '../contracts/schemas.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../contractTypes/plan.js';
import { INTERPRETED_EXTENSIONS, missingInterpreterOf, missingInterpreterText } from '../process/interpreter.js';
import { pointerFromPath } from '../validation/jsonLocator.js';
import { resolveInside, SkillProblemCode, skillProblem } from './skillProblems.js';
import { scriptNameTable } from './scriptAliases.js';
import type { SkillManifest, SkillProblem, SkillScript } from './skillTypes.js';
import { isPathInside, pathFromRoot } from '../common/pathContainment.js';

/** Compiles the input schemas that declare draft-07; each is removed once compiled (the parsed schema is what is kept). */
let draft07Ajv: AjvDraft07 | undefined;

/** What script discovery needs to know about the skill. */
export interface ScriptDiscoveryContext {
  /** The skill directory as found under its skills root (absolute). */
  readonly directory: string;
  /** Its real path (symlinks resolved). */
  readonly realDirectory: string;
  /** The story root (absolute): toolPaths are relative to it when inside. */
  readonly root: string;
  readonly manifest: SkillManifest;
  readonly manifestPath: string;
  /** Compiles input schemas (shared by one discovery; created on first use, since most stories' scripts have none). */
  readonly ajv: () => Ajv2020;
  /** Formats a path for messages. */
  readonly display: (file: string) => string;
}

/**
 * Declared scripts come first, in manifest order; then the files directly in `scripts/` that the
 * manifest does not declare and that can run (executable bit, or an extension with a known
 * interpreter), by file name. Data files there (input schemas, README) are not scripts.
 */
export async function discoverScripts(context: ScriptDiscoveryContext): Promise<{ scripts: SkillScript[]; problems: SkillProblem[] }> {
  const scripts: SkillScript[] = [];
  const problems: SkillProblem[] = [];
  const claimed = new Set<string>();
  const names = new Set<string>();
  const { directory, manifest, manifestPath, display } = context;
  // The names plans may use (docs/writing-skills.md#other-names-of-a-script): an alias another script answers to is dropped.
  const nameTable = scriptNameTable(manifest.scripts ?? []);
  for (const conflict of nameTable.conflicts) {
    const declared = manifest.scripts![conflict.scriptIndex]!;
    const owner = `${conflict.ownerByAlias ? 'an alias of' : 'the name of'} the script "${conflict.owner}"`;
    const message = `${display(manifestPath)}: script "${declared.name}": the alias "${conflict.alias}" is already ${owner}; this alias is ignored`;
    const pointer = pointerFromPath(['scripts', conflict.scriptIndex, 'aliases', conflict.aliasIndex]);
    problems.push(skillProblem('warning', SkillProblemCode.SCRIPT_ALIAS_CONFLICT, message, manifestPath, pointer));
  }

  for (const [index, declared] of (manifest.scripts ?? []).entries()) {
    const pointer = pointerFromPath(['scripts', index]);
    const problem = (severity: SkillProblem['severity'], code: SkillProblemCode, message: string) =>
      problems.push(skillProblem(severity, code, `${display(manifestPath)}: script "${declared.name}": ${message}`, manifestPath, pointer));
    if (names.has(declared.name)) {
      problem('warning', SkillProblemCode.SCRIPT_NAME_DUPLICATE, 'another script of this skill has the same name; this one is skipped');
      continue;
    }
    const file = resolveInside(directory, declared.path);
    if (!file) {
      problem(
        'error',
        SkillProblemCode.PATH_OUTSIDE_SKILL,
        `path ${JSON.stringify(declared.path)} leaves the skill directory; use a path like scripts/${declared.name}.js`,
      );
      continue;
    }
    const found = await runnableFile(file, context);
    if (!found.ok) {
      problem('error', found.outside ? SkillProblemCode.PATH_OUTSIDE_SKILL : SkillProblemCode.SCRIPT_NOT_FOUND, found.message);
      continue;
    }
    names.add(declared.name);
    claimed.add(found.realPath);
    if (!found.runnable) problem('warning', SkillProblemCode.SCRIPT_NOT_RUNNABLE, notRunnableMessage(file, display));
    const missingInterpreter = found.missingInterpreter;
    if (missingInterpreter !== undefined)
      problem('warning', SkillProblemCode.INTERPRETER_MISSING, `${display(file)} ${missingInterpreter}; the skill's other scripts still run`);
    const aliases = nameTable.aliasesOf[index] ?? [];
    let inputSchema: Record<string, unknown> | undefined;
    if (declared.inputSchema !== undefined) {
      const loaded = await loadInputSchema(declared.inputSchema, context);
      if (loaded.ok) {
        inputSchema = loaded.schema;
        claimed.add(loaded.realPath);
      } else {
        problem('error', SkillProblemCode.INPUT_SCHEMA_INVALID, loaded.message);
        // Still the schema's file, not a script, even though it is broken.
        const named = resolveInside(directory, declared.inputSchema);
        if (named) claimed.add(await fs.realpath(named).catch(() => named));
      }
    }
    scripts.push({
      name: declared.name,
      path: found.realPath,
      toolPath: toolPathFor(file, context.root),
      ...(declared.description !== undefined ? { description: declared.description } : {}),
      ...(inputSchema !== undefined ? { inputSchema } : {}),
      timeoutMs: declared.timeout ?? DEFAULT_TOOL_TIMEOUT_MS,
      required: declared.required ?? false,
      executable: found.executable,
      declared: true,
      ...(aliases.length > 0 ? { aliases } : {}),
      ...(missingInterpreter !== undefined ? { missingInterpreter } : {}),
    });
  }
  // A file of scripts/ named like an alias would make that name ambiguous: the alias keeps it.
  const aliasOwners = new Map<string, string>();
  for (const script of scripts) for (const alias of script.aliases ?? []) aliasOwners.set(alias, script.name);
  for (const [index, declared] of (manifest.scripts ?? []).entries()) {
    if (declared.rollback !== undefined && !names.has(declared.rollback)) {
      const message = `${display(manifestPath)}: script "${declared.name}": rollback names "${declared.rollback}", which is not a script of this skill`;
      problems.push(skillProblem('warning', SkillProblemCode.SCRIPT_ROLLBACK_UNKNOWN, message, manifestPath, pointerFromPath(['scripts', index, 'rollback'])));
    }
  }

  const scriptsDirectory = path.join(directory, 'scripts');
  const entries = await fs.readdir(scriptsDirectory).catch(() => [] as string[]);
  for (const entry of entries.sort()) {
    if (entry.startsWith('.')) continue;
    const file = path.join(scriptsDirectory, entry);
    const found = await runnableFile(file, context);
    if (!found.ok || claimed.has(found.realPath) || !found.runnable) {
      if (!found.ok && found.outside) {
        problems.push(skillProblem('warning', SkillProblemCode.PATH_OUTSIDE_SKILL, `${display(file)} is skipped: ${found.message}`, file));
      }
      continue;
    }
    const name = entry.slice(0, entry.length - path.extname(entry).length) || entry;
    if (names.has(name) || aliasOwners.has(name)) {
      const owner = aliasOwners.has(name) ? `"${name}" is an alias of the script "${aliasOwners.get(name)}"` : `the skill already has a script named "${name}"`;
      const message = `${display(file)} is skipped: ${owner}; declare it in skill.json with another name`;
      problems.push(skillProblem('warning', SkillProblemCode.SCRIPT_NAME_DUPLICATE, message, file));
      continue;
    }
    names.add(name);
    if (found.missingInterpreter !== undefined) {
      const message = `${display(file)} ${found.missingInterpreter}; the skill's other scripts still run`;
      problems.push(skillProblem('warning', SkillProblemCode.INTERPRETER_MISSING, message, file));
    }
    scripts.push({
      name,
      path: found.realPath,
      toolPath: toolPathFor(file, context.root),
      timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      required: false,
      executable: found.executable,
      declared: false,
      ...(found.missingInterpreter !== undefined ? { missingInterpreter: found.missingInterpreter } : {}),
    });
  }
  return { scripts, problems };
}

/** A plan's toolPath for `file`: relative to the story root with forward slashes when inside it, else absolute. */
export function toolPathFor(file: string, root: string): string {
  return pathFromRoot(file, root);
}

type FoundFile =
  | {
      readonly ok: true;
      readonly realPath: string;
      readonly executable: boolean;
      readonly runnable: boolean;
      /** What its interpreter needs when it is not on PATH (see process/interpreter.ts). */
      readonly missingInterpreter?: string;
    }
  | { readonly ok: false; readonly outside: boolean; readonly message: string };

async function runnableFile(file: string, context: ScriptDiscoveryContext): Promise<FoundFile> {
  let stats: Stats;
  try {
    stats = await fs.stat(file);
  } catch {
    return { ok: false, outside: false, message: `${context.display(file)} does not exist` };
  }
  if (!stats.isFile()) return { ok: false, outside: false, message: `${context.display(file)} is not a file` };
  const realPath = await fs.realpath(file);
  if (!isPathInside(realPath, context.realDirectory)) {
    return { ok: false, outside: true, message: `${context.display(file)} links to ${realPath}, outside the skill directory` };
  }
  const executable = process.platform !== 'win32' && (stats.mode & 0o111) !== 0;
  const extension = path.extname(file).toLowerCase();
  const runnable = executable || INTERPRETED_EXTENSIONS.includes(extension);
  const missing = runnable ? missingInterpreterOf(file, executable) : undefined;
  return { ok: true, realPath, executable, runnable, ...(missing ? { missingInterpreter: missingInterpreterText(missing) } : {}) };
}

function notRunnableMessage(file: string, display: (file: string) => string): string {
  return `${display(file)} is not executable and has no extension with a known interpreter (${INTERPRETED_EXTENSIONS.join(', ')}); run "chmod +x" on it or rename it`;
}

async function loadInputSchema(
  relative: string,
  context: ScriptDiscoveryContext,
): Promise<{ ok: true; schema: Record<string, unknown>; realPath: string } | { ok: false; message: string }> {
  const file = resolveInside(context.directory, relative);
  if (!file) return { ok: false, message: `inputSchema ${JSON.stringify(relative)} leaves the skill directory` };
  let text: string;
  let realPath: string;
  try {
    text = await fs.readFile(file, 'utf8');
    realPath = await fs.realpath(file);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, message: `inputSchema ${context.display(file)} ${missing ? 'does not exist' : `cannot be read: ${errorMessage(error)}`}` };
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `inputSchema ${context.display(file)} is not valid JSON: ${errorMessage(error)}` };
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    return { ok: false, message: `inputSchema ${context.display(file)} must contain a JSON Schema object` };
  }
  const record = schema as Record<string, unknown>;
  try {
    // Two skills may reuse an $id; the latest compile wins (only the parsed schema is kept).
    // A schema declaring draft-07 (as other runtimes' skills may) compiles in a draft-07 Ajv, then leaves it.
    const ajv = declaresDraft07(record) ? (draft07Ajv ??= createDraft07Ajv()) : context.ajv();
    if (typeof record['$id'] === 'string' && ajv.getSchema(record['$id'])) ajv.removeSchema(record['$id']);
    ajv.compile(record);
    if (ajv === draft07Ajv) ajv.removeSchema(record);
  } catch (error) {
    const draft = declaresDraft07(record) ? 'draft-07' : 'draft 2020-12';
    return { ok: false, message: `inputSchema ${context.display(file)} does not compile as a JSON Schema (${draft}): ${errorMessage(error)}` };
  }
  return { ok: true, schema: record, realPath };
}
