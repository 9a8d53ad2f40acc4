// From a JSON document (plan, run record or ExecutionResult) to a laid-out graph with its run states and structural problems.
import { buildPlanGraph } from './planGraph.js';
import { layoutPlanGraph, type LayoutOptions } from './graphLayout.js';
import { applyOverlay, overlayOfResults } from './runOverlay.js';
import { planOfResults, readGraphSource, type GraphSource } from './graphSource.js';
import type { PlanGraphLayout, PlanGraphModel } from './graphTypes.js';

/** A drawn document: the layout, what it was, and the problems that make the plan invalid as a graph. */
export interface GraphedDocument {
  readonly layout: PlanGraphLayout;
  readonly model: PlanGraphModel;
  readonly source: GraphSource;
  readonly problems: readonly string[];
  /** Things worth saying that do not make the plan invalid. */
  readonly notes: readonly string[];
}

export interface GraphDocumentOptions extends LayoutOptions {
  /** Finds the plan of an ExecutionResult that does not carry one (e.g. from the run record of its planId). */
  readonly planOfRun?: (planId: string) => unknown;
}

/** Lays out `document` (already parsed) and lays its recorded run over it. */
export function graphDocument(document: unknown, options: GraphDocumentOptions = {}): GraphedDocument {
  const source = readGraphSource(document);
  const problems: string[] = [];
  const notes: string[] = [];
  let plan = source.plan;
  if (source.kind === 'executionResult' && plan === undefined) {
    plan = options.planOfRun?.(source.result.planId);
    if (plan === undefined) {
      notes.push(`the ExecutionResult holds no plan and no run record of ${source.result.planId} was found: tools are drawn without their dependencies`);
      plan = planOfResults(source.results);
    }
  }
  const model = buildPlanGraph(plan);
  if (!hasToolsArray(plan)) problems.push('the document has no "tools" array');
  for (const cycle of model.cycles) problems.push(`dependency cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  for (const unknown of model.unknownDependencies) problems.push(`"${unknown.to}" depends on "${unknown.missing}", which no tool has as its toolId`);
  for (const duplicate of model.duplicateIds) problems.push(`toolId "${duplicate}" is used by more than one tool (only the first is drawn)`);
  let layout = layoutPlanGraph(model, options);
  if (source.kind !== 'plan') layout = applyOverlay(layout, overlayOfResults(source.results), source.kind === 'runRecord' && source.running);
  return { layout, model, source, problems, notes };
}

function hasToolsArray(plan: unknown): boolean {
  return typeof plan === 'object' && plan !== null && Array.isArray((plan as { tools?: unknown }).tools);
}
