// Tests of plan hover over the real sample skills: toolPath, unknown toolPath, toolId, dependency, input key and retry timing texts with their spans.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hoverPlan } from '../../../src/runtime/authoring/planHover.js';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { createSkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { skills } = await discoverSkills({ root: repositoryRoot });
const catalog = createSkillCatalog(skills);

const text = `{
  "requestId": "11111111-2222-4333-8444-555555555555",
  "tools": [
    {
      "toolId": "roll",
      "toolPath": "skills/dice-roller/scripts/roll.js",
      "description": "the lock check",
      "input": { "formula": "1d20", "dcc": 12 },
      "retryPolicy": { "maxRetries": 3, "backoffMs": 100 }
    },
    {
      "toolId": "portrait",
      "toolPath": "skills/character-portraits/scripts/portrait.js",
      "dependencies": ["roll"],
      "timeoutMs": 1000,
      "retryPolicy": { "maxRetries": 2, "backoffMs": 1000 }
    },
    {
      "toolId": "narrate",
      "toolPath": "skills/storyteller/scripts/narate.js",
      "dependencies": ["roll", "portrat"],
      "retryPolicy": { "maxRetries": 10, "backoffMs": 500 }
    }
  ]
}`;
const document = PlanDocument.parse(text);

/** Offset of the n-th occurrence (0-based) of `needle`, plus `delta`. */
function at(needle: string, delta = 1, occurrence = 0): number {
  let offset = -1;
  for (let count = 0; count <= occurrence; count++) offset = text.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not found`);
  return offset + delta;
}

function hover(offset: number) {
  const found = hoverPlan(document, offset, catalog);
  assert.ok(found, `a hover at ${offset}`);
  return { ...found, covered: text.slice(found.span.offset, found.span.offset + found.span.length) };
}

test('a toolPath shows the skill, the script, its input in short and its timeout', () => {
  const { markdown, covered } = hover(at('skills/dice-roller', 5));
  assert.equal(covered, '"skills/dice-roller/scripts/roll.js"');
  assert.match(markdown, /\*\*Dice Roller\*\* · v1\.0\.0 · healthy/);
  assert.match(markdown, /Rolls dice from standard notation/);
  assert.match(markdown, /\*\*roll\*\* — Roll a dice formula, optionally against a DC\./);
  assert.match(markdown, /- `formula`: string — Dice formula/);
  assert.match(markdown, /- `dc`: integer — Difficulty class\./);
  assert.match(markdown, /\*\*Timeout:\*\* 5 s \(5000 ms/);
  const portrait = hover(at('skills/character-portraits', 5)).markdown;
  assert.match(portrait, /- `name` \(required\): string/);
});

test('an unknown toolPath is said to be no script of any discovered skill, with the closest one', () => {
  const { markdown, covered } = hover(at('narate.js'));
  assert.equal(covered, '"skills/storyteller/scripts/narate.js"');
  assert.match(markdown, /`skills\/storyteller\/scripts\/narate\.js` is not a script of any discovered skill\./);
  assert.match(markdown, /Did you mean `skills\/storyteller\/scripts\/narrate\.js`\?/);
});

test('a dependency names its tool, or says no tool has the toolId', () => {
  const roll = hover(at('["roll"', 2));
  assert.equal(roll.covered, '"roll"');
  assert.match(roll.markdown, /\*\*Depends on `roll`\*\* · tools\/0 · line 4/);
  assert.match(roll.markdown, /Runs `skills\/dice-roller\/scripts\/roll\.js`\./);
  assert.match(roll.markdown, /the lock check/);
  const missing = hover(at('"portrat"', 2));
  assert.match(missing.markdown, /No tool has the toolId `portrat`\./);
  assert.match(missing.markdown, /Did you mean `portrait`\?/);
});

test('a toolId shows the tool and how many tools depend on it', () => {
  const roll = hover(at('"roll"', 2));
  assert.equal(roll.covered, '"roll"');
  assert.match(roll.markdown, /\*\*Tool `roll`\*\* · tools\/0 · line 4/);
  assert.match(roll.markdown, /Runs `skills\/dice-roller\/scripts\/roll\.js` \(Dice Roller · v1\.0\.0 · healthy\)\./);
  assert.match(roll.markdown, /2 tools depend on it: `portrait`, `narrate`\./);
  assert.match(hover(at('"narrate"', 2)).markdown, /No tool depends on it\./);
});

test('an input key shows its schema documentation, or that the schema lacks it', () => {
  const formula = hover(at('"formula"', 2));
  assert.equal(formula.covered, '"formula"');
  assert.match(formula.markdown, /\*\*`formula`\*\*: string/);
  assert.match(formula.markdown, /Default: `"1d20"`/);
  assert.match(hover(at('"dcc"', 2)).markdown, /`dcc` is not in the input schema of `skills\/dice-roller\/scripts\/roll\.js`\. Did you mean `dc`\?/);
});

test('a retryPolicy shows the real delays and the worst case', () => {
  const whole = hover(at('"retryPolicy"', 2));
  assert.equal(whole.covered, '"retryPolicy": { "maxRetries": 3, "backoffMs": 100 }');
  assert.match(whole.markdown, /Retries after 100, 200, 400 ms; at most 20\.7 s with timeouts\./);
  assert.match(whole.markdown, /Worst case: 4 × 5 s timeout \+ 700 ms of delays = \*\*20\.7 s\*\*/);
  assert.match(whole.markdown, /Timeout per attempt: 5 s \(from the skill manifest of `skills\/dice-roller\/scripts\/roll\.js`\)/);
  const maxRetries = hover(at('"maxRetries": 3', 3));
  assert.equal(maxRetries.covered, '"maxRetries": 3');
  assert.equal(maxRetries.markdown, whole.markdown);
  assert.equal(hover(at('"backoffMs": 100', 13)).covered, '"backoffMs": 100');
  // The tool's own timeoutMs wins over the manifest.
  const portrait = hover(at('"maxRetries": 2', 3)).markdown;
  assert.match(portrait, /Retries after 1 s, 2 s; at most 6 s with timeouts\./);
  assert.match(portrait, /Timeout per attempt: 1 s \(the tool's timeoutMs\)/);
  assert.equal(hover(at('"timeoutMs": 1000', 3)).markdown, portrait);
  // An unknown script takes the default timeout; a worst case past the plan timeout is flagged.
  const narrate = hover(at('"maxRetries": 10', 3)).markdown;
  assert.match(narrate, /Timeout per attempt: 30 s \(the default\)/);
  assert.match(narrate, /longer than the plan's timeout \(1 min\)/);
});

test('no hover where there is nothing to say', () => {
  assert.equal(hoverPlan(document, at('"requestId"'), catalog), undefined);
  assert.equal(hoverPlan(document, at('"description"'), catalog), undefined);
  assert.equal(hoverPlan(PlanDocument.parse(''), 0, catalog), undefined);
});

test('hover on a toolPath that names a script by an alias says which script it runs, then describes it', () => {
  const aliased = `{ "tools": [{ "toolId": "roll", "toolPath": "skills/dice-roller/roll-dice.dart", "input": { "formula": "1d20" } }] }`;
  const hover = hoverPlan(PlanDocument.parse(aliased), aliased.indexOf('roll-dice.dart'), catalog);
  assert.match(hover?.markdown ?? '', /^roll-dice is another name of roll \(skills\/dice-roller\/scripts\/roll\.js\)\./);
  assert.match(hover?.markdown ?? '', /Also answers to `roll-dice`/);
  // Input hovers read the canonical script's input schema.
  const input = hoverPlan(PlanDocument.parse(aliased), aliased.indexOf('"formula"') + 1, catalog);
  assert.match(input?.markdown ?? '', /dice/i);
});
