// Colours of the graph by role: one per skill (stable hash), per run state, and the theme defaults of the standalone SVG.
import type { GraphNodeState } from './graphTypes.js';

/** How many skill colours there are (`--graph-skill-0` … `--graph-skill-7`). */
export const SKILL_COLOUR_COUNT = 8;

/** The skill's colour slot: a stable hash of its name, so a skill keeps its colour in every plan. */
export function skillColourIndex(skill: string | null): number {
  if (!skill) return SKILL_COLOUR_COUNT - 1;
  let hash = 2166136261;
  for (let index = 0; index < skill.length; index++) {
    hash ^= skill.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % (SKILL_COLOUR_COUNT - 1);
}

/**
 * A colour slot for each skill of a plan: its hash slot, or the next free one when another skill has it, so up to
 * seven skills of one plan never share a colour. Skills are placed in name order, so the result is deterministic.
 */
export function assignSkillColours(skills: Iterable<string | null>): Map<string | null, number> {
  const colours = new Map<string | null, number>([[null, SKILL_COLOUR_COUNT - 1]]);
  const taken = new Set<number>();
  for (const skill of [...new Set(skills)].filter((name): name is string => name !== null).sort()) {
    let slot = skillColourIndex(skill);
    for (let tries = 0; taken.has(slot) && tries < SKILL_COLOUR_COUNT - 1; tries++) slot = (slot + 1) % (SKILL_COLOUR_COUNT - 1);
    taken.add(slot);
    if (taken.size >= SKILL_COLOUR_COUNT - 1) taken.clear();
    colours.set(skill, slot);
  }
  return colours;
}

/** The CSS custom property of a state's colour (the view maps them to VS Code's theme colours). */
export function stateColourVariable(state: GraphNodeState): string {
  return `--graph-state-${state}`;
}

/** Words a screen reader says for a state. */
export const STATE_LABELS: Readonly<Record<GraphNodeState, string>> = {
  pending: 'pending',
  running: 'running',
  retrying: 'retrying',
  success: 'succeeded',
  failed: 'failed',
  timeout: 'timed out',
  skipped: 'skipped',
  cancelled: 'cancelled',
  rolledBack: 'rolled back',
};

/** Defaults of the standalone SVG (light, then dark); override any `--graph-*` variable to theme it. */
export const SVG_THEMES = {
  light: {
    '--graph-background': '#ffffff',
    '--graph-foreground': '#1f2328',
    '--graph-muted': '#59636e',
    '--graph-node': '#f6f8fa',
    '--graph-border': '#a9b1ba',
    '--graph-edge': '#6e7781',
    '--graph-error': '#cf222e',
    '--graph-band': '#0969da0d',
    '--graph-badge': '#eaeef2',
    '--graph-skill-0': '#1f6feb',
    '--graph-skill-1': '#1a7f37',
    '--graph-skill-2': '#9a6700',
    '--graph-skill-3': '#bc4c00',
    '--graph-skill-4': '#8250df',
    '--graph-skill-5': '#bf3989',
    '--graph-skill-6': '#0e7c86',
    '--graph-skill-7': '#6e7781',
    '--graph-state-pending': '#8c959f',
    '--graph-state-running': '#0969da',
    '--graph-state-retrying': '#bf8700',
    '--graph-state-success': '#1a7f37',
    '--graph-state-failed': '#cf222e',
    '--graph-state-timeout': '#bc4c00',
    '--graph-state-skipped': '#8c959f',
    '--graph-state-cancelled': '#8c959f',
    '--graph-state-rolledBack': '#8250df',
    '--graph-play-done': '#1a7f37',
    '--graph-play-active': '#0969da',
    '--graph-play-reachable': '#9a6700',
    '--graph-play-skipped': '#8c959f',
  },
  dark: {
    '--graph-background': '#0d1117',
    '--graph-foreground': '#e6edf3',
    '--graph-muted': '#9198a1',
    '--graph-node': '#161b22',
    '--graph-border': '#484f58',
    '--graph-edge': '#8b949e',
    '--graph-error': '#ff7b72',
    '--graph-band': '#388bfd14',
    '--graph-badge': '#21262d',
    '--graph-skill-0': '#58a6ff',
    '--graph-skill-1': '#3fb950',
    '--graph-skill-2': '#d29922',
    '--graph-skill-3': '#f0883e',
    '--graph-skill-4': '#bc8cff',
    '--graph-skill-5': '#ff7ab8',
    '--graph-skill-6': '#39c5cf',
    '--graph-skill-7': '#8b949e',
    '--graph-state-pending': '#6e7681',
    '--graph-state-running': '#58a6ff',
    '--graph-state-retrying': '#d29922',
    '--graph-state-success': '#3fb950',
    '--graph-state-failed': '#ff7b72',
    '--graph-state-timeout': '#f0883e',
    '--graph-state-skipped': '#6e7681',
    '--graph-state-cancelled': '#6e7681',
    '--graph-state-rolledBack': '#bc8cff',
    '--graph-play-done': '#3fb950',
    '--graph-play-active': '#58a6ff',
    '--graph-play-reachable': '#d29922',
    '--graph-play-skipped': '#8b949e',
  },
} as const;
