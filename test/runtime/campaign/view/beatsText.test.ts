// Reading beats.json from an editor's text: beats with ranges, the beat under a position, an id's range, and where a text stops parsing.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { beatAt, beatIdRange, beatWithId, readBeatsText } from '../../../../src/runtime/campaign/view/beatsText.js';

const TEXT = `{
  "beats": [
    { "id": "beat_001", "title": "Arrival", "description": "The player arrives." },
    {
      "id": "beat_002",
      "title": "Storm",
      "description": "A storm breaks.",
      "conditions": { "requires_beat": "beat_001", "scene_count": { "min": 2 } }
    }
  ]
}
`;

test('beats, their conditions and ranges from the text', () => {
  const read = readBeatsText(TEXT);
  assert.equal(read.syntaxError, undefined);
  assert.deepEqual(
    read.beats?.beats.map((beat) => beat.id),
    ['beat_001', 'beat_002'],
  );
  assert.deepEqual(read.conditions[1], { requires_beat: 'beat_001', scene_count: { min: 2 } });
  assert.equal(read.conditions[0], undefined);
  const storm = beatWithId(read.beats, 'beat_002')!;
  assert.deepEqual(beatIdRange(read.document, storm), { start: { line: 5, column: 13 }, end: { line: 5, column: 23 } });
  assert.equal(beatAt(read.beats, read.document, 7, 3)?.id, 'beat_002');
  assert.equal(beatAt(read.beats, read.document, 3, 10)?.id, 'beat_001');
  assert.equal(beatAt(read.beats, read.document, 1, 1), undefined);
});

test('a text that does not parse says where; one that breaks the schema still gives its beats', () => {
  const broken = readBeatsText(TEXT.replace('"title": "Storm",', '"title": "Storm"'));
  assert.equal(broken.beats, undefined);
  assert.match(broken.syntaxError ?? '', /^line 7, column 7: invalid JSON/);
  const loose = readBeatsText('{ "beats": [ { "id": "beat_1", "priority": "urgent" } ] }');
  assert.equal(loose.beats?.beats[0]?.id, 'beat_1');
  assert.equal(loose.beats?.beats[0]?.priority, 'medium');
});
