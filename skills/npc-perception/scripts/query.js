#!/usr/bin/env node
// npc-perception/query: reports how one NPC, or every known NPC, perceives the player (score, attitude, dice modifier), as Narratoria protocol v0 NDJSON.
'use strict';

const { InputError, dataDirectory, readCheckedConfig, runTool } = require('../lib/narratoria-skill-sdk.js');
const { CONFIG, cleanName, describe, npcKey, readStore, recordOf, signed } = require('../lib/perception.js');

runTool({ name: 'npc-perception', example: '{"input":{"npc":"Captain Vey"}}' }, async ({ input, emit, log }) => {
  if (input.npc !== undefined && input.npc !== null && (typeof input.npc !== 'string' || npcKey(input.npc) === '')) {
    throw new InputError('input.npc must be an NPC name; leave it out to get every known NPC');
  }
  const config = readCheckedConfig(CONFIG);
  const store = readStore(dataDirectory(false), log, false);

  if (typeof input.npc === 'string') {
    const record = recordOf(store, input.npc);
    const name = record && typeof record.name === 'string' ? record.name : cleanName(input.npc);
    const current = describe(record ? Math.round(record.perception) : config.initialPerception);
    log('info', `${name}: ${current.perception} (${current.attitude})${record ? '' : ' — not met yet'}`, { npc: name, known: Boolean(record) });
    if (record) emit({ type: 'state_patch', patch: { npcs: { [name]: current } } });
    return {
      summary: `${name} is ${current.attitude} (${signed(current.perception)}, modifier ${signed(current.modifier)})${record ? '' : '; not met yet'}`,
      output: {
        npc: name,
        ...current,
        known: Boolean(record),
        lastUpdated: record && typeof record.updatedAt === 'string' ? record.updatedAt : null,
      },
    };
  }

  const npcs = {};
  for (const key of Object.keys(store.npcs).sort()) {
    const record = store.npcs[key];
    if (!record || !Number.isFinite(record.perception)) continue;
    const name = typeof record.name === 'string' ? record.name : key;
    npcs[name] = describe(Math.round(record.perception));
  }
  const names = Object.keys(npcs);
  log('info', `${names.length} known NPC${names.length === 1 ? '' : 's'}`);
  if (names.length > 0) emit({ type: 'state_patch', patch: { npcs } });
  return {
    summary: names.length === 0 ? 'No NPC has an opinion of the player yet' : names.map((name) => `${name}: ${npcs[name].attitude}`).join('; '),
    output: { npcs },
  };
});
