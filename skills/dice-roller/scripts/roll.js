#!/usr/bin/env node
// dice-roller/roll: parses a dice formula (1d20+5, 3d6, 2d6+1d4+2, d%), rolls it and reports the result as Narratoria protocol v0 NDJSON.
'use strict';

const crypto = require('node:crypto');
const { emit, fail, readConfig, runTool, seededRandom } = require('../lib/narratoria-skill-sdk.js');

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

const OUTCOMES = ['success', 'partial', 'failure'];

/** input.bands: undefined when absent, null when malformed, else the bands. */
function readBands(value) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) return null;
  const bands = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object' || !OUTCOMES.includes(item.outcome)) return null;
    for (const key of ['min', 'max']) if (item[key] !== undefined && !Number.isSafeInteger(item[key])) return null;
    bands.push({ min: item.min, max: item.max, outcome: item.outcome });
  }
  return bands;
}

/** "7-9", "10+", "6 or less". */
function bandLabel(band) {
  if (band.min !== undefined && band.max !== undefined) return `${band.min}-${band.max}`;
  if (band.min !== undefined) return `${band.min}+`;
  if (band.max !== undefined) return `${band.max} or less`;
  return 'any';
}

async function main({ request, input }) {

  const { reason, dc, label, seed } = input;
  const bands = readBands(input.bands);
  if (bands === null) return fail('INVALID_INPUT', 'input.bands must be a list of { min?, max?, outcome: "success" | "partial" | "failure" }');
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

  const config = readConfig({ showIndividualRolls: true, randomSource: 'crypto' });
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
  // A campaign's bands (2d6: 2-6 failure, 7-9 partial, 10-12 success) say what the total means; a partial success works, at a cost.
  const band = bands ? bands.find((each) => (each.min === undefined || total >= each.min) && (each.max === undefined || total <= each.max)) : undefined;
  const outcome = band ? band.outcome : undefined;
  const success = outcome !== undefined ? outcome !== 'failure' : dc === undefined ? undefined : total >= dc;
  let critical;
  if (rolls.length === 1 && rolls[0].sides === 20) {
    if (rolls[0].value === 20) critical = 'success';
    else if (rolls[0].value === 1) critical = 'failure';
  }

  const optional = {
    ...(reason !== undefined ? { reason } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(dc !== undefined ? { dc, success } : {}),
    ...(outcome !== undefined ? { success, outcome, band: bandLabel(band) } : {}),
  };
  const faces = rolls.map((roll) => roll.value).join(', ');
  let summary = `Rolled ${parsed.formula}: ${total}`;
  if (outcome !== undefined) summary += ` (${outcome === 'partial' ? 'partial success' : outcome}, ${bandLabel(band)})`;
  else if (dc !== undefined) summary += ` vs DC ${dc} (${success ? 'success' : 'failure'})`;
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
          outcome: null,
          band: null,
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

runTool({ name: 'dice-roller', example: '{"input":{"formula":"1d20"}}', inputExample: '{"formula":"1d20+5","dc":15}' }, main);
