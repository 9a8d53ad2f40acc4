#!/usr/bin/env node
// dice-roller/roll: parses a dice formula (1d20+5, 3d6, 2d6+1d4+2, d%), rolls it and reports the result as Narratoria protocol v0 NDJSON.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const PROTOCOL_VERSION = '0';
const MAX_DICE_PER_TERM = 100;
const MIN_SIDES = 2;
const MAX_SIDES = 1000;
const MAX_TERMS = 10;
const MAX_CONSTANT = 1000000;
const MAX_FORMULA_LENGTH = 200;
const ACCEPTED =
  'Accepted: NdS or dS (N = 1-100 dice, S = 2-1000 sides), d% for a d100, several dice terms and integer modifiers ' +
  'joined with + (modifiers may also be subtracted with -); case-insensitive, spaces allowed around + and -. ' +
  'Examples: 1d20+5, 3d6, 2d6-1, 2d6+1d4+2, d%.';

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

function fail(errorCode, errorMessage, details, summary) {
  emit({ type: 'error', errorCode, errorMessage, ...(details ? { details } : {}) });
  emit({ type: 'done', ok: false, summary: summary || errorMessage });
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

/** Effective config: NARRATORIA_SKILL_CONFIG, else <skill dir>/config.json, then defaults of config-schema.json. */
function loadConfig(skillDir) {
  let values = {};
  const fromEnv = process.env.NARRATORIA_SKILL_CONFIG;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    try {
      const parsed = JSON.parse(fromEnv);
      if (isObject(parsed)) values = parsed;
    } catch {
      process.stderr.write('dice-roller: NARRATORIA_SKILL_CONFIG is not valid JSON; using defaults\n');
    }
  } else {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(skillDir, 'config.json'), 'utf8'));
      if (isObject(parsed)) values = parsed;
    } catch {
      // no config.json (or unreadable): defaults apply
    }
  }
  const config = {};
  try {
    const schema = JSON.parse(fs.readFileSync(path.join(skillDir, 'config-schema.json'), 'utf8'));
    for (const [key, field] of Object.entries((schema && schema.properties) || {})) {
      if (isObject(field) && 'default' in field) config[key] = field.default;
    }
  } catch {
    // schema missing: built-in defaults below
  }
  return { showIndividualRolls: true, randomSource: 'crypto', ...config, ...values };
}

class FormulaError extends Error {}

/**
 * Parses a formula into dice terms and a constant modifier.
 * Returns { formula (canonical, e.g. "2d6+1d4+2"), dice: [{count, sides}], modifier }.
 */
function parseFormula(raw) {
  if (typeof raw !== 'string') throw new FormulaError('the formula must be a string');
  if (/[0-9a-z%]\s+[0-9a-z%]/i.test(raw)) throw new FormulaError('spaces are only allowed around + and -');
  const text = raw.replace(/\s+/g, '').toLowerCase();
  if (text === '') throw new FormulaError('the formula is empty');
  if (text.length > MAX_FORMULA_LENGTH) throw new FormulaError(`the formula is longer than ${MAX_FORMULA_LENGTH} characters`);
  const term = /([+-]?)(?:(\d*)d(\d+|%)|(\d+))/y;
  const dice = [];
  let modifier = 0;
  let terms = 0;
  let position = 0;
  while (position < text.length) {
    term.lastIndex = position;
    const match = term.exec(text);
    if (!match) throw new FormulaError(`cannot read "${text.slice(position)}"`);
    const [whole, sign, countText, sidesText, constantText] = match;
    if (position === 0 && sign !== '') throw new FormulaError('the formula must start with a dice term or a number, not a sign');
    if (position > 0 && sign === '') throw new FormulaError(`"${whole}" must be joined to the previous term with + or -`);
    terms += 1;
    if (terms > MAX_TERMS) throw new FormulaError(`at most ${MAX_TERMS} terms are allowed`);
    if (sidesText !== undefined) {
      if (sign === '-') throw new FormulaError(`dice terms can only be added, not subtracted ("${whole}")`);
      const count = countText === '' ? 1 : Number(countText);
      const sides = sidesText === '%' ? 100 : Number(sidesText);
      if (!Number.isSafeInteger(count) || count < 1 || count > MAX_DICE_PER_TERM) {
        throw new FormulaError(`the number of dice must be 1-${MAX_DICE_PER_TERM} (got ${countText})`);
      }
      if (!Number.isSafeInteger(sides) || sides < MIN_SIDES || sides > MAX_SIDES) {
        throw new FormulaError(`a die must have ${MIN_SIDES}-${MAX_SIDES} sides (got ${sidesText})`);
      }
      dice.push({ count, sides });
    } else {
      const constant = Number(constantText);
      if (!Number.isSafeInteger(constant) || constant > MAX_CONSTANT) {
        throw new FormulaError(`modifiers must be at most ${MAX_CONSTANT}`);
      }
      modifier += sign === '-' ? -constant : constant;
    }
    position = term.lastIndex;
  }
  if (dice.length === 0) throw new FormulaError('the formula has no dice term');
  let formula = dice.map((d) => `${d.count}d${d.sides}`).join('+');
  if (modifier > 0) formula += `+${modifier}`;
  if (modifier < 0) formula += `${modifier}`;
  return { formula, dice, modifier };
}

/** mulberry32 PRNG seeded from a 32-bit hash of the seed's text. */
function seededRandom(seed) {
  let state = 2166136261;
  for (const char of String(seed)) {
    state ^= char.codePointAt(0);
    state = Math.imul(state, 16777619) >>> 0;
  }
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const skillDir = process.env.NARRATORIA_SKILL_DIR || path.resolve(__dirname, '..');

  let text;
  try {
    text = await readStdin();
  } catch (error) {
    fail('INVALID_STDIN', `Could not read stdin: ${error && error.message}`);
    return;
  }
  if (text.trim() === '') {
    fail('INVALID_STDIN', 'stdin was empty; expected one JSON object like {"input":{"formula":"1d20"}}');
    return;
  }
  let request;
  try {
    request = JSON.parse(text);
  } catch (error) {
    fail('INVALID_STDIN', `stdin is not valid JSON: ${error && error.message}`);
    return;
  }
  if (!isObject(request)) {
    fail('INVALID_STDIN', 'stdin must be a JSON object like {"input":{"formula":"1d20"}}');
    return;
  }
  if (typeof request.requestId === 'string') requestId = request.requestId;
  const input = request.input === undefined || request.input === null ? {} : request.input;
  if (!isObject(input)) {
    fail('INVALID_INPUT', 'input must be an object like {"formula":"1d20+5","dc":15}');
    return;
  }

  const { reason, dc, label, seed } = input;
  if (reason !== undefined && typeof reason !== 'string') return fail('INVALID_INPUT', 'input.reason must be a string');
  if (label !== undefined && typeof label !== 'string') return fail('INVALID_INPUT', 'input.label must be a string');
  if (dc !== undefined && !Number.isSafeInteger(dc)) return fail('INVALID_INPUT', 'input.dc must be an integer');
  if (seed !== undefined && typeof seed !== 'string' && !Number.isSafeInteger(seed)) {
    return fail('INVALID_INPUT', 'input.seed must be an integer or a string');
  }

  const rawFormula = input.formula === undefined || input.formula === null ? '1d20' : input.formula;
  let parsed;
  try {
    parsed = parseFormula(rawFormula);
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    const shown = typeof rawFormula === 'string' ? rawFormula : JSON.stringify(rawFormula);
    fail(
      'INVALID_FORMULA',
      `Invalid dice formula "${shown}": ${error.message}. ${ACCEPTED}`,
      { formula: rawFormula === undefined ? null : rawFormula, problem: error.message },
      `Invalid dice formula "${shown}"`,
    );
    return;
  }

  const config = loadConfig(skillDir);
  let randomSource = config.randomSource;
  if (randomSource !== 'crypto' && randomSource !== 'pseudo') {
    emit({ type: 'log', level: 'warn', message: `Unknown randomSource ${JSON.stringify(randomSource)}; using crypto` });
    randomSource = 'crypto';
  }
  const showIndividualRolls = config.showIndividualRolls !== false;

  let rollDie;
  let usedSeed;
  // The turn's seed (NARRATORIA_SEED, which the runtime gives every tool): a replayed turn rolls the same.
  const turnSeed = /^\d+$/.test(process.env.NARRATORIA_SEED || '') ? Number(process.env.NARRATORIA_SEED) : undefined;
  if (randomSource === 'pseudo' || turnSeed !== undefined) {
    // pseudo: the input's seed, else the turn's, else a fresh one; crypto: the turn's.
    const inputSeed = randomSource === 'pseudo' ? seed : undefined;
    usedSeed = inputSeed !== undefined ? inputSeed : turnSeed !== undefined ? turnSeed : crypto.randomInt(0, 2 ** 31);
    const random = seededRandom(usedSeed);
    rollDie = (sides) => 1 + Math.floor(random() * sides);
  } else {
    rollDie = (sides) => crypto.randomInt(1, sides + 1);
  }

  const rolls = [];
  for (const { count, sides } of parsed.dice) {
    for (let i = 0; i < count; i += 1) rolls.push({ sides, value: rollDie(sides) });
  }
  const total = rolls.reduce((sum, roll) => sum + roll.value, 0) + parsed.modifier;
  const success = dc === undefined ? undefined : total >= dc;
  let critical;
  if (rolls.length === 1 && rolls[0].sides === 20) {
    if (rolls[0].value === 20) critical = 'success';
    else if (rolls[0].value === 1) critical = 'failure';
  }

  const optional = {
    ...(reason !== undefined ? { reason } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(dc !== undefined ? { dc, success } : {}),
  };
  const faces = rolls.map((roll) => roll.value).join(', ');
  let summary = `Rolled ${parsed.formula}: ${total}`;
  if (dc !== undefined) summary += ` vs DC ${dc} (${success ? 'success' : 'failure'})`;
  if (critical === 'success') summary += ' (natural 20)';
  if (critical === 'failure') summary += ' (natural 1)';

  emit({
    type: 'log',
    level: 'info',
    message: `Rolled ${parsed.formula}${reason ? ` for ${reason}` : ''}: [${faces}]${parsed.modifier ? ` ${parsed.modifier > 0 ? '+' : '-'} ${Math.abs(parsed.modifier)}` : ''} = ${total}`,
    fields: { formula: parsed.formula, total, randomSource, ...(usedSeed !== undefined ? { seed: usedSeed } : {}) },
  });
  emit({
    type: 'state_patch',
    // Absent optional fields are sent as null: state patches deep-merge, and null deletes a key left by an earlier roll.
    patch: {
      dice: {
        lastRoll: {
          formula: parsed.formula,
          rolls,
          modifier: parsed.modifier,
          total,
          reason: null,
          label: null,
          dc: null,
          success: null,
          critical: critical || null,
          ...optional,
        },
      },
    },
  });
  emit({
    type: 'ui_event',
    event: 'dice_roll',
    payload: {
      formula: parsed.formula,
      ...(showIndividualRolls ? { dice: rolls } : {}),
      modifier: parsed.modifier,
      total,
      ...optional,
      ...(critical ? { critical } : {}),
    },
  });
  emit({
    type: 'done',
    ok: true,
    summary,
    output: {
      formula: parsed.formula,
      total,
      rolls,
      modifier: parsed.modifier,
      ...optional,
      ...(critical ? { critical } : {}),
      ...(usedSeed !== undefined ? { seed: usedSeed } : {}),
    },
  });
}

main().catch((error) => {
  process.stderr.write(`dice-roller: unexpected error: ${(error && error.stack) || error}\n`);
  fail('INTERNAL_ERROR', `dice-roller failed unexpectedly: ${(error && error.message) || error}`);
});
