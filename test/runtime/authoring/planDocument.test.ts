// Tests of the plan-document model: spans of every tool part, element lookup, references, line mapping, renames and the last well-formed model.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { PlanDocumentTracker } from '../../../src/runtime/authoring/planDocumentTracker.js';
import { applyTextEdits } from '../../../src/runtime/authoring/textSpan.js';
import { renameToolId } from '../../../src/runtime/authoring/toolRename.js';

const text = `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  // a comment is tolerated
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": "1d20", "dc": 12 },
      "retryPolicy": { "maxRetries": 2, "backoffMs": 100 }
    },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["roll", "ghost"],
      "condition": "state.dice.lastRoll.success == true"
    }
  ]
}`;

/** Offset of the n-th occurrence (0-based) of `needle`, plus `delta`. */
function at(needle: string, delta = 0, occurrence = 0): number {
  let offset = -1;
  for (let count = 0; count <= occurrence; count++) offset = text.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not found`);
  return offset + delta;
}

test('every tool part is mapped to its span', () => {
  const document = PlanDocument.parse(text);
  assert.equal(document.isWellFormed, true);
  assert.equal(document.tools.length, 2);
  const [roll, narrate] = document.tools;
  assert.equal(text.slice(roll!.toolId!.span.offset, roll!.toolId!.span.offset + roll!.toolId!.span.length), '"roll"');
  assert.equal(roll!.toolPath!.value, 'skills/dice-roller/scripts/roll.js');
  assert.deepEqual(
    roll!.input!.properties.map((property) => [property.name, property.value, property.pointer]),
    [
      ['formula', '1d20', '/tools/0/input/formula'],
      ['dc', 12, '/tools/0/input/dc'],
    ],
  );
  assert.equal(roll!.retryPolicy!.maxRetries!.value, 2);
  assert.deepEqual(
    narrate!.dependencies!.entries.map((entry) => [entry.value, entry.pointer]),
    [
      ['roll', '/tools/1/dependencies/0'],
      ['ghost', '/tools/1/dependencies/1'],
    ],
  );
  assert.equal(narrate!.condition!.value, 'state.dice.lastRoll.success == true');
  assert.equal(document.requestId!.value, '11111111-2222-4333-8444-555555555555');
});

test('elementAt answers what is under the cursor', () => {
  const document = PlanDocument.parse(text);
  assert.equal(document.elementAt(at('"roll"', 2)).kind, 'toolId');
  assert.deepEqual(pick(document.elementAt(at('skills/dice', 3))), { kind: 'toolPath', tool: 0 });
  const dependency = document.elementAt(at('"ghost"', 1));
  assert.equal(dependency.kind, 'dependency');
  assert.equal(dependency.kind === 'dependency' && dependency.entry.value, 'ghost');
  assert.equal(document.elementAt(at('"formula"', 1)).kind, 'inputKey');
  assert.equal(document.elementAt(at('"1d20"', 1)).kind, 'inputValue');
  assert.equal(document.elementAt(at('{ "formula"', 1)).kind, 'input');
  assert.equal(document.elementAt(at('"maxRetries"')).kind, 'retryPolicy');
  assert.equal(document.elementAt(at('state.dice')).kind, 'condition');
  assert.equal(document.elementAt(at('"requestId"')).kind, 'plan');
  assert.equal(document.elementAt(at('"tools"', 10)).kind, 'tools');
});

function pick(element: ReturnType<PlanDocument['elementAt']>): { kind: string; tool?: number } {
  return 'tool' in element ? { kind: element.kind, tool: element.tool.index } : { kind: element.kind };
}

test('tools by id, dependents, references and lines', () => {
  const document = PlanDocument.parse(text);
  assert.equal(document.toolById('narrate')!.index, 1);
  assert.deepEqual(
    document.dependentsOf('roll').map(({ tool }) => tool.toolId!.value),
    ['narrate'],
  );
  assert.deepEqual(
    document.referencesOf('roll').map((reference) => reference.kind),
    ['definition', 'dependency'],
  );
  assert.deepEqual(document.toolIds(), ['roll', 'narrate']);
  const narrateLine = document.lines.positionAt(at('"narrate"')).line;
  assert.equal(document.toolAtLine(narrateLine)!.index, 1);
  assert.equal(document.lineOfTool(document.tools[1]!), narrateLine - 1);
  assert.equal(document.toolAtLine(1), undefined, 'the plan line belongs to no tool');
});

test('rename updates every reference and refuses a taken or malformed name', () => {
  const document = PlanDocument.parse(text);
  const renamed = renameToolId(document, 'roll', 'lock-roll');
  assert.ok(renamed.ok);
  const after = PlanDocument.parse(applyTextEdits(text, renamed.edits));
  assert.equal(after.tools[0]!.toolId!.value, 'lock-roll');
  assert.deepEqual(
    after.tools[1]!.dependencies!.entries.map((entry) => entry.value),
    ['lock-roll', 'ghost'],
  );
  const taken = renameToolId(document, 'roll', 'narrate');
  assert.equal(taken.ok, false);
  assert.match(!taken.ok ? taken.reason : '', /already taken by tools\/1/);
  assert.equal(renameToolId(document, 'roll', 'has space').ok, false);
  assert.equal(renameToolId(document, 'nobody', 'x').ok, false);
});

test('a broken text keeps the last well-formed model in the tracker, and the tolerant parse still finds tools', () => {
  const tracker = new PlanDocumentTracker();
  const good = tracker.update(text);
  assert.equal(good.lastWellFormed, good.current);
  const broken = tracker.update(text.replace('"dc": 12 }', '"dc": 12, }').replace('"roll", "ghost"', '"roll" "ghost"'));
  assert.equal(broken.current.isWellFormed, false);
  assert.equal(broken.lastWellFormed, good.current);
  assert.ok(broken.current.tools.length >= 1, 'the tolerant parse still sees tools');
  assert.equal(tracker.update(broken.current.text), broken, 'the same text is not parsed again');
});
