// The Skills tree: skills with their health as icons and tooltips, their scripts and problems as children, and skills with a broken skill.json as unusable items. Presentation only.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FAILURE_THRESHOLD } from '../../runtime/skills/skillHealth.js';
import { BROKEN_SKILL_LABEL, healthLabelOf, healthReasonOf } from '../../runtime/skills/skillHealthLabel.js';
import { brokenSkillReason } from '../../runtime/skills/skillProblems.js';
import type { SkillStatus } from '../../runtime/skills/skillRegistry.js';
import type { BrokenSkill, Skill, SkillHealthLabel, SkillProblem, SkillScript } from '../../runtime/skills/skillTypes.js';
import type { SkillsService } from './skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { exerciseText, scriptRunsText } from '../../runtime/coverage/skillExercise.js';
import type { SkillCoverageStore } from '../coverage/skillCoverageStore.js';
import { plural } from '../../runtime/common/humanText.js';

/** A node of the Skills tree. */
export type SkillTreeNode =
  | { readonly kind: 'skill'; readonly skill: Skill }
  | { readonly kind: 'script'; readonly skill: Skill; readonly script: SkillScript }
  | { readonly kind: 'brokenSkill'; readonly broken: BrokenSkill }
  | { readonly kind: 'problem'; readonly skill: Skill | undefined; readonly problem: SkillProblem; readonly broken?: BrokenSkill };

export type { SkillHealthLabel } from '../../runtime/skills/skillTypes.js';
/** The health shown for a skill status (the runtime's one vocabulary). */
export { healthLabelOf } from '../../runtime/skills/skillHealthLabel.js';

/** The range of a problem in its file (0-based), when known. */
export function problemRange(problem: SkillProblem): vscode.Range | undefined {
  if (problem.line === undefined) return undefined;
  const start = new vscode.Position(problem.line - 1, (problem.column ?? 1) - 1);
  const end = problem.endLine !== undefined ? new vscode.Position(problem.endLine - 1, (problem.endColumn ?? 1) - 1) : start;
  return new vscode.Range(start, end);
}

/** A command that opens a problem's file with the problem selected (or at the top when it has no position). */
export function openProblemCommand(problem: SkillProblem, title = 'Open File'): vscode.Command | undefined {
  if (problem.file === undefined) return undefined;
  const range = problemRange(problem);
  return { command: 'vscode.open', title, arguments: [vscode.Uri.file(problem.file), ...(range ? [{ selection: range }] : [])] };
}

/** Health (healthy, degraded, unusable, disabled) shows as each skill's icon, description and tooltip. */
export class SkillsTreeProvider implements vscode.TreeDataProvider<SkillTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<SkillTreeNode | undefined>();
  private readonly subscriptions = new DisposableStore();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(
    private readonly skills: SkillsService,
    private readonly coverage?: SkillCoverageStore,
  ) {
    this.subscriptions.add(skills.onDidChangeSkills(() => this.changeEmitter.fire(undefined)));
    if (coverage) this.subscriptions.add(coverage.onDidChange(() => this.changeEmitter.fire(undefined)));
  }

  async getChildren(node?: SkillTreeNode): Promise<SkillTreeNode[]> {
    if (!node) {
      await this.skills.ready();
      const broken = this.skills.brokenSkills;
      const attached = (problem: SkillProblem) =>
        this.skills.skills.some((skill) => skill.problems.includes(problem)) || broken.some((skill) => skill.problems.includes(problem));
      const loose = this.skills.problems.filter((problem) => !attached(problem));
      return [
        ...this.skills.skills.map((skill): SkillTreeNode => ({ kind: 'skill', skill })),
        ...broken.map((skill): SkillTreeNode => ({ kind: 'brokenSkill', broken: skill })),
        ...loose.filter((problem) => problem.severity === 'error').map((problem): SkillTreeNode => ({ kind: 'problem', skill: undefined, problem })),
      ];
    }
    if (node.kind === 'brokenSkill')
      return node.broken.problems.map((problem): SkillTreeNode => ({ kind: 'problem', skill: undefined, problem, broken: node.broken }));
    if (node.kind !== 'skill') return [];
    return [
      ...node.skill.problems.map((problem): SkillTreeNode => ({ kind: 'problem', skill: node.skill, problem })),
      ...node.skill.scripts.map((script): SkillTreeNode => ({ kind: 'script', skill: node.skill, script })),
    ];
  }

  getParent(node: SkillTreeNode): SkillTreeNode | undefined {
    if (node.kind === 'problem' && node.broken) return { kind: 'brokenSkill', broken: node.broken };
    return (node.kind === 'script' || node.kind === 'problem') && node.skill ? { kind: 'skill', skill: node.skill } : undefined;
  }

  getTreeItem(node: SkillTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'skill':
        return this.skillItem(node.skill);
      case 'script':
        return this.withScriptRuns(scriptItem(node.skill, node.script), node.skill, node.script);
      case 'brokenSkill':
        return brokenSkillItem(node.broken, this.skills.root);
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
    const health: SkillHealthLabel = status ? healthLabelOf(status) : 'healthy';
    const failures = status?.health.consecutiveFailures ?? 0;
    const errors = skill.problems.filter((problem) => problem.severity === 'error').length;
    const item = new vscode.TreeItem(
      skill.displayName,
      skill.scripts.length + skill.problems.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `skill:${skill.name}`;
    const parts: string[] = [`v${skill.version}`, health];
    if (failures > 0 && health !== 'disabled') parts.push(`${failures}/${FAILURE_THRESHOLD} failures`);
    if (errors > 0) parts.push(plural(errors, 'config problem'));
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
    item.accessibilityInformation = { label: `${skill.displayName}, version ${skill.version}, ${health}` };
    return item;
  }

  private skillTooltip(skill: Skill, status: SkillStatus | undefined, health: SkillHealthLabel): vscode.MarkdownString {
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(skill.displayName)}** ${code(skill.name)} v${escape(skill.version)}\n\n`);
    tooltip.appendText(skill.description);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendMarkdown(`$(pulse) Health: **${health}**`);
    const reason = status ? healthReasonOf(status) : '';
    if (reason) tooltip.appendMarkdown(` (${escape(reason)})`);
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
      return failing
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'degraded':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    case 'unusable':
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
  const aliases = script.aliases ? `Also answers to ${script.aliases.map(code).join(', ')}\n\n` : '';
  const missing = script.missingInterpreter !== undefined ? `**Cannot run here:** it ${escape(script.missingInterpreter)}\n\n` : '';
  const description = script.description ? escape(script.description) + '\n\n' : '';
  item.tooltip = new vscode.MarkdownString(
    `${code(script.toolPath)}\n\n${description}${aliases}${missing}Timeout ${script.timeoutMs} ms${script.declared ? '' : ' · not declared in skill.json'}`,
  );
  item.command = { command: 'vscode.open', title: 'Open Script', arguments: [vscode.Uri.file(script.path)] };
  item.contextValue = 'narratoria.script';
  return item;
}

function problemItem(problem: SkillProblem): vscode.TreeItem {
  const item = new vscode.TreeItem(problem.message, vscode.TreeItemCollapsibleState.None);
  item.description = problem.line !== undefined ? `${problem.code} · line ${problem.line}, column ${problem.column ?? 1}` : problem.code;
  item.iconPath =
    problem.severity === 'error'
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
      : new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  const where = problem.file
    ? `\n${problem.file}${problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : ''}${problem.pointer ? ` ${problem.pointer}` : ''}`
    : '';
  item.tooltip = `${problem.severity === 'error' ? 'Error' : 'Warning'} ${problem.code}: ${problem.message}${where}`;
  const open = openProblemCommand(problem);
  if (open) item.command = open;
  item.contextValue = 'narratoria.problem';
  return item;
}

/** A skill whose skill.json does not load: unusable, the problem as its description and tooltip; a click opens the manifest at the problem. */
function brokenSkillItem(broken: BrokenSkill, root: string | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(broken.name, broken.problems.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `brokenSkill:${broken.directory}`;
  const reason = brokenSkillReason(broken, root ?? path.dirname(path.dirname(broken.directory)));
  item.description = `${BROKEN_SKILL_LABEL} · ${reason}`;
  item.iconPath = healthIcon(BROKEN_SKILL_LABEL, false, true);
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${escape(broken.name)}** · $(pulse) Health: **${BROKEN_SKILL_LABEL}** (its skill.json does not load)\n\n`);
  for (const problem of broken.problems)
    tooltip.appendMarkdown(
      `$(error) ${escape(problem.code)}: ${escape(problem.message)}${problem.line !== undefined ? ` (line ${problem.line}, column ${problem.column ?? 1})` : ''}  \n`,
    );
  tooltip.appendMarkdown(`\n$(go-to-file) Click to open ${escape(broken.manifestPath)} at the problem.`);
  item.tooltip = tooltip;
  item.resourceUri = vscode.Uri.file(broken.directory);
  const first = broken.problems[0];
  item.command = (first && openProblemCommand(first, 'Open Manifest at the Problem')) ?? {
    command: 'vscode.open',
    title: 'Open Manifest',
    arguments: [vscode.Uri.file(broken.manifestPath)],
  };
  item.contextValue = 'narratoria.brokenSkill';
  item.accessibilityInformation = { label: `${broken.name}, ${BROKEN_SKILL_LABEL}: ${reason}` };
  return item;
}

/** A Markdown code span (escapes do not work inside one, so backticks are dropped). */
function code(text: string): string {
  return `\`${text.replace(/`/g, '')}\``;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (character) => `\\${character}`);
}
