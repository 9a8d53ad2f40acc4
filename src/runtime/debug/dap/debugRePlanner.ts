// Re-planning under the debugger: when a tool's done asks for more context, the host's narrator (else the pattern narrator) writes more steps.
import type { RePlanner } from '../../executor/rePlanning.js';
import type { Plan } from '../../contractTypes/plan.js';
import type { Narrator } from '../../narrator/index.js';
import type { NarratorSkill } from '../../skills/skillTypes.js';
import { PatternNarrator } from '../../narrator/patternNarrator.js';
import { SkillRegistry } from '../../skills/skillRegistry.js';

export interface DebugRePlannerOptions {
  readonly root: string;
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** The narrator to ask (VS Code's current one); the pattern narrator when absent. */
  readonly narrator?: Narrator | undefined;
  /** The skills it may use; read from the story when absent. */
  readonly skills?: (() => readonly NarratorSkill[]) | undefined;
}

/**
 * A re-planner for a plan run under the debugger. A plan file has no player input, so the narrator is asked with
 * the plan's narrative (if any) and the re-planning context. Skills are read on first use only.
 */
export function debugRePlanner(plan: Plan, options: DebugRePlannerOptions): RePlanner {
  const narrator = options.narrator ?? new PatternNarrator();
  let skills = options.skills;
  return async (context) => {
    if (!skills) {
      const registry = await SkillRegistry.load({ root: options.root, extraSkillRoots: options.extraSkillRoots });
      const loaded = registry.narratorSkills();
      registry.dispose();
      skills = () => loaded;
    }
    const generated = await narrator.generatePlan({
      input: [plan.narrative, context.prompt].filter((part): part is string => typeof part === 'string' && part !== '').join('\n\n'),
      skills: skills(),
      disabledSkills: [...(plan.disabledSkills ?? [])],
      attempt: 1,
      parentPlanId: context.plan.requestId,
      signal: context.signal,
    });
    return generated.plan.tools;
  };
}
