// Process entry of the `narratoria` binary (dist/cli.cjs): runs the command's bundle (dist/cliRun.cjs for `run`, else dist/cliMain.cjs) through the compile cache.
import * as path from 'node:path';
import { programBundle, runBundle } from './codeCache.js';

runBundle(path.join(__dirname, programBundle(process.argv.slice(2))), process.env);
