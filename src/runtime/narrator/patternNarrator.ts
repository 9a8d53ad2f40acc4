// The pattern narrator: deterministic intent rules that pick skills by capability and priority (FR-005 fallback).
import { randomUUID } from 'node:crypto';
import type { Plan, ToolInvocation } from '../model/plan.js';
import type { NarratorSkill } from '../skills/skillTypes.js';
import type { GeneratedPlan, Narrator, PlanRequest } from './index.js';
import { detectIntents, type Intent } from './intents.js';

/** A script picked for a step: the skill, its script and the tool id to use. */
interface Pick {
  readonly skill: NarratorSkill;
  readonly toolPath: string;
}

/**
 * Maps recognised intents to skills (by capability, highest priority first, never a disabled skill)
 * and builds a plan: the check roll first, then the narration depending on it, and so on. Input it
 * does not recognise gets a narrative-only plan.
 */
export class PatternNarrator implements Narrator {
  readonly kind = 'pattern' as const;

  async generatePlan(request: PlanRequest): Promise<GeneratedPlan> {
    const started = performance.now();
    const plan = buildPatternPlan(request);
    return { plan, narrator: 'pattern', generationMs: performance.now() - started };
  }

  async dispose(): Promise<void> {}
}

/** Builds the plan synchronously (exported for tests and benchmarks). */
export function buildPatternPlan(request: PlanRequest): Plan {
  const disabled = new Set(request.disabledSkills);
  const available = request.skills.filter((skill) => !disabled.has(skill.name));
  const intents = detectIntents(request.input);
  const tools: ToolInvocation[] = [];
  const used = new Set<string>();
  const add = (toolId: string, pick: Pick, input: Record<string, unknown>, extra: Partial<ToolInvocation> = {}): string => {
    let id = toolId;
    for (let suffix = 2; used.has(id); suffix++) id = `${toolId}${suffix}`;
    used.add(id);
    tools.push({ toolId: id, toolPath: pick.toolPath, input, ...extra });
    return id;
  };
  const narrate = (dependencies: string[], input: Record<string, unknown>) => {
    const storyteller = pickSkill(available, ['narration'], ['narrate']);
    if (storyteller) add('narrate', storyteller, input, dependencies.length > 0 ? { dependencies, required: true } : {});
  };

  const action = request.input.trim();
  const primary = intents[0];
  switch (primary?.kind) {
    case 'check': {
      const dice = pickSkill(available, ['dice', 'check'], ['roll']);
      const dependencies: string[] = [];
      if (dice) {
        dependencies.push(add('roll', dice, { formula: primary.formula ?? '1d20', reason: primary.subject, ...(primary.difficulty ? { dc: primary.difficulty } : {}) }));
      }
      narrate(dependencies, { action, ...(primary.subject ? { target: primary.subject } : {}) });
      break;
    }
    case 'look':
      narrate([], { action, ...(primary.subject ? { target: primary.subject } : {}) });
      break;
    case 'memory': {
      const memory = pickSkill(available, ['memory', 'recall'], ['recall']);
      const dependencies = memory ? [add('recall', memory, { query: primary.subject ?? action, limit: 5 }, { required: false })] : [];
      narrate(dependencies, { action });
      break;
    }
    case 'reputation': {
      const reputation = pickSkill(available, ['reputation', 'standing', 'faction'], ['query']);
      const dependencies = reputation ? [add('standing', reputation, primary.subject ? { faction: primary.subject } : {}, { required: false })] : [];
      narrate(dependencies, { action });
      break;
    }
    case 'talk': {
      const choices = pickSkill(available, ['choices', 'dialogue', 'decision'], ['offer']);
      narrate([], { action, ...(primary.subject ? { target: primary.subject } : {}) });
      if (choices) add('choices', choices, { situation: action, action }, { required: false, ...(used.has('narrate') ? { dependencies: ['narrate'] } : {}) });
      break;
    }
    case 'portrait': {
      const portrait = pickSkill(available, ['portrait', 'image'], ['portrait']);
      if (portrait) add('portrait', portrait, { name: primary.subject ?? 'stranger', description: action }, { required: false });
      narrate([], { action });
      break;
    }
    case 'perception': {
      const perception = pickSkill(available, ['perception', 'npc', 'social'], ['query']);
      const dependencies = perception ? [add('perception', perception, primary.subject ? { npc: primary.subject } : {}, { required: false })] : [];
      narrate(dependencies, { action });
      break;
    }
    case undefined:
      break;
  }
  return {
    requestId: randomUUID(),
    narrative: narrativeFor(primary, action),
    tools,
    parallel: false,
    disabledSkills: [...request.disabledSkills],
    metadata: { generationAttempt: request.attempt, parentPlanId: request.parentPlanId, narrator: 'pattern' },
  };
}

/** The best available skill with one of `capabilities` (priority, then name), and its preferred script. */
export function pickSkill(skills: readonly NarratorSkill[], capabilities: readonly string[], scriptNames: readonly string[]): Pick | undefined {
  const candidates = skills
    .filter((skill) => skill.scripts.length > 0 && skill.capabilities.some((capability) => capabilities.includes(capability)))
    .sort((left, right) => right.priority - left.priority || left.name.localeCompare(right.name));
  for (const skill of candidates) {
    const script = skill.scripts.find((candidate) => scriptNames.includes(candidate.name)) ?? skill.scripts[0];
    if (script) return { skill, toolPath: script.toolPath };
  }
  return undefined;
}

function narrativeFor(intent: Intent | undefined, action: string): string {
  const quoted = action.length > 120 ? `${action.slice(0, 117)}…` : action;
  switch (intent?.kind) {
    case 'check':
      return `You steady yourself and try your luck: "${quoted}".`;
    case 'look':
      return `You take in your surroundings.`;
    case 'memory':
      return `You search your memory.`;
    case 'reputation':
      return `You weigh how others regard you.`;
    case 'talk':
      return `You choose your words.`;
    case 'portrait':
      return `A likeness takes shape.`;
    case 'perception':
      return `You read the mood of those around you.`;
    case undefined:
      return `The story listens: "${quoted}".`;
  }
}
