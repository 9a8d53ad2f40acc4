// What the played turns did with the skills: selections, script runs, durations, failures, events and ui events emitted, inputs given, state keys written. Feeds explore's report.
import type { ToolEvent } from '../contractTypes/toolEvent.js';
import type { Skill } from '../skills/skillTypes.js';
import type { TurnResult } from '../session/turnTypes.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';
import { hasLineCoverage } from './v8CoverageCollector.js';
import type { ScriptSkillCoverage, SkillCoverageData } from './coverageTypes.js';

/** The protocol's event types (contracts/tool-event.schema.json). */
export const PROTOCOL_EVENT_TYPES = ['log', 'state_patch', 'asset', 'ui_event', 'error', 'done'] as const;

/** Durations kept per script for its percentiles: enough for exact figures up to this many runs, bounded after. */
const DURATION_SAMPLE = 10_000;

interface ScriptUsage {
  runs: number;
  failures: number;
  readonly durations: number[];
  readonly eventTypes: Set<string>;
  readonly uiEvents: Set<string>;
  readonly inputProperties: Set<string>;
}

/** A script of the story, by its skill and name ("dice-roller/roll"). */
export interface KnownScript {
  readonly id: string;
  readonly skill: string;
  readonly name: string;
  readonly toolPath: string;
  readonly file: string;
  readonly declared: boolean;
  readonly inputProperties: readonly string[];
}

export function knownScripts(skills: readonly Skill[]): KnownScript[] {
  return skills.flatMap((skill) =>
    skill.scripts.map((script) => ({
      id: `${skill.name}/${script.name}`,
      skill: skill.name,
      name: script.name,
      toolPath: script.toolPath,
      file: script.path,
      declared: script.declared,
      inputProperties: Object.keys((script.inputSchema?.['properties'] as Record<string, unknown> | undefined) ?? {}).sort(),
    })),
  );
}

/** The p-th percentile (0-100) of a sample, nearest rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The top-level keys of a patch, and the keys one level down ("dice", "dice.lastRoll"). */
function patchKeys(patch: unknown): string[] {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return [];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0)
      for (const inner of Object.keys(value)) keys.push(`${key}.${inner}`);
    else keys.push(key);
  }
  return keys;
}

export class SkillUsage {
  private readonly byToolPath = new Map<string, KnownScript>();
  private readonly scripts = new Map<string, ScriptUsage>();
  private readonly selected = new Map<string, number>();
  private readonly stateKeys = new Map<string, Set<string>>();

  constructor(readonly known: readonly KnownScript[]) {
    for (const script of known) this.byToolPath.set(script.toolPath, script);
  }

  private usage(id: string): ScriptUsage {
    let found = this.scripts.get(id);
    if (!found) {
      found = { runs: 0, failures: 0, durations: [], eventTypes: new Set(), uiEvents: new Set(), inputProperties: new Set() };
      this.scripts.set(id, found);
    }
    return found;
  }

  /** The script a plan's toolPath names: the story's, or one named by its skill and file (undefined for a sub-plan or an unknown path). */
  scriptOf(toolPath: string | undefined, skill?: string | null): KnownScript | undefined {
    if (!toolPath) return undefined;
    const known = this.byToolPath.get(toolPath);
    if (known) return known;
    const name = skill ?? skillNameOfPath(toolPath);
    return this.known.find((script) => script.skill === name && (toolPath.endsWith(script.toolPath) || script.file.endsWith(toolPath.replace(/^\.?\//, ''))));
  }

  /** Counts one played turn: every attempt's plan and tool results. */
  recordTurn(result: TurnResult): void {
    for (const attempt of result.attempts) {
      const plan = attempt.result.finalPlan ?? attempt.plan;
      const skills = new Set<string>();
      const inputs = new Map<string, Record<string, unknown>>();
      for (const tool of plan.tools) {
        const skill = skillNameOfPath(tool.toolPath) ?? this.scriptOf(tool.toolPath)?.skill;
        if (skill) skills.add(skill);
        inputs.set(tool.toolId, (tool.input ?? {}) as Record<string, unknown>);
      }
      for (const skill of skills) this.selected.set(skill, (this.selected.get(skill) ?? 0) + 1);
      for (const tool of attempt.result.toolResults) {
        if (tool.state === 'skipped' || tool.state === 'cancelled') continue;
        const script = this.scriptOf(tool.toolPath, tool.skill);
        if (!script) continue;
        const usage = this.usage(script.id);
        usage.runs++;
        if (tool.state === 'failed' || tool.state === 'timeout') usage.failures++;
        if (usage.durations.length < DURATION_SAMPLE) usage.durations.push(tool.executionTimeMs ?? 0);
        else usage.durations[usage.runs % DURATION_SAMPLE] = tool.executionTimeMs ?? 0;
        for (const key of Object.keys(inputs.get(tool.toolId) ?? {})) usage.inputProperties.add(key);
        for (const event of tool.events ?? []) this.recordEvent(script, usage, event, tool.state === 'success');
      }
    }
  }

  private recordEvent(script: KnownScript, usage: ScriptUsage, event: ToolEvent, succeeded: boolean): void {
    usage.eventTypes.add(event.type);
    if (event.type === 'ui_event' && typeof event.event === 'string') usage.uiEvents.add(event.event);
    if (event.type === 'state_patch' && succeeded) {
      let keys = this.stateKeys.get(script.skill);
      if (!keys) this.stateKeys.set(script.skill, (keys = new Set()));
      for (const key of patchKeys(event.patch)) keys.add(key);
    }
  }

  /** How many attempts' plans selected the skill. */
  timesSelected(skill: string): number {
    return this.selected.get(skill) ?? 0;
  }

  /** Per script: runs, failures, durations, events, inputs (zero for scripts that never ran). */
  scriptUsage(id: string): {
    runs: number;
    failures: number;
    p50Ms: number;
    p95Ms: number;
    eventTypes: string[];
    uiEvents: string[];
    inputProperties: string[];
  } {
    const usage = this.scripts.get(id);
    if (!usage) return { runs: 0, failures: 0, p50Ms: 0, p95Ms: 0, eventTypes: [], uiEvents: [], inputProperties: [] };
    return {
      runs: usage.runs,
      failures: usage.failures,
      p50Ms: percentile(usage.durations, 50),
      p95Ms: percentile(usage.durations, 95),
      eventTypes: [...usage.eventTypes].sort(),
      uiEvents: [...usage.uiEvents].sort(),
      inputProperties: [...usage.inputProperties].sort(),
    };
  }

  /** State keys each skill wrote (successful tools' state_patch events), by skill, sorted. */
  stateKeysBySkill(): Record<string, string[]> {
    return Object.fromEntries([...this.stateKeys].sort(([left], [right]) => left.localeCompare(right)).map(([skill, keys]) => [skill, [...keys].sort()]));
  }

  /** Skill coverage: per skill, the scripts run out of those declared and the event types emitted; per script, the input properties given. */
  skillCoverage(skillNames: readonly string[]): SkillCoverageData[] {
    return [...skillNames].sort().map((skill) => {
      const scripts = this.known.filter((script) => script.skill === skill);
      const declared = scripts.filter((script) => script.declared);
      const details: ScriptSkillCoverage[] = scripts.map((script) => {
        const usage = this.scriptUsage(script.id);
        return {
          script: script.id,
          toolPath: script.toolPath,
          declared: script.declared,
          runs: usage.runs,
          eventTypes: usage.eventTypes,
          uiEvents: usage.uiEvents,
          inputProperties: { declared: script.inputProperties, given: usage.inputProperties },
          lineCoverage: hasLineCoverage(script.file),
        };
      });
      return {
        skill,
        selected: this.timesSelected(skill),
        scripts: { covered: declared.filter((script) => this.scriptUsage(script.id).runs > 0).length, total: declared.length },
        eventTypes: [...new Set(details.flatMap((detail) => detail.eventTypes))].sort(),
        scriptDetails: details,
      };
    });
  }
}
