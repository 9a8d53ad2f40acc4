// `narratoria debug-adapter [--port N]`: the plan debugger as a standalone Debug Adapter Protocol server for any DAP client (stdio by default).
import * as net from 'node:net';
import { NarratoriaDebugSession } from '../../runtime/debug/dap/narratoriaDebugSession.js';
import { ExitCode, parseOptions, parsePositiveInteger, UsageError, type CliIo } from '../cliSupport.js';

/** A debug adapter run outside VS Code trusts its user: the client decides what to launch. A story turn plays with the bundled skills, as `play` does. */
const host = (io: CliIo) => ({
  workspaceFolder: io.cwd,
  isTrusted: () => true,
  ...(io.bundledSkillsDirectory ? { storySkillRoots: [io.bundledSkillsDirectory] } : {}),
});

export async function debugAdapterCommand(args: readonly string[], io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const { values, positionals } = parseOptions(args, { port: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError('debug-adapter takes no file: the client sends the plan in its launch request');
  const port = values.port === '0' ? 0 : parsePositiveInteger('port', values.port);
  if (port !== undefined) return serve(port, io, signal);
  const input = io.stdin ?? process.stdin;
  const session = new NarratoriaDebugSession(host(io));
  session.start(input, io.stdout as NodeJS.WritableStream);
  await new Promise<void>((resolve) => {
    input.on('end', resolve);
    input.on('close', resolve);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await session.close();
  session.shutdown();
  return ExitCode.Success;
}

/** One session per connection, until the process is interrupted. */
async function serve(port: number, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const server = net.createServer((socket) => {
    const session = new NarratoriaDebugSession(host(io));
    session.setRunAsServer(true);
    session.start(socket, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  io.stderr.write(`narratoria debug-adapter: listening on 127.0.0.1:${typeof address === 'object' && address ? address.port : port}\n`);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return ExitCode.Success;
}
