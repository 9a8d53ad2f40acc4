// Process entry of the `narratoria` binary (dist/cli.cjs): runs the CLI bundle (dist/cliMain.cjs, from bin.ts) through the compile cache.
import * as path from 'node:path';
import { runBundle } from './codeCache.js';

runBundle(path.join(__dirname, 'cliMain.cjs'), process.env);
