// Tests of which play-through the play panel opens and of its session picker's entries: the one played last, the older session file taken in once by a copy, unreadable sessions named and left untouched.
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, test } from 'node:test';
import { olderSessionFile, olderSessionOffer } from '../../../src/runtime/session/olderSessionFile.js';
import { panelSessionToOpen, sessionPickEntries, whenPlayed } from '../../../src/runtime/session/sessionPicks.js';
import { listSessions, sessionFile } from '../../../src/runtime/session/sessionStore.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function story(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'narratoria-picks-'));
  roots.push(root);
  return root;
}

function session(sessionId: string, updatedAt: string, inputs: readonly string[]): string {
  const turns = inputs.map((input, position) => ({
    index: position + 1,
    input,
    narrative: `You ${input}.`,
    choices: [],
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: [],
    changedKeys: [],
    assets: [],
    uiEvents: [],
    attempts: [],
    startedAt: updatedAt,
    durationMs: 5,
  }));
  return JSON.stringify({
    formatVersion: 1,
    sessionId,
    root: '/story',
    createdAt: updatedAt,
    updatedAt,
    seed: 7,
    initialState: {},
    state: { turns: inputs.length },
    turns,
  });
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test('the panel opens the play-through played last; unreadable ones are named in a notice and left as they are', async () => {
  const root = story();
  write(sessionFile(root, '2026-11-27-0900'), session('00000000-0000-4000-8000-00000000000a', '2026-11-27T09:10:00.000Z', ['look around']));
  write(
    sessionFile(root, '2026-11-28-1000'),
    session('00000000-0000-4000-8000-00000000000b', '2026-11-28T10:05:00.000Z', ['open the door', 'Remember that Mira gave me a silver key']),
  );
  write(sessionFile(root, 'broken'), '{ "formatVersion": 1, ');
  write(sessionFile(root, 'future'), JSON.stringify({ formatVersion: 2 }));
  const chosen = await panelSessionToOpen(root);
  assert.equal(chosen.id, '2026-11-28-1000');
  assert.equal(chosen.fresh, false);
  assert.match(
    chosen.notice ?? '',
    /2 saved play-throughs could not be opened: .*"broken" is damaged: not valid JSON.*"future" was written in session format 2.*They were left as they are\./,
  );
  assert.equal(readFileSync(sessionFile(root, 'broken'), 'utf8'), '{ "formatVersion": 1, ', 'untouched');
});

test('with no saved play-through, a new one is named by the date and time; nothing is written yet', async () => {
  const root = story();
  const chosen = await panelSessionToOpen(root, new Date('2026-11-28T16:42:10Z'));
  assert.deepEqual(chosen, { id: '2026-11-28-1642', fresh: true });
  assert.equal(existsSync(path.join(root, '.narratoria')), false);
});

test("the older session file is continued once: copied into the store under its own id (where its skills' data is), never changed", async () => {
  const root = story();
  const older = session('5f1c2a9e-7d1b-4c3a-9f00-0123456789ab', '2026-11-20T08:00:00.000Z', ['Remember that Mira gave me a silver key']);
  write(olderSessionFile(root), older);
  const offer = await olderSessionOffer(root);
  assert.ok(offer && !('problem' in offer));
  assert.equal(offer.turns, 1);
  const chosen = await panelSessionToOpen(root);
  assert.equal(chosen.id, '5f1c2a9e-7d1b-4c3a-9f00-0123456789ab');
  assert.match(chosen.notice ?? '', /continues as "5f1c2a9e-.*the older file was copied, not changed/);
  assert.equal(readFileSync(sessionFile(root, chosen.id), 'utf8'), older);
  assert.equal(readFileSync(olderSessionFile(root), 'utf8'), older, 'the older file is left as it is');
  assert.equal(await olderSessionOffer(root), undefined, 'offered once: the store holds it now');
});

test('a damaged older session file is not continued: a new play-through starts and the notice says why', async () => {
  const root = story();
  write(olderSessionFile(root), 'not json');
  const chosen = await panelSessionToOpen(root, new Date('2026-11-28T16:42:10Z'));
  assert.equal(chosen.fresh, true);
  assert.match(chosen.notice ?? '', /older session file \.narratoria\/session\.json is damaged: not valid JSON.*left as it is/);
  assert.equal(readFileSync(olderSessionFile(root), 'utf8'), 'not json');
});

test('picker entries: name, current, turns, last played, last input; damaged ones not openable; the older file last', async () => {
  const root = story();
  write(
    sessionFile(root, '2026-11-28-1000'),
    session('00000000-0000-4000-8000-00000000000b', '2026-11-28T10:05:00.000Z', ['open the door', 'Remember that Mira gave me a silver key']),
  );
  write(sessionFile(root, 'broken'), 'nope');
  write(path.join(root, '.narratoria', 'sessions', 'default', 'data', 'memory', 'notes.json'), '{}');
  write(olderSessionFile(root), session('00000000-0000-4000-8000-0000000000cc', '2026-11-20T08:00:00.000Z', []));
  const entries = sessionPickEntries(await listSessions(root), await olderSessionOffer(root), '2026-11-28-1000', new Date('2026-11-28T10:35:00.000Z'));
  assert.deepEqual(
    entries.map((entry) => [entry.label, entry.description, entry.openable]),
    [
      ['2026-11-28-1000', 'current · 2 turns · played 30 min ago', true],
      ['broken', 'cannot be opened', false],
      ['(older session file)', '0 turns · played 2026-11-20', true],
    ],
  );
  assert.equal(entries[0]!.detail, 'Last input: Remember that Mira gave me a silver key');
  assert.match(entries[1]!.detail, /session\.json is damaged/);
  assert.deepEqual(entries[2]!.target, { kind: 'olderFile', file: olderSessionFile(root) });
});

test('whenPlayed says how long ago in words', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  assert.equal(whenPlayed('2026-11-28T11:59:40Z', now), 'just now');
  assert.equal(whenPlayed('2026-11-28T09:00:00Z', now), '3 h ago');
  assert.equal(whenPlayed('2026-11-27T09:00:00Z', now), 'yesterday');
  assert.equal(whenPlayed('2026-10-01T09:00:00Z', now), '2026-10-01');
});
