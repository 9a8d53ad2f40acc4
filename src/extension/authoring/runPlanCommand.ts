// Run Plan: validates a plan file (saved or not) and runs it in a pseudo-terminal named after it, with cancellable progress and a result to open.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FileRunStore } from '../../runtime/persistence/runStore.js';
import type { ExecutionResult } from '../../runtime/contractTypes/executionResult.js';
import type { PlanRun } from '../../runtime/executor/planExecutor.js';
import { executionLimits, type NarratoriaSettings } from '../settings.js';
import type { SkillsService } from '../skills/skillsService.js';
import { PlanRunTerminal } from './planRunTerminal.js';
import { isPlanDocument, type PlanWorkspace } from './planWorkspace.js';

export interface RunPlanContext {
  readonly plans: PlanWorkspace;
  readonly skills: SkillsService;
  readonly settings: () => NarratoriaSettings;
  readonly scriptEnvironment: () => Promise<Readonly<Record<string, string>>>;
  readonly log: vscode.LogOutputChannel;
  /** Called when a run starts (the plan graph shows it live); returns what to dispose when it ends. */
  readonly onRunStarted?: ((document: vscode.Uri, run: PlanRun, toolIds: readonly string[], label: string) => vscode.Disposable) | undefined;
}

/** `narratoria.runPlan [uri]`: resolves with the run's result, or undefined when nothing ran. */
export function runPlanCommand(context: RunPlanContext) {
  return async (resource?: vscode.Uri): Promise<ExecutionResult | undefined> => {
    const document = await planDocumentOf(resource);
    if (!document) {
      void vscode.window.showWarningMessage('Run Plan works on a *.plan.json file: open one, or right-click it in the Explorer.');
      return undefined;
    }
    const name = path.basename(document.uri.path);
    if (!vscode.workspace.isTrusted) {
      // Not awaited: the command answers at once, the message stays until the user acts on it.
      void vscode.window
        .showWarningMessage(
          `Run Plan is off in Restricted Mode: ${name} would start skill scripts as processes on this machine. Trust the workspace to run plans.`,
          'Manage Workspace Trust',
        )
        .then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
      return undefined;
    }
    const validation = await context.plans.validate(document);
    const plan = validation.result.plan;
    if (!validation.result.valid || !plan) {
      const errors = validation.result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
      const first = errors[0];
      void vscode.window
        .showErrorMessage(`${name} has ${errors.length} error(s); nothing ran.${first ? ` First: ${first.code}: ${first.message}` : ''}`, 'Show Problems')
        .then((choice) => choice && vscode.commands.executeCommand('workbench.actions.view.problems'));
      return undefined;
    }
    const root = context.plans.rootOf(document);
    const settings = context.settings();
    const environment = await context.scriptEnvironment();
    const terminal = new PlanRunTerminal(plan, name, {
      root,
      extraSkillRoots: context.skills.extraSkillRoots(),
      allowedToolRoots: context.skills.allowedToolRoots(),
      skillContext: context.skills,
      extraEnv: environment,
      runStore: new FileRunStore(path.join(root, '.narratoria', 'runs')),
      ...executionLimits(settings),
    });
    const shell = vscode.window.createTerminal({ name: `Run Plan: ${name}`, pty: terminal, iconPath: new vscode.ThemeIcon('run') });
    shell.show(true);
    context.log.info(`Run Plan ${document.uri.fsPath} (${plan.tools.length} tool(s), root ${root})`);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Running ${name}`, cancellable: true },
      async (progress, token) => {
        const subscription = token.onCancellationRequested(() => terminal.cancel());
        const total = Math.max(1, plan.tools.length);
        let live: vscode.Disposable | undefined;
        terminal.observer = {
          onToolFinished: (tool, finished) =>
            progress.report({ message: `${tool.toolId} ${tool.state} (${finished}/${plan.tools.length})`, increment: 100 / total }),
          onRunStarted: (run) => {
            live = context.onRunStarted?.(
              document.uri,
              run,
              plan.tools.map((tool) => tool.toolId),
              `Run Plan: ${name}`,
            );
          },
        };
        try {
          return await terminal.result;
        } finally {
          subscription.dispose();
          // After the result: the live overlay has seen the plan finish.
          live?.dispose();
        }
      },
    );
    context.log.info(`Run Plan ${name}: ${result.status} in ${result.executionTimeMs} ms`);
    void reportOutcome(name, result);
    return result;
  };
}

async function planDocumentOf(resource: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
  if (!uri) return undefined;
  const document =
    vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
  return isPlanDocument(document) ? document : undefined;
}

/** ": roll, narrate" for the tools that failed, or nothing. */
function failedToolsText(result: ExecutionResult): string {
  return result.failedTools.length ? `: ${result.failedTools.join(', ')}` : '';
}

/** Tells how the run ended, with a button that opens its ExecutionResult as JSON. */
async function reportOutcome(name: string, result: ExecutionResult): Promise<void> {
  const tools = result.toolResults.length;
  const message = result.success
    ? `${name} succeeded in ${result.executionTimeMs} ms (${tools} tool(s)).`
    : `${name} ${result.status === 'cancelled' ? 'was cancelled' : 'failed'}${failedToolsText(result)}${result.failureReason ? ` (${result.failureReason})` : ''}.`;
  const show = result.success
    ? vscode.window.showInformationMessage
    : result.status === 'cancelled'
      ? vscode.window.showWarningMessage
      : vscode.window.showErrorMessage;
  const choice = await show(message, 'Show Result');
  if (!choice) return;
  const document = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(result, null, 2) });
  await vscode.window.showTextDocument(document, { preview: true });
}
