// Shared helpers for the skill tests: run a skill script for real and check its stdout against the v0 protocol contract.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { contractValidator, createAjv } from '../../src/runtime/contracts/schemas.js';
import type { DoneEvent, ToolEvent } from '../../src/runtime/contractTypes/toolEvent.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const skillsRoot = path.join(repoRoot, 'skills');
export const fixtureStoryRoot = path.join(repoRoot, 'test', 'fixtures', 'story');

export interface ScriptRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The stdout lines (without the final empty string after the last newline). */
  readonly lines: readonly string[];
}

export interface RunOptions {
  /** Effective config, passed as NARRATORIA_SKILL_CONFIG; when absent the variable is removed. */
  readonly config?: Record<string, unknown>;
  /** Extra environment variables (set to undefined to remove one). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** When the script is killed (SIGKILL) as hung; default SCRIPT_KILL_AFTER_MS. */
  readonly timeoutMs?: number;
}

/**
 * Margin: a skill script finishes in well under a second; this kill timer only stops a hung one. Two minutes is far
 * beyond what a loaded 2-core machine needs even with several scripts starting at once (the tests run them in parallel).
 */
export const SCRIPT_KILL_AFTER_MS = 120_000;

/** Spawns `node <script>`, writes `stdin` (an object is JSON-encoded, a string is sent verbatim) and closes it. */
export function runScript(script: string, stdin: unknown, options: RunOptions = {}): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NARRATORIA_SKILL_CONFIG'];
  delete env['NARRATORIA_SKILL_DIR'];
  if (options.config !== undefined) env['NARRATORIA_SKILL_CONFIG'] = JSON.stringify(options.config);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? SCRIPT_KILL_AFTER_MS);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const lines = stdout.split('\n');
      if (lines.at(-1) === '') lines.pop();
      resolve({ code, signal, stdout, stderr: Buffer.concat(err).toString('utf8'), lines });
    });
    child.stdin.on('error', () => {
      // the script may exit before reading everything; the assertions on its output decide
    });
    child.stdin.end(typeof stdin === 'string' ? stdin : JSON.stringify(stdin));
  });
}

/**
 * Asserts the run kept the protocol: exit code 0, stdout ends with a newline, every line is one JSON event
 * valid against contracts/tool-event.schema.json, and exactly one `done` comes last. Returns the events.
 */
export function assertProtocol(run: ScriptRun): { events: ToolEvent[]; done: DoneEvent } {
  assert.equal(run.code, 0, `exit code 0 expected; stderr: ${run.stderr}`);
  assert.ok(run.stdout.endsWith('\n'), 'stdout must end with a newline');
  const validate = contractValidator('tool-event.schema.json');
  const events: ToolEvent[] = [];
  for (const line of run.lines) {
    let parsed: unknown;
    assert.doesNotThrow(() => (parsed = JSON.parse(line)), `stdout line is not JSON: ${line}`);
    assert.ok(validate(parsed), `invalid event ${line}: ${JSON.stringify(validate.errors)}`);
    events.push(parsed as ToolEvent);
  }
  const dones = events.filter((event) => event.type === 'done');
  assert.equal(dones.length, 1, 'exactly one done event');
  const last = events.at(-1);
  assert.ok(last && last.type === 'done', 'done must be the last event');
  return { events, done: last };
}

/** Events of one type, narrowed. */
export function eventsOfType<T extends ToolEvent['type']>(events: readonly ToolEvent[], type: T): Extract<ToolEvent, { type: T }>[] {
  return events.filter((event): event is Extract<ToolEvent, { type: T }> => event.type === type);
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
}

export interface ManifestScript {
  readonly name: string;
  readonly path: string;
  readonly inputSchema?: string;
  readonly timeout?: number;
}
export interface Manifest {
  readonly name: string;
  readonly prompt?: string;
  readonly configSchema?: string;
  readonly scripts?: readonly ManifestScript[];
  readonly capabilities?: readonly string[];
  readonly priority?: number;
}

/** Validates skill.json against the manifest contract and returns it. */
export async function loadValidManifest(skillDir: string): Promise<Manifest> {
  const manifest = await readJson(path.join(skillDir, 'skill.json'));
  const validate = contractValidator('skill-manifest.schema.json');
  assert.ok(validate(manifest), `${skillDir}/skill.json: ${JSON.stringify(validate.errors)}`);
  return manifest as Manifest;
}

/** Validates config-schema.json against the config meta-schema, compiles it, and checks every default against its field. */
export async function assertValidConfigSchema(skillDir: string, file = 'config-schema.json'): Promise<Record<string, unknown>> {
  const schema = (await readJson(path.join(skillDir, file))) as { properties: Record<string, Record<string, unknown>> };
  const validate = contractValidator('config-schema-meta.schema.json');
  assert.ok(validate(schema), `${skillDir}/${file}: ${JSON.stringify(validate.errors)}`);
  const ajv = createAjv();
  const validateConfig = ajv.compile(schema);
  const defaults: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    assert.equal(typeof field['title'], 'string', `${key} needs a title`);
    assert.equal(typeof field['description'], 'string', `${key} needs a description`);
    assert.ok('default' in field, `${key} needs a default`);
    defaults[key] = field['default'];
  }
  assert.ok(validateConfig(defaults), `defaults must satisfy the schema: ${JSON.stringify(validateConfig.errors)}`);
  return defaults;
}

/**
 * Checks each script of a skill: a node shebang and a header comment, NOT executable (so the runtime
 * runs it with its own Node — inside VS Code that is Electron with ELECTRON_RUN_AS_NODE, no system
 * node needed), and an input schema that compiles.
 */
export async function assertScripts(skillDir: string, manifest: Manifest): Promise<void> {
  assert.ok(manifest.scripts && manifest.scripts.length > 0, 'the skill declares scripts');
  for (const script of manifest.scripts) {
    const file = path.join(skillDir, script.path);
    const text = await fs.readFile(file, 'utf8');
    const [shebang, header] = text.split('\n');
    assert.equal(shebang, '#!/usr/bin/env node', `${script.path} shebang`);
    assert.match(header ?? '', /^\/\/ \S/, `${script.path} needs a one-line header comment`);
    if (process.platform !== 'win32') {
      const mode = (await fs.stat(file)).mode;
      assert.equal(mode & 0o111, 0, `${script.path} must not be executable (the runtime picks Node by extension)`);
    }
    assert.ok(script.inputSchema, `${script.name} declares an inputSchema`);
    const inputSchema = await readJson(path.join(skillDir, script.inputSchema));
    assert.doesNotThrow(() => createAjv().compile(inputSchema as object), `${script.inputSchema} compiles`);
  }
}

/** Runs `task` over `items` with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
