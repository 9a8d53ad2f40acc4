// Skill commands: New Skill, Add Sample Skills, Run Script, Open Manifest, Configure, Enable/Disable, Reset Health; the script and input pickers Debug Skill Script shares.
import { cp, readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inspectScript, type InspectReport } from '../../runtime/inspect/inspectScript.js';
import { checkScriptInput, isRunnable, type InputTarget } from '../../runtime/inspect/scriptInput.js';
import { sampleInputFiles } from '../../runtime/skills/skillSamples.js';
import { checkSkillName, displayNameOf, scaffoldSkill } from '../../runtime/skills/skillTemplate.js';
import type { Skill, SkillScript } from '../../runtime/skills/skillTypes.js';
import type { LastInputs } from '../inspect/lastInputs.js';
import { openConfigureSkillPanel } from './configureSkillPanel.js';
import type { SkillsService } from './skillsService.js';
import { problemRange, type SkillTreeNode } from './skillsTreeProvider.js';

export interface SkillCommandContext {
  readonly skills: SkillsService;
  readonly extensionUri: vscode.Uri;
  readonly sampleSkillsDirectory: string;
  readonly secrets: vscode.SecretStorage;
  readonly log: vscode.LogOutputChannel;
  /** The model environment plan runs give scripts (NARRATORIA_MODEL_*), so Run Skill Script matches play. */
  readonly scriptEnvironment: () => Promise<Readonly<Record<string, string>>>;
  /** The last input each script ran with, offered first by the input picker. */
  readonly lastInputs: LastInputs;
}

/** The skill a command applies to: the tree node it was invoked on, or one the user picks. */
async function skillOf(
  context: SkillCommandContext,
  node: SkillTreeNode | undefined,
  placeHolder: string,
  filter: (skill: Skill) => boolean = () => true,
): Promise<Skill | undefined> {
  const given = node && node.kind !== 'brokenSkill' ? node.skill : undefined;
  if (given) return context.skills.skills.find((skill) => skill.name === given.name) ?? given;
  await context.skills.ready();
  const candidates = context.skills.skills.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No skill fits this command.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((skill) => ({ label: skill.displayName, description: `${skill.name} v${skill.version}`, detail: skill.description, skill })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.skill;
}

export function newSkillCommand(context: SkillCommandContext) {
  return async (): Promise<void> => {
    const root = context.skills.root;
    if (!root) {
      void vscode.window.showWarningMessage('Open a folder first: skills live in its skills/ folder.');
      return;
    }
    const skillsDirectory = path.join(root, 'skills');
    const existing = new Set(context.skills.skills.map((skill) => skill.name));
    const name = await vscode.window.showInputBox({
      title: 'New Skill (1/2)',
      prompt: `The skill's folder name under ${path.basename(root)}/skills/`,
      placeHolder: 'weather-report',
      validateInput: (value) => checkSkillName(value.trim()) ?? (existing.has(value.trim()) ? `A skill named "${value.trim()}" already exists.` : undefined),
    });
    if (name === undefined) return;
    const description = await vscode.window.showInputBox({
      title: 'New Skill (2/2)',
      prompt: 'What does the skill do for the story? (the narrator reads this)',
      placeHolder: `${displayNameOf(name.trim())}: …`,
    });
    if (description === undefined) return;
    const result = await scaffoldSkill({ skillsDirectory, name: name.trim(), description });
    if (!result.ok) {
      void vscode.window.showErrorMessage(`The skill was not created: ${result.message}`);
      return;
    }
    context.log.info(`created skill ${name.trim()} in ${result.directory}`);
    await context.skills.refresh();
    await vscode.window.showTextDocument(vscode.Uri.file(result.manifest));
    void vscode.window.showInformationMessage(
      `Created the skill "${displayNameOf(name.trim())}": edit skill.json, prompt.md and scripts/run.js, then try it with Run Skill Script.`,
    );
  };
}

export function addSampleSkillsCommand(context: SkillCommandContext) {
  return async (): Promise<void> => {
    const root = context.skills.root;
    if (!root) return;
    const target = path.join(root, 'skills');
    const samples = (await readdir(context.sampleSkillsDirectory, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const missing: string[] = [];
    for (const name of samples) {
      if (!(await stat(path.join(target, name)).catch(() => undefined))) missing.push(name);
    }
    if (missing.length === 0) {
      void vscode.window.showInformationMessage('Every sample skill is already in this workspace.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      missing.map((name) => ({ label: name, picked: true })),
      { canPickMany: true, title: 'Add Sample Skills', placeHolder: `Copied into ${path.basename(root)}/skills/ (existing folders are never overwritten)` },
    );
    if (!picked || picked.length === 0) return;
    for (const { label } of picked) {
      const source = path.join(context.sampleSkillsDirectory, label);
      // A skill's data/ holds what it wrote while running elsewhere: not part of the skill.
      await cp(source, path.join(target, label), {
        recursive: true,
        errorOnExist: true,
        force: false,
        filter: (file) => path.relative(source, file).split(path.sep)[0] !== 'data',
      });
    }
    context.log.info(`copied sample skills into ${target}: ${picked.map((item) => item.label).join(', ')}`);
    await context.skills.refresh();
  };
}

export function openManifestCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode): Promise<void> => {
    // A skill whose skill.json is broken opens at its first problem.
    if (node?.kind === 'brokenSkill') {
      const range = node.broken.problems[0] ? problemRange(node.broken.problems[0]) : undefined;
      await vscode.window.showTextDocument(vscode.Uri.file(node.broken.manifestPath), range ? { selection: range } : {});
      return;
    }
    const skill = await skillOf(context, node, 'Open the manifest of…');
    if (skill) await vscode.window.showTextDocument(vscode.Uri.file(skill.manifestPath));
  };
}

export function configureSkillCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode): Promise<void> => {
    const skill = await skillOf(context, node, 'Configure…', (candidate) => candidate.configSchemaFile !== undefined);
    if (!skill) return;
    const storyRoot = context.skills.root;
    if (!storyRoot) return;
    await openConfigureSkillPanel({
      skill,
      extensionUri: context.extensionUri,
      secrets: context.secrets,
      storyRoot,
      log: context.log,
      onDidSave: () => context.skills.refresh(),
    });
  };
}

export function setSkillEnabledCommand(context: SkillCommandContext, enabled: boolean) {
  return async (node?: SkillTreeNode): Promise<void> => {
    const skill = await skillOf(context, node, enabled ? 'Enable…' : 'Disable…', (candidate) => context.skills.status(candidate.name)?.enabled !== enabled);
    if (skill) context.skills.setEnabled(skill.name, enabled);
  };
}

export function resetHealthCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode): Promise<void> => {
    const skill = await skillOf(context, node, 'Reset the health of…');
    if (!skill) return;
    context.skills.resetHealth(skill.name);
    context.log.info(`health of ${skill.name} reset to healthy`);
  };
}

export function runSkillScriptCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode): Promise<void> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Narratoria runs no skill scripts in an untrusted workspace.');
      return;
    }
    const picked = await pickSkillScript(context, node, 'Run a script of…');
    if (!picked) return;
    const input = await pickInput(picked.skill, picked.script, context.lastInputs.get(picked.script.path));
    if (input === undefined) return;
    await context.lastInputs.set(picked.script.path, input);
    await runAndReport(context, picked.skill, picked.script, input);
  };
}

/** The script a command applies to: the tree's script node, the only script of the node's skill, or one the user picks (Run and Debug Skill Script). */
export async function pickSkillScript(
  context: SkillCommandContext,
  node: SkillTreeNode | undefined,
  placeHolder: string,
): Promise<{ readonly skill: Skill; readonly script: SkillScript } | undefined> {
  const skill = await skillOf(context, node, placeHolder, (candidate) => candidate.scripts.length > 0);
  if (!skill) return undefined;
  let script: SkillScript | undefined = node?.kind === 'script' ? node.script : skill.scripts.length === 1 ? skill.scripts[0] : undefined;
  if (!script) {
    const items = skill.scripts.map((candidate) => ({
      label: candidate.name,
      description: candidate.toolPath,
      detail: candidate.description ?? '',
      candidate,
    }));
    script = (await vscode.window.showQuickPick(items, { placeHolder: `Which script of ${skill.displayName}?` }))?.candidate;
  }
  return script ? { skill, script } : undefined;
}

/**
 * Offers the last input used, the skill's samples (samples/*.json) or a JSON the author types, checked against the
 * script's inputSchema; returns the parsed object (Run, Debug and Inspect Skill Script).
 */
export async function pickInput(skill: Skill, script: SkillScript, last?: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const files = await sampleInputFiles(skill.directory);
  type Item = vscode.QuickPickItem &
    ({ readonly source: 'sample'; readonly file: string } | { readonly source: 'typed' } | { readonly source: 'empty' } | { readonly source: 'last' });
  const target = { label: `${skill.name}/${script.name}`, inputSchema: script.inputSchema };
  const items: Item[] = [
    ...(last ? [{ source: 'last', label: '$(history) The last input used', description: compactJson(JSON.stringify(last)) } as Item] : []),
    ...files.map((file): Item => ({ source: 'sample', label: `$(file) ${path.basename(file)}`, description: 'sample input', file })),
    { source: 'typed', label: '$(edit) Enter the input as JSON…' },
    { source: 'empty', label: '$(circle-slash) Run with an empty input {}' },
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: `Input for ${script.name}` });
  switch (picked?.source) {
    case undefined:
      return undefined;
    case 'empty':
      // An empty input the schema refuses is offered for editing, with the reason, instead of failing in the script.
      return isRunnable(checkScriptInput('{}', target)) ? {} : askJson('{}', `Input for ${script.name} as a JSON object`, target);
    case 'last':
      return askJson(JSON.stringify(last), `Input for ${script.name} (the last input used; edit or press Enter)`, target);
    case 'typed':
      return askJson('{}', `Input for ${script.name} as a JSON object`, target);
    case 'sample':
      return askJson(await readFile(picked.file, 'utf8'), `Input for ${script.name} (from ${path.basename(picked.file)}; edit or press Enter)`, target);
  }
}

/** Asks for the input as JSON, refusing text that is not an object or that the script's inputSchema rejects. */
async function askJson(initial: string, prompt: string, target: InputTarget): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    prompt,
    value: compactJson(initial),
    validateInput: (value) => {
      const checked = checkScriptInput(value, target);
      const error = checked.problems.find((problem) => problem.severity === 'error');
      if (error) return { message: error.message, severity: vscode.InputBoxValidationSeverity.Error };
      const warning = checked.problems[0];
      return warning ? { message: warning.message, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
    },
  });
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

async function runAndReport(context: SkillCommandContext, skill: Skill, script: SkillScript, input: Record<string, unknown>): Promise<InspectReport> {
  const log = context.log;
  log.show(true);
  log.info(`── run ${skill.name}/${script.name} with ${JSON.stringify(input)}`);
  const extraEnv = await context.scriptEnvironment();
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${skill.displayName} › ${script.name}`, cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const cancellation = token.onCancellationRequested(() => abort.abort());
      try {
        return await inspectScript({
          scriptPath: script.path,
          input,
          root: context.skills.root ?? skill.directory,
          timeoutMs: script.timeoutMs,
          // The effective config (secrets, ${VAR}, defaults) and directories, exactly as in a plan run.
          skillContext: context.skills,
          extraEnv,
          signal: abort.signal,
          onLine: (line) => {
            const text = line.event ? JSON.stringify(line.event) : (line.text ?? '');
            const message = `  ${String(line.lineNumber).padStart(3)} +${Math.round(line.elapsedMs)}ms ${line.status}: ${text}${line.problem ? ` — ${line.problem}` : ''}`;
            if (line.status === 'event' || line.status === 'blank') log.info(message);
            else log.warn(message);
          },
        });
      } finally {
        cancellation.dispose();
      }
    },
  );
  if (report.stderr.trim()) log.warn(`  stderr:\n${report.stderr.trimEnd()}`);
  const verdict = `${report.verdict.ok ? '✓' : '✗'} ${report.verdict.message} (exit ${report.exitCode ?? report.signal ?? '?'}, ${Math.round(report.durationMs)} ms)`;
  if (report.verdict.ok) log.info(verdict);
  else log.error(verdict);
  const show = await (report.verdict.ok ? vscode.window.showInformationMessage : vscode.window.showErrorMessage)(
    `${skill.displayName} › ${script.name}: ${report.verdict.message}`,
    'Show Logs',
  );
  if (show) log.show();
  return report;
}

/** One-line JSON for the input box; a sample that does not parse is shown as written, so the validation message explains it. */
function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.trim();
  }
}
