// Tests of the plan outline: top-level properties, the "tools (N)" symbol, tools with their dependencies and input properties, exact spans.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { planOutline, type PlanSymbol } from '../../../src/runtime/authoring/planOutline.js';
import type { TextSpan } from '../../../src/runtime/authoring/textSpan.js';

const text = `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  "narrative": "The door creaks open.",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": "1d20", "dc": 12 }
    },
    {
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["roll", "ghost"]
    }
  ],
  "parallel": true
}`;

/** The span from the start of `first` to the end of `last` (the n-th occurrences). */
function spanBetween(first: string, last: string, occurrence = 0): TextSpan {
  let offset = -1;
  for (let count = 0; count <= occurrence; count++) offset = text.indexOf(first, offset + 1);
  const end = text.indexOf(last, offset) + last.length;
  return { offset, length: end - offset };
}

function spanOf(needle: string, occurrence = 0): TextSpan {
  return spanBetween(needle, needle, occurrence);
}

/** A symbol as [kind, name, detail, children] for a readable comparison. */
function shape(symbol: PlanSymbol): unknown[] {
  return [symbol.kind, symbol.name, symbol.detail, symbol.children.map(shape)];
}

test('the outline lists the top-level properties and the tools with their parts', () => {
  const outline = planOutline(PlanDocument.parse(text));
  assert.deepEqual(outline.map(shape), [
    ['property', 'requestId', '11111111-2222-4333-8444-555555555555', []],
    ['property', 'narrative', 'The door creaks open.', []],
    [
      'plan',
      'tools (2)',
      '2 tools',
      [
        [
          'tool',
          'roll',
          'skills/dice-roller/scripts/roll.js',
          [
            [
              'input',
              'input',
              'formula, dc',
              [
                ['property', 'formula', '"1d20"', []],
                ['property', 'dc', '12', []],
              ],
            ],
          ],
        ],
        [
          'tool',
          'tools/1',
          'skills/storyteller/scripts/narrate.js · after roll, ghost',
          [
            [
              'dependencies',
              'dependencies',
              '2',
              [
                ['dependency', 'roll', 'skills/dice-roller/scripts/roll.js', []],
                ['dependency', 'ghost', 'unknown tool', []],
              ],
            ],
          ],
        ],
      ],
    ],
    ['property', 'parallel', 'true', []],
  ]);
});

test('every symbol has the exact span and a selection span inside it', () => {
  const outline = planOutline(PlanDocument.parse(text));
  const [requestId, , tools, parallel] = outline;
  assert.deepEqual([requestId!.span, requestId!.selectionSpan], [spanBetween('"requestId"', '555"'), spanOf('"requestId"')]);
  assert.deepEqual([tools!.span, tools!.selectionSpan], [spanBetween('"tools"', '}\n  ]'), spanOf('"tools"')]);
  assert.deepEqual([parallel!.span, parallel!.selectionSpan], [spanBetween('"parallel"', 'true'), spanOf('"parallel"')]);
  const [roll, narrate] = tools!.children;
  assert.deepEqual([roll!.span, roll!.selectionSpan], [spanBetween('{\n      "toolId"', '"dc": 12 }\n    }'), spanOf('"roll"')]);
  assert.deepEqual(
    [narrate!.span, narrate!.selectionSpan],
    [spanBetween('{\n      "toolPath": "skills/story', '"ghost"]\n    }'), { offset: narrate!.span.offset, length: 1 }],
  );
  const input = roll!.children[0]!;
  assert.deepEqual([input.span, input.selectionSpan], [spanBetween('"input"', '12 }'), spanOf('"input"')]);
  assert.deepEqual([input.children[1]!.span, input.children[1]!.selectionSpan], [spanBetween('"dc"', '12'), spanOf('"dc"')]);
  const dependencies = narrate!.children[0]!;
  assert.deepEqual([dependencies.span, dependencies.selectionSpan], [spanBetween('"dependencies"', '"ghost"]'), spanOf('"dependencies"')]);
  assert.deepEqual(
    dependencies.children.map((child) => [child.span, child.selectionSpan]),
    [
      [spanOf('"roll"', 1), spanOf('"roll"', 1)],
      [spanOf('"ghost"'), spanOf('"ghost"')],
    ],
  );
  const within = (symbol: PlanSymbol): void => {
    assert.ok(symbol.selectionSpan.offset >= symbol.span.offset, symbol.name);
    assert.ok(symbol.selectionSpan.offset + symbol.selectionSpan.length <= symbol.span.offset + symbol.span.length, symbol.name);
    symbol.children.forEach(within);
  };
  outline.forEach(within);
});

test('an empty or odd plan still gets a usable outline', () => {
  assert.deepEqual(planOutline(PlanDocument.parse('{ "tools": [] }')).map(shape), [['plan', 'tools (0)', '0 tools', []]]);
  assert.deepEqual(planOutline(PlanDocument.parse('[]')), []);
  const odd = planOutline(PlanDocument.parse('{ "tools": [{ "toolId": "", "toolPath": "", "input": { "": 1 }, "dependencies": [3] }], "metadata": {} }'));
  assert.deepEqual(odd.map(shape), [
    [
      'plan',
      'tools (1)',
      '1 tool',
      [
        [
          'tool',
          'tools/0',
          '',
          [
            ['input', 'input', '', [['property', '""', '1', []]]],
            ['dependencies', 'dependencies', '1', [['dependency', '3', 'not a toolId', []]]],
          ],
        ],
      ],
    ],
    ['property', 'metadata', '{0 properties}', []],
  ]);
});
