// Tests of plan navigation: Go to Definition, Find All References, Rename and document links, with exact spans and ranges.
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { planLinks } from '../../../src/runtime/authoring/planLinks.js';
import { definitionAt, prepareRenameAt, referencesAt, renameAt } from '../../../src/runtime/authoring/planNavigation.js';
import { applyTextEdits, type TextSpan } from '../../../src/runtime/authoring/textSpan.js';
import { createSkillCatalog, EMPTY_SKILL_CATALOG, type SkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';

const root = '/work/main';
let catalog: SkillCatalog;

before(async () => {
  catalog = createSkillCatalog((await discoverSkills({ root })).skills);
});

const text = `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "input": { "formula": "1d20", "mood": "calm" },
      "rollback": { "toolPath": "skills/memory/scripts/store.js" }
    },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narrate.js",
      "dependencies": ["roll", "ghost"]
    },
    {
      "toolId": "chapter",
      "toolPath": "test/fixtures/story/README.md",
      "subPlan": "test/fixtures/plans/cycle.plan.json",
      "dependencies": ["roll", "narrate"]
    }
  ]
}`;

/** The span of the n-th occurrence (0-based) of `needle`. */
function spanOf(needle: string, occurrence = 0): TextSpan {
  let offset = -1;
  for (let count = 0; count <= occurrence; count++) offset = text.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not found`);
  return { offset, length: needle.length };
}

/** An offset inside the n-th occurrence of `needle`. */
function inside(needle: string, occurrence = 0): number {
  return spanOf(needle, occurrence).offset + 2;
}

test('a dependency entry or a toolId goes to the toolId of the tool it names', () => {
  const document = PlanDocument.parse(text);
  assert.deepEqual(definitionAt(document, inside('"roll"', 1), catalog), [{ file: undefined, span: spanOf('"roll"', 0) }]);
  assert.deepEqual(definitionAt(document, inside('"narrate"', 1), catalog), [{ file: undefined, span: spanOf('"narrate"', 0) }]);
  assert.deepEqual(definitionAt(document, inside('"roll"', 0), catalog), [{ file: undefined, span: spanOf('"roll"', 0) }]);
  assert.deepEqual(definitionAt(document, inside('"ghost"'), catalog), [], 'an unknown toolId has no definition');
  assert.deepEqual(definitionAt(document, inside('"requestId"'), catalog), []);
});

test('a toolPath, rollback toolPath or subPlan goes to its file', () => {
  const document = PlanDocument.parse(text);
  assert.deepEqual(definitionAt(document, inside('skills/dice-roller'), catalog), [{ file: realpathSync(`${root}/skills/dice-roller/scripts/roll.js`) }]);
  assert.deepEqual(definitionAt(document, inside('skills/memory'), catalog), [{ file: realpathSync(`${root}/skills/memory/scripts/store.js`) }]);
  // Not a catalogued script: resolved against the story root, when one is given.
  assert.deepEqual(definitionAt(document, inside('test/fixtures/story'), catalog), []);
  assert.deepEqual(definitionAt(document, inside('test/fixtures/story'), catalog, { root }), [{ file: `${root}/test/fixtures/story/README.md` }]);
  assert.deepEqual(definitionAt(document, inside('test/fixtures/plans'), catalog, { root }), [{ file: `${root}/test/fixtures/plans/cycle.plan.json` }]);
  assert.deepEqual(definitionAt(document, inside('skills/dice-roller'), EMPTY_SKILL_CATALOG, { root }), [
    { file: `${root}/skills/dice-roller/scripts/roll.js` },
  ]);
});

test('an input property key goes to its key in the input schema file, or to the file start', () => {
  const document = PlanDocument.parse(text);
  const schemaFile = `${root}/skills/dice-roller/scripts/roll.input.schema.json`;
  assert.deepEqual(definitionAt(document, inside('"formula"'), catalog), [
    { file: schemaFile, range: { start: { line: 8, column: 5 }, end: { line: 8, column: 14 } } },
  ]);
  assert.deepEqual(definitionAt(document, inside('"mood"'), catalog), [{ file: schemaFile }]);
  const readFile = (file: string): string | undefined => (file === schemaFile ? '{\n"properties": {\n  "formula": {}\n}}' : undefined);
  assert.deepEqual(definitionAt(document, inside('"formula"'), catalog, { readFile }), [
    { file: schemaFile, range: { start: { line: 3, column: 3 }, end: { line: 3, column: 12 } } },
  ]);
  assert.deepEqual(definitionAt(document, inside('"1d20"'), catalog), [], 'a value has no definition');
});

test('references of a toolId: its definition (when asked) and every dependency entry naming it', () => {
  const document = PlanDocument.parse(text);
  const all = [spanOf('"roll"', 0), spanOf('"roll"', 1), spanOf('"roll"', 2)];
  assert.deepEqual(referencesAt(document, inside('"roll"', 0), { includeDeclaration: true }), all);
  assert.deepEqual(referencesAt(document, inside('"roll"', 2), { includeDeclaration: true }), all);
  assert.deepEqual(referencesAt(document, inside('"roll"', 1), { includeDeclaration: false }), all.slice(1));
  assert.deepEqual(referencesAt(document, inside('"ghost"'), { includeDeclaration: true }), [spanOf('"ghost"')]);
  assert.deepEqual(referencesAt(document, inside('skills/dice-roller'), { includeDeclaration: true }), []);
});

test('rename works from a toolId or a dependency entry and refuses elsewhere', () => {
  const document = PlanDocument.parse(text);
  const content = (span: TextSpan): TextSpan => ({ offset: span.offset + 1, length: span.length - 2 });
  assert.deepEqual(prepareRenameAt(document, inside('"narrate"', 0)), { span: content(spanOf('"narrate"', 0)), placeholder: 'narrate' });
  assert.deepEqual(prepareRenameAt(document, inside('"narrate"', 1)), { span: content(spanOf('"narrate"', 1)), placeholder: 'narrate' });
  assert.match((prepareRenameAt(document, inside('"ghost"')) as { error: string }).error, /No tool has the toolId "ghost"/);
  assert.ok('error' in prepareRenameAt(document, inside('skills/dice-roller')));

  const renamed = renameAt(document, inside('"roll"', 2), 'dice');
  assert.ok(renamed.ok);
  assert.equal(applyTextEdits(text, renamed.edits), text.replace(/"roll"/g, '"dice"'));
  const taken = renameAt(document, inside('"roll"', 0), 'narrate');
  assert.deepEqual(taken, { ok: false, reason: 'the toolId "narrate" is already taken by tools/1' });
  assert.equal(renameAt(document, inside('"ghost"'), 'x').ok, false);
});

test('document links: every toolPath, rollback toolPath and subPlan naming an existing file', () => {
  const document = PlanDocument.parse(text);
  const content = (needle: string): TextSpan => ({ offset: spanOf(needle).offset, length: needle.length });
  const links = planLinks(document, catalog, root);
  assert.deepEqual(
    links.map((link) => [link.span, link.target]),
    [
      [content('skills/dice-roller/scripts/roll.js'), realpathSync(`${root}/skills/dice-roller/scripts/roll.js`)],
      [content('skills/memory/scripts/store.js'), realpathSync(`${root}/skills/memory/scripts/store.js`)],
      [content('skills/storyteller/scripts/narrate.js'), realpathSync(`${root}/skills/storyteller/scripts/narrate.js`)],
      [content('test/fixtures/story/README.md'), `${root}/test/fixtures/story/README.md`],
      [content('test/fixtures/plans/cycle.plan.json'), `${root}/test/fixtures/plans/cycle.plan.json`],
    ],
  );
  assert.match(links[0]!.tooltip, /script "roll" of the skill "Dice Roller"/);
  assert.match(links[1]!.tooltip, /rollback script "store"/);
  assert.match(links[4]!.tooltip, /sub-plan/);
  // Without a root only the catalogued scripts resolve; a missing file gets no link.
  assert.equal(planLinks(document, catalog).length, 3);
  assert.deepEqual(
    planLinks(PlanDocument.parse(text.replace('roll.js', 'gone.js')), catalog, root)
      .map((link) => link.target)
      .includes(`${root}/skills/dice-roller/scripts/gone.js`),
    false,
  );
});
