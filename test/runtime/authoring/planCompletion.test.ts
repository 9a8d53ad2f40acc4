// Tests of plan completion over the real sample skills: toolPaths, dependencies (self, listed, cycles, broken text), input keys and values, tool keys, snippets.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { completePlan, type PlanCompletionItem } from '../../../src/runtime/authoring/planCompletion.js';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { createSkillCatalog, type SkillCatalog, type SkillSessionStatus } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import type { Skill } from '../../../src/runtime/skills/skillTypes.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { skills } = await discoverSkills({ root: repositoryRoot });
const catalog = createSkillCatalog(skills);
const ROLL = 'skills/dice-roller/scripts/roll.js';
const PORTRAIT = 'skills/character-portraits/scripts/portrait.js';
const CURSOR = '¦';

/** Completes at the cursor mark of `marked` (the mark is removed from the text). */
function complete(marked: string, options: { lastWellFormed?: string; catalog?: SkillCatalog; newRequestId?: () => string } = {}) {
  const offset = marked.indexOf(CURSOR);
  assert.ok(offset >= 0, 'the text needs a cursor mark');
  const text = marked.replace(CURSOR, '');
  const items = completePlan(PlanDocument.parse(text), offset, options.catalog ?? catalog, {
    ...(options.lastWellFormed !== undefined ? { lastWellFormed: PlanDocument.parse(options.lastWellFormed) } : {}),
    ...(options.newRequestId ? { newRequestId: options.newRequestId } : {}),
  });
  return { text, offset, items, labels: items.map((item) => item.label) };
}

/** The text an item replaces. */
function replaced(text: string, item: PlanCompletionItem): string {
  assert.ok(item.replaceSpan, `${item.label} has a replaceSpan`);
  return text.slice(item.replaceSpan.offset, item.replaceSpan.offset + item.replaceSpan.length);
}

function byLabel(items: readonly PlanCompletionItem[], label: string): PlanCompletionItem {
  const item = items.find((candidate) => candidate.label === label);
  assert.ok(item, `no item ${label} in ${items.map((candidate) => candidate.label).join(', ')}`);
  return item;
}

const allToolPaths = skills.flatMap((skill) => skill.scripts.map((script) => script.toolPath));

test('the sample skills give 7 skills and their scripts', () => {
  assert.equal(skills.length, 7);
  assert.ok(allToolPaths.includes(ROLL));
});

test('toolPath completion in an empty string lists every script and replaces the literal', () => {
  const { text, items, labels } = complete('{ "tools": [{ "toolId": "roll", "toolPath": "¦" }] }');
  assert.deepEqual([...labels].sort(), [...allToolPaths].sort());
  assert.equal(new Set(labels.map((label) => label.split('/')[1])).size, 7);
  const roll = byLabel(items, ROLL);
  assert.equal(roll.kind, 'script');
  assert.equal(replaced(text, roll), '""');
  assert.equal(roll.insertText, `"${ROLL}"`);
  assert.equal(roll.filterText, `"${ROLL}"`);
  assert.equal(roll.detail, 'Dice Roller · v1.0.0 · healthy');
  assert.match(roll.documentation!, /Rolls dice from standard notation/);
  assert.match(roll.documentation!, /Roll a dice formula/);
  assert.match(roll.documentation!, /- `formula`: string — Dice formula/);
  assert.match(roll.documentation!, /\*\*Timeout:\*\* 5 s/);
});

test('toolPath completion in a partial string replaces the whole literal, or up to the cursor when unterminated', () => {
  const terminated = complete('{ "tools": [{ "toolPath": "skills/di¦ce" }] }');
  assert.equal(terminated.items.length, allToolPaths.length);
  assert.equal(replaced(terminated.text, byLabel(terminated.items, ROLL)), '"skills/dice"');
  const open = complete('{ "tools": [{ "toolId": "roll", "toolPath": "skills/di¦');
  const roll = byLabel(open.items, ROLL);
  assert.equal(replaced(open.text, roll), '"skills/di');
  assert.equal(roll.insertText, `"${ROLL}"`);
  assert.ok(roll.filterText!.startsWith('"skills/di'));
});

test('toolPath completion right after the colon inserts a quoted path (with a comma before the next property)', () => {
  const bare = complete('{ "tools": [{ "toolPath": ¦ }] }');
  const roll = byLabel(bare.items, ROLL);
  assert.deepEqual(roll.replaceSpan, { offset: bare.offset, length: 0 });
  assert.equal(roll.insertText, `"${ROLL}"`);
  assert.equal(roll.filterText, ROLL);
  const followed = complete('{ "tools": [{ "toolPath": ¦\n "input": {} }] }');
  assert.equal(byLabel(followed.items, ROLL).insertText, `"${ROLL}",`);
  const rollback = complete('{ "tools": [{ "toolPath": "x", "rollback": { "toolPath": "¦" } }] }');
  assert.equal(rollback.items.length, allToolPaths.length);
});

test('scripts of unavailable skills sort last and say why; degraded health shows', () => {
  const status: SkillSessionStatus = (name) =>
    name === 'dice-roller'
      ? { health: 'degraded', enabled: true }
      : name === 'memory'
        ? { health: 'healthy', enabled: false }
        : name === 'storyteller'
          ? { health: 'permanentFailure', enabled: true }
          : undefined;
  const unsteady = createSkillCatalog(skills as Skill[], status);
  const { items } = complete('{ "tools": [{ "toolPath": "¦" }] }', { catalog: unsteady });
  const sorted = [...items].sort((left, right) => left.sortText!.localeCompare(right.sortText!)).map((item) => item.label);
  const last = sorted.slice(-3);
  assert.deepEqual([...last].sort(), ['skills/memory/scripts/recall.js', 'skills/memory/scripts/store.js', 'skills/storyteller/scripts/narrate.js']);
  assert.equal(byLabel(items, ROLL).detail, 'Dice Roller · v1.0.0 · ⚠ degraded');
  const store = byLabel(items, 'skills/memory/scripts/store.js');
  assert.match(store.detail!, /✖ disabled — not available/);
  assert.match(store.documentation!, /disabled in this session/);
  assert.match(byLabel(items, 'skills/storyteller/scripts/narrate.js').documentation!, /permanentFailure/);
});

const graph = `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  "tools": [
    { "toolId": "root", "toolPath": "${ROLL}" },
    { "toolId": "middle", "toolPath": "skills/storyteller/scripts/narrate.js", "dependencies": ["root"] },
    { "toolId": "leaf", "toolPath": "${ROLL}", "dependencies": ["middle"] },
    { "toolId": "deep", "toolPath": "${ROLL}", "dependencies": ["leaf"] },
    { "toolId": "other", "toolPath": "${PORTRAIT}", "description": "draws the hero" }
  ]
}`;

test('dependency completion leaves out the tool itself, listed ids and ids that would close a cycle', () => {
  const marked = graph.replace('"dependencies": ["root"]', '"dependencies": ["root", ¦]');
  const { items, labels } = complete(marked);
  assert.deepEqual(labels, ['other']);
  const other = items[0]!;
  assert.equal(other.kind, 'toolId');
  assert.equal(other.detail, PORTRAIT);
  assert.equal(other.insertText, '"other"');
  assert.match(other.documentation!, /tools\/4 · line 8/);
  assert.match(other.documentation!, /draws the hero/);
  // Replacing the entry under the cursor offers it again.
  const replacing = complete(graph.replace('"dependencies": ["root"]', '"dependencies": ["ro¦ot"]'));
  assert.deepEqual(replacing.labels, ['root', 'other']);
  assert.equal(replaced(replacing.text, byLabel(replacing.items, 'root')), '"root"');
  // A tool nobody depends on may depend on any other tool.
  const free = complete(graph.replace('"description": "draws the hero"', '"description": "draws the hero", "dependencies": [¦]'));
  assert.deepEqual(free.labels, ['root', 'middle', 'leaf', 'deep']);
});

test('dependency completion works while the array is unterminated, with the last well-formed tools', () => {
  const head = graph.slice(0, graph.indexOf('"dependencies": ["root"]'));
  const { labels } = complete(`${head}"dependencies": ["root", ¦`, { lastWellFormed: graph });
  assert.deepEqual(labels, ['other']);
  // Without the last well-formed version, the tools after the broken array are unknown.
  assert.deepEqual(complete(`${head}"dependencies": ["root", ¦`).labels, []);
  const quoted = complete(`${head}"dependencies": ["root", "¦\n    { "toolId": "leaf" }`, { lastWellFormed: graph });
  assert.deepEqual(quoted.labels, ['other']);
  assert.equal(replaced(quoted.text, quoted.items[0]!), '"');
  // Missing comma after the previous entry: the item brings one.
  const noComma = complete(`${head}"dependencies": ["root" ¦`, { lastWellFormed: graph });
  assert.equal(byLabel(noComma.items, 'other').insertText, ', "other"');
});

test('dependency completion after a bare colon inserts an array', () => {
  const { items } = complete(graph.replace('"description": "draws the hero"', '"description": "draws the hero", "dependencies": ¦'));
  assert.equal(byLabel(items, 'root').insertText, '["root"]');
});

const rollTool = (input: string) => `{ "tools": [{ "toolId": "roll", "toolPath": "${ROLL}", "input": ${input} }] }`;

test('input key completion lists the script properties not yet present', () => {
  const { items, labels } = complete(rollTool('{ "dc": 12, ¦ }'));
  assert.deepEqual(labels, ['formula', 'reason', 'label', 'bands', 'seed']);
  const formula = byLabel(items, 'formula');
  assert.equal(formula.kind, 'property');
  assert.equal(formula.detail, 'string');
  assert.equal(formula.insertText, '"formula": "${1:1d20}"');
  assert.equal(formula.isSnippet, true);
  assert.match(formula.documentation!, /Default: `"1d20"`/);
  assert.match(formula.documentation!, /Examples: `"1d20\+5"`/);
  const all = complete(rollTool('{ ¦ }'));
  assert.deepEqual(all.labels, ['formula', 'reason', 'dc', 'label', 'bands', 'seed']);
  assert.equal(byLabel(all.items, 'dc').insertText, '"dc": ${1:0}');
});

test('input key completion while the key is typed in a broken text', () => {
  const marked = `{ "tools": [{ "toolId": "roll", "toolPath": "${ROLL}", "input": { "label": "x", "fo¦`;
  const { text, items, labels } = complete(marked);
  assert.deepEqual(labels, ['formula', 'reason', 'dc', 'bands', 'seed']);
  assert.equal(replaced(text, byLabel(items, 'formula')), '"fo');
  assert.equal(byLabel(items, 'formula').filterText, '"formula"');
  // A key that already has a value gets only the new name.
  const keyed = complete(rollTool('{ "fo¦": "2d6" }'));
  assert.equal(byLabel(keyed.items, 'formula').insertText, '"formula"');
});

test('input key snippets follow the type: enum choices, required first, trailing comma', () => {
  const { items, labels } = complete(`{ "tools": [{ "toolPath": "${PORTRAIT}", "input": { ¦ "description": "tall" } }] }`);
  assert.deepEqual(labels, ['name', 'palette']);
  assert.equal(byLabel(items, 'name').detail, 'string · required');
  assert.equal(byLabel(items, 'palette').insertText, '"palette": "${1|natural,vivid,muted,noir,sepia|}",');
  assert.ok(byLabel(items, 'name').sortText! < byLabel(items, 'palette').sortText!);
});

test('input value completion offers enum values, the default and examples as JSON literals', () => {
  const formula = complete(rollTool('{ "formula": ¦ }'));
  assert.deepEqual(formula.labels, ['"1d20"', '"1d20+5"', '"3d6"', '"2d6-1"', '"2d6+1d4+2"', '"d%"']);
  assert.equal(byLabel(formula.items, '"1d20"').detail, 'default');
  assert.equal(byLabel(formula.items, '"1d20"').preselect, true);
  assert.equal(byLabel(formula.items, '"3d6"').insertText, '"3d6"');
  const inString = complete(rollTool('{ "formula": "3¦" }'));
  assert.equal(replaced(inString.text, byLabel(inString.items, '"3d6"')), '"3"');
  const palette = complete(`{ "tools": [{ "toolPath": "${PORTRAIT}", "input": { "palette": "¦" } }] }`);
  assert.deepEqual(palette.labels, ['"natural"', '"vivid"', '"muted"', '"noir"', '"sepia"']);
  const limit = complete('{ "tools": [{ "toolPath": "skills/memory/scripts/recall.js", "input": { "limit": ¦ } }] }');
  assert.deepEqual(limit.labels, ['5']);
});

test('tool key completion offers the ToolInvocation properties not yet present, with their descriptions', () => {
  const { items, labels } = complete('{ "tools": [{ "toolId": "roll", ¦ }] }');
  assert.deepEqual([...labels].sort(), [
    'async',
    'condition',
    'dependencies',
    'description',
    'input',
    'required',
    'retryPolicy',
    'rollback',
    'subPlan',
    'timeoutMs',
    'toolPath',
  ]);
  assert.match(byLabel(items, 'dependencies').documentation!, /toolIds that must finish before this tool starts/);
  assert.equal(byLabel(items, 'retryPolicy').insertText, '"retryPolicy": { "maxRetries": ${1:3}, "backoffMs": ${2:100} }');
  assert.equal(byLabel(items, 'required').insertText, '"required": ${1|true,false|}');
  assert.equal(byLabel(items, 'rollback').insertText, '"rollback": { "toolPath": "$1" }');
  const typed = complete(`{ "tools": [{ "toolPath": "${ROLL}", "ti¦`);
  assert.equal(byLabel(typed.items, 'timeoutMs').insertText, '"timeoutMs": ${1:5000}');
  assert.match(byLabel(typed.items, 'toolId').insertText, /"toolId": "\$\{1:tool2\}"/);
  const retry = complete('{ "tools": [{ "retryPolicy": { "maxRetries": 2, ¦ } }] }');
  assert.deepEqual(retry.labels, ['backoffMs']);
});

test('the New tool snippet sits between tools with a fresh toolId', () => {
  const { items } = complete('{ "tools": [\n  { "toolId": "tool1" },\n  ¦\n] }');
  assert.equal(items.length, 1);
  const snippet = items[0]!;
  assert.equal(snippet.label, 'New tool');
  assert.equal(snippet.kind, 'snippet');
  assert.equal(snippet.isSnippet, true);
  assert.match(snippet.insertText, /"toolId": "\$\{1:tool2\}"/);
  assert.match(snippet.insertText, /"toolPath": "\$\{2\|skills\/character-portraits\/scripts\/portrait\.js,skills\/dice-roller\/scripts\/roll\.js,/);
  assert.match(snippet.insertText, /"dependencies": \[\$3\]/);
  assert.match(snippet.insertText, /"input": \{\$4\}/);
  const taken = complete('{ "tools": [ { "toolId": "tool2" }, { "toolId": "tool3" } ¦ ] }');
  assert.match(taken.items[0]!.insertText, /^, \{\n\t"toolId": "\$\{1:tool4\}"/);
  const before = complete('{ "tools": [ ¦ { "toolId": "a" } ] }');
  assert.match(before.items[0]!.insertText, /\},\$0$/);
});

test('the New plan snippet has the injected requestId, in an empty document or an empty object', () => {
  const newRequestId = () => '01234567-89ab-4cde-8f01-23456789abcd';
  const empty = complete('  ¦\n', { newRequestId });
  assert.deepEqual(empty.labels, ['New plan']);
  const plan = empty.items[0]!;
  assert.match(plan.insertText, /^\{\n\t"requestId": "01234567-89ab-4cde-8f01-23456789abcd",\n\t"narrative": "\$\{1:/);
  assert.match(plan.insertText, /"tools": \[\n\t\t\{\n\t\t\t"toolId": "\$\{2:tool1\}"/);
  assert.deepEqual(plan.replaceSpan, { offset: empty.offset, length: 0 });
  const object = complete('{¦}', { newRequestId });
  assert.equal(object.items[0]!.label, 'New plan');
  assert.match(object.items[0]!.insertText, /^\n\t"requestId": "01234567-89ab-4cde-8f01-23456789abcd"/);
  assert.ok(object.labels.includes('tools') && object.labels.includes('requestId'));
  const random = complete('¦').items[0]!;
  assert.match(random.insertText, /"requestId": "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/);
});

test('plan keys leave out those present; nothing is offered inside comments or unknown places', () => {
  const keys = complete('{ "requestId": "x", "tools": [], ¦ }');
  assert.deepEqual(keys.labels, ['narrative', 'parallel', 'disabledSkills', 'timeoutMs', 'rollbackOnFailure', 'metadata']);
  assert.deepEqual(complete('{ "parallel": ¦ }').labels, ['true', 'false']);
  assert.deepEqual(complete('{ // a comment ¦\n "tools": [] }').items, []);
  assert.deepEqual(complete('{ "narrative": "once upon ¦" }').items, []);
});

test('toolPath completion offers each script once, by its canonical path; the documentation names its aliases', () => {
  const { items, labels } = complete('{ "tools": [{ "toolId": "roll", "toolPath": "¦" }] }');
  assert.ok(!labels.some((label) => /roll-dice|store-memory|recall-memory|generate-choices/.test(label)), labels.join(', '));
  assert.match(byLabel(items, ROLL).documentation!, /Also answers to `roll-dice`/);
  assert.match(byLabel(items, PORTRAIT).documentation!, /Also answers to `generate-portrait`, `update-portrait`/);
});

test('input completion of a tool whose toolPath is an alias offers the input keys of the canonical script', () => {
  const { labels } = complete('{ "tools": [{ "toolId": "roll", "toolPath": "skills/dice-roller/roll-dice.dart", "input": { "¦" } }] }');
  assert.ok(labels.includes('formula'), labels.join(', '));
});
