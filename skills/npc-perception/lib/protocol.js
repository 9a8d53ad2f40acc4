// npc-perception/lib/protocol.js: this skill's own Narratoria protocol v0 helpers (stdin request, NDJSON events, config, data directory, atomic writes under a lock).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const PROTOCOL_VERSION = '0';

/** A failure the tool reports as an `error` event followed by `done ok:false` (no stack trace on stdout). */
class ToolError extends Error {
  constructor(code, message, details) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** Bad script input: reported with the INVALID_INPUT code. */
class InputError extends ToolError {
  constructor(message, details) {
    super('INVALID_INPUT', message, details);
  }
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** Blocks the (single-threaded, short-lived) script for `ms` milliseconds. */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Effective config: NARRATORIA_SKILL_CONFIG (JSON), else <skill dir>/config.json, over the defaults of
 * config-schema.json, over `builtIn`. Each key is then checked with `spec[key].valid`; an invalid value
 * is reported with a warn log and replaced by the built-in default.
 */
function loadConfig(skillDir, skill, spec, log) {
  let values = {};
  const fromEnv = process.env.NARRATORIA_SKILL_CONFIG;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    try {
      const parsed = JSON.parse(fromEnv);
      if (isObject(parsed)) values = parsed;
    } catch {
      process.stderr.write(`${skill}: NARRATORIA_SKILL_CONFIG is not valid JSON; using defaults\n`);
    }
  } else {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(skillDir, 'config.json'), 'utf8'));
      if (isObject(parsed)) values = parsed;
    } catch {
      // no config.json (or unreadable): defaults apply
    }
  }
  const schemaDefaults = {};
  try {
    const schema = JSON.parse(fs.readFileSync(path.join(skillDir, 'config-schema.json'), 'utf8'));
    for (const [key, field] of Object.entries((schema && schema.properties) || {})) {
      if (isObject(field) && 'default' in field) schemaDefaults[key] = field.default;
    }
  } catch {
    // schema missing: built-in defaults below
  }
  const merged = { ...schemaDefaults, ...values };
  const config = {};
  for (const [key, { fallback, valid }] of Object.entries(spec)) {
    const value = merged[key];
    if (value === undefined) {
      config[key] = fallback;
    } else if (valid(value)) {
      config[key] = value;
    } else {
      log('warn', `Invalid config value ${key}=${JSON.stringify(value)}; using ${JSON.stringify(fallback)}`);
      config[key] = fallback;
    }
  }
  return config;
}

/**
 * The skill's private data directory: NARRATORIA_SKILL_DATA (the runtime creates it), else <skill dir>/data.
 * Always absolute; created when `create` is set.
 */
function dataDirectory(skillDir, create) {
  const fromEnv = process.env.NARRATORIA_SKILL_DATA;
  const dir = path.resolve(fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : path.join(skillDir, 'data'));
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new ToolError('DATA_DIR_UNAVAILABLE', `Cannot create the data directory ${dir}: ${error && error.message}`);
    }
  }
  return dir;
}

/** Writes `text` to a temporary file beside `file`, flushes it and renames it over `file` (readers never see half a file). */
function writeFileAtomic(file, text) {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w');
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}

/**
 * Runs `fn` while holding `<file>.lock` (an exclusively created file), so concurrent invocations of the
 * skill's scripts never lose each other's updates. A lock older than `staleMs` (a crashed holder) is broken.
 * The wait (8 s) stays below the scripts' 10 s timeout, so a busy store is reported as STORE_BUSY, not a kill;
 * a holder lives at most 10 s (its timeout), so an older lock is stale.
 */
function withLock(file, fn, { timeoutMs = 8000, staleMs = 10000 } = {}) {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  let fd;
  for (;;) {
    try {
      fd = fs.openSync(lock, 'wx');
      break;
    } catch (error) {
      if (!error || error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > staleMs) {
          fs.unlinkSync(lock);
          continue;
        }
      } catch {
        continue; // released meanwhile
      }
      if (Date.now() > deadline) {
        throw new ToolError('STORE_BUSY', `The store ${path.basename(file)} stayed locked for ${timeoutMs} ms; try again`);
      }
      sleep(10 + Math.floor(Math.random() * 15));
    }
  }
  try {
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
    return fn();
  } finally {
    try {
      fs.unlinkSync(lock);
    } catch {
      // already released
    }
  }
}

/** Reads a JSON file; a missing file gives `fallback`, an unreadable one a ToolError with `code`. */
function readJsonFile(file, fallback) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') return { value: fallback, corrupt: false };
    throw new ToolError('STORE_UNREADABLE', `Cannot read ${file}: ${error && error.message}`);
  }
  try {
    return { value: JSON.parse(text), corrupt: false };
  } catch {
    return { value: fallback, corrupt: true };
  }
}

/** Moves an unparsable store aside (<file>.corrupt-<time>) so it can be inspected, and returns the new name. */
function quarantine(file) {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    fs.renameSync(file, aside);
    return aside;
  } catch {
    return undefined;
  }
}

/**
 * Runs one tool invocation: reads and checks the stdin request, then calls
 * `main({ request, input, skillDir, emit, log })`, which returns `{ summary, output }` for `done ok:true`
 * or throws a ToolError for `error` + `done ok:false`. `example` is shown when stdin is unusable.
 */
function runTool(skill, example, main) {
  let requestId;
  let doneSent = false;

  // The reader went away (EPIPE): nothing more can be said on stdout.
  process.stdout.on('error', () => process.exit(0));

  /** Writes one protocol event as a single NDJSON line. Nothing else is ever written to stdout. */
  function emit(event) {
    if (doneSent) return;
    const line = { version: PROTOCOL_VERSION, ...event };
    if (typeof requestId === 'string') line.requestId = requestId;
    if (event.type === 'done') doneSent = true;
    process.stdout.write(JSON.stringify(line) + '\n');
  }

  function log(level, message, fields) {
    emit({ type: 'log', level, message, ...(fields ? { fields } : {}) });
  }

  function fail(errorCode, errorMessage, details) {
    emit({ type: 'error', errorCode, errorMessage, ...(details ? { details } : {}) });
    emit({ type: 'done', ok: false, summary: errorMessage });
  }

  async function start() {
    let text;
    try {
      text = await readStdin();
    } catch (error) {
      throw new ToolError('INVALID_STDIN', `Could not read stdin: ${error && error.message}`);
    }
    if (text.trim() === '') throw new ToolError('INVALID_STDIN', `stdin was empty; expected one JSON object like ${example}`);
    let request;
    try {
      request = JSON.parse(text);
    } catch (error) {
      throw new ToolError('INVALID_STDIN', `stdin is not valid JSON: ${error && error.message}`);
    }
    if (!isObject(request)) throw new ToolError('INVALID_STDIN', `stdin must be a JSON object like ${example}`);
    if (typeof request.requestId === 'string') requestId = request.requestId;
    const input = request.input === undefined || request.input === null ? {} : request.input;
    if (!isObject(input)) throw new InputError(`input must be an object; stdin looks like ${example}`);
    const skillDir = process.env.NARRATORIA_SKILL_DIR || path.resolve(__dirname, '..');
    const { summary, output } = await main({ request, input, skillDir, emit, log });
    emit({ type: 'done', ok: true, summary, output });
  }

  start().catch((error) => {
    if (error instanceof ToolError) {
      fail(error.code, error.message, error.details);
      return;
    }
    process.stderr.write(`${skill}: unexpected error: ${(error && error.stack) || error}\n`);
    fail('INTERNAL_ERROR', `${skill} failed unexpectedly: ${(error && error.message) || error}`);
  });
}

module.exports = {
  InputError,
  ToolError,
  dataDirectory,
  isObject,
  loadConfig,
  quarantine,
  readJsonFile,
  runTool,
  sleep,
  withLock,
  writeFileAtomic,
};
