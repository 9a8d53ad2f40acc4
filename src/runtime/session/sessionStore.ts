// The saved play-throughs of a story: each under <root>/.narratoria/sessions/<id>/ (session.json and its skills' data), listed, shown and deleted by id.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { validateAgainst } from '../contracts/schemas.js';
import { sessionDirectory } from '../skills/skillDataScope.js';
import type { SessionFile } from './playSession.js';

/** A session's id is its folder's name: letters, digits, dots, dashes and underscores, up to 64. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `id` cannot name a session, or undefined when it can. */
export function sessionIdProblem(id: string): string | undefined {
  if (!SESSION_ID.test(id) || id === '.' || id === '..')
    return `"${id}" is not a session name: use letters, digits, ".", "-" and "_" (up to 64, starting with a letter or digit)`;
  return undefined;
}

/** The saved file of session `id`. */
export function sessionFile(root: string, id: string): string {
  return path.join(sessionDirectory(root, id), 'session.json');
}

/** A saved session as `sessions list` shows it. */
export interface SessionSummary {
  readonly id: string;
  readonly file: string;
  /** Absent when the file cannot be read (`problem` says why). */
  readonly turns?: number;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** The last input played. */
  readonly lastInput?: string;
  /** Bytes of its skills' data. */
  readonly dataBytes: number;
  readonly problem?: string;
}

/** Reads a session file: the session, or why it cannot be used (damaged, or written by another format version). */
export async function readSessionFile(file: string): Promise<{ readonly session: SessionFile } | { readonly problem: string } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `is damaged: not valid JSON (${(error as Error).message})` };
  }
  const version = (value as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== 1)
    return { problem: `was written in session format ${JSON.stringify(version ?? 'unknown')}, which this version does not read (it reads format 1)` };
  const problems = validateAgainst('session.schema.json', value);
  if (problems.length > 0) return { problem: `is damaged: ${problems[0]!.instancePath || '/'} ${problems[0]!.message ?? 'is invalid'}` };
  return { session: value as SessionFile };
}

/** The story's saved sessions, most recently played first (unreadable ones last, with their problem). `sizes: false` skips measuring their data. */
export async function listSessions(root: string, { sizes = true }: { readonly sizes?: boolean } = {}): Promise<SessionSummary[]> {
  const folder = path.join(root, '.narratoria', 'sessions');
  let ids: string[];
  try {
    ids = (await fs.readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
  const summaries: SessionSummary[] = [];
  for (const id of ids) {
    const file = sessionFile(root, id);
    const read = await readSessionFile(file);
    const dataBytes = sizes ? await folderBytes(path.join(sessionDirectory(root, id), 'data')) : 0;
    // A folder with data but no session file is the data of scripts run outside any play-through (`run`).
    if (read === undefined) {
      if (dataBytes > 0) summaries.push({ id, file, dataBytes, problem: 'has skill data but no session file (scripts run outside a play-through)' });
      continue;
    }
    if ('problem' in read) summaries.push({ id, file, dataBytes, problem: read.problem });
    else
      summaries.push({
        id,
        file,
        turns: read.session.turns.length,
        createdAt: read.session.createdAt,
        updatedAt: read.session.updatedAt,
        ...(read.session.turns.at(-1) ? { lastInput: read.session.turns.at(-1)!.input } : {}),
        dataBytes,
      });
  }
  return summaries.sort((left, right) => (right.updatedAt ?? '').localeCompare(left.updatedAt ?? '') || left.id.localeCompare(right.id));
}

/** The id of the session played last, if any. */
export async function lastSessionId(root: string): Promise<string | undefined> {
  return (await listSessions(root, { sizes: false })).find((summary) => summary.problem === undefined)?.id;
}

/** A new session's id: the date and time it starts ("2026-11-28-1642"), with a suffix when taken. */
export async function newSessionId(root: string, now = new Date()): Promise<string> {
  const base = now.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  for (let suffix = 1; ; suffix++) {
    const id = suffix === 1 ? base : `${base}-${suffix}`;
    const exists = await fs.stat(sessionDirectory(root, id)).then(
      () => true,
      () => false,
    );
    if (!exists) return id;
  }
}

/** Deletes session `id` (its file and its skills' data); false when there is none. */
export async function deleteSession(root: string, id: string): Promise<boolean> {
  const folder = sessionDirectory(root, id);
  const exists = await fs.stat(folder).then(
    () => true,
    () => false,
  );
  if (!exists) return false;
  await fs.rm(folder, { recursive: true, force: true });
  return true;
}

/** Bytes of every file under `folder` (0 when it does not exist). */
async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += await fs.stat(path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name)).then(
      (stat) => stat.size,
      () => 0,
    );
  }
  return total;
}
