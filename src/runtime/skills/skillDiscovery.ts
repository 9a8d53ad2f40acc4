// Skill discovery (docs/design-rules.md#skill-discovery): reads <root>/skills/* and extra roots into Skills; an invalid skill is skipped with a problem and never stops the others.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type Ajv2020 from 'ajv/dist/2020.js';
import { contractSchemas, createAjv, validateAgainst } from '../contracts/schemas.js';
import { errorMessage } from '../common/errors.js';
import { schemaProblems } from '../validation/schemaErrors.js';
import { isPathInside } from '../common/pathContainment.js';
import { checkConfigSchema, redactConfig, resolveConfig, type ConfigEnvironment, type ConfigSchema, type SecretLookup } from './skillConfig.js';
import { displayPath, resolveInside, SkillProblemCode, skillProblem, unusableSkillPrefix } from './skillProblems.js';
import { discoverScripts, toolPathFor } from './skillScripts.js';
import { forgetProgramLookups } from '../process/interpreter.js';
import { jsonSyntaxError, rangeFields, rangeOfPointerIn } from './manifestPositions.js';
import type { BrokenSkill, Skill, SkillManifest, SkillProblem } from './skillTypes.js';

/** Where to look for skills and what their configuration may draw on. */
export interface SkillDiscoveryOptions {
  /** Story root: its `skills/` directory is searched first. */
  readonly root: string;
  /** Further skills roots (e.g. the bundled skills), searched in order; relative ones resolve against `root`. */
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** Variables for `${VAR}` and `x-env-var` (default: none; pass process.env explicitly if wanted). */
  readonly environment?: ConfigEnvironment | undefined;
  /** Source of `x-sensitive` values missing from config.json. */
  readonly secrets?: SecretLookup | undefined;
}

/** Skills found, skill folders whose skill.json is broken, and every problem met (including those also listed on a skill's or a broken skill's `problems`). */
export interface SkillDiscovery {
  readonly skills: Skill[];
  readonly broken: BrokenSkill[];
  readonly problems: SkillProblem[];
  /** Skills of a later root (the bundled ones, say) left out because an earlier root has its own skill of that name. */
  readonly overridden: OverriddenSkill[];
}

/** A skill of a later root that an earlier root's skill of the same name replaces: the story's own copy wins, as documented. */
export interface OverriddenSkill {
  readonly name: string;
  /** The folder whose skill is used. */
  readonly usedDirectory: string;
  /** The folder left out. */
  readonly overriddenDirectory: string;
}

/** @internal A discovered skill plus what only the registry may see. */
export interface LoadedSkill {
  readonly skill: Skill;
  /** Real path of the skill directory. */
  readonly realDirectory: string;
  /** Effective configuration as JSON, sensitive values in clear (for NARRATORIA_SKILL_CONFIG only). */
  readonly configJson: string;
}

/**
 * Discovers the skills of `<root>/skills` and then of each extra root. A directory without
 * skill.json, with an unreadable or invalid manifest, linking outside every skills root, or
 * reusing a name already found is skipped with a problem; config and script problems stay on
 * the skill (`error` ones make it unusable).
 */
export async function discoverSkills(options: SkillDiscoveryOptions): Promise<SkillDiscovery> {
  const { loaded, broken, problems, overridden } = await loadSkills(options);
  return { skills: loaded.map((entry) => entry.skill), broken, problems, overridden };
}

/** @internal {@link discoverSkills} with the registry's extra data. */
export async function loadSkills(
  options: SkillDiscoveryOptions,
): Promise<{ loaded: LoadedSkill[]; broken: BrokenSkill[]; problems: SkillProblem[]; overridden: OverriddenSkill[] }> {
  const root = path.resolve(options.root);
  // Interpreters are looked up on PATH once per discovery (not per script), so a refresh sees one installed since.
  forgetProgramLookups();
  const problems: SkillProblem[] = [];
  const loaded: LoadedSkill[] = [];
  const broken: BrokenSkill[] = [];
  const overridden: OverriddenSkill[] = [];
  const manifestTexts = new Map<string, string>();
  const display = (file: string) => displayPath(file, root);
  const roots = await skillsRoots(root, options.extraSkillRoots ?? [], problems, display);
  let ajv: Ajv2020 | undefined;
  const context: DirectoryContext = { ...options, root, roots, display, ajv: () => (ajv ??= createAjv()), found: new Map() };
  for (const [rootIndex, skillsRoot] of roots.entries()) {
    const entries = await fs.readdir(skillsRoot.directory).catch(() => [] as string[]);
    for (const entry of entries.sort()) {
      if (entry.startsWith('.')) continue;
      const directory = path.join(skillsRoot.directory, entry);
      const isDirectory = await fs.stat(directory).then(
        (stats) => stats.isDirectory(),
        () => false,
      );
      if (!isDirectory) continue;
      const result = await loadSkillDirectory(directory, rootIndex, context);
      problems.push(...result.problems);
      if (result.overridden) overridden.push(result.overridden);
      if (result.loaded) loaded.push(result.loaded);
      if (result.broken) broken.push(result.broken);
      if (result.manifestText !== undefined) manifestTexts.set(directory, result.manifestText);
    }
  }
  const names = new Set(loaded.map((entry) => entry.skill.name));
  for (const { skill } of loaded) {
    for (const [index, dependency] of (skill.manifest.dependencies ?? []).entries()) {
      if (names.has(dependency)) continue;
      const message = `${display(skill.manifestPath)}: skill "${skill.name}" depends on "${dependency}", which was not found`;
      const text = manifestTexts.get(skill.directory);
      const problem = located(
        skillProblem('warning', SkillProblemCode.SKILL_DEPENDENCY_MISSING, message, skill.manifestPath, `/dependencies/${index}`),
        text ?? '',
        skill.name,
        skill.manifestPath,
      );
      (skill.problems as SkillProblem[]).push(problem);
      problems.push(problem);
    }
  }
  return { loaded, broken, problems, overridden };
}

interface SkillsRoot {
  readonly directory: string;
  readonly realDirectory: string;
}

interface DirectoryContext extends SkillDiscoveryOptions {
  readonly root: string;
  readonly roots: readonly SkillsRoot[];
  readonly display: (file: string) => string;
  readonly ajv: () => Ajv2020;
  /** Skills found so far, by name: the directory each came from and the index of its root. */
  readonly found: Map<string, { readonly directory: string; readonly rootIndex: number }>;
}

async function skillsRoots(root: string, extra: readonly string[], problems: SkillProblem[], display: (file: string) => string): Promise<SkillsRoot[]> {
  const roots: SkillsRoot[] = [];
  const candidates = [path.join(root, 'skills'), ...extra.map((directory) => path.resolve(root, directory))];
  for (const [index, directory] of candidates.entries()) {
    const realDirectory = await fs.realpath(directory).catch(() => undefined);
    if (realDirectory === undefined) {
      // A story without skills/ is fine; a configured extra root that is missing is worth a warning.
      if (index > 0)
        problems.push(skillProblem('warning', SkillProblemCode.SKILLS_ROOT_MISSING, `Skills root ${display(directory)} does not exist`, directory));
      continue;
    }
    if (roots.some((known) => known.realDirectory === realDirectory)) continue;
    roots.push({ directory, realDirectory });
  }
  return roots;
}

/** What one skill folder gave: a loaded skill, or a broken one, or nothing (skipped); its problems; its manifest's text when read. */
interface DirectoryResult {
  readonly loaded?: LoadedSkill;
  readonly broken?: BrokenSkill;
  readonly problems: SkillProblem[];
  readonly manifestText?: string;
  readonly overridden?: OverriddenSkill;
}

async function loadSkillDirectory(directory: string, rootIndex: number, context: DirectoryContext): Promise<DirectoryResult> {
  const { display } = context;
  const manifestPath = path.join(directory, 'skill.json');
  const skipping = `Skipping ${display(directory)}`;
  const skip = (severity: SkillProblem['severity'], code: SkillProblemCode, message: string, file = manifestPath, pointer?: string) => ({
    problems: [skillProblem(severity, code, `${skipping}: ${message}`, file, pointer)],
  });

  const realDirectory = await fs.realpath(directory).catch(() => directory);
  if (!context.roots.some((skillsRoot) => isPathInside(realDirectory, skillsRoot.realDirectory))) {
    return skip('warning', SkillProblemCode.SKILL_OUTSIDE_ROOTS, `it links to ${realDirectory}, outside every skills root`, directory);
  }
  const manifestText = await readOptional(manifestPath);
  if (manifestText.kind === 'missing') return skip('warning', SkillProblemCode.MANIFEST_MISSING, 'no skill.json', directory);
  // A broken manifest: the skill cannot load, and says where (docs/writing-skills.md#when-a-skilljson-is-broken).
  const name = path.basename(directory);
  const unusable = unusableSkillPrefix(name);
  const brokenSkill = (problems: SkillProblem[]): DirectoryResult => ({ broken: { name, directory, realDirectory, manifestPath, problems }, problems });
  if (manifestText.kind === 'unreadable') {
    return brokenSkill([
      {
        ...skillProblem('error', SkillProblemCode.MANIFEST_JSON_INVALID, `${unusable}its skill.json cannot be read: ${manifestText.message}`, manifestPath),
        skill: name,
      },
    ]);
  }
  const text = manifestText.text;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const syntax = jsonSyntaxError(text, parsed.message);
    const message = `${unusable}its skill.json is not valid JSON: ${syntax?.message ?? parsed.message}`;
    const problem = skillProblem('error', SkillProblemCode.MANIFEST_JSON_INVALID, message, manifestPath);
    return { ...brokenSkill([{ ...problem, ...(syntax ? rangeFields(syntax.range) : {}), skill: name }]), manifestText: text };
  }
  const errors = validateAgainst('skill-manifest.schema.json', parsed.value);
  if (errors.length > 0) {
    const found = schemaProblems(errors, parsed.value, contractSchemas['skill-manifest.schema.json']);
    const problems = found.map((problem) => {
      const base = skillProblem(
        'error',
        SkillProblemCode.MANIFEST_INVALID,
        `${unusable}its skill.json does not follow the manifest schema: ${problem.message}`,
        manifestPath,
        problem.pointer,
      );
      const range = rangeOfPointerIn(text, problem.pointer, problem.target);
      return { ...base, ...(range ? rangeFields(range) : {}), skill: name };
    });
    return { ...brokenSkill(problems), manifestText: text };
  }
  const manifest = parsed.value as SkillManifest;
  const earlier = context.found.get(manifest.name);
  // An earlier root's skill of this name replaces this one (a story's own copy of a bundled skill): not a problem.
  if (earlier !== undefined && earlier.rootIndex < rootIndex) {
    return { problems: [], manifestText: text, overridden: { name: manifest.name, usedDirectory: earlier.directory, overriddenDirectory: directory } };
  }
  if (earlier !== undefined) {
    const duplicate = skillProblem(
      'warning',
      SkillProblemCode.SKILL_DUPLICATE,
      `${skipping}: a skill named "${manifest.name}" was already found in ${display(earlier.directory)}`,
      manifestPath,
      '/name',
    );
    return { problems: [located(duplicate, text, manifest.name, manifestPath)], manifestText: text };
  }
  context.found.set(manifest.name, { directory, rootIndex });

  const problems: SkillProblem[] = [];
  if (manifest.name !== path.basename(directory)) {
    const message = `${display(manifestPath)}: the skill is named "${manifest.name}" but its directory is "${path.basename(directory)}"; plans refer to skills by directory, so rename one to match`;
    problems.push(skillProblem('warning', SkillProblemCode.SKILL_NAME_MISMATCH, message, manifestPath, '/name'));
  }
  const prompt = await readNamedFile(directory, manifest.prompt, 'prompt.md', 'prompt', SkillProblemCode.PROMPT_MISSING, problems, context);
  const scripts = await discoverScripts({ directory, realDirectory, root: context.root, manifest, manifestPath, ajv: context.ajv, display });
  problems.push(...scripts.problems);
  const config = await loadConfig(directory, manifest, problems, context);

  const skill: Skill = {
    name: manifest.name,
    displayName: manifest.displayName ?? manifest.name,
    version: manifest.version,
    description: manifest.description,
    ...(manifest.author !== undefined ? { author: manifest.author } : {}),
    directory,
    planPath: toolPathFor(directory, context.root),
    manifestPath,
    manifest,
    capabilities: manifest.capabilities ?? [],
    priority: manifest.priority ?? 50,
    scripts: scripts.scripts,
    ...(prompt ? { prompt: prompt.text, promptFile: prompt.file } : {}),
    ...(config.schema ? { configSchema: config.schema as unknown as Record<string, unknown> } : {}),
    problems: problems.map((problem) => located(problem, text, manifest.name, manifestPath)),
    ...(config.schemaFile !== undefined ? { configSchemaFile: config.schemaFile } : {}),
    ...(config.configFile !== undefined ? { configFile: config.configFile } : {}),
    config: config.redacted,
  };
  return { loaded: { skill, realDirectory, configJson: config.json }, problems: [...skill.problems], manifestText: text };
}

/**
 * The problem with its skill's name and, when it points into the skill's skill.json (`manifestPath`, whose `text` is given), the
 * line and column there. Problems of other files are left as they are.
 */
function located(problem: SkillProblem, text: string, skill: string, manifestPath: string): SkillProblem {
  const named = problem.skill === undefined ? { ...problem, skill } : problem;
  if (named.line !== undefined || named.pointer === undefined || named.file !== manifestPath) return named;
  const range = rangeOfPointerIn(text, named.pointer, 'value');
  return range ? { ...named, ...rangeFields(range) } : named;
}

async function loadConfig(directory: string, manifest: SkillManifest, problems: SkillProblem[], context: DirectoryContext) {
  const schemaDocument = await readNamedFile(
    directory,
    manifest.configSchema,
    'config-schema.json',
    'configSchema',
    SkillProblemCode.CONFIG_SCHEMA_MISSING,
    problems,
    context,
  );
  let schema: ConfigSchema | undefined;
  let rawSchema: Record<string, unknown> | undefined;
  if (schemaDocument) {
    const parsed = parseJson(schemaDocument.text);
    if (!parsed.ok) {
      const message = `${context.display(schemaDocument.file)} is not valid JSON: ${parsed.message}`;
      problems.push(skillProblem('error', SkillProblemCode.CONFIG_SCHEMA_INVALID, message, schemaDocument.file));
    } else {
      if (isRecord(parsed.value)) rawSchema = parsed.value;
      const checked = checkConfigSchema(parsed.value, schemaDocument.file);
      problems.push(...checked.problems.map((problem) => locate(problem, directory, context.display)));
      schema = checked.schema;
    }
  }
  const configFile = path.join(directory, 'config.json');
  const configText = await readOptional(configFile);
  let values: Record<string, unknown> = {};
  if (configText.kind !== 'missing') {
    const parsed = configText.kind === 'text' ? parseJson(configText.text) : { ok: false as const, message: configText.message };
    if (!parsed.ok || !isRecord(parsed.value)) {
      const why = parsed.ok ? 'must contain a JSON object' : `is not valid JSON: ${parsed.message}`;
      problems.push(skillProblem('error', SkillProblemCode.CONFIG_JSON_INVALID, `${context.display(configFile)} ${why}`, configFile));
    } else {
      values = parsed.value;
      if (!schemaDocument) {
        const message = `${context.display(configFile)} is not checked: the skill has no config-schema.json`;
        problems.push(skillProblem('warning', SkillProblemCode.CONFIG_UNCHECKED, message, configFile));
      }
    }
  }
  const resolution = await resolveConfig({
    skill: manifest.name,
    schema,
    values,
    environment: context.environment,
    secrets: context.secrets,
    configFile,
    schemaFile: schemaDocument?.file,
  });
  problems.push(...resolution.problems.map((problem) => locate(problem, directory, context.display)));
  return {
    schema,
    schemaFile: schemaDocument?.file,
    configFile: configText.kind === 'missing' ? undefined : configFile,
    redacted: redactConfig(resolution.values, schema ?? rawSchema),
    json: JSON.stringify(resolution.values),
  };
}

/** Reads a file the manifest may name (`named`), defaulting to `fallback`; a missing file is a problem only when named. */
async function readNamedFile(
  directory: string,
  named: string | undefined,
  fallback: string,
  field: string,
  missingCode: SkillProblemCode,
  problems: SkillProblem[],
  context: DirectoryContext,
): Promise<{ text: string; file: string } | undefined> {
  const manifestPath = path.join(directory, 'skill.json');
  const file = resolveInside(directory, named ?? fallback);
  if (!file) {
    const message = `${context.display(manifestPath)}: ${field} ${JSON.stringify(named)} leaves the skill directory`;
    problems.push(skillProblem('error', SkillProblemCode.PATH_OUTSIDE_SKILL, message, manifestPath, `/${field}`));
    return undefined;
  }
  const read = await readOptional(file);
  if (read.kind === 'text') return { text: read.text, file };
  if (read.kind === 'unreadable' || named !== undefined) {
    const why = read.kind === 'unreadable' ? `cannot be read: ${read.message}` : 'does not exist';
    problems.push(
      skillProblem('warning', missingCode, `${context.display(manifestPath)}: ${field} ${context.display(file)} ${why}`, manifestPath, `/${field}`),
    );
  }
  return undefined;
}

/** Config messages start with "config.json: " or "config-schema.json: "; name the file fully (or the skill directory). */
function locate(problem: SkillProblem, directory: string, display: (file: string) => string): SkillProblem {
  for (const name of ['config-schema.json', 'config.json']) {
    if (problem.message.startsWith(`${name}: `)) {
      const file = problem.file ?? path.join(directory, name);
      return { ...problem, message: `${display(file)}: ${problem.message.slice(name.length + 2)}` };
    }
  }
  return { ...problem, message: `${display(directory)}: ${problem.message}` };
}

type OptionalText = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; message: string };

async function readOptional(file: string): Promise<OptionalText> {
  try {
    const text = await fs.readFile(file, 'utf8');
    return { kind: 'text', text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', message: errorMessage(error) };
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
