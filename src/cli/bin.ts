// Program of the `narratoria` binary for every command but `run` (bundled as dist/cliMain.cjs, started by launcher.ts).
import { main } from './main.js';
import { startProgram } from './program.js';

startProgram(main, __dirname);
