// `narratoria sessions list|show|delete`: the saved play-throughs of a story (.narratoria/sessions/<id>/: the session and its skills' data).
import * as path from 'node:path';
import { formatBytes, plural } from '../../runtime/common/humanText.js';
import { deleteSession, listSessions, readSessionFile, sessionFile, sessionIdProblem } from '../../runtime/session/sessionStore.js';
import { ExitCode, parseFormat, parseOptions, styler, toJson, UsageError, type CliIo } from '../cliSupport.js';

export async function sessionsCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { root: { type: 'string' }, format: { type: 'string' } });
  const format = parseFormat(values.format);
  const [action = 'list', id, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`sessions ${action} takes one session name (got "${extra}" too)`);
  const root = path.resolve(io.cwd, values.root ?? '.');
  const style = styler(io.stdout, io.env);
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`sessions list takes no session name (got "${id}")`);
    const sessions = await listSessions(root);
    if (format === 'json') io.stdout.write(toJson(sessions));
    else if (sessions.length === 0) io.stdout.write(`No saved sessions in ${path.join(root, '.narratoria', 'sessions')}. "narratoria play" starts one.\n`);
    else {
      for (const session of sessions) {
        const detail =
          session.problem !== undefined
            ? style.yellow(session.problem)
            : `${plural(session.turns ?? 0, 'turn')}, ${formatBytes(session.dataBytes)} of skill data, last played ${session.updatedAt}${session.lastInput ? ` ("${session.lastInput}")` : ''}`;
        io.stdout.write(`${style.bold(session.id)}  ${detail}\n`);
      }
      io.stdout.write(style.dim('Continue one with "narratoria play --session NAME"; start another with "narratoria play --new".\n'));
    }
    return ExitCode.Success;
  }
  if (id === undefined) throw new UsageError(`sessions ${action} needs a session name (see "narratoria sessions list")`);
  const problem = sessionIdProblem(id);
  if (problem) throw new UsageError(problem);
  switch (action) {
    case 'show': {
      const read = await readSessionFile(sessionFile(root, id));
      if (read === undefined) {
        io.stderr.write(`No session "${id}" in ${path.join(root, '.narratoria', 'sessions')}\n`);
        return ExitCode.Usage;
      }
      if ('problem' in read) {
        io.stderr.write(`The session "${id}" ${read.problem}.\n`);
        return ExitCode.Failure;
      }
      if (format === 'json') io.stdout.write(toJson(read.session));
      else {
        const session = read.session;
        io.stdout.write(
          `${style.bold(id)}: ${plural(session.turns.length, 'turn')}, started ${session.createdAt}, last played ${session.updatedAt}, seed ${session.seed ?? '-'}\n`,
        );
        for (const turn of session.turns)
          io.stdout.write(
            `${style.dim(`${turn.index}.`)} ${turn.opening ? '(the opening)' : `> ${turn.input}`}\n   ${turn.narrative.replace(/\n+/g, '\n   ')}\n`,
          );
      }
      return ExitCode.Success;
    }
    case 'delete': {
      if (!(await deleteSession(root, id))) {
        io.stderr.write(`No session "${id}" in ${path.join(root, '.narratoria', 'sessions')}\n`);
        return ExitCode.Usage;
      }
      io.stdout.write(`Deleted the session "${id}" and its skills' data.\n`);
      return ExitCode.Success;
    }
    default:
      throw new UsageError(`unknown sessions action "${action}" (list, show or delete)`);
  }
}
