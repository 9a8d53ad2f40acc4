// Checks at compile time (npm test's typecheck) that coverage's 0-based character positions and validation's 1-based positions cannot pass as each other, and at run time that the conversions keep their bases.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CoveragePosition } from '../../src/runtime/coverage/coverageTypes.js';
import type { SourcePosition } from '../../src/runtime/validation/diagnostic.js';
import { LineIndex } from '../../src/runtime/authoring/textSpan.js';

test('a coverage position (character 0-based) and a validation position (column 1-based) are distinct types', () => {
  const coverage: CoveragePosition = { line: 1, character: 0 };
  const validation: SourcePosition = { line: 1, column: 1 };
  // @ts-expect-error: a 0-based coverage position is not a 1-based SourcePosition
  const wrongWay: SourcePosition = coverage;
  // @ts-expect-error: a 1-based SourcePosition is not a coverage position
  const otherWay: CoveragePosition = validation;
  assert.ok(wrongWay && otherWay);
  // The first character of a text: column 1 in validation's terms.
  assert.deepEqual(new LineIndex('abc').positionAt(0), { line: 1, column: 1 });
});
