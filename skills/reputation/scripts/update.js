#!/usr/bin/env node
// reputation/update: changes the player's standing with a faction by a delta (after decaying it toward 0 for the time since its last change), as Narratoria protocol v0 NDJSON.
'use strict';

const path = require('node:path');
const { InputError, dataDirectory, readCheckedConfig, runTool, withLock } = require('../lib/narratoria-skill-sdk.js');
const { CONFIG, HISTORY_LENGTH, STORE_FILE, readNow, readStore, resolveFaction, signed, standingAt, view, writeStore } = require('../lib/standing.js');

const MAX_DELTA = 1000000;

function readUpdateInput(input) {
  if (typeof input.faction !== 'string' || input.faction.trim() === '') {
    throw new InputError('input.faction is required, e.g. {"faction":"Thieves Guild","delta":10,"reason":"returned the stolen ledger"}');
  }
  if (!Number.isSafeInteger(input.delta) || Math.abs(input.delta) > MAX_DELTA) {
    throw new InputError('input.delta is required and must be an integer (positive raises the standing, negative lowers it)');
  }
  if (input.reason !== undefined && input.reason !== null && typeof input.reason !== 'string') {
    throw new InputError('input.reason must be a string');
  }
  const reason = typeof input.reason === 'string' ? input.reason.replace(/\s+/g, ' ').trim().slice(0, 500) : '';
  if (input.register !== undefined && input.register !== null && typeof input.register !== 'boolean') throw new InputError('input.register must be true or false');
  return { faction: input.faction, delta: input.delta, reason, now: readNow(input), register: input.register === true };
}

runTool({ name: 'reputation', example: '{"input":{"faction":"Thieves Guild","delta":10}}' }, async ({ input, emit, log }) => {
  const request = readUpdateInput(input);
  const config = readCheckedConfig(CONFIG);
  const dir = dataDirectory(true);
  const scale = config.reputationScale;

  const change = withLock(path.join(dir, STORE_FILE), () => {
    const store = readStore(dir, log, true);
    // A campaign's faction is registered even when the config does not allow new factions: the campaign declares it.
    const faction = resolveFaction(request.faction, store, request.register ? { ...config, allowNewFactions: true } : config);
    const record = store.factions[faction];
    const current = standingAt(record, request.now, config);
    const next = Math.max(-scale, Math.min(scale, current.value + request.delta));
    const previousUpdate = current.lastUpdated ? Date.parse(current.lastUpdated) : -Infinity;
    const updatedAt = new Date(Math.max(previousUpdate, request.now.getTime())).toISOString();
    const history = Array.isArray(record && record.history) ? record.history : [];
    const entry = { at: request.now.toISOString(), delta: request.delta, standing: view(next, config).standing, ...(request.reason ? { reason: request.reason } : {}) };
    store.factions[faction] = {
      standing: Math.round(next * 10000) / 10000,
      updatedAt,
      history: [...history, entry].slice(-HISTORY_LENGTH),
    };
    writeStore(dir, store);
    return { faction, before: current.value, after: next };
  });

  const previous = view(change.before, config);
  const now = view(change.after, config);
  const rankChanged = previous.rank !== now.rank;
  log('info', `${change.faction}: ${previous.standing} ${signed(request.delta)} -> ${now.standing} (${now.rank})`, {
    faction: change.faction,
    delta: request.delta,
    standing: now.standing,
    scale,
    ...(change.after !== change.before + request.delta ? { clamped: true } : {}),
  });
  emit({ type: 'state_patch', patch: { reputation: { [change.faction]: now } } });
  emit({
    type: 'ui_event',
    event: 'reputation_change',
    payload: {
      faction: change.faction,
      delta: request.delta,
      previousStanding: previous.standing,
      standing: now.standing,
      previousRank: previous.rank,
      rank: now.rank,
      rankChanged,
      scale,
      ...(request.reason ? { reason: request.reason } : {}),
    },
  });
  return {
    summary: `${change.faction}: ${signed(request.delta)} -> ${now.standing} (${now.rank}${rankChanged ? `, was ${previous.rank}` : ''})`,
    output: {
      faction: change.faction,
      standing: now.standing,
      rank: now.rank,
      delta: request.delta,
      previousStanding: previous.standing,
      previousRank: previous.rank,
      scale,
    },
  };
});
