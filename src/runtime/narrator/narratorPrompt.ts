// Writes the LLM narrator's system and user prompts: rules, a compact skill/script catalog and the skills' behavioral prompts (FR-004) within a budget. Pure text.
import type { NarratorSkill } from '../skills/skillTypes.js';
import type { PlanRequest } from './index.js';
import { selectableSkills, type PlanGrammar } from './planGrammar.js';

/** Size limits of the prompt, in characters. */
export interface NarratorPromptBudget {
  /** The whole system prompt; the behavioral prompts get what the rules and catalog leave (at least 1000). */
  readonly systemChars: number;
  /** At most this much of all behavioral prompts together (prompt.md texts), shared fairly between skills. */
  readonly behavioralPromptChars: number;
  /** The session state snapshot. */
  readonly stateChars: number;
  /** The feedback about a failed previous attempt. */
  readonly feedbackChars: number;
  /** The player's words. */
  readonly inputChars: number;
}

/**
 * Defaults of {@link NarratorPromptBudget}: a ~5000-character system prompt is ~1300 Phi-3.5 tokens, which with
 * the user message and up to 500 generated tokens fits the default 2048-token context.
 */
export const DEFAULT_PROMPT_BUDGET: NarratorPromptBudget = { systemChars: 5000, behavioralPromptChars: 3000, stateChars: 600, feedbackChars: 600, inputChars: 1000 };

/** The behavioral prompts always get at least this much, even with a long catalog. */
const MINIMUM_BEHAVIORAL_CHARS = 1000;

/** The two messages of a generation. */
export interface NarratorPrompt {
  readonly system: string;
  readonly user: string;
}

/** Builds the prompts for one plan request; the grammar says which scripts and tool ids exist. */
export function buildNarratorPrompt(request: PlanRequest, grammar: PlanGrammar, budget: NarratorPromptBudget = DEFAULT_PROMPT_BUDGET): NarratorPrompt {
  const skills = selectableSkills(request.skills, request.disabledSkills).filter((skill) => grammar.scripts.some((script) => script.skill === skill.name) || skill.prompt);
  const { maxTools, narrativeMaxLength } = grammar.limits;
  const rules = [
    'You are the narrator of an interactive story. Turn the player\'s words into a Plan JSON object: {"narrative", "tools"}.',
    `- "narrative": what the player sees now, at most ${narrativeMaxLength} characters. Never invent the result of a tool.`,
    `- "tools": the skill scripts to run, at most ${maxTools}; use [] when no script helps.`,
    `- Tools are named by position ("toolId": ${grammar.toolIds.slice(0, 3).join(', ')}…). Each has the script's "toolPath",`,
    '  an "input" object (null for fields you leave out), "dependencies" (earlier toolIds whose results it needs),',
    '  "required" (true when the plan fails without it) and "async" (true when it may run alongside others).',
    '- Only use the scripts listed below.',
  ];
  const catalog = grammar.scripts.length === 0 ? ['No scripts are available: answer with a narrative and "tools": [].'] : catalogLines(skills, grammar);
  const head = [...rules, '', 'Scripts:', ...catalog].join('\n');
  const guideChars = Math.min(budget.behavioralPromptChars, Math.max(MINIMUM_BEHAVIORAL_CHARS, budget.systemChars - head.length));
  const guides = behavioralPrompts(skills, guideChars);
  const system = guides.length > 0 ? [head, '', 'Skill guides:', ...guides].join('\n') : head;

  const user: string[] = [`Player: ${trimToBudget(request.input.trim(), budget.inputChars)}`];
  if (request.disabledSkills.length > 0) user.push(`Disabled skills (never use them): ${request.disabledSkills.join(', ')}`);
  if (request.attempt > 1) user.push(`This is attempt ${request.attempt}.`);
  if (request.feedback) user.push(`The previous plan failed: ${trimToBudget(request.feedback, budget.feedbackChars)}`);
  if (request.state && Object.keys(request.state).length > 0) user.push(`Story state: ${trimToBudget(JSON.stringify(request.state), budget.stateChars)}`);
  user.push('Answer with the Plan JSON only.');
  return { system, user: user.join('\n') };
}

function catalogLines(skills: readonly NarratorSkill[], grammar: PlanGrammar): string[] {
  const lines: string[] = [];
  for (const skill of skills) {
    const scripts = grammar.scripts.filter((script) => script.skill === skill.name);
    if (scripts.length === 0) continue;
    const caution = skill.health === 'degraded' ? ' [degraded: use only when needed]' : '';
    lines.push(`- ${skill.name} (${skill.displayName}): ${oneLine(skill.description, 160)}${caution}`);
    for (const script of scripts) {
      const input = script.inputFields === undefined ? 'a small object' : script.inputFields.length > 0 ? script.inputFields.join(', ') : '{}';
      const description = script.description ? ` ${oneLine(script.description, 160)}` : '';
      lines.push(`  * toolPath "${script.toolPath}", input: ${input}.${description}`);
    }
  }
  return lines;
}

/** The skills' prompt.md texts, highest priority first; short prompts keep their whole text, long ones share what is left. */
function behavioralPrompts(skills: readonly NarratorSkill[], totalChars: number): string[] {
  const withPrompts = skills.filter((skill) => skill.prompt && skill.prompt.trim() !== '').sort((a, b) => b.priority - a.priority);
  const allowance = new Map<string, number>();
  let remaining = totalChars;
  const bySize = [...withPrompts].sort((a, b) => (a.prompt?.length ?? 0) - (b.prompt?.length ?? 0));
  bySize.forEach((skill, index) => {
    const share = Math.floor(remaining / (bySize.length - index));
    const granted = Math.min(skill.prompt?.trim().length ?? 0, share);
    allowance.set(skill.name, granted);
    remaining -= granted;
  });
  return withPrompts
    .map((skill) => ({ skill, text: trimToBudget(skill.prompt?.trim() ?? '', allowance.get(skill.name) ?? 0) }))
    .filter(({ text }) => text !== '')
    .map(({ skill, text }) => `### ${skill.name}\n${text}`);
}

/** Cuts `text` to at most `budget` characters, at a paragraph or line break when one is near the end, marking the cut with "…". */
export function trimToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text;
  if (budget <= 1) return '';
  const head = text.slice(0, budget - 1);
  const cut = Math.max(head.lastIndexOf('\n\n'), head.lastIndexOf('\n'));
  return `${cut >= budget * 0.6 ? head.slice(0, cut).trimEnd() : head.trimEnd()}…`;
}

function oneLine(text: string, maxChars: number): string {
  return trimToBudget(text.replace(/\s+/g, ' ').trim(), maxChars);
}
