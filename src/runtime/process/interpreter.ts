// Chooses how to start a skill script: directly when executable, otherwise an interpreter picked by extension.
import { promises as fs, constants as fsConstants } from 'node:fs';
import * as path from 'node:path';

export interface ScriptCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Variables the command itself needs (e.g. ELECTRON_RUN_AS_NODE for Node inside VS Code). */
  readonly env: Readonly<Record<string, string>>;
}

export type ScriptCommandResult =
  | { readonly ok: true; readonly command: ScriptCommand }
  | { readonly ok: false; readonly code: 'SCRIPT_NOT_FOUND' | 'SCRIPT_NOT_EXECUTABLE'; readonly message: string };

const nodeExtensions = new Set(['.js', '.mjs', '.cjs']);

/** Known interpreters by extension, for scripts without the executable bit. */
export const INTERPRETED_EXTENSIONS = ['.js', '.mjs', '.cjs', '.py', '.sh'] as const;

/**
 * Executable files run directly (their shebang decides). Otherwise `.js/.mjs/.cjs` run with the
 * current Node (`ELECTRON_RUN_AS_NODE=1`, so this also works inside VS Code's Electron), `.py` with
 * python3 and `.sh` with bash.
 */
export async function commandForScript(scriptPath: string, nodePath: string = process.execPath): Promise<ScriptCommandResult> {
  let stat;
  try {
    stat = await fs.stat(scriptPath);
  } catch {
    return { ok: false, code: 'SCRIPT_NOT_FOUND', message: `Script not found: ${scriptPath}` };
  }
  if (!stat.isFile()) return { ok: false, code: 'SCRIPT_NOT_FOUND', message: `Not a file: ${scriptPath}` };
  const extension = path.extname(scriptPath).toLowerCase();
  if (process.platform !== 'win32' && (stat.mode & 0o111) !== 0 && (await isExecutable(scriptPath))) {
    return { ok: true, command: { file: scriptPath, args: [], env: {} } };
  }
  if (nodeExtensions.has(extension)) {
    return { ok: true, command: { file: nodePath, args: [scriptPath], env: { ELECTRON_RUN_AS_NODE: '1' } } };
  }
  if (extension === '.py') return { ok: true, command: { file: process.platform === 'win32' ? 'python' : 'python3', args: [scriptPath], env: {} } };
  if (extension === '.sh') return { ok: true, command: { file: 'bash', args: [scriptPath], env: {} } };
  return {
    ok: false,
    code: 'SCRIPT_NOT_EXECUTABLE',
    message: `Script is not executable and has no known extension (${INTERPRETED_EXTENSIONS.join(', ')}): ${scriptPath}. Run "chmod +x" on it or rename it.`,
  };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}
