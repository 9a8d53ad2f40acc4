// Bench (f): the editor's plan validator on 1,000- and 10,000-tool plans against Ajv's schema validation alone on the same text, and completion latency.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { completePlan } from '../../src/runtime/authoring/planCompletion.js';
import { PlanDocument } from '../../src/runtime/authoring/planDocument.js';
import { contractValidator } from '../../src/runtime/contracts/schemas.js';
import { createSkillCatalog } from '../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../src/runtime/skills/skillDiscovery.js';
import { validatePlanText } from '../../src/runtime/validation/validatePlan.js';
import {
  check,
  collectGarbage,
  median,
  meetsTarget,
  ms,
  ratioText,
  seededRandom,
  targetText,
  type BenchOptions,
  type BenchResult,
  type BenchTarget,
} from './benchUtil.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET: BenchTarget = { op: '<=', value: 1.5 };
/** Unmeasured rounds before the measured ones, for each size (see runPlanAuthoring). */
const WARM_UP_ROUNDS = 15;
/** Calls of each side in one measured round, whose median is the round's figure (see runPlanAuthoring). */
const CALLS_PER_ROUND = 3;

/** A plan of `count` tools over the sample skills: dice rolls with inputs, narrations depending on earlier tools. */
export function generatedPlanText(count: number, seed = 7): string {
  const random = seededRandom(seed);
  const tools = [];
  for (let index = 0; index < count; index++) {
    const dependencies = index === 0 ? [] : [...new Set([`t${Math.floor(random() * index)}`, `t${index - 1}`])];
    tools.push(
      index % 2 === 0
        ? {
            toolId: `t${index}`,
            toolPath: 'skills/dice-roller/scripts/roll.js',
            input: { formula: '1d20+2', dc: 12, reason: `check ${index}` },
            dependencies,
            async: true,
            retryPolicy: { maxRetries: 2, backoffMs: 100 },
          }
        : {
            toolId: `t${index}`,
            toolPath: 'skills/storyteller/scripts/narrate.js',
            input: { action: 'opens the door', mood: 'tense' },
            dependencies,
            condition: 'state.dice.lastRoll.success == true',
          },
    );
  }
  return JSON.stringify({ requestId: '0b2f7c1e-5d7a-4c1b-9a51-3f1f6a0c2d11', narrative: 'A generated plan.', parallel: true, tools }, null, 2);
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export async function runPlanAuthoring(options: BenchOptions): Promise<BenchResult> {
  const { skills } = await discoverSkills({ root: REPO_ROOT });
  const catalog = createSkillCatalog(skills);
  const ajv = contractValidator('plan-json.schema.json');
  // At least 9 pairs even in CI's quick mode: a pair takes a few milliseconds, and with 5 the median moved by
  // ±0.1x from run to run, as large as the margin, so a MISSED said little.
  const rounds = options.quick ? 9 : 31;
  const sizes = [1_000, 10_000];
  const samples: Record<string, number[]> = {};
  const medians: Record<string, number> = {};
  const ratios: number[] = [];
  const lines: string[] = [];
  for (const size of sizes) {
    const text = generatedPlanText(size);
    const validator = (samples[`validator${size}Ms`] = [] as number[]);
    const baseline = (samples[`ajv${size}Ms`] = [] as number[]);
    // A sanity check that the plan is valid for both.
    const first = await validatePlanText(text, { root: REPO_ROOT, skills: catalog });
    check(first.valid, `the generated ${size}-tool plan validates (${first.diagnostics[0]?.code ?? ''} ${first.diagnostics[0]?.message ?? ''})`);
    check(ajv(JSON.parse(text)) === true, 'Ajv accepts the generated plan');
    // Warm-up rounds like the measured ones: V8 optimizes the validator's functions over its first
    // ten or so calls (one compiled Ajv function is warm after one), and a round that waits for a
    // compile takes several times longer, so measuring from the second call timed the JIT, not the validator.
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      collectGarbage();
      ajv(JSON.parse(text));
      collectGarbage();
      await validatePlanText(text, { root: REPO_ROOT, skills: catalog });
    }
    // Interleaved: each round measures both on the same text, so load changes hit both alike. A round's figure for
    // each side is the median of CALLS_PER_ROUND calls (alternating sides): one call of a few milliseconds is at the
    // mercy of a single interruption, and single calls gave pairs spread by ±0.2x in CI's quick mode.
    for (let round = 0; round < rounds; round++) {
      const baselineCalls: number[] = [];
      const validatorCalls: number[] = [];
      for (let call = 0; call < CALLS_PER_ROUND; call++) {
        collectGarbage();
        let started = performance.now();
        check(ajv(JSON.parse(text)) === true, 'Ajv accepts the plan');
        baselineCalls.push(performance.now() - started);
        collectGarbage();
        started = performance.now();
        const result = await validatePlanText(text, { root: REPO_ROOT, skills: catalog });
        validatorCalls.push(performance.now() - started);
        check(result.valid, 'the validator accepts the plan');
      }
      baseline.push(median(baselineCalls));
      validator.push(median(validatorCalls));
    }
    medians[`validator${size}Ms`] = median(validator);
    medians[`ajv${size}Ms`] = median(baseline);
    const ratio = median(validator) / median(baseline);
    ratios.push(ratio);
    lines.push(`${size} tools: validator ${ms(median(validator))} vs JSON.parse+Ajv ${ms(median(baseline))} = ${ratioText(ratio)}`);
  }

  // Completion on the 1,000-tool plan: a toolPath and a dependency list near the end of the file.
  const text = generatedPlanText(1_000);
  const document = PlanDocument.parse(text);
  const lastTool = document.tools.at(-1)!;
  const toolPathOffset = lastTool.toolPath!.span.offset + 1;
  const dependencyOffset = lastTool.dependencies!.entries[0]!.span.offset + 1;
  const completion: number[] = [];
  const attempts = options.quick ? 100 : 400;
  for (let index = 0; index < attempts; index++) {
    const offset = index % 2 === 0 ? toolPathOffset : dependencyOffset;
    const started = performance.now();
    // The editor parses the changed text, then completes: both are measured.
    const items = completePlan(PlanDocument.parse(text), offset, catalog);
    completion.push(performance.now() - started);
    check(items.length > 0, 'completion offers items');
  }
  samples['completionMs'] = completion;
  medians['completionMs'] = median(completion);
  medians['completionP95Ms'] = percentile(completion, 0.95);
  const ratio = Math.max(...ratios);
  const line =
    `(f) plan validation, ${rounds} interleaved rounds of ${CALLS_PER_ROUND} calls a side: ${lines.join('; ')} → worst ${ratioText(ratio)} ${targetText(ratio, TARGET)}; ` +
    `completion on the 1,000-tool plan (parse + complete, ${attempts} requests): median ${ms(medians['completionMs'])}, p95 ${ms(medians['completionP95Ms'])}`;
  return {
    id: 'f',
    title: 'plan validation',
    line,
    ratio,
    target: TARGET,
    met: meetsTarget(ratio, TARGET),
    medians,
    samples,
    details: { rounds, callsPerRound: CALLS_PER_ROUND, sizes, completionRequests: attempts, skills: skills.length },
  };
}
