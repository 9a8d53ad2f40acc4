// Script choice within a chosen skill: a question or a request to check prefers a script that reads, an action one that acts, judged by the script's name or else its description's first verb.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { selectSkills } from '../../../../src/runtime/narrator/selection/skillSelection.js';
import type { NarratorSkill } from '../../../../src/runtime/skills/skillTypes.js';

function script(name: string, description: string): NarratorSkill['scripts'][number] {
  return { name, toolPath: `skills/life-support/scripts/${name}.js`, description, inputSchema: { type: 'object', properties: {} } };
}

// Seed-only manifests: script names that say nothing of reading or acting ("gauge", "swap", "breathe").
const skills: NarratorSkill[] = [
  {
    name: 'storyteller',
    displayName: 'Storyteller',
    description: 'Narrates the story.',
    capabilities: ['narration'],
    priority: 50,
    health: 'healthy',
    scripts: [script('narrate', 'Narrates the outcome.')],
  },
  {
    name: 'life-support',
    displayName: 'Life support',
    description: "Keeps track of the suit's oxygen during a spacewalk and warns before the air runs out.",
    capabilities: ['oxygen', 'spacewalk'],
    priority: 50,
    health: 'healthy',
    scripts: [
      script('swap', 'Swaps in a fresh oxygen canister and says how much air the suit now holds.'),
      script('gauge', 'Reports how much oxygen is left in the suit and how long it will last.'),
      script('breathe', 'Slows or quickens the breathing, changing how fast the oxygen is used.'),
    ],
  },
  {
    name: 'cargo-manifest',
    displayName: 'Cargo manifest',
    description: 'Lists the crates in the hold, their owners and their weight.',
    capabilities: ['cargo', 'crates'],
    priority: 50,
    health: 'healthy',
    scripts: [script('crates', 'Lists what the hold carries.')],
  },
];

function scriptFor(input: string): string | undefined {
  return selectSkills(input, skills).selected.find((chosen) => chosen.skill.name === 'life-support')?.script.name;
}

test('a question, or a request to check, calls the script whose description starts by reading', () => {
  assert.equal(scriptFor('How much oxygen have I got left?'), 'gauge');
  assert.equal(scriptFor('Check my oxygen'), 'gauge');
});

test('an action calls a script whose description starts with another verb', () => {
  assert.equal(scriptFor('I swap in a fresh oxygen canister'), 'swap');
  assert.equal(scriptFor('I slow my breathing to make the oxygen last'), 'breathe');
});
