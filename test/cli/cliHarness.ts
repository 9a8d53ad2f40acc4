// Runs the built `narratoria` bundle (dist/cli.cjs) as a real process for the CLI contract tests.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const cliPath = path.join(projectRoot, 'dist', 'cli.cjs');
export const storyRoot = path.join(projectRoot, 'test', 'fixtures', 'story');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node [nodeArgs] dist/cli.cjs ...args` in `cwd` and collects its output. `env` is laid over this process's
 * environment; a variable set to undefined there is left out.
 */
export function narratoria(args: readonly string[], cwd = projectRoot, env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, cliPath, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
