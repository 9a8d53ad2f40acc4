// Starts and stops one code-server (VS Code 1.139 in the browser, on Node 24) on 127.0.0.1 with its own user data, extensions and log; kills only its own process group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeServerEntry, node24Bin } from './paths.js';

/** How to start a code-server. */
export interface CodeServerOptions {
  /** A VSIX to install (`--install-extension`) before the server starts. */
  readonly vsix?: string;
  /**
   * true: Workspace Trust is on, with no startup prompt, so a folder opens untrusted (Restricted Mode).
   * false (default): `--disable-workspace-trust`, every folder is trusted.
   */
  readonly workspaceTrust?: boolean;
  /** User settings merged over {@link defaultUserSettings}. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /**
   * A folder to keep user data and extensions in (kept on stop, and an existing settings.json in it is
   * left as the user edited it); default: a temp folder removed on stop.
   */
  readonly dataDir?: string;
  /** Port to listen on; default: a free one. */
  readonly port?: number;
  /** Extra environment for the server and its extension host. */
  readonly env?: Readonly<Record<string, string>>;
  /** Short name used in temp folder names and messages. */
  readonly label?: string;
}

/** A running code-server. */
export interface CodeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The file the server's stdout and stderr go to. */
  readonly logFile: string;
  /** The workbench URL that opens `folder`. */
  folderUrl(folder: string): string;
  /** The server log so far (the last `maxChars` characters). */
  log(maxChars?: number): string;
  /** Settles when the server process exits, with why ("exit code 1", "exit code SIGTERM"). */
  readonly exited: Promise<string>;
  /** Stops the server and its process group; removes its temp folder unless it was given a dataDir. */
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet and deterministic, and the narrator model-free. */
export function defaultUserSettings(workspaceTrust: boolean): Record<string, unknown> {
  return {
    'chat.disableAIFeatures': true,
    'chat.commandCenter.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.enableExperiments': false,
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'security.workspace.trust.enabled': workspaceTrust,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never',
    'narratoria.narrator.mode': 'pattern',
  };
}

/** Thrown when code-server cannot be installed into or started. */
export class CodeServerError extends Error {
  override readonly name = 'CodeServerError';
}

/** Installs the VSIX (if any), starts code-server and waits until `/healthz` answers. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  if (!existsSync(codeServerEntry) || !existsSync(node24Bin)) {
    throw new CodeServerError('code-server is not installed: run `node --import tsx test/e2e/harness/installHarness.ts` first');
  }
  const workspaceTrust = options.workspaceTrust ?? false;
  const ownsDataDir = options.dataDir === undefined;
  const root = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `narratoria-e2e-${options.label ?? 'server'}-`));
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  const xdgDir = path.join(root, 'xdg');
  for (const dir of [path.join(userDataDir, 'User'), extensionsDir, xdgDir]) mkdirSync(dir, { recursive: true });
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  if (ownsDataDir || !existsSync(settingsFile)) {
    writeFileSync(settingsFile, JSON.stringify({ ...defaultUserSettings(workspaceTrust), ...options.settings }, null, 2));
  }
  // An explicit config file, so code-server never writes ~/.config/code-server/config.yaml.
  const configFile = path.join(root, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const logFile = path.join(root, 'server.log');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // code-server keeps its own logs and state under the XDG folders: keep them in the temp folder.
    XDG_DATA_HOME: path.join(xdgDir, 'data'),
    XDG_CONFIG_HOME: path.join(xdgDir, 'config'),
    XDG_CACHE_HOME: path.join(xdgDir, 'cache'),
    XDG_STATE_HOME: path.join(xdgDir, 'state'),
    ...options.env,
  };
  // code-server lets $PORT override --bind-addr; the port is ours to choose.
  delete env['PORT'];
  delete env['VSCODE_IPC_HOOK_CLI'];
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  const cleanUp = () => {
    if (ownsDataDir && !process.env['NARRATORIA_E2E_KEEP']) rmSync(root, { recursive: true, force: true });
  };
  try {
    if (options.vsix) {
      const install = spawnSync(node24Bin, [codeServerEntry, ...common, '--force', '--install-extension', options.vsix], {
        env,
        encoding: 'utf8',
        // Margin: a safety net for unpacking the VSIX (native model binaries included) on a loaded machine.
        timeout: 300_000,
      });
      if (install.status !== 0) {
        throw new CodeServerError(`installing ${options.vsix} failed (${install.status ?? install.signal}):\n${install.stdout}\n${install.stderr}`);
      }
    }
    const port = options.port ?? (await freePort());
    const args = [
      codeServerEntry,
      ...common,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    ];
    const logFd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      // Its own process group, so stop() can end the server, its extension host and their children together.
      child = spawn(node24Bin, args, { env, detached: true, stdio: ['ignore', logFd, logFd] });
    } finally {
      closeSync(logFd);
    }
    const pid = child.pid;
    if (pid === undefined) throw new CodeServerError('code-server did not start');
    let exited: string | undefined;
    const exit = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => {
        exited = `exit code ${code ?? signal}`;
        resolve(exited);
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const readLog = (maxChars = 20_000) => {
      try {
        const text = readFileSync(logFile, 'utf8');
        return text.length > maxChars ? text.slice(-maxChars) : text;
      } catch {
        return '';
      }
    };
    const stop = async () => {
      if (exited === undefined) {
        signalGroup(pid, 'SIGTERM');
        const stopped = await Promise.race([exit.then(() => true), delay(5_000).then(() => false)]);
        if (!stopped) signalGroup(pid, 'SIGKILL');
        await Promise.race([exit, delay(2_000)]);
      }
      // Stragglers of the group (an extension host finishing a skill script) get no grace.
      signalGroup(pid, 'SIGKILL');
      cleanUp();
    };
    try {
      await waitForHealth(url, () => exited, readLog);
    } catch (error) {
      await stop();
      throw error;
    }
    return {
      url,
      port,
      pid,
      userDataDir,
      extensionsDir,
      logFile,
      folderUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}`,
      log: readLog,
      exited: exit,
      stop,
    };
  } catch (error) {
    cleanUp();
    throw error;
  }
}

/** Margin: polls /healthz until it answers; the deadline is a safety net for a slow first start, not a time limit. */
const HEALTH_DEADLINE_MS = 120_000;

async function waitForHealth(url: string, exited: () => string | undefined, readLog: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_DEADLINE_MS;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new CodeServerError(`code-server stopped before it was ready (${why}):\n${readLog()}`);
    try {
      // Margin: one probe may take a while on a loaded machine; a probe that gives up is simply tried again.
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await delay(200);
  }
  throw new CodeServerError(`code-server did not answer ${url}/healthz within ${HEALTH_DEADLINE_MS / 1000} s:\n${readLog()}`);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

/** A port that was free a moment ago (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
