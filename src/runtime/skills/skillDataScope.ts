// Where a skill's data lives: per session in the story's .narratoria/sessions/<id>/data/<skill>/, shared in .narratoria/shared/<skill>/, never in the skill's own folder or the installation.
import { mkdirSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { relativeInside } from '../common/pathContainment.js';

/** The id of the session that scripts run outside any play-through (`run`, `inspect`, the debugger) share; it also holds what a story's skills kept in their own data folders before. */
export const DEFAULT_SESSION_ID = 'default';

/** The folders of one session's skill data. */
export interface SkillDataScope {
  /** NARRATORIA_SESSION_ID. */
  readonly sessionId: string;
  /** Each skill's session data is `<dataRoot>/<skill>` (NARRATORIA_SKILL_DATA). */
  readonly dataRoot: string;
  /** Each skill's data shared by every session is `<sharedRoot>/<skill>` (NARRATORIA_SKILL_SHARED). */
  readonly sharedRoot: string;
  /** A story root whose own skills' older `skills/<skill>/data` this scope takes in once (the default session only). */
  readonly adoptsFrom?: string | undefined;
}

/** The `.narratoria` folder of a story. */
export function narratoriaDirectory(root: string): string {
  return path.join(root, '.narratoria');
}

/** The folder of session `sessionId` of the story at `root`. */
export function sessionDirectory(root: string, sessionId: string): string {
  return path.join(narratoriaDirectory(root), 'sessions', sessionId);
}

/** The scope of a saved session of the story: its data under .narratoria/sessions/<id>/data, the story's shared data. */
export function sessionScope(root: string, sessionId: string): SkillDataScope {
  return {
    sessionId,
    dataRoot: path.join(sessionDirectory(root, sessionId), 'data'),
    sharedRoot: path.join(narratoriaDirectory(root), 'shared'),
    ...(sessionId === DEFAULT_SESSION_ID ? { adoptsFrom: root } : {}),
  };
}

/**
 * A scope of its own in `folder` (a playtest's or an explored session's temporary folder): its data starts empty, and
 * the story's shared data is copied in first, so what it writes never reaches the story.
 */
export async function isolatedScope(root: string, sessionId: string, folder: string): Promise<SkillDataScope> {
  const sharedRoot = path.join(folder, 'shared');
  await fs.cp(path.join(narratoriaDirectory(root), 'shared'), sharedRoot, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  return { sessionId, dataRoot: path.join(folder, 'data'), sharedRoot };
}

/** The data and shared folders of one skill in a scope (NARRATORIA_SKILL_DATA, NARRATORIA_SKILL_SHARED). */
export interface SkillFolders {
  readonly data: string;
  readonly shared: string;
}

/** The data and shared folders of `skill` in `scope`. */
export function skillFolders(scope: SkillDataScope, skill: string): SkillFolders {
  return { data: path.join(scope.dataRoot, skill), shared: path.join(scope.sharedRoot, skill) };
}

/**
 * Creates the skill's session folder. The default session takes in, once, the data a story's own skill kept in its
 * folder before sessions had their own (`skills/<skill>/data`): copied, never moved, so nothing is lost. A bundled
 * skill's folder (outside the story) is never read: its data would leak from one story to another.
 */
export async function prepareSkillData(scope: SkillDataScope, skill: string, skillDirectory: string | undefined): Promise<string> {
  const { data } = skillFolders(scope, skill);
  if (scope.adoptsFrom !== undefined && skillDirectory !== undefined && relativeInside(skillDirectory, scope.adoptsFrom) !== undefined) {
    const exists = await fs.stat(data).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await fs.cp(path.join(skillDirectory, 'data'), data, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  }
  await fs.mkdir(data, { recursive: true }).catch(() => undefined);
  return data;
}

/** Creates a new session folder named `base` (or `base-2`, `base-3`… when taken) in the story; returns its path. */
export function createSessionFolder(root: string, base: string): string {
  mkdirSync(path.join(narratoriaDirectory(root), 'sessions'), { recursive: true });
  for (let suffix = 1; ; suffix++) {
    const folder = sessionDirectory(root, suffix === 1 ? base : `${base}-${suffix}`);
    try {
      mkdirSync(folder);
      return folder;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
