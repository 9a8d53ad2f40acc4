// Converts runtime turn records, results and skill health into the play panel's view types (assets resolved to webview URIs).
import { nearMissesOf, nearMissLine, selectionLines, selectionOf } from '../../runtime/narrator/planExplanation.js';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { layoutPlanGraph } from '../../runtime/graph/graphLayout.js';
import type { PlanGraphLayout } from '../../runtime/graph/graphTypes.js';
import { buildPlanGraph } from '../../runtime/graph/planGraph.js';
import type { AssetReference, ExecutionResult, ToolResult } from '../../runtime/contractTypes/executionResult.js';
import type { Plan } from '../../runtime/contractTypes/plan.js';
import type { AttemptLogEntry, TurnResult } from '../../runtime/session/turnTypes.js';
import type { TurnRecord } from '../../runtime/session/playSession.js';
import {
  INLINE_GRAPH_MAX_TOOLS,
  type AssetView,
  type AttemptView,
  type ToolErrorView,
  type SkillSummaryView,
  type ToolRunView,
  type TurnView,
} from '../../protocol/playPanelMessages.js';
import { BROKEN_SKILL_LABEL, healthLabelOf, healthReasonOf } from '../../runtime/skills/skillHealthLabel.js';
import { brokenSkillReason } from '../../runtime/skills/skillProblems.js';
import type { SkillsService } from '../skills/skillsService.js';

/** Turns a file path into a webview URI string, or undefined when it may not be shown (outside the allowed roots). */
export type AssetUriResolver = (file: string) => string | undefined;

const SHOWN_MEDIA = /^(image|audio|video)\//;

/** Resolves an asset for the webview: a URI when the file exists inside an allowed root and can be shown; otherwise the reason. */
export function assetView(asset: AssetReference, root: string, resolveUri: AssetUriResolver): AssetView {
  const base = { assetId: asset.assetId, kind: asset.kind, mediaType: asset.mediaType, path: asset.path, ...(asset.toolId ? { toolId: asset.toolId } : {}) };
  if (!SHOWN_MEDIA.test(asset.mediaType)) return { ...base, unavailableReason: `${asset.mediaType} cannot be shown in the story view` };
  const file = path.resolve(root, asset.path);
  if (!existsSync(file)) return { ...base, unavailableReason: 'the file no longer exists' };
  const uri = resolveUri(file);
  return uri ? { ...base, uri } : { ...base, unavailableReason: 'the file is outside the story and its skills folders' };
}

/** Layouts by plan object: a plan is never changed once generated, and snapshots ask again for the same turns. */
const graphsByPlan = new WeakMap<Plan, PlanGraphLayout | null>();

/**
 * The plan laid out for the tool panel's inline graph; undefined when it has no tools or more than
 * INLINE_GRAPH_MAX_TOOLS (the webview then says it is too big to draw inline).
 */
export function attemptGraph(plan: Plan): PlanGraphLayout | undefined {
  const tools = Array.isArray(plan.tools) ? plan.tools.length : 0;
  if (tools === 0 || tools > INLINE_GRAPH_MAX_TOOLS) return undefined;
  let layout = graphsByPlan.get(plan);
  if (layout === undefined) {
    try {
      layout = layoutPlanGraph(buildPlanGraph(plan));
    } catch {
      // The graph only illustrates the attempt: a layout that fails must not stop the turn or its messages.
      layout = null;
    }
    graphsByPlan.set(plan, layout);
  }
  return layout ?? undefined;
}

/** What to include in a turn's view. */
export interface TurnViewOptions {
  /** Lay out each attempt's plan for the inline graph (only the turn the tool panel shows needs it); default true. */
  readonly graphs?: boolean;
}

/** The attempts of a finished turn. */
export function attemptViews(result: TurnResult, options: TurnViewOptions = {}): AttemptView[] {
  return result.attempts.map((attempt) =>
    withGraph(
      {
        attempt: attempt.attempt,
        planId: attempt.plan.requestId,
        narrator: attempt.narrator,
        ...(attempt.fallbackReason ? { fallbackReason: attempt.fallbackReason } : {}),
        outcome: attempt.outcome,
        failedTools: attempt.result.failedTools,
        disabledSkills: attempt.disabledSkills,
        tools: attempt.plan.tools.map((tool) => tool.toolId),
        ...(selectionOf(attempt.plan) ? { explanation: selectionLines(attempt.plan) } : {}),
        ...(nearMissesOf(attempt.plan).length > 0 ? { nearMisses: nearMissesOf(attempt.plan).map(nearMissLine) } : {}),
      },
      options.graphs === false ? undefined : attemptGraph(attempt.plan),
    ),
  );
}

function withGraph(view: AttemptView, graph: PlanGraphLayout | undefined): AttemptView {
  return graph ? { ...view, graph } : view;
}

/** An attempt as the attempt log reports it (live, before the turn ends). */
export function attemptViewOfLog(entry: AttemptLogEntry, tools: readonly string[]): AttemptView {
  return {
    attempt: entry.attempt,
    planId: entry.planId,
    narrator: entry.narrator,
    ...(entry.fallbackReason ? { fallbackReason: entry.fallbackReason } : {}),
    outcome: entry.outcome,
    failedTools: entry.failedTools,
    disabledSkills: entry.disabledSkills,
    tools,
  };
}

/** Failed tools of every attempt, with their error, for the inline notice. */
export function errorViews(result: TurnResult): ToolErrorView[] {
  return result.attempts.flatMap((attempt) => toolErrors(attempt.attempt, attempt.result));
}

function toolErrors(attempt: number, result: ExecutionResult): ToolErrorView[] {
  return result.toolResults
    .filter((tool) => tool.error && tool.state !== 'skipped' && tool.state !== 'success')
    .map((tool) => ({ attempt, toolId: tool.toolId, skill: tool.skill ?? null, category: tool.error!.category, message: tool.error!.message }));
}

/** The story view of a turn. `result` is known for turns played since the panel's controller started; saved turns have only the record. */
export function turnView(record: TurnRecord, root: string, resolveUri: AssetUriResolver, result?: TurnResult, options: TurnViewOptions = {}): TurnView {
  const attempts: AttemptView[] = result
    ? attemptViews(result, options)
    : record.attempts.map((attempt) => ({
        attempt: attempt.attempt,
        planId: attempt.planId,
        narrator: attempt.narrator,
        ...(attempt.fallbackReason ? { fallbackReason: attempt.fallbackReason } : {}),
        outcome: attempt.outcome as AttemptView['outcome'],
        failedTools: attempt.failedTools,
        disabledSkills: attempt.disabledSkills,
        tools: [],
      }));
  const errors = result
    ? errorViews(result)
    : record.attempts.flatMap((attempt) =>
        attempt.failedTools.map((toolId) => ({
          attempt: attempt.attempt,
          toolId,
          skill: null,
          category: 'failed',
          message: 'failed (the details of saved turns are in the plan-attempt log)',
        })),
      );
  return {
    index: record.index,
    input: record.input,
    narrative: record.narrative,
    choices: record.choices,
    fallback: record.fallback,
    cancelled: record.cancelled,
    narrator: record.narrator,
    disabledSkills: record.disabledSkills,
    ...(result?.disabledReasons ? { disabledReasons: result.disabledReasons } : {}),
    changedKeys: record.changedKeys,
    assets: record.assets.map((asset) => assetView(asset, root, resolveUri)),
    uiEvents: record.uiEvents.map((event) => ({ toolId: event.toolId, event: event.event, ...(event.payload ? { payload: event.payload } : {}) })),
    attempts,
    durationMs: record.durationMs,
    errors,
  };
}

/** A tool's final view from its result. */
export function finishedToolView(previous: ToolRunView | undefined, planId: string, attempt: number, result: ToolResult): ToolRunView {
  const status: ToolRunView['status'] = result.state;
  return {
    attempt,
    planId,
    toolId: result.toolId,
    skill: result.skill ?? previous?.skill ?? null,
    status,
    retries: result.retryCount ?? previous?.retries ?? 0,
    ...(result.executionTimeMs !== undefined ? { durationMs: result.executionTimeMs } : {}),
    logLines: previous?.logLines ?? [],
    ...(result.error
      ? { error: { category: result.error.category, message: result.error.message } }
      : result.skipReason
        ? { error: { category: 'skipped', message: `skipped: ${result.skipReason.replace(/_/g, ' ')}` } }
        : {}),
  };
}

/** The play panel's list of skills with their health, the skills whose skill.json does not load included. */
export function skillSummaryViews(skills: Pick<SkillsService, 'skills' | 'status' | 'brokenSkills' | 'root'>): SkillSummaryView[] {
  const loaded = skills.skills.map((skill): SkillSummaryView => {
    const status = skills.status(skill.name);
    const reason = status ? healthReasonOf(status) : '';
    return { name: skill.name, displayName: skill.displayName, health: status ? healthLabelOf(status) : 'healthy', ...(reason ? { reason } : {}) };
  });
  // A skill whose skill.json does not load is shown too, unusable, with where its manifest is broken.
  const broken = skills.brokenSkills.map(
    (skill): SkillSummaryView => ({
      name: skill.name,
      displayName: skill.name,
      health: BROKEN_SKILL_LABEL,
      reason: brokenSkillReason(skill, skills.root ?? skill.directory),
    }),
  );
  return [...loaded, ...broken];
}
