// Prompt text helpers of the LLM narrator: the skills' behavioral prompts (docs/design-rules.md#behavioral-prompts) shared within a budget, and text cut to a budget. Pure text.
import type { NarratorSkill } from '../skills/skillTypes.js';

/** The skills' prompt.md texts, highest priority first; short prompts keep their whole text, long ones share what is left. */
export function behavioralPrompts(skills: readonly NarratorSkill[], totalChars: number): string[] {
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

export function oneLine(text: string, maxChars: number): string {
  return trimToBudget(text.replace(/\s+/g, ' ').trim(), maxChars);
}
