// Bench (m): a scene transition of the complete starter campaign, pattern narrator: p50 and p95 against the 3 s of spec 008's SC-001; the same turns as no campaign.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { PlaySession } from '../../src/runtime/session/playSession.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { loadCampaignStory } from '../../src/runtime/campaign/play/index.js';
import { starterCampaignFiles } from '../../src/runtime/campaign/starterCampaigns.js';
import { writeFileSync, mkdirSync } from 'node:fs';
import { check, median, meetsTarget, ms, ratioText, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Spec 008, SC-001: a scene transition within 3 s (on an 8 GB device). */
const BUDGET_MS = 3_000;
const TARGET: BenchTarget = { op: '<=', value: 1 };
/** A play-through as a player of the campaign types it: choices, talk, a roll, a question, a look. */
const INPUTS = [
  "Go to the Lantern tower and the keeper's cottage",
  'Ask Tamsin for help',
  'I try to pick the lock of the keeper door',
  'Take the tower key',
  'What does Tamsin think of me?',
  'I climb the stairs with the key',
  'I look around the lamp room',
  'remember that the cupboard is nearly empty',
  'I ask Brother Alder about the drowned',
  'I wait for the lowest tide',
];

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** Plays `sessions` play-throughs of the inputs; each turn's wall time, the opening and the end of the session excluded. */
async function playThrough(root: string, sessions: number, campaign: boolean): Promise<{ turns: number[]; beats: number }> {
  const skills = path.join(REPO_ROOT, 'skills');
  const registry = await SkillRegistry.load({ root, extraSkillRoots: [skills] });
  const story = campaign ? await loadCampaignStory(root) : null;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-m-'));
  const turns: number[] = [];
  let beats = 0;
  try {
    for (let round = 0; round < sessions; round++) {
      registry.restartSession();
      const session = await PlaySession.open({
        root,
        file: path.join(folder, `session-${round}.json`),
        narrator: new PatternNarrator(),
        skills: registry,
        execution: { extraSkillRoots: [skills], skillContext: registry },
        attemptLogFile: null,
        seed: 100 + round,
        story,
      });
      for (const input of INPUTS) {
        const started = performance.now();
        const result = await session.play(input);
        turns.push(performance.now() - started);
        check(result.narrative, 'a narration');
        beats += result.story?.triggered.length ?? 0;
      }
      session.dispose();
    }
  } finally {
    registry.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
  return { turns, beats };
}

export async function runCampaignScene(options: BenchOptions): Promise<BenchResult> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-bench-m-campaign-'));
  try {
    for (const file of starterCampaignFiles('complete')) {
      const target = path.join(root, ...file.path.split('/'));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.bytes ?? file.text ?? '');
    }
    const sessions = options.quick ? 1 : 4;
    // Interleaved: the plain story first, then the campaign, each round.
    const plain: number[] = [];
    const played: number[] = [];
    let beats = 0;
    for (let round = 0; round < sessions; round++) {
      plain.push(...(await playThrough(root, 1, false)).turns);
      const campaign = await playThrough(root, 1, true);
      played.push(...campaign.turns);
      beats += campaign.beats;
    }
    check(beats >= sessions * 2, `beats triggered (${beats})`);
    const p50 = median(played);
    const p95 = percentile(played, 0.95);
    const ratio = p95 / BUDGET_MS;
    const plainP50 = median(plain);
    const line =
      `(m) campaign scene transition: ${played.length} turns of the complete starter campaign, pattern narrator, ${beats} beats triggered: ` +
      `p50 ${ms(p50)}, p95 ${ms(p95)}; the same story as no campaign: p50 ${ms(plainP50)}, p95 ${ms(percentile(plain, 0.95))}; ` +
      `SC-001 allows ${ms(BUDGET_MS)} = ${ratioText(ratio)} ${targetText(ratio, TARGET)}`;
    return {
      id: 'm',
      title: 'campaign scene transition',
      line,
      ratio,
      target: TARGET,
      met: meetsTarget(ratio, TARGET),
      medians: { p50Ms: p50, p95Ms: p95, plainP50Ms: plainP50, plainP95Ms: percentile(plain, 0.95), budgetMs: BUDGET_MS },
      samples: { turnMs: played, plainTurnMs: plain },
      details: { sessions, turnsPerSession: INPUTS.length, beats },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
