#!/usr/bin/env node
// npc-perception/adjust: shifts how one NPC perceives the player by a delta (clamped to -100..+100) and reports the attitude and dice modifier, as Narratoria protocol v0 NDJSON.
'use strict';

const path = require('node:path');
const { InputError, dataDirectory, readCheckedConfig, runTool, withLock } = require('../lib/narratoria-skill-sdk.js');
const { CONFIG, HISTORY_LENGTH, STORE_FILE, clamp, cleanName, describe, npcKey, readStore, recordOf, signed, writeStore } = require('../lib/perception.js');

function readAdjustInput(input) {
  if (typeof input.npc !== 'string' || cleanName(input.npc) === '' || npcKey(input.npc) === '') {
    throw new InputError('input.npc is required: the NPC\'s name, e.g. {"npc":"Captain Vey","delta":-10,"reason":"caught lying"}');
  }
  if (!Number.isSafeInteger(input.delta) || Math.abs(input.delta) > 200) {
    throw new InputError('input.delta is required and must be an integer from -200 to 200 (positive: the NPC likes the player more)');
  }
  if (input.reason !== undefined && input.reason !== null && typeof input.reason !== 'string') {
    throw new InputError('input.reason must be a string');
  }
  const reason = typeof input.reason === 'string' ? input.reason.replace(/\s+/g, ' ').trim().slice(0, 500) : '';
  return { npc: input.npc, delta: input.delta, reason };
}

runTool({ name: 'npc-perception', example: '{"input":{"npc":"Captain Vey","delta":10}}' }, async ({ input, emit, log }) => {
  const request = readAdjustInput(input);
  const config = readCheckedConfig(CONFIG);
  const dir = dataDirectory(true);
  const now = new Date().toISOString();

  const change = withLock(path.join(dir, STORE_FILE), () => {
    const store = readStore(dir, log, true);
    const record = recordOf(store, request.npc);
    const name = record && typeof record.name === 'string' ? record.name : cleanName(request.npc);
    const before = record ? clamp(Math.round(record.perception)) : config.initialPerception;
    const after = clamp(before + request.delta);
    const history = record && Array.isArray(record.history) ? record.history : [];
    store.npcs[npcKey(request.npc)] = {
      name,
      perception: after,
      updatedAt: now,
      history: [...history, { at: now, delta: request.delta, perception: after, ...(request.reason ? { reason: request.reason } : {}) }].slice(-HISTORY_LENGTH),
    };
    writeStore(dir, store);
    return { name, before, after };
  });

  const previous = describe(change.before);
  const current = describe(change.after);
  log('info', `${change.name}: ${previous.perception} ${signed(request.delta)} -> ${current.perception} (${current.attitude}, ${signed(current.modifier)})`, {
    npc: change.name,
    delta: request.delta,
    perception: current.perception,
    ...(change.after !== change.before + request.delta ? { clamped: true } : {}),
  });
  emit({ type: 'state_patch', patch: { npcs: { [change.name]: current } } });
  if (config.showChanges) {
    emit({
      type: 'ui_event',
      event: 'perception_change',
      payload: {
        npc: change.name,
        delta: request.delta,
        previousPerception: previous.perception,
        ...current,
        previousAttitude: previous.attitude,
        ...(request.reason ? { reason: request.reason } : {}),
      },
    });
  }
  return {
    summary: `${change.name} is now ${current.attitude} (${signed(current.perception)}, modifier ${signed(current.modifier)})`,
    output: {
      npc: change.name,
      ...current,
      delta: request.delta,
      previousPerception: previous.perception,
      previousAttitude: previous.attitude,
    },
  };
});
