// Owns the story's SkillRegistry inside VS Code: loading, file watching, enablement memory and context keys. No UI.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExecutionResult } from '../../runtime/contractTypes/executionResult.js';
import type { SkillContext, SkillContextProvider } from '../../runtime/skills/skillContext.js';
import { createSkillCatalog, type SkillCatalog } from '../../runtime/skills/skillCatalog.js';
import { SkillRegistry, type HealthChange, type SkillStatus } from '../../runtime/skills/skillRegistry.js';
import type { BrokenSkill, NarratorSkill, Skill, SkillProblem } from '../../runtime/skills/skillTypes.js';
import type { SkillSource } from '../../runtime/session/turnRunner.js';
import type { NarratoriaSettings } from '../settings.js';
import { createSecretLookup } from './skillSecrets.js';
import { brokenSkillReason } from '../../runtime/skills/skillProblems.js';
import { isPathInside } from '../../runtime/common/pathContainment.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

const DISABLED_SKILLS_KEY = 'narratoria.disabledSkills';
const REFRESH_DELAY_MS = 300;

/** A skill's most recent tool error, for the tree's tooltip. */
export interface SkillLastError {
  readonly category: string;
  readonly message: string;
  readonly at: string;
}

export interface SkillsServiceOptions {
  /** The story root (the workspace folder), or undefined when no folder is open. */
  readonly root: string | undefined;
  /** The extension's own sample skills folder. */
  readonly sampleSkillsDirectory: string;
  readonly settings: () => NarratoriaSettings;
  readonly workspaceState: vscode.Memento;
  readonly secrets: vscode.SecretStorage;
  readonly log: vscode.LogOutputChannel;
}

/**
 * The extension's single source of skills. It stands in for the registry wherever the runtime asks for a
 * SkillSource or SkillContextProvider, so a reload (settings changed) never strands a play session on a
 * stale registry. Health lives in the registry; user enablement is remembered per workspace.
 */
export class SkillsService implements SkillSource, SkillContextProvider, vscode.Disposable {
  private registry: SkillRegistry | undefined;
  private readonly registryListeners = new DisposableStore();
  private loading: Promise<SkillRegistry | undefined> | undefined;
  private readonly watchers = new DisposableStore();
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly healthEmitter = new vscode.EventEmitter<HealthChange>();
  private readonly lastErrors = new Map<string, SkillLastError>();
  private cachedCatalog: SkillCatalog | undefined;

  /** Fires when the skills, their problems, enablement or health changed (the tree redraws). */
  readonly onDidChangeSkills = this.changeEmitter.event;
  /** Fires once per health change during play. */
  readonly onDidChangeHealth = this.healthEmitter.event;

  constructor(private readonly options: SkillsServiceOptions) {}

  get root(): string | undefined {
    return this.options.root;
  }

  /** True once the first discovery finished. */
  get loaded(): boolean {
    return this.registry !== undefined;
  }

  get skills(): readonly Skill[] {
    return this.registry?.skills ?? [];
  }

  /** Every problem of the latest discovery: those of loaded skills, of broken skills, and of skipped directories. */
  get problems(): readonly SkillProblem[] {
    return this.registry?.problems ?? [];
  }

  /** Skill folders whose skill.json cannot be read, does not parse or does not validate (unusable; not in `skills`). */
  get brokenSkills(): readonly BrokenSkill[] {
    return this.registry?.brokenSkills ?? [];
  }

  /** Why each broken skill is broken, by folder name (for playtests that name one): see brokenSkillReason. */
  brokenSkillReasons(): ReadonlyMap<string, string> {
    const root = this.options.root;
    return new Map(this.brokenSkills.map((skill) => [skill.name, brokenSkillReason(skill, root ?? skill.directory)] as const));
  }

  status(name: string): SkillStatus | undefined {
    return this.registry?.status(name);
  }

  /** The skills and scripts with their health and enablement, for plan validation and the editor (rebuilt after each change). */
  catalog(): SkillCatalog {
    this.cachedCatalog ??= createSkillCatalog(this.skills, (name) => {
      const status = this.registry?.status(name);
      return status ? { health: status.health.state, enabled: status.enabled } : undefined;
    });
    return this.cachedCatalog;
  }

  /** Whether `skill` comes from the story's own skills folder (not an extra root or the samples). */
  isStorySkill(skill: Skill): boolean {
    const root = this.options.root;
    return root !== undefined && isPathInside(skill.directory, path.join(root, 'skills'));
  }

  /** Skills roots besides the story's own `skills/`. */
  extraSkillRoots(): string[] {
    const settings = this.options.settings();
    return [...settings.skillLocations, ...(settings.includeSampleSkills ? [this.options.sampleSkillsDirectory] : [])];
  }

  /** Folders outside skills/ whose scripts plans may run (`narratoria.allowedToolRoots`; none in an untrusted workspace). */
  allowedToolRoots(): string[] {
    return [...this.options.settings().allowedToolRoots];
  }

  /** Loads the registry once (later calls share the load). */
  ready(): Promise<SkillRegistry | undefined> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** Re-reads settings and rediscovers everything (a new registry; health starts over). Reloads run one after another. */
  async reload(): Promise<void> {
    const previous = this.loading ?? Promise.resolve(undefined);
    this.loading = previous.catch(() => undefined).then(() => this.load());
    await this.loading;
    this.watch();
  }

  /** Rediscovers skills after files changed; unchanged skills keep their health. */
  async refresh(): Promise<void> {
    await this.ready();
    const registry = this.registry;
    if (!registry) return;
    const change = await registry.refresh();
    if (change.added.length + change.removed.length + change.changed.length > 0) {
      this.options.log.info(`skills refreshed: ${describeChange(change)}`);
    }
    this.changed();
  }

  setEnabled(name: string, enabled: boolean): boolean {
    return this.registry?.setEnabled(name, enabled) ?? false;
  }

  resetHealth(name?: string): void {
    this.registry?.resetHealth(name);
    if (name === undefined) this.lastErrors.clear();
    else this.lastErrors.delete(name);
    this.changed();
  }

  // SkillSource (the turn runner) and SkillContextProvider (the executor), delegated to the current registry.
  narratorSkills(): readonly NarratorSkill[] {
    return this.registry?.narratorSkills() ?? [];
  }
  disabledSkills(): readonly string[] {
    return this.registry?.disabledSkills() ?? [];
  }
  recordExecution(result: ExecutionResult): void {
    if (!this.registry) return;
    this.registry.recordExecution(result);
    for (const tool of result.toolResults) {
      const skill = tool.skill;
      if (!skill) continue;
      if (tool.state === 'success') this.lastErrors.delete(skill);
      else if (tool.error)
        this.lastErrors.set(skill, { category: tool.error.category, message: tool.error.message, at: tool.finishedAt ?? new Date().toISOString() });
    }
    this.changed();
  }

  /** The last error of a skill's tools this session (cleared by a success, a reset or a restart). */
  lastError(name: string): SkillLastError | undefined {
    return this.lastErrors.get(name);
  }
  restartSession(): void {
    this.registry?.restartSession();
    this.lastErrors.clear();
    this.changed();
  }
  async contextFor(scriptRealPath: string): Promise<SkillContext> {
    const registry = await this.ready();
    return registry ? registry.contextFor(scriptRealPath) : { skill: null };
  }

  /** Watches the story's skills folder and the extra roots (again after a reload, as the roots may have changed). */
  watch(): void {
    this.watchers.clear();
    const roots = [
      this.options.root ? vscode.Uri.joinPath(vscode.Uri.file(this.options.root), 'skills') : undefined,
      ...this.extraSkillRoots().map((root) => vscode.Uri.file(root)),
    ];
    for (const root of roots) {
      if (!root) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
      const schedule = (uri: vscode.Uri): void => {
        // Skills write their own <skill>/data/ while they run: those changes are not edits of the skill.
        if (path.relative(root.fsPath, uri.fsPath).split(path.sep)[1] === 'data') return;
        this.scheduleRefresh();
      };
      this.watchers.addAll(watcher, watcher.onDidCreate(schedule), watcher.onDidChange(schedule), watcher.onDidDelete(schedule));
    }
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.watchers.dispose();
    this.registryListeners.dispose();
    this.registry?.dispose();
    this.changeEmitter.dispose();
    this.healthEmitter.dispose();
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refresh().catch((error: unknown) => this.options.log.error(`refreshing skills failed: ${String(error)}`));
    }, REFRESH_DELAY_MS);
  }

  private async load(): Promise<SkillRegistry | undefined> {
    const root = this.options.root;
    if (root === undefined) {
      await this.setContext(false);
      return undefined;
    }
    const started = performance.now();
    const registry = await SkillRegistry.load({
      root,
      extraSkillRoots: this.extraSkillRoots(),
      environment: process.env,
      secrets: createSecretLookup(this.options.secrets, root),
      disabledSkills: this.options.workspaceState.get<string[]>(DISABLED_SKILLS_KEY, []),
    });
    this.registryListeners.clear();
    this.registry?.dispose();
    this.registry = registry;
    this.registryListeners.addAll(
      registry.onDidChangeHealth((change) => {
        this.options.log.info(`skill ${change.skill}: ${change.previous} → ${change.current}${change.toolId ? ` (tool ${change.toolId})` : ''}`);
        this.healthEmitter.fire(change);
        // No changed() here: every path that changes health (recordExecution, resetHealth, restartSession) fires it once.
      }),
      registry.onDidChangeEnablement((change) => {
        // Merged with the remembered names, so a skill that is missing right now (broken manifest, other root) stays disabled.
        const remembered = new Set(this.options.workspaceState.get<string[]>(DISABLED_SKILLS_KEY, []));
        if (change.enabled) remembered.delete(change.skill);
        else remembered.add(change.skill);
        void this.options.workspaceState.update(DISABLED_SKILLS_KEY, [...remembered].sort());
        this.options.log.info(`skill ${change.skill} ${change.enabled ? 'enabled' : 'disabled'}`);
        this.changed();
      }),
    );
    this.options.log.info(
      `found ${registry.skills.length} skill(s) in ${Math.round(performance.now() - started)} ms${registry.problems.length ? ` with ${registry.problems.length} problem(s)` : ''}`,
    );
    for (const problem of registry.problems) this.options.log.warn(`${problem.code}: ${problem.message}`);
    await this.setContext(true);
    this.changed();
    return registry;
  }

  private changed(): void {
    this.cachedCatalog = undefined;
    void vscode.commands.executeCommand('setContext', 'narratoria.hasSkills', this.skills.length > 0);
    // The scripts that skills declare, by file path and URI path (`resourcePath in narratoria.skillScriptPaths` shows Inspect on their editor title).
    const scriptPaths: Record<string, true> = {};
    for (const script of this.skills.flatMap((skill) => skill.scripts)) {
      if (!script.declared) continue;
      scriptPaths[script.path] = true;
      scriptPaths[vscode.Uri.file(script.path).path] = true;
    }
    void vscode.commands.executeCommand('setContext', 'narratoria.skillScriptPaths', scriptPaths);
    this.changeEmitter.fire();
  }

  private async setContext(loaded: boolean): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'narratoria.skillsLoaded', loaded);
  }
}

function describeChange(change: { readonly added: readonly string[]; readonly removed: readonly string[]; readonly changed: readonly string[] }): string {
  const parts = [
    change.added.length ? `added ${change.added.join(', ')}` : '',
    change.removed.length ? `removed ${change.removed.join(', ')}` : '',
    change.changed.length ? `changed ${change.changed.join(', ')}` : '',
  ].filter(Boolean);
  return parts.join('; ');
}
