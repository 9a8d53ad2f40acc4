// From a JSON document (plan, run record or ExecutionResult) to a laid-out graph with its run states and structural problems.
import { buildPlanGraph } from './planGraph.js';
import { layoutPlanGraph, type LayoutOptions } from './graphLayout.js';
import { applyOverlay, overlayOfResults } from './runOverlay.js';
import { planOfResults, readGraphSource, type GraphSource } from './graphSource.js';
import { buildRunTimeline, markCriticalPath } from './runTimeline.js';
import type { PlanGraphLayout, PlanGraphModel, RunTimeline, ScriptNames } from './graphTypes.js';

/** A document ready for layout: its graph model, what it was, and what is wrong with it. */
export interface PreparedGraph {
  readonly model: PlanGraphModel;
  readonly source: GraphSource;
  /** Structural problems that make the plan invalid as a graph (cycles, unknown dependencies, …), as sentences. */
  readonly problems: readonly string[];
  /** Things worth saying that do not make the plan invalid. */
  readonly notes: readonly string[];
}

/** A drawn document. */
export interface GraphedDocument extends PreparedGraph {
  readonly layout: PlanGraphLayout;
  /** The recorded run as a waterfall (run records and ExecutionResults with timing). */
  readonly timeline?: RunTimeline | undefined;
}

export interface GraphDocumentOptions extends LayoutOptions {
  /** Finds the plan of an ExecutionResult that does not carry one (e.g. from the run record of its planId). */
  readonly planOfRun?: ((planId: string) => unknown) | undefined;
  /** The canonical script of a toolPath that names one by an alias (see graphScriptNames.ts). */
  readonly scriptNames?: ScriptNames | undefined;
}

/** Reads `document` (already parsed) into a graph model, without laying it out. */
export function prepareGraph(document: unknown, planOfRun?: (planId: string) => unknown, scriptNames?: ScriptNames): PreparedGraph {
  const source = readGraphSource(document);
  const notes: string[] = [];
  let plan = source.plan;
  if (source.kind === 'executionResult' && plan === undefined) {
    plan = planOfRun?.(source.result.planId);
    if (plan === undefined) {
      notes.push(`the ExecutionResult holds no plan and no run record of ${source.result.planId} was found: tools are drawn without their dependencies`);
      plan = planOfResults(source.results);
    }
  }
  const model = buildPlanGraph(plan, scriptNames);
  return { model, source, problems: problemsOf(model, plan), notes };
}

/** Lays out `document` (already parsed) and lays its recorded run over it. */
export function graphDocument(document: unknown, options: GraphDocumentOptions = {}): GraphedDocument {
  const prepared = prepareGraph(document, options.planOfRun, options.scriptNames);
  return { ...prepared, ...withRun(layoutPlanGraph(prepared.model, options), prepared) };
}

/** Lays the recorded run of `prepared.source` (if any) over `layout`: states, and the critical path of its timeline. */
export function withRun(layout: PlanGraphLayout, prepared: Pick<PreparedGraph, 'model' | 'source'>): { layout: PlanGraphLayout; timeline?: RunTimeline } {
  const { source, model } = prepared;
  if (source.kind === 'plan') return { layout };
  const overlaid = applyOverlay(layout, overlayOfResults(source.results), source.kind === 'runRecord' && source.running);
  const timeline = buildRunTimeline(source.results, model.dependencies, source.result?.startedAt);
  if (!timeline) return { layout: overlaid };
  return { layout: markCriticalPath(overlaid, timeline.criticalPath), timeline };
}

/** The structural problems `narratoria graph` reports (exit 1), as sentences. */
export function problemsOf(model: PlanGraphModel, plan: unknown): string[] {
  const problems: string[] = [];
  if (!(typeof plan === 'object' && plan !== null && Array.isArray((plan as { tools?: unknown }).tools))) problems.push('the document has no "tools" array');
  for (const cycle of model.cycles) problems.push(`dependency cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  for (const unknown of model.unknownDependencies) problems.push(`"${unknown.to}" depends on "${unknown.missing}", which no tool has as its toolId`);
  for (const duplicate of model.duplicateIds) problems.push(`toolId "${duplicate}" is used by more than one tool (only the first is drawn)`);
  return problems;
}
