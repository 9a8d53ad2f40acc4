// Program of the `narratoria` binary (bundled as dist/cliMain.cjs, started by launcher.ts): wires stdio, signals and the exit code around main().
import { ExitCode, type CliIo } from './cliSupport.js';
import { main } from './main.js';
import * as path from 'node:path';

const controller = new AbortController();
let interrupts = 0;
const interrupt = () => {
  interrupts++;
  if (interrupts > 1) process.exit(ExitCode.Failure);
  process.stderr.write('\nCancelling… (press Ctrl+C again to quit at once)\n');
  controller.abort();
};
// A reader that stops early (`narratoria skills | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    controller.abort();
    process.exit(ExitCode.Success);
  }
  throw error;
});
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);
const io: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  // Opened only by the commands that read it (play): creating the stream costs every other command ~1 ms.
  get stdin() {
    return process.stdin;
  },
  cwd: process.cwd(),
  env: process.env,
  // dist/cliMain.cjs -> <package>/skills
  bundledSkillsDirectory: path.join(__dirname, '..', 'skills'),
};
void main(process.argv.slice(2), io, controller.signal).then((code) => {
  process.exitCode = code;
});
