// `npm start`: packages the extension, installs the harness on first run, and serves VS Code (code-server) with Narratoria on a sample story until Ctrl+C.
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { freePort, startCodeServer, type CodeServer } from './codeServer.js';
import { installHarness } from './installHarness.js';
import { repoRoot } from './paths.js';
import { makeStoryWorkspace } from './storyWorkspace.js';
import { ensureVsix } from './vsix.js';

/** Everything `npm start` keeps between runs (git-ignored): the story and VS Code's user data. */
const devRoot = path.join(repoRoot, '.narratoria-dev');
const DEFAULT_PORT = 8080;

const usage = `Usage: npm start [-- --port N] [-- --folder DIR]
  Serves VS Code with the Narratoria extension at http://127.0.0.1:PORT (default ${DEFAULT_PORT}, or a free port).
  --folder DIR   open DIR instead of the sample story in .narratoria-dev/story`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return;
  }
  const portArg = valueOf(args, '--port') ?? process.env['NARRATORIA_PORT'];
  const folderArg = valueOf(args, '--folder');

  installHarness((line) => console.log(line));
  const vsix = ensureVsix();

  let folder: string;
  if (folderArg) {
    folder = path.resolve(folderArg);
    if (!existsSync(folder)) throw new Error(`${folder} does not exist`);
  } else {
    folder = path.join(devRoot, 'story');
    if (existsSync(folder)) {
      console.log(`[start] using the story in ${path.relative(process.cwd(), folder)} (your edits are kept)`);
    } else {
      makeStoryWorkspace({ dir: folder });
      console.log(`[start] created a sample story in ${path.relative(process.cwd(), folder)} (the sample skills under skills/)`);
    }
  }

  const port = portArg ? Number(portArg) : (await isPortFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freePort();
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`not a port: ${portArg}`);
  mkdirSync(devRoot, { recursive: true });
  const server: CodeServer = await startCodeServer({ vsix, port, label: 'start', dataDir: path.join(devRoot, 'code-server') });

  console.log(`\nNarratoria is running in VS Code at ${server.url}/?folder=${encodeURI(folder)}`);
  console.log(`  (127.0.0.1 only; server log: ${path.relative(process.cwd(), server.logFile)}; Ctrl+C stops it)\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[start] ${signal}: stopping code-server`);
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
  const why = await server.exited;
  if (!stopping) {
    console.error(`[start] code-server stopped (${why}); the end of its log:\n${server.log(4_000)}`);
    await server.stop();
    process.exit(1);
  }
}

function valueOf(args: readonly string[], flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index >= 0 ? args[index + 1] : undefined;
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
