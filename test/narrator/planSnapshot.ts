// A golden snapshot of the pattern narrator's plans: every corpus's inputs with its own skills and with bench (d)'s 50, with and without a skill disabled, each plan and its --explain lines one JSON line; `write <file>` saves it, `compare <file>` counts the plans that differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { buildPatternPlan } from '../../src/runtime/narrator/patternNarrator.js';
import { explanationLines } from '../../src/runtime/narrator/planExplanation.js';
import type { NarratorSkill } from '../../src/runtime/skills/skillTypes.js';
import { fiftySkills } from '../bench/narratorLatency.js';
import { CORPORA, loadCorpusSet, repoRoot } from './corpusKit.js';

/** The skill disabled in half the plans (as bench (d) disables it every seventh generation). */
const DISABLED = 'dice-roller';
/** The only nondeterministic field of a pattern plan: its requestId (a random UUID), written as this. */
const REQUEST_ID = '<requestId>';
/** The checkout's folder in tool paths, written as this (so two worktrees' snapshots compare). */
const ROOT = JSON.stringify(repoRoot).slice(1, -1);

interface Case {
  readonly key: string;
  readonly input: string;
  readonly skills: readonly NarratorSkill[];
  readonly disabled: readonly string[];
}

async function cases(): Promise<Case[]> {
  const fifty = await fiftySkills(50);
  const all: Case[] = [];
  for (const name of Object.keys(CORPORA) as (keyof typeof CORPORA)[]) {
    const { entries, skills } = await loadCorpusSet(name);
    for (const [setName, set] of [
      ['own', skills],
      ['fifty', fifty],
    ] as const) {
      for (const disabled of [[], [DISABLED]]) {
        entries.forEach((entry, position) => {
          all.push({ key: `${name}#${position}/${setName}/${disabled.join(',') || '-'}`, input: entry.input, skills: set, disabled });
        });
      }
    }
  }
  return all;
}

/** One JSON line per case: the plan (its requestId normalised) and what --explain prints of it. */
function lineOf(each: Case): string {
  const plan = buildPatternPlan({ input: each.input, skills: each.skills, disabledSkills: each.disabled, attempt: 1, parentPlanId: null });
  const normalised = { ...plan, requestId: REQUEST_ID };
  return JSON.stringify({ key: each.key, input: each.input, plan: normalised, explain: explanationLines(plan) }).replaceAll(ROOT, '<repo>');
}

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  if ((mode !== 'write' && mode !== 'compare') || !file) {
    process.stderr.write('usage: node --import tsx test/narrator/planSnapshot.ts write|compare <file.jsonl>\n');
    process.exitCode = 2;
    return;
  }
  const all = await cases();
  // Twice over, in order: the second pass meets every cache warm, and must write the same plans as the first.
  const first = all.map(lineOf);
  const second = all.map(lineOf);
  const passesDiffer = first.filter((line, position) => line !== second[position]).length;
  if (mode === 'write') {
    writeFileSync(file, `${first.join('\n')}\n`);
    process.stdout.write(`${first.length} plans written to ${file}; ${passesDiffer} differ between a cold and a warm pass\n`);
    process.exitCode = passesDiffer === 0 ? 0 : 1;
    return;
  }
  const saved = readFileSync(file, 'utf8').trimEnd().split('\n');
  let differing = 0;
  for (const [position, line] of first.entries()) {
    if (saved[position] === line) continue;
    differing++;
    if (differing <= 3) {
      process.stdout.write(`differs: ${all[position]!.key}\n  saved: ${saved[position]?.slice(0, 600)}\n  now:   ${line.slice(0, 600)}\n`);
    }
  }
  if (saved.length !== first.length) process.stdout.write(`the snapshot has ${saved.length} plans, this run ${first.length}\n`);
  process.stdout.write(`${differing} of ${first.length} plans differ from ${file}; ${passesDiffer} differ between a cold and a warm pass\n`);
  process.exitCode = differing === 0 && passesDiffer === 0 && saved.length === first.length ? 0 : 1;
}

await main();
