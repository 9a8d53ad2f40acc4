// Which play-through `narratoria play` opens: --session NAME (started or continued), an older --session FILE, --new, or else the one played last.
import * as path from 'node:path';
import { sessionScope, type SkillDataScope } from '../../runtime/skills/skillDataScope.js';
import { lastSessionId, newSessionId, sessionFile, sessionIdProblem } from '../../runtime/session/sessionStore.js';
import { UsageError } from '../cliSupport.js';

/** The session to open: its file, its data scope (absent for an older session file: its own id decides), and a note for the player. */
export interface SessionChoice {
  readonly file: string;
  readonly dataScope?: SkillDataScope;
  /** The session's name, when it is kept under .narratoria/sessions. */
  readonly id?: string;
  readonly note?: string;
}

/** A --session value that is a path (it holds a slash or ends in .json): the older meaning. */
function isFilePath(value: string): boolean {
  return /[\\/]/.test(value) || value.endsWith('.json');
}

/**
 * `--session NAME` opens (or starts) .narratoria/sessions/NAME; a path keeps its older meaning, with a note; `--new`
 * starts a new play-through (named `--session NAME`, else by the date); otherwise the play-through played last
 * continues, or a new one starts. Undefined for `--once` without either (one turn that saves no session).
 */
export async function chooseSession(root: string, cwd: string, session: string | undefined, fresh: boolean, once: boolean): Promise<SessionChoice | undefined> {
  if (session !== undefined && isFilePath(session)) {
    if (fresh) throw new UsageError('--new starts a named play-through; it does not go with --session FILE');
    return {
      file: path.resolve(cwd, session),
      note: `--session ${session} is a file, as before; names are now preferred ("--session NAME" keeps the play-through under .narratoria/sessions/NAME, with its skills' data).`,
    };
  }
  if (session !== undefined) {
    const problem = sessionIdProblem(session);
    if (problem) throw new UsageError(problem);
  }
  if (once && session === undefined && !fresh) return undefined;
  const id = session ?? (fresh ? undefined : await lastSessionId(root)) ?? (await newSessionId(root));
  return { file: sessionFile(root, id), dataScope: sessionScope(root, id), id };
}
