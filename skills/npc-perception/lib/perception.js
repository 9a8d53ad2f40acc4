// npc-perception/lib/perception.js: per-NPC perception scores (-100..+100), their attitude labels and dice modifiers, and the JSON store shared by the adjust and query scripts.
'use strict';

const path = require('node:path');
const { isObject, quarantine, readJsonFile, writeFileAtomic } = require('./narratoria-skill-sdk.js');

const STORE_FILE = 'perceptions.json';
const MIN = -100;
const MAX = 100;
const HISTORY_LENGTH = 20;

const CONFIG = {
  initialPerception: { fallback: 0, valid: (v) => Number.isSafeInteger(v) && v >= MIN && v <= MAX },
  showChanges: { fallback: true, valid: (v) => typeof v === 'boolean' },
};

/** Perception bands (inclusive lower bounds), their attitude and the modifier for social rolls with that NPC. */
const BANDS = [
  { from: 60, attitude: 'devoted', modifier: 4 },
  { from: 30, attitude: 'friendly', modifier: 2 },
  { from: 10, attitude: 'cordial', modifier: 1 },
  { from: -9, attitude: 'neutral', modifier: 0 },
  { from: -29, attitude: 'wary', modifier: -1 },
  { from: -59, attitude: 'unfriendly', modifier: -2 },
  { from: -100, attitude: 'hostile', modifier: -4 },
];

function clamp(value) {
  return Math.max(MIN, Math.min(MAX, value));
}

/** { perception, attitude, modifier } for a score. */
function describe(perception) {
  const score = clamp(perception);
  const band = BANDS.find((entry) => score >= entry.from) || BANDS[BANDS.length - 1];
  return { perception: score, attitude: band.attitude, modifier: band.modifier };
}

/** "  The  Innkeeper " -> "innkeeper": how NPC names are compared. */
function npcKey(name) {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the\s+/, '');
}

function cleanName(name) {
  return name.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
}

function emptyStore() {
  return { version: 1, npcs: {} };
}

/** Reads the store. An unparsable file is moved aside (and reported) when `repair` is set, else ignored. */
function readStore(dir, log, repair) {
  const file = path.join(dir, STORE_FILE);
  const { value, corrupt } = readJsonFile(file, emptyStore());
  if (corrupt) {
    const aside = repair ? quarantine(file) : undefined;
    log('warn', `${STORE_FILE} is not valid JSON; starting from empty perceptions${aside ? ` (the old file was kept as ${path.basename(aside)})` : ''}`);
    return emptyStore();
  }
  if (!isObject(value) || !isObject(value.npcs)) return emptyStore();
  return value;
}

function writeStore(dir, store) {
  writeFileAtomic(path.join(dir, STORE_FILE), JSON.stringify(store, null, 2) + '\n');
}

/** The stored record of an NPC: { name, perception, updatedAt, history } or undefined. */
function recordOf(store, name) {
  const record = store.npcs[npcKey(name)];
  if (!isObject(record) || !Number.isFinite(record.perception)) return undefined;
  return record;
}

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

module.exports = { CONFIG, HISTORY_LENGTH, STORE_FILE, clamp, cleanName, describe, npcKey, readStore, recordOf, signed, writeStore };
