// reputation/lib/standing.js: faction names, standing decay toward 0 over real time, named ranks, and the JSON store of standings shared by the update and query scripts.
'use strict';

const path = require('node:path');
const { InputError, ToolError, isObject, quarantine, readJsonFile, writeFileAtomic } = require('./narratoria-skill-sdk.js');

const STORE_FILE = 'reputation.json';
const HISTORY_LENGTH = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_FACTIONS = ['Town Guard', 'Thieves Guild', 'Mages Circle', 'Merchant League', 'Forest Elves'];

const CONFIG = {
  factionList: {
    fallback: DEFAULT_FACTIONS,
    valid: (v) => Array.isArray(v) && v.every((name) => typeof name === 'string' && name.trim() !== ''),
  },
  reputationScale: { fallback: 100, valid: (v) => Number.isSafeInteger(v) && v >= 1 && v <= 1000000 },
  decayRate: { fallback: 0.05, valid: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 },
  allowNewFactions: { fallback: false, valid: (v) => typeof v === 'boolean' },
};

/**
 * Ranks by standing as a fraction of the scale (with the default scale of 100: hostile -100..-60,
 * unfriendly -59..-20, neutral -19..19, friendly 20..49, honored 50..84, exalted 85..100).
 */
const RANKS = [
  { rank: 'hostile', upTo: -0.6 },
  { rank: 'unfriendly', upTo: -0.2 },
  { rank: 'neutral', below: 0.2 },
  { rank: 'friendly', below: 0.5 },
  { rank: 'honored', below: 0.85 },
  { rank: 'exalted', below: Infinity },
];

function rankOf(standing, scale) {
  const fraction = standing / scale;
  for (const entry of RANKS) {
    if (entry.upTo !== undefined ? fraction <= entry.upTo : fraction < entry.below) return entry.rank;
  }
  return 'exalted';
}

/** Rounds half away from zero, so +2.5 and -2.5 round alike. */
function roundStanding(value) {
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  return rounded === 0 ? 0 : rounded;
}

/** "The thieves' guild" -> "thieves guild": how faction names are compared. */
function normalizeName(name) {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the\s+/, '');
}

function cleanName(name) {
  return name.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
}

/** The time the script acts at: input.now (ISO-8601) or the clock. */
function readNow(input) {
  if (input.now === undefined || input.now === null) return new Date();
  const time = typeof input.now === 'string' ? Date.parse(input.now) : NaN;
  if (!/^\d{4}-\d{2}-\d{2}/.test(String(input.now)) || Number.isNaN(time)) {
    throw new InputError('input.now must be an ISO-8601 date-time such as "2025-05-01T12:00:00Z"');
  }
  return new Date(time);
}

function emptyStore() {
  return { version: 1, factions: {} };
}

/** Reads the store. An unparsable file is moved aside (and reported) when `repair` is set, else ignored. */
function readStore(dir, log, repair) {
  const file = path.join(dir, STORE_FILE);
  const { value, corrupt } = readJsonFile(file, emptyStore());
  if (corrupt) {
    const aside = repair ? quarantine(file) : undefined;
    log('warn', `${STORE_FILE} is not valid JSON; starting from empty standings${aside ? ` (the old file was kept as ${path.basename(aside)})` : ''}`);
    return emptyStore();
  }
  if (!isObject(value) || !isObject(value.factions)) return emptyStore();
  return value;
}

function writeStore(dir, store) {
  writeFileAtomic(path.join(dir, STORE_FILE), JSON.stringify(store, null, 2) + '\n');
}

/**
 * Finds the faction `name` refers to: a faction of the config's factionList (case, punctuation and a
 * leading "the" ignored), else — with allowNewFactions — a faction stored earlier or a new one.
 * Unknown factions are an UNKNOWN_FACTION error.
 */
function resolveFaction(name, store, config) {
  const wanted = normalizeName(name);
  if (wanted === '') throw new InputError('input.faction must name a faction');
  const listed = config.factionList.find((faction) => normalizeName(faction) === wanted);
  if (listed) return cleanName(listed);
  if (config.allowNewFactions) {
    const stored = Object.keys(store.factions).find((faction) => normalizeName(faction) === wanted);
    return stored || cleanName(name);
  }
  throw new ToolError(
    'UNKNOWN_FACTION',
    `Unknown faction "${name}". Known factions: ${config.factionList.join(', ') || '(none)'}. ` +
      'Use one of them, or set allowNewFactions in the reputation skill config to track new ones.',
    { faction: name, known: config.factionList },
  );
}

/** A faction's standing at `now`: the stored value decayed toward 0 by (1 - decayRate) per elapsed day, clamped to the scale. */
function standingAt(record, now, config) {
  if (!isObject(record) || typeof record.standing !== 'number' || !Number.isFinite(record.standing)) {
    return { value: 0, lastUpdated: null };
  }
  const updated = typeof record.updatedAt === 'string' ? Date.parse(record.updatedAt) : NaN;
  const days = Number.isNaN(updated) ? 0 : Math.max(0, now.getTime() - updated) / DAY_MS;
  const decayed = record.standing * Math.pow(1 - config.decayRate, days);
  const scale = config.reputationScale;
  return { value: Math.max(-scale, Math.min(scale, decayed)), lastUpdated: Number.isNaN(updated) ? null : record.updatedAt };
}

/** The public view of a standing: integer standing and rank. */
function view(value, config) {
  const standing = roundStanding(value);
  return { standing, rank: rankOf(standing, config.reputationScale) };
}

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

module.exports = {
  CONFIG,
  HISTORY_LENGTH,
  STORE_FILE,
  readNow,
  readStore,
  resolveFaction,
  signed,
  standingAt,
  view,
  writeStore,
};
