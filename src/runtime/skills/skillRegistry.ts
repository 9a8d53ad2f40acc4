// The skill registry: discovered skills with enablement and health, typed change events, re-discovery, and the executor's SkillContextProvider.
import * as path from 'node:path';
import { Emitter, type Event } from '../common/event.js';
import type { Disposable } from '../common/disposable.js';
import type { ExecutionResult, ToolResult } from '../contractTypes/executionResult.js';
import { isPathInside } from '../common/pathContainment.js';
import { skillNameOfPath } from '../validation/toolPathPolicy.js';
import type { ConfigEnvironment, SecretLookup } from './skillConfig.js';
import { loadSkills, type LoadedSkill, type OverriddenSkill } from './skillDiscovery.js';
import { SkillHealthTracker, type HealthChange, type HealthStatus } from './skillHealth.js';
import { hasErrors } from './skillProblems.js';
import { missingInterpretersOf } from './skillHealthLabel.js';
import type { SkillContext, SkillContextProvider } from './skillContext.js';
import type { BrokenSkill, NarratorSkill, Skill, SkillHealth, SkillProblem } from './skillTypes.js';

/** Re-exported: the payload of {@link SkillRegistry.onDidChangeHealth}. */
export type { HealthChange } from './skillHealth.js';

/** Options of {@link SkillRegistry.load}. */
export interface SkillRegistryOptions {
  /** Story root: `<root>/skills` is searched first. */
  readonly root: string;
  /** Further skills roots (e.g. the bundled skills), after the story's. */
  readonly extraSkillRoots?: readonly string[] | undefined;
  /** Variables for `${VAR}` substitution and `x-env-var` (default: none). */
  readonly environment?: ConfigEnvironment | undefined;
  /** Source of sensitive values (VS Code SecretStorage in the extension). */
  readonly secrets?: SecretLookup | undefined;
  /** Skills the user has disabled (e.g. from settings). */
  readonly disabledSkills?: readonly string[] | undefined;
}

/** What a {@link SkillRegistry.refresh} changed, by skill name. */
export interface SkillsChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

/** A user enabled or disabled a skill. */
export interface SkillEnablementChange {
  readonly skill: string;
  readonly enabled: boolean;
}

/** Everything the UI shows about one skill. */
export interface SkillStatus {
  readonly skill: Skill;
  readonly enabled: boolean;
  readonly health: HealthStatus;
  /** False when the skill has an `error` problem (e.g. invalid config): it is then offered to no narrator. */
  readonly usable: boolean;
  /** A sentence per script whose interpreter is not on PATH: the skill is `degraded` (see skillHealthLabel.ts). */
  readonly missingInterpreters: readonly string[];
}

interface Entry extends LoadedSkill {
  /** The skill's content (including its effective config) as JSON, compared to detect changes on refresh; never exposed. */
  readonly fingerprint: string;
}

/**
 * Holds the skills of a story and the bundled roots. Health follows docs/design-rules.md#skill-health (see skillHealth.ts)
 * and is kept per session; user enablement is separate. Implements the executor's SkillContextProvider:
 * pass the registry as `skillContext` to executePlan, then give the result to {@link recordExecution}.
 */
export class SkillRegistry implements SkillContextProvider, Disposable {
  private entries: readonly Entry[] = [];
  private latestProblems: readonly SkillProblem[] = [];
  private latestOverridden: readonly OverriddenSkill[] = [];
  private latestBroken: readonly BrokenSkill[] = [];
  private readonly userDisabled: Set<string>;
  private readonly tracker = new SkillHealthTracker();
  private readonly skillsEmitter = new Emitter<SkillsChange>();
  private readonly enablementEmitter = new Emitter<SkillEnablementChange>();
  private refreshing: Promise<SkillsChange> | undefined;

  /** Fires once per health state change of a skill. */
  readonly onDidChangeHealth: Event<HealthChange> = this.tracker.onDidChangeHealth;
  /** Fires after a refresh that added, removed or changed skills. */
  readonly onDidChangeSkills: Event<SkillsChange> = this.skillsEmitter.event;
  /** Fires when {@link setEnabled} changes a skill's enablement. */
  readonly onDidChangeEnablement: Event<SkillEnablementChange> = this.enablementEmitter.event;

  private constructor(private readonly options: SkillRegistryOptions) {
    this.userDisabled = new Set(options.disabledSkills ?? []);
  }

  /** Discovers the skills and returns a registry holding them. Never throws for bad skills (see `problems`). */
  static async load(options: SkillRegistryOptions): Promise<SkillRegistry> {
    const registry = new SkillRegistry(options);
    const { entries, broken, problems, overridden } = await registry.discover();
    registry.entries = entries;
    registry.latestBroken = broken;
    registry.latestProblems = problems;
    registry.latestOverridden = overridden;
    return registry;
  }

  /** Loaded skills in discovery order (story root first, then extra roots; by directory name within a root). */
  get skills(): readonly Skill[] {
    return this.entries.map((entry) => entry.skill);
  }

  /** Every problem of the latest discovery, including skipped skills and each skill's own problems. */
  get problems(): readonly SkillProblem[] {
    return this.latestProblems;
  }

  /** Skills of a later root (the bundled ones) replaced by an earlier root's skill of the same name, in the latest discovery. */
  get overridden(): readonly OverriddenSkill[] {
    return this.latestOverridden;
  }

  /**
   * Skill folders of the latest discovery whose skill.json cannot be read, does not parse or does not validate:
   * they are not among {@link skills}, no narrator or plan can use them, and they are `unusable`.
   */
  get brokenSkills(): readonly BrokenSkill[] {
    return this.latestBroken;
  }

  /** The broken skill (see {@link brokenSkills}) whose folder is named `name`. */
  broken(name: string): BrokenSkill | undefined {
    return this.latestBroken.find((skill) => skill.name === name);
  }

  /** The loaded skill named `name`. */
  get(name: string): Skill | undefined {
    return this.entry(name)?.skill;
  }

  /** Health state of a known skill. */
  health(name: string): SkillHealth | undefined {
    return this.entry(name) ? this.tracker.health(name) : undefined;
  }

  /** True for a known skill the user has not disabled (health aside). */
  isEnabled(name: string): boolean {
    return this.entry(name) !== undefined && !this.userDisabled.has(name);
  }

  /** Enablement, health and usability of a known skill. */
  status(name: string): SkillStatus | undefined {
    const entry = this.entry(name);
    if (!entry) return undefined;
    return {
      skill: entry.skill,
      enabled: !this.userDisabled.has(name),
      health: this.tracker.status(name),
      usable: !hasErrors(entry.skill.problems),
      missingInterpreters: missingInterpretersOf(entry.skill.scripts),
    };
  }

  /**
   * Skills a narrator may use: enabled, usable, not in permanentFailure; by priority (highest first), then name.
   * A script whose interpreter is not on PATH is left out of its skill's scripts.
   */
  narratorSkills(): NarratorSkill[] {
    return this.entries
      .filter(({ skill }) => !this.userDisabled.has(skill.name) && !hasErrors(skill.problems) && this.tracker.health(skill.name) !== 'permanentFailure')
      .map(({ skill }) => toNarratorSkill(skill, this.tracker.health(skill.name)))
      .sort((left, right) => right.priority - left.priority || compareNames(left.name, right.name));
  }

  /**
   * Skills a plan must not use, sorted: user-disabled, in permanentFailure, or unusable because of an
   * `error` problem (a broken config or missing script).
   */
  disabledSkills(): string[] {
    return this.entries
      .map((entry) => entry.skill)
      .filter((skill) => this.userDisabled.has(skill.name) || hasErrors(skill.problems) || this.tracker.health(skill.name) === 'permanentFailure')
      .map((skill) => skill.name)
      .sort(compareNames);
  }

  /** Updates the health of the result's skill (see healthInputOf in skillHealth.ts); results of unknown skills are ignored. */
  recordResult(result: ToolResult): HealthChange | undefined {
    const name = this.skillOfResult(result);
    return name === undefined ? undefined : this.tracker.recordResult(name, result);
  }

  /** {@link recordResult} for every tool result of a run, in plan order; returns the health changes. */
  recordExecution(result: ExecutionResult): HealthChange[] {
    return result.toolResults.flatMap((toolResult) => this.recordResult(toolResult) ?? []);
  }

  /** Enables or disables a known skill (independent of health); returns false for an unknown skill. */
  setEnabled(name: string, enabled: boolean): boolean {
    if (!this.entry(name)) return false;
    if (enabled === !this.userDisabled.has(name)) return true;
    if (enabled) this.userDisabled.delete(name);
    else this.userDisabled.add(name);
    this.enablementEmitter.fire({ skill: name, enabled });
    return true;
  }

  /** Sets one skill's health (or every skill's) back to healthy with no failures counted. */
  resetHealth(name?: string): HealthChange[] {
    return this.tracker.reset(name);
  }

  /** A new session: every skill's health goes back to healthy (seed: permanentFailure --session restart--> healthy). */
  restartSession(): HealthChange[] {
    return this.tracker.restartSession();
  }

  /**
   * Re-discovers the skills (after files changed, or a secret or the environment changed). Unchanged
   * skills keep their health; changed skills start healthy again (the author may have fixed them);
   * removed ones are forgotten. Fires onDidChangeSkills when anything changed. Calls are serialized.
   */
  refresh(): Promise<SkillsChange> {
    const run = (this.refreshing ?? Promise.resolve()).then(() => this.refreshNow());
    this.refreshing = run.catch(() => ({ added: [], removed: [], changed: [] }));
    return run;
  }

  /** The SkillContextProvider port: the skill whose directory holds `scriptRealPath`, and its effective config. */
  async contextFor(scriptRealPath: string): Promise<SkillContext> {
    const entry = this.entryForScript(scriptRealPath);
    if (!entry) return { skill: null };
    const script = entry.skill.scripts.find((candidate) => candidate.path === scriptRealPath);
    return {
      skill: entry.skill.name,
      skillDirectory: entry.realDirectory,
      manifestTimeoutMs: script?.declared ? script.timeoutMs : undefined,
      configJson: entry.configJson,
      env: {},
    };
  }

  dispose(): void {
    this.tracker.dispose();
    this.skillsEmitter.dispose();
    this.enablementEmitter.dispose();
  }

  private async refreshNow(): Promise<SkillsChange> {
    const { entries, broken, problems, overridden } = await this.discover();
    this.latestOverridden = overridden;
    const before = new Map(this.entries.map((entry) => [entry.skill.name, entry]));
    const after = new Map(entries.map((entry) => [entry.skill.name, entry]));
    const added = [...after.keys()].filter((name) => !before.has(name));
    const removed = [...before.keys()].filter((name) => !after.has(name));
    const changed = [...after.keys()].filter((name) => before.has(name) && before.get(name)!.fingerprint !== after.get(name)!.fingerprint);
    this.entries = entries;
    this.latestBroken = broken;
    this.latestProblems = problems;
    for (const name of removed) this.tracker.forget(name);
    for (const name of changed) this.tracker.reset(name);
    const change: SkillsChange = { added, removed, changed };
    if (added.length + removed.length + changed.length > 0) this.skillsEmitter.fire(change);
    return change;
  }

  private async discover(): Promise<{ entries: Entry[]; broken: BrokenSkill[]; problems: SkillProblem[]; overridden: OverriddenSkill[] }> {
    const { loaded, broken, problems, overridden } = await loadSkills(this.options);
    const entries = loaded.map((entry) => ({
      ...entry,
      fingerprint: JSON.stringify([entry.skill, entry.realDirectory, entry.configJson]),
    }));
    return { entries, broken, problems, overridden };
  }

  private entry(name: string): Entry | undefined {
    return this.entries.find((entry) => entry.skill.name === name);
  }

  private entryForScript(scriptPath: string): Entry | undefined {
    let best: Entry | undefined;
    for (const entry of this.entries) {
      const inside = isPathInside(scriptPath, entry.realDirectory) || isPathInside(scriptPath, path.resolve(entry.skill.directory));
      if (inside && (!best || entry.realDirectory.length > best.realDirectory.length)) best = entry;
    }
    return best;
  }

  /** The result's skill: its `skill` field, else the skill owning its toolPath (by script or by skills/<name>/). */
  private skillOfResult(result: ToolResult): string | undefined {
    if (typeof result.skill === 'string' && this.entry(result.skill)) return result.skill;
    if (result.toolPath === undefined) return undefined;
    const owner = this.entries.find((entry) => entry.skill.scripts.some((script) => script.toolPath === result.toolPath));
    if (owner) return owner.skill.name;
    const byPath = skillNameOfPath(result.toolPath);
    return byPath !== null && this.entry(byPath) ? byPath : undefined;
  }
}

function toNarratorSkill(skill: Skill, health: SkillHealth): NarratorSkill {
  return {
    name: skill.name,
    displayName: skill.displayName,
    description: skill.description,
    capabilities: skill.capabilities,
    priority: skill.priority,
    health,
    ...(skill.prompt !== undefined ? { prompt: skill.prompt } : {}),
    ...(stringList(skill.manifest.keywords) ? { keywords: stringList(skill.manifest.keywords)! } : {}),
    scripts: skill.scripts
      .filter((script) => script.missingInterpreter === undefined)
      .map((script) => {
        const examples = stringList(skill.manifest.scripts?.find((declared) => declared.name === script.name)?.examples);
        return {
          name: script.name,
          toolPath: script.toolPath,
          ...(script.description !== undefined ? { description: script.description } : {}),
          ...(script.inputSchema !== undefined ? { inputSchema: script.inputSchema } : {}),
          ...(examples ? { examples } : {}),
        };
      }),
  };
}

function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The strings of an optional manifest list (undefined when absent or not a list of strings). */
function stringList(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}
