// Process entry of the `narratoria` binary (dist/cli.cjs): runs the CLI bundle (dist/cliMain.cjs, from bin.ts) through the compile cache.
import * as path from 'node:path';
import { runBundle } from './codeCache.js';

/**
 * `run` spends its life waiting for skill scripts, so it turns V8's optimizing compiler off. Its compiles run on
 * background threads whose malloc arenas keep MBs that every later fork of a script copies, and they compete with
 * the scripts for the CPU: measured on 200 fast scripts (bench b2), 30 ms less CPU and ~10 ms less wall time.
 * Commands that compute (graph layout, the debug adapter, play) keep it.
 */
const UNOPTIMIZED_COMMANDS = new Set(['run']);

const command = process.argv[2];
runBundle(path.join(__dirname, 'cliMain.cjs'), process.env, command !== undefined && UNOPTIMIZED_COMMANDS.has(command) ? ['--no-opt'] : []);
