// Process entry of the `narratoria` binary (dist/cli.cjs): sizes libuv's pool, then runs the command's bundle (dist/cliRun.cjs for `run`, else dist/cliMain.cjs) through the compile cache.
import * as path from 'node:path';
import { programBundle, runBundle } from './codeCache.js';
import { sizeThreadPool } from './threadPool.js';

const args = process.argv.slice(2);
sizeThreadPool(args, process.env);
runBundle(path.join(__dirname, programBundle(args)), process.env, args);
