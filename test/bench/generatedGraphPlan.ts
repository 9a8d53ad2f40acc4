// Deterministic plans for the plan graph benchmark (g): N tools, 1.5·N dependencies on recent tools, seven skills, some badges; and one-character edits of a plan text.
import type { Plan, ToolInvocation } from '../../src/runtime/contractTypes/plan.js';
import { seededRandom } from './benchUtil.js';

/** The sample skills and their scripts (the toolPaths exist in skills/, so the plan also validates). */
const SCRIPTS: readonly (readonly [skill: string, script: string, idStem: string])[] = [
  ['dice-roller', 'roll', 'roll'],
  ['memory', 'recall', 'recall'],
  ['memory', 'store', 'remember'],
  ['storyteller', 'narrate', 'narrate'],
  ['npc-perception', 'query', 'perceive'],
  ['npc-perception', 'adjust', 'adjust-mood'],
  ['reputation', 'query', 'standing'],
  ['reputation', 'update', 'reputation'],
  ['character-portraits', 'portrait', 'portrait'],
  ['player-choices', 'offer', 'offer-choices'],
];

export interface GraphPlanOptions {
  readonly seed?: number;
  /** A tool depends only on tools at most this many places before it (default 40). */
  readonly window?: number;
  /** Dependencies per tool on average (default 1.5: `round(1.5·N)` edges in all). */
  readonly edgesPerTool?: number;
}

/**
 * A plan of exactly `toolCount` tools and `round(edgesPerTool·toolCount)` distinct dependency edges (for two or more
 * tools). Every tool after the first depends on one tool within `window` places before it, so the graph is one piece;
 * the remaining edges go to random tools, again on earlier tools within the window (acyclic by construction).
 * Tools spread over seven skills; every third is async, every seventh has a retryPolicy, every eleventh a timeoutMs.
 */
export function generatedGraphPlan(toolCount: number, options: GraphPlanOptions = {}): Plan {
  const random = seededRandom(options.seed ?? 11);
  const window = options.window ?? 40;
  const ids = Array.from({ length: toolCount }, (_, index) => `${SCRIPTS[index % SCRIPTS.length]![2]}-${index}`);
  const dependencies = ids.map(() => new Set<number>());
  const earlier = (index: number) => index - 1 - Math.floor(random() * Math.min(index, window));
  const wanted = toolCount < 2 ? 0 : Math.round((options.edgesPerTool ?? 1.5) * toolCount);
  // Each tool can have at most min(index, window) distinct dependencies: the target must fit.
  const possible = ids.reduce((sum, _, index) => sum + Math.min(index, window), 0);
  if (wanted > possible) throw new Error(`${wanted} edges do not fit in ${toolCount} tools with a window of ${window}`);
  let placed = 0;
  for (let index = 1; index < toolCount && placed < wanted; index++) {
    dependencies[index]!.add(earlier(index));
    placed += 1;
  }
  while (placed < wanted) {
    const index = 1 + Math.floor(random() * (toolCount - 1));
    const before = dependencies[index]!.size;
    dependencies[index]!.add(earlier(index));
    placed += dependencies[index]!.size - before;
  }
  const tools = ids.map((toolId, index): ToolInvocation => {
    const [skill, script] = SCRIPTS[index % SCRIPTS.length]!;
    return {
      toolId,
      toolPath: `skills/${skill}/scripts/${script}.js`,
      description: `Step ${index}: ${script} for the scene`,
      ...(dependencies[index]!.size > 0 ? { dependencies: [...dependencies[index]!].sort((a, b) => a - b).map((position) => ids[position]!) } : {}),
      ...(index % 3 === 0 ? { async: true } : {}),
      ...(index % 7 === 0 ? { retryPolicy: { maxRetries: 2, backoffMs: 200 } } : {}),
      ...(index % 11 === 0 ? { timeoutMs: 5_000 } : {}),
    };
  });
  return { requestId: '4c0e2f0a-9a43-4f7d-8e0b-5d2a1c3b7e61', narrative: `A generated plan of ${toolCount} tools.`, parallel: true, tools };
}

/** The number of dependency edges of `plan`. */
export function dependencyCount(plan: Plan): number {
  return plan.tools.reduce((sum, tool) => sum + (tool.dependencies?.length ?? 0), 0);
}

/**
 * `count` texts, each one character away from the one before it (the first from `text`, which is `plan` as
 * `JSON.stringify(plan, null, 2)`), all valid JSON: even steps change a letter of a tool's description, odd steps
 * alternately change the first letter of a toolId (its dependents then point at a missing tool, as mid-typing) and
 * change it back. Letters are replaced by letters, so every offset stays where it was in `text`.
 */
export function oneCharacterEdits(text: string, plan: Plan, count: number): string[] {
  const offsetOf = (search: string, index: number) => {
    const at = text.indexOf(search);
    if (at < 0) throw new Error(`the plan text has no ${search}`);
    return at + index;
  };
  // The letters of "scene" at the end of each description, and the first letter of each toolId.
  const descriptionLetters = plan.tools.flatMap((tool) =>
    [0, 1, 2, 3, 4].map((letter) => offsetOf(`"description": "${tool.description!}"`, `"description": "${tool.description!}`.length - 5 + letter)),
  );
  const toolIdLetters = plan.tools.map((tool) => offsetOf(`"toolId": "${tool.toolId}"`, '"toolId": "'.length));
  const texts: string[] = [];
  let current = text;
  let renamed: { at: number; original: string } | undefined;
  let descriptionEdits = 0;
  let toolIdEdits = 0;
  for (let step = 0; step < count; step++) {
    let at: number;
    let replacement: string;
    if (step % 2 === 0) {
      // One tool after another, a different letter of "scene" each time round.
      const tool = descriptionEdits % plan.tools.length;
      at = descriptionLetters[tool * 5 + (Math.floor(descriptionEdits / plan.tools.length) % 5)]!;
      descriptionEdits += 1;
      replacement = nextLetter(current[at]!, step);
    } else if (renamed) {
      ({ at, original: replacement } = renamed);
      renamed = undefined;
    } else {
      at = toolIdLetters[(toolIdEdits * 7 + 3) % plan.tools.length]!;
      toolIdEdits += 1;
      replacement = nextLetter(current[at]!, step);
      renamed = { at, original: current[at]! };
    }
    current = current.slice(0, at) + replacement + current.slice(at + 1);
    texts.push(current);
  }
  return texts;
}

/** Another lower-case letter than `letter` (which must be one). */
function nextLetter(letter: string, step: number): string {
  const code = letter.charCodeAt(0) - 97;
  if (code < 0 || code >= 26) throw new Error(`expected a letter a-z, found ${JSON.stringify(letter)}`);
  return String.fromCharCode(97 + ((code + 1 + (step % 25)) % 26));
}
