// ScriptRuns: the Inspector's last two runs of a script survive on disk, the last becoming the previous one.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { comparisonText, recordingOfText } from '../../../src/runtime/inspect/recording.js';
import { ScriptRuns } from '../../../src/runtime/inspect/scriptRuns.js';

const run = (summary: string) =>
  recordingOfText(`{"version":"0","type":"log","level":"info","message":"${summary}"}\n{"version":"0","type":"done","ok":true}\n`);

test('the last run becomes the previous one when a new run is saved; scripts are kept apart', async (context) => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-run-store-'));
  context.after(() => rmSync(directory, { recursive: true, force: true }));
  const store = new ScriptRuns(directory);
  assert.deepEqual(await store.load('/story/skills/a/scripts/look.js'), {});
  await store.save('/story/skills/a/scripts/look.js', run('first'));
  const once = await store.load('/story/skills/a/scripts/look.js');
  assert.match(once.last!.texts[0]!, /first/);
  assert.equal(once.previous, undefined);
  await store.save('/story/skills/a/scripts/look.js', run('second'));
  await store.save('/story/skills/b/scripts/other.js', run('other'));
  const twice = await store.load('/story/skills/a/scripts/look.js');
  assert.match(twice.last!.texts[0]!, /second/);
  assert.match(twice.previous!.texts[0]!, /first/);
  assert.equal(twice.last!.meta.lines.length, 2, 'the sidecar came back with the lines');
  assert.match((await store.load('/story/skills/b/scripts/other.js')).last!.texts[0]!, /other/);
});

test('a damaged kept run is skipped, not an error (the store is a cache)', async (context) => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'narratoria-run-store-'));
  context.after(() => rmSync(directory, { recursive: true, force: true }));
  const store = new ScriptRuns(directory);
  await store.save('/story/look.js', run('first'));
  await store.save('/story/look.js', run('second'));
  const { readdirSync } = await import('node:fs');
  const previousMeta = readdirSync(directory).find((name) => name.endsWith('.previous.ndjson.meta.json'))!;
  writeFileSync(path.join(directory, previousMeta), '{ not json');
  const loaded = await store.load('/story/look.js');
  assert.match(loaded.last!.texts[0]!, /second/);
  assert.equal(loaded.previous, undefined);
});

test('comparisonText is the stdout as written, an oversized line as a note of its size', () => {
  const recording = run('hello');
  assert.equal(comparisonText(recording), `${recording.texts.join('\n')}\n`);
  const oversized = {
    texts: ['', 'x'],
    meta: {
      ...recording.meta,
      lines: [
        { lineNumber: 1, elapsedMs: 0, byteLength: 2_000_000, oversized: true },
        { lineNumber: 2, elapsedMs: 1 },
      ],
    },
  };
  assert.equal(comparisonText(oversized), '(line 1: 2000000 bytes, over the line limit)\nx\n');
});
