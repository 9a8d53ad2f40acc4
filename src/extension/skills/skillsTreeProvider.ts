// The Skills tree: skills with health icons and tooltips; their scripts and config problems as children. Presentation only.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FAILURE_THRESHOLD } from '../../runtime/skills/skillHealth.js';
import type { SkillStatus } from '../../runtime/skills/skillRegistry.js';
import type { Skill, SkillProblem, SkillScript } from '../../runtime/skills/skillTypes.js';
import type { SkillsService } from './skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { exerciseText, scriptRunsText } from '../../runtime/coverage/skillExercise.js';
import type { SkillCoverageStore } from '../coverage/skillCoverageStore.js';

/** A node of the Skills tree. */
export type SkillTreeNode =
  | { readonly kind: 'skill'; readonly skill: Skill }
  | { readonly kind: 'script'; readonly skill: Skill; readonly script: SkillScript }
  | { readonly kind: 'problem'; readonly skill: Skill | undefined; readonly problem: SkillProblem };

/** What the tree shows as a skill's health: the runtime's state, or `disabled` when the user disabled it. */
export type SkillHealthLabel = 'healthy' | 'degraded' | 'temporaryFailure' | 'permanentFailure' | 'disabled';

const HEALTH_TEXT: Record<SkillHealthLabel, string> = {
  healthy: 'healthy',
  degraded: 'degraded',
  temporaryFailure: 'temporary failure',
  permanentFailure: 'permanent failure',
  disabled: 'disabled',
};

/** The health shown for a skill status. */
export function healthLabelOf(status: SkillStatus): SkillHealthLabel {
  return status.enabled ? status.health.state : 'disabled';
}

export class SkillsTreeProvider implements vscode.TreeDataProvider<SkillTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SkillTreeNode | undefined>();
  private readonly subscriptions = new DisposableStore();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(private readonly skills: SkillsService, private readonly coverage?: SkillCoverageStore) {
    this.subscriptions.add(skills.onDidChangeSkills(() => this.changeEmitter.fire(undefined)));
    if (coverage) this.subscriptions.add(coverage.onDidChange(() => this.changeEmitter.fire(undefined)));
  }

  async getChildren(node?: SkillTreeNode): Promise<SkillTreeNode[]> {
    if (!node) {
      await this.skills.ready();
      const loose = this.skills.problems.filter((problem) => !this.skills.skills.some((skill) => skill.problems.includes(problem)));
      return [
        ...this.skills.skills.map((skill): SkillTreeNode => ({ kind: 'skill', skill })),
        ...loose.filter((problem) => problem.severity === 'error').map((problem): SkillTreeNode => ({ kind: 'problem', skill: undefined, problem })),
      ];
    }
    if (node.kind !== 'skill') return [];
    return [
      ...node.skill.problems.map((problem): SkillTreeNode => ({ kind: 'problem', skill: node.skill, problem })),
      ...node.skill.scripts.map((script): SkillTreeNode => ({ kind: 'script', skill: node.skill, script })),
    ];
  }

  getParent(node: SkillTreeNode): SkillTreeNode | undefined {
    return node.kind !== 'skill' && node.skill ? { kind: 'skill', skill: node.skill } : undefined;
  }

  getTreeItem(node: SkillTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'skill':
        return this.skillItem(node.skill);
      case 'script':
        return this.withScriptRuns(scriptItem(node.skill, node.script), node.skill, node.script);
      case 'problem':
        return problemItem(node.problem);
    }
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.changeEmitter.dispose();
  }

  /** After a coverage run: the script's runs, or a mark when it never ran. */
  private withScriptRuns(item: vscode.TreeItem, skill: Skill, script: SkillScript): vscode.TreeItem {
    const runs = scriptRunsText(this.coverage?.of(skill.name), `${skill.name}/${script.name}`);
    if (!runs) return item;
    item.description = `${runs} · ${String(item.description ?? '')}`;
    if (runs === 'never run') item.iconPath = new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('list.warningForeground'));
    return item;
  }

  private skillItem(skill: Skill): vscode.TreeItem {
    const status = this.skills.status(skill.name);
    const health = status ? healthLabelOf(status) : 'healthy';
    const failures = status?.health.consecutiveFailures ?? 0;
    const errors = skill.problems.filter((problem) => problem.severity === 'error').length;
    const item = new vscode.TreeItem(skill.displayName, skill.scripts.length + skill.problems.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `skill:${skill.name}`;
    const parts = [`v${skill.version}`, HEALTH_TEXT[health]];
    if (failures > 0 && health !== 'disabled') parts.push(`${failures}/${FAILURE_THRESHOLD} failures`);
    if (errors > 0) parts.push(`${errors} config problem${errors === 1 ? '' : 's'}`);
    if (!this.skills.isStorySkill(skill)) parts.push('external');
    const exercised = exerciseText(this.coverage?.of(skill.name));
    if (exercised) parts.push(exercised);
    item.description = parts.join(' · ');
    item.iconPath = healthIcon(health, failures > 0, errors > 0);
    item.tooltip = this.skillTooltip(skill, status, health);
    item.resourceUri = vscode.Uri.file(skill.directory);
    const flags = [
      status?.enabled === false ? 'disabled' : 'enabled',
      skill.configSchemaFile ? 'configurable' : '',
      (status && status.health.state !== 'healthy') || failures > 0 ? 'unhealthy' : '',
      skill.scripts.length > 0 ? 'runnable' : '',
    ].filter(Boolean);
    item.contextValue = `narratoria.skill ${flags.join(' ')}`;
    item.accessibilityInformation = { label: `${skill.displayName}, version ${skill.version}, ${HEALTH_TEXT[health]}` };
    return item;
  }

  private skillTooltip(skill: Skill, status: SkillStatus | undefined, health: SkillHealthLabel): vscode.MarkdownString {
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(skill.displayName)}** ${code(skill.name)} v${escape(skill.version)}\n\n`);
    tooltip.appendText(skill.description);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendMarkdown(`$(pulse) Health: **${HEALTH_TEXT[health]}**`);
    if (status && status.health.consecutiveFailures > 0) tooltip.appendMarkdown(` (${status.health.consecutiveFailures} consecutive failure${status.health.consecutiveFailures === 1 ? '' : 's'})`);
    tooltip.appendMarkdown('  \n');
    if (skill.capabilities.length > 0) tooltip.appendMarkdown(`$(symbol-misc) Capabilities: ${skill.capabilities.map(code).join(', ')}  \n`);
    tooltip.appendMarkdown(`$(arrow-up) Priority: ${skill.priority}  \n`);
    const lastError = this.skills.lastError(skill.name);
    if (lastError) tooltip.appendMarkdown(`$(error) Last error (${escape(lastError.category)}): ${escape(lastError.message)}  \n`);
    if (status && !status.usable) tooltip.appendMarkdown('$(warning) Not offered to the narrator until its configuration problems are fixed.  \n');
    tooltip.appendMarkdown(`$(folder) ${escape(skill.directory)}`);
    return tooltip;
  }
}

function healthIcon(health: SkillHealthLabel, failing: boolean, configErrors: boolean): vscode.ThemeIcon {
  switch (health) {
    case 'healthy':
      if (configErrors) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      return failing ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'degraded':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    case 'temporaryFailure':
      return new vscode.ThemeIcon('clock', new vscode.ThemeColor('list.warningForeground'));
    case 'permanentFailure':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    case 'disabled':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
  }
}

function scriptItem(skill: Skill, script: SkillScript): vscode.TreeItem {
  const item = new vscode.TreeItem(script.name, vscode.TreeItemCollapsibleState.None);
  item.id = `script:${skill.name}:${script.name}`;
  item.description = script.description ?? path.basename(script.path);
  item.iconPath = new vscode.ThemeIcon(script.executable ? 'file-code' : 'warning');
  item.resourceUri = vscode.Uri.file(script.path);
  item.tooltip = new vscode.MarkdownString(`${code(script.toolPath)}\n\n${script.description ? escape(script.description) + '\n\n' : ''}Timeout ${script.timeoutMs} ms${script.declared ? '' : ' · not declared in skill.json'}`);
  item.command = { command: 'vscode.open', title: 'Open Script', arguments: [vscode.Uri.file(script.path)] };
  item.contextValue = 'narratoria.script';
  return item;
}

function problemItem(problem: SkillProblem): vscode.TreeItem {
  const item = new vscode.TreeItem(problem.message, vscode.TreeItemCollapsibleState.None);
  item.description = problem.code;
  item.iconPath = problem.severity === 'error' ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')) : new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.tooltip = `${problem.severity === 'error' ? 'Error' : 'Warning'} ${problem.code}: ${problem.message}${problem.file ? `\n${problem.file}${problem.pointer ? ` ${problem.pointer}` : ''}` : ''}`;
  if (problem.file) item.command = { command: 'vscode.open', title: 'Open File', arguments: [vscode.Uri.file(problem.file)] };
  item.contextValue = 'narratoria.problem';
  return item;
}

/** A Markdown code span (escapes do not work inside one, so backticks are dropped). */
function code(text: string): string {
  return `\`${text.replace(/`/g, '')}\``;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (character) => `\\${character}`);
}
