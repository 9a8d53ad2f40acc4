#!/usr/bin/env node
// reputation/query: reports the player's current (decayed) standing and rank with one faction or with all of them, as Narratoria protocol v0 NDJSON.
'use strict';

const { InputError, dataDirectory, readCheckedConfig, runTool } = require('../lib/narratoria-skill-sdk.js');
const { CONFIG, readNow, readStore, resolveFaction, signed, standingAt, view } = require('../lib/standing.js');

runTool({ name: 'reputation', example: '{"input":{"faction":"Thieves Guild"}}' }, async ({ input, emit, log }) => {
  if (input.faction !== undefined && input.faction !== null && (typeof input.faction !== 'string' || input.faction.trim() === '')) {
    throw new InputError('input.faction must be a faction name; leave it out to get every faction');
  }
  const now = readNow(input);
  const config = readCheckedConfig(CONFIG);
  const store = readStore(dataDirectory(false), log, false);
  const scale = config.reputationScale;

  const describe = (faction) => {
    const current = standingAt(store.factions[faction], now, config);
    return { ...view(current.value, config), lastUpdated: current.lastUpdated };
  };

  if (typeof input.faction === 'string') {
    const faction = resolveFaction(input.faction, store, config);
    const { standing, rank, lastUpdated } = describe(faction);
    log('info', `${faction}: ${standing} (${rank})`, { faction, standing, rank, scale });
    emit({ type: 'state_patch', patch: { reputation: { [faction]: { standing, rank } } } });
    return {
      summary: `${faction}: ${rank} (${signed(standing)})`,
      output: { faction, standing, rank, lastUpdated, scale },
    };
  }

  const names = config.factionList.map((name) => name.replace(/\s+/g, ' ').trim().slice(0, 100));
  if (config.allowNewFactions) {
    for (const name of Object.keys(store.factions)) if (!names.includes(name)) names.push(name);
  }
  const factions = {};
  const patch = {};
  for (const name of names) {
    factions[name] = describe(name);
    patch[name] = { standing: factions[name].standing, rank: factions[name].rank };
  }
  log('info', `Standings with ${names.length} factions`, { scale, decayRate: config.decayRate });
  emit({ type: 'state_patch', patch: { reputation: patch } });
  const notable = names.filter((name) => factions[name].standing !== 0);
  return {
    summary:
      notable.length === 0
        ? `Neutral with all ${names.length} factions`
        : notable.map((name) => `${name}: ${factions[name].rank} (${signed(factions[name].standing)})`).join('; '),
    output: { factions, scale },
  };
});
