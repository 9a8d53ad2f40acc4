// @narratoria/skill-sdk: the zero-dependency helpers a skill script needs to speak Narratoria protocol v0 (stdin request, typed NDJSON events, fail, config, data folder, seeded random numbers, safe file writes); the build copies packages/skill-sdk/index.js into skills/*/lib/narratoria-skill-sdk.js, so edit the original.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** The protocol version every event carries. */
const PROTOCOL_VERSION = '0';

/** Error codes with a meaning shared by the sample skills and the runtime (any other string is allowed too). */
const ERROR_CODES = Object.freeze({
  /** stdin was empty, unreadable, not JSON or not an object. */
  INVALID_STDIN: 'INVALID_STDIN',
  /** The request's `input` is not what the script accepts. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** A bug: the script threw something it did not expect. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  /** A network failure: the runtime counts it as a temporary failure of the skill, not a permanent one. */
  NETWORK_ERROR: 'NETWORK_ERROR',
  /** The skill's data folder cannot be created. */
  DATA_DIR_UNAVAILABLE: 'DATA_DIR_UNAVAILABLE',
  /** A store file stayed locked by another invocation (see withLock). */
  STORE_BUSY: 'STORE_BUSY',
  /** A store file exists but cannot be read. */
  STORE_UNREADABLE: 'STORE_UNREADABLE',
});

/** A failure the script reports as an `error` event followed by `done ok:false` (no stack trace on stdout). */
class ToolError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
  }
}

/** Bad script input: reported with the INVALID_INPUT code. */
class InputError extends ToolError {
  constructor(message, details) {
    super(ERROR_CODES.INVALID_INPUT, message, details);
    this.name = 'InputError';
  }
}

let requestId;
let doneSent = false;
let toolName;

// The reader went away (EPIPE): nothing more can be said on stdout.
process.stdout.on('error', () => process.exit(0));

/** True for a plain JSON object (not null, not an array). */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `done` has been emitted (every later event is dropped). */
function isDone() {
  return doneSent;
}

/**
 * Writes one protocol event as a single NDJSON line: `version` first, the event's fields, then the request's
 * `requestId`. Nothing else is ever written to stdout. Events after `done` are dropped; returns whether it was written.
 */
function emit(event) {
  if (doneSent) return false;
  const line = { version: PROTOCOL_VERSION, ...event };
  if (typeof requestId === 'string') line.requestId = requestId;
  if (event.type === 'done') doneSent = true;
  process.stdout.write(JSON.stringify(line) + '\n');
  return true;
}

/** A `log` event (level debug, info, warn or error; never an error of the tool by itself). */
function emitLog(level, message, fields) {
  return emit({ type: 'log', level, message, ...(fields ? { fields } : {}) });
}

/** Same as emitLog: `log('info', 'Rolled 2d6', { total: 7 })`. */
function log(level, message, fields) {
  return emitLog(level, message, fields);
}

/** A `state_patch` event: deep-merged into the session state (objects merge, arrays replace, null deletes a key). */
function emitStatePatch(patch) {
  if (!isObject(patch)) throw new TypeError('a state patch must be an object');
  return emit({ type: 'state_patch', patch });
}

/** An `asset` event: a file the script wrote (absolute, or relative to the story root), registered if it exists. */
function emitAsset(asset) {
  const { assetId, kind, mediaType, path: file, metadata } = asset || {};
  return emit({ type: 'asset', assetId, kind, mediaType, path: file, ...(metadata ? { metadata } : {}) });
}

/** A `ui_event` event; unknown names are shown as a placeholder with their payload. */
function emitUiEvent(event, payload) {
  return emit({ type: 'ui_event', event, ...(payload ? { payload } : {}) });
}

/** The `narrative_choice` ui_event: the choices become buttons, and the chosen text the player's next prompt. */
function offerChoices(choices, extra) {
  return emitUiEvent('narrative_choice', { choices, ...(extra || {}) });
}

/** An `error` event. It does not end the invocation: `done` still has to follow (fail does both). */
function emitError(errorCode, errorMessage, details) {
  return emit({ type: 'error', errorCode, errorMessage, ...(details ? { details } : {}) });
}

/** The `done` event, exactly once: `{ ok, summary?, output?, needsMoreContext?, contextSuggestion? }`. */
function emitDone(result) {
  const { ok, summary, output, needsMoreContext, contextSuggestion } = result || {};
  return emit({ type: 'done', ok: ok === true, summary, output, needsMoreContext, contextSuggestion });
}

/**
 * Ends the invocation as a failure: an `error` event, then `done ok:false` (summary: `summary`, else the message).
 * The process then exits with code 0 once its work drains (the protocol is intact; `done.ok` says it failed).
 * Returns undefined, so `return fail(...)` stops a handler.
 */
function fail(errorCode, errorMessage, details, summary) {
  emitError(errorCode, errorMessage, details);
  emitDone({ ok: false, summary: summary || errorMessage });
  process.exitCode = 0;
  return undefined;
}

/** The error a script throws when it meets something it did not expect: stack to stderr, INTERNAL_ERROR on stdout. */
function failUnexpected(error) {
  const name = skillName();
  process.stderr.write(`${name}: unexpected error: ${(error && error.stack) || error}\n`);
  return fail(ERROR_CODES.INTERNAL_ERROR, `${name} failed unexpectedly: ${(error && error.message) || error}`);
}

/** All of stdin as UTF-8 text. */
function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/**
 * Reads the request the runtime wrote on stdin (`{ requestId, tool, input, dependencies, state }`). On an empty,
 * unreadable or non-JSON stdin, or a non-object input, it fails the invocation (INVALID_STDIN / INVALID_INPUT)
 * and resolves to undefined. `example` is a whole stdin shown in those messages, `inputExample` an input.
 */
async function readRequest(options) {
  const { example = '{"input":{}}', inputExample } = options || {};
  let text;
  try {
    text = await readStdin();
  } catch (error) {
    return fail(ERROR_CODES.INVALID_STDIN, `Could not read stdin: ${error && error.message}`);
  }
  if (text.trim() === '') return fail(ERROR_CODES.INVALID_STDIN, `stdin was empty; expected one JSON object like ${example}`);
  let request;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return fail(ERROR_CODES.INVALID_STDIN, `stdin is not valid JSON: ${error && error.message}`);
  }
  if (!isObject(request)) return fail(ERROR_CODES.INVALID_STDIN, `stdin must be a JSON object like ${example}`);
  if (typeof request.requestId === 'string') requestId = request.requestId;
  const input = request.input === undefined || request.input === null ? {} : request.input;
  if (!isObject(input)) {
    return fail(
      ERROR_CODES.INVALID_INPUT,
      inputExample !== undefined ? `input must be an object like ${inputExample}` : `input must be an object; stdin looks like ${example}`,
    );
  }
  return {
    request,
    input,
    dependencies: isObject(request.dependencies) ? request.dependencies : {},
    state: isObject(request.state) ? request.state : {},
  };
}

/**
 * Runs one invocation: reads the request, then calls `handler({ request, input, dependencies, state, skillDirectory,
 * emit, log })`. Its result `{ summary?, output? }` becomes `done ok:true` (unless the handler already sent done);
 * a thrown ToolError becomes `error` + `done ok:false`, anything else INTERNAL_ERROR. `options.name` names the skill
 * in messages (default: its folder's name).
 */
function runTool(options, handler) {
  if (options && typeof options.name === 'string') toolName = options.name;
  const start = async () => {
    const received = await readRequest(options);
    if (received === undefined) return;
    const result = await handler({ ...received, skillDirectory: skillDirectory(), emit, log });
    if (!doneSent) emitDone({ ok: true, summary: result && result.summary, output: result && result.output });
  };
  return start().catch((error) => {
    if (error instanceof ToolError) return fail(error.code, error.message, error.details);
    return failUnexpected(error);
  });
}

function nonEmpty(value) {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/** The script's entry file (the one node was started with). */
function mainScript() {
  return (require.main && require.main.filename) || process.argv[1] || __filename;
}

/** The skill's folder: NARRATORIA_SKILL_DIR, else the folder above the script's own (skills/<name>/scripts/x.js). */
function skillDirectory() {
  return nonEmpty(process.env.NARRATORIA_SKILL_DIR) || path.resolve(path.dirname(mainScript()), '..');
}

/** The skill's name: runTool's `name`, else its folder's name. */
function skillName() {
  return toolName || path.basename(skillDirectory());
}

/**
 * The skill's data for this session (play-through): NARRATORIA_SKILL_DATA, which the runtime creates under the
 * story's .narratoria/sessions/<id>/data/<skill>; else <skill folder>/data when run outside Narratoria.
 * Always absolute; created when `create` is set (a failure throws a DATA_DIR_UNAVAILABLE ToolError).
 */
function dataDirectory(create) {
  const dir = path.resolve(nonEmpty(process.env.NARRATORIA_SKILL_DATA) || path.join(skillDirectory(), 'data'));
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new ToolError(ERROR_CODES.DATA_DIR_UNAVAILABLE, `Cannot create the data directory ${dir}: ${error && error.message}`);
    }
  }
  return dir;
}

/**
 * The skill's data shared by every session (a cache, a library of generated pictures): NARRATORIA_SKILL_SHARED,
 * else <skill folder>/shared when run outside Narratoria. Session data (memories, standings) belongs in
 * dataDirectory(): a playtest or a new play-through starts without it. Created when `create` is set.
 */
function sharedDirectory(create) {
  const dir = path.resolve(nonEmpty(process.env.NARRATORIA_SKILL_SHARED) || path.join(skillDirectory(), 'shared'));
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new ToolError(ERROR_CODES.DATA_DIR_UNAVAILABLE, `Cannot create the shared data directory ${dir}: ${error && error.message}`);
    }
  }
  return dir;
}

/** NARRATORIA_SESSION_ID: the play-through this invocation serves, or undefined outside Narratoria. */
function sessionId() {
  return nonEmpty(process.env.NARRATORIA_SESSION_ID);
}

/** NARRATORIA_SEED as a number (the runtime derives it from the run, the tool and the attempt), or undefined. */
function toolSeed() {
  const text = process.env.NARRATORIA_SEED || '';
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Everything else the runtime passes in the environment (undefined when not set). */
function skillContext() {
  const env = process.env;
  return {
    root: nonEmpty(env.NARRATORIA_ROOT),
    skillName: skillName(),
    skillDirectory: skillDirectory(),
    dataDirectory: dataDirectory(false),
    sharedDirectory: sharedDirectory(false),
    sessionId: sessionId(),
    toolId: nonEmpty(env.NARRATORIA_TOOL_ID),
    requestId: nonEmpty(env.NARRATORIA_REQUEST_ID),
    protocolVersion: nonEmpty(env.NARRATORIA_PROTOCOL_VERSION) || PROTOCOL_VERSION,
    seed: toolSeed(),
    modelEndpoint: nonEmpty(env.NARRATORIA_MODEL_ENDPOINT),
  };
}

/** The user's values: NARRATORIA_SKILL_CONFIG (JSON), else <skill folder>/config.json; {} when neither is usable. */
function configValues() {
  const fromEnv = nonEmpty(process.env.NARRATORIA_SKILL_CONFIG);
  if (fromEnv !== undefined) {
    try {
      const parsed = JSON.parse(fromEnv);
      if (isObject(parsed)) return parsed;
    } catch {
      process.stderr.write(`${skillName()}: NARRATORIA_SKILL_CONFIG is not valid JSON; using defaults\n`);
    }
    return {};
  }
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(skillDirectory(), 'config.json'), 'utf8'));
    if (isObject(parsed)) return parsed;
  } catch {
    // no config.json (or unreadable): defaults apply
  }
  return {};
}

/** The `default` of each property of <skill folder>/config-schema.json. */
function schemaDefaults() {
  const defaults = {};
  try {
    const schema = JSON.parse(fs.readFileSync(path.join(skillDirectory(), 'config-schema.json'), 'utf8'));
    for (const [key, field] of Object.entries((schema && schema.properties) || {})) {
      if (isObject(field) && 'default' in field) defaults[key] = field.default;
    }
  } catch {
    // schema missing: built-in defaults apply
  }
  return defaults;
}

/** The effective config: the user's values over config-schema.json's defaults over `defaults`. Values are not checked. */
function readConfig(defaults) {
  return { ...(defaults || {}), ...schemaDefaults(), ...configValues() };
}

/**
 * The effective config, checked: `fields` maps each key to `{ fallback, valid }`. A value that fails `valid` is
 * reported with a warn log and replaced by its fallback; keys not in `fields` are left out.
 */
function readCheckedConfig(fields) {
  const merged = { ...schemaDefaults(), ...configValues() };
  const config = {};
  for (const [key, { fallback, valid }] of Object.entries(fields)) {
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

/** A 32-bit number from a text, the same on every run and machine (FNV-1a over its code points): picks a variant of a phrase or a colour without randomness. */
function stableHash(text) {
  let hash = 2166136261;
  for (const char of String(text)) {
    hash ^= char.codePointAt(0);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash;
}

/** Text fit to show or store: '' for a non-string; control characters and non-characters become spaces, runs of white space one space, trimmed; at most `max` characters when given. */
function cleanText(value, max) {
  if (typeof value !== 'string') return '';
  const cleaned = value.replace(/[\u0000-\u001f\u007f\ufffe\uffff]+/g, ' ').replace(/\s+/g, ' ').trim();
  return max === undefined ? cleaned : cleaned.slice(0, max);
}

/** A generator of numbers in [0, 1) from a seed (a number or a string): mulberry32 over stableHash of its text. */
function seededRandom(seed) {
  let state = stableHash(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let sharedRandom;

/** A number in [0, 1): seeded by NARRATORIA_SEED when set (a replayed run draws the same), else Math.random. */
function random() {
  if (sharedRandom === undefined) {
    const seed = toolSeed();
    sharedRandom = seed === undefined ? Math.random : seededRandom(seed);
  }
  return sharedRandom();
}

/** An integer from `min` to `max`, both included, drawn with random(). */
function randomInteger(min, max) {
  return min + Math.floor(random() * (max - min + 1));
}

/** One item of a non-empty list, drawn with random(). */
function randomChoice(items) {
  return items[Math.floor(random() * items.length)];
}

/** Blocks the (single-threaded, short-lived) script for `ms` milliseconds. */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
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
 * Runs `fn` while holding `<file>.lock` (an exclusively created file), so concurrent invocations never lose each
 * other's updates. Waits up to `timeoutMs` (8 s, below a 10 s script timeout; then a STORE_BUSY ToolError); a lock
 * older than `staleMs` (10 s: its holder crashed or was killed) is broken.
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
        throw new ToolError(ERROR_CODES.STORE_BUSY, `The store ${path.basename(file)} stayed locked for ${timeoutMs} ms; try again`);
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

/** Reads a JSON file: `{ value, corrupt }`; a missing file gives `fallback`, an unreadable one a STORE_UNREADABLE ToolError. */
function readJsonFile(file, fallback) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') return { value: fallback, corrupt: false };
    throw new ToolError(ERROR_CODES.STORE_UNREADABLE, `Cannot read ${file}: ${error && error.message}`);
  }
  try {
    return { value: JSON.parse(text), corrupt: false };
  } catch {
    return { value: fallback, corrupt: true };
  }
}

/** Moves an unparsable file aside (<file>.corrupt-<time>) so it can be inspected; returns the new name. */
function quarantine(file) {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    fs.renameSync(file, aside);
    return aside;
  } catch {
    return undefined;
  }
}

module.exports = {
  PROTOCOL_VERSION,
  ERROR_CODES,
  ToolError,
  InputError,
  isObject,
  isDone,
  emit,
  emitLog,
  log,
  emitStatePatch,
  emitAsset,
  emitUiEvent,
  offerChoices,
  emitError,
  emitDone,
  fail,
  failUnexpected,
  readStdin,
  readRequest,
  runTool,
  skillDirectory,
  skillName,
  dataDirectory,
  sharedDirectory,
  sessionId,
  skillContext,
  toolSeed,
  readConfig,
  readCheckedConfig,
  stableHash,
  cleanText,
  seededRandom,
  random,
  randomInteger,
  randomChoice,
  sleep,
  writeFileAtomic,
  withLock,
  readJsonFile,
  quarantine,
};
