// Bench (d): pattern narrator latency per plan (median, p99) over varied player inputs, against the 5 s generation budget.
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { GENERATION_BUDGET_MS } from '../../src/runtime/narrator/index.js';
import type { NarratorSkill } from '../../src/runtime/skills/skillTypes.js';
import { check, collectGarbage, median, meetsTarget, targetText, type BenchOptions, type BenchResult, type BenchTarget } from './benchUtil.js';

const INPUTS = [
  'I roll to pick the lock', 'I attack the goblin with my sword', 'I examine the ancient door', 'What happened in the crypt?',
  'What is my reputation with the Thieves Guild?', 'I talk to the innkeeper about the rumours', 'How does Mira feel about me?',
  'Draw a portrait of the old wizard', 'I look around the room', 'Xyzzy plugh', 'I roll 2d6+1 to climb the wall, DC 14',
  'I try to persuade the guard to let us pass', 'Remember the name of the ferryman',
];
/** The allowance: 0.1% of the 5 s generation budget, i.e. 5 ms; the ratio is p99 / allowance. */
const ALLOWANCE_MS = GENERATION_BUDGET_MS * 0.001;
const TARGET: BenchTarget = { op: '<=', value: 1.0 };

function skill(name: string, capabilities: string[], scripts: string[]): NarratorSkill {
  return { name, displayName: name, description: name, capabilities, priority: 50, health: 'healthy', scripts: scripts.map((script) => ({ name: script, toolPath: `skills/${name}/scripts/${script}.js` })) };
}
const SKILLS = [
  skill('dice-roller', ['dice', 'check'], ['roll']), skill('storyteller', ['narration'], ['narrate']), skill('memory', ['memory'], ['store', 'recall']),
  skill('reputation', ['reputation'], ['update', 'query']), skill('player-choices', ['choices'], ['offer']),
  skill('character-portraits', ['portrait'], ['portrait']), skill('npc-perception', ['perception'], ['adjust', 'query']),
];

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export async function runNarratorLatency(options: BenchOptions): Promise<BenchResult> {
  const narrator = new PatternNarrator();
  const generations = options.quick ? 2_000 : 20_000;
  for (let index = 0; index < 500; index++) await narrator.generatePlan({ input: INPUTS[index % INPUTS.length]!, skills: SKILLS, disabledSkills: [], attempt: 1, parentPlanId: null });
  collectGarbage();
  const samples: number[] = [];
  for (let index = 0; index < generations; index++) {
    const started = performance.now();
    const generated = await narrator.generatePlan({ input: INPUTS[index % INPUTS.length]!, skills: SKILLS, disabledSkills: index % 7 === 0 ? ['dice-roller'] : [], attempt: 1 + (index % 5), parentPlanId: null });
    samples.push(performance.now() - started);
    check(generated.plan.requestId, 'a plan');
  }
  const p50 = median(samples);
  const p99 = percentile(samples, 0.99);
  const ratio = p99 / ALLOWANCE_MS;
  const line = `(d) pattern narrator over ${generations} generations of ${INPUTS.length} inputs: median ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs → ${ratio.toFixed(3)}× of a ${ALLOWANCE_MS} ms allowance (0.1% of the ${GENERATION_BUDGET_MS} ms budget) ${targetText(ratio, TARGET)}`;
  return {
    id: 'd', title: 'pattern narrator latency', line, ratio, target: TARGET, met: meetsTarget(ratio, TARGET),
    medians: { generationMs: p50, p99Ms: p99, allowanceMs: ALLOWANCE_MS }, samples: {}, details: { generations, inputs: INPUTS.length, skills: SKILLS.length },
  };
}
