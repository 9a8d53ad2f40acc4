// The debugger's commands: Debug Plan, Replay Run… and Debug Skill Script…; each only builds a launch configuration and starts it.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { planToWorkOn } from '../authoring/planPicker.js';
import { pickInput, pickSkillScript, type SkillCommandContext } from '../skills/skillCommands.js';
import type { SkillTreeNode } from '../skills/skillsTreeProvider.js';
import {
  DEBUG_TYPE,
  isPlanFile,
  isRunRecord,
  planConfiguration,
  refuseLiveLaunch,
  replayConfiguration,
  type NarratoriaLaunchConfiguration,
} from './debugConfigurationProvider.js';

/** Starts a `narratoria` session in the workspace folder of `resource` (the configuration provider resolves and checks it). */
function startDebugging(resource: vscode.Uri | undefined, configuration: NarratoriaLaunchConfiguration): Thenable<boolean> {
  const folder = resource ? vscode.workspace.getWorkspaceFolder(resource) : undefined;
  return vscode.debug.startDebugging(folder ?? vscode.workspace.workspaceFolders?.[0], configuration);
}

/** `narratoria.debugPlan [uri]`: debugs the given plan file, or the one in the active editor. */
export function debugPlanCommand() {
  return async (resource?: vscode.Uri): Promise<boolean> => {
    const uri = resource instanceof vscode.Uri ? resource : await planToWorkOn('Debug Plan');
    if (!uri) return false;
    if (!isPlanFile(uri)) {
      void vscode.window.showWarningMessage('Debug Plan works on a *.plan.json file: open one, or right-click it in the Explorer.');
      return false;
    }
    if (uri.scheme !== 'file') {
      void vscode.window.showWarningMessage(`Debug Plan needs a plan saved on disk; ${path.basename(uri.path)} is not.`);
      return false;
    }
    return startDebugging(uri, planConfiguration(uri));
  };
}

/** `narratoria.replayRun [uri]`: replays the given run record (or ExecutionResult), the one in the active editor, or one the user picks. */
export function replayRunCommand() {
  return async (resource?: vscode.Uri): Promise<boolean> => {
    const given = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    const record = given && isRunRecord(given) ? given : await pickRunRecord();
    if (!record) return false;
    return startDebugging(record, replayConfiguration(record));
  };
}

/** `narratoria.debugSkillScript [node]`: debugs one skill script with an input picked as Run Skill Script picks it. */
export function debugSkillScriptCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode): Promise<boolean> => {
    if (!vscode.workspace.isTrusted) {
      refuseLiveLaunch('a skill script');
      return false;
    }
    const picked = await pickSkillScript(context, node, 'Debug a script of…');
    if (!picked) return false;
    const input = await pickInput(picked.skill, picked.script, context.lastInputs.get(picked.script.path));
    if (input === undefined) return false;
    await context.lastInputs.set(picked.script.path, input);
    const root = context.skills.root ?? picked.skill.directory;
    return startDebugging(vscode.Uri.file(root), {
      type: DEBUG_TYPE,
      request: 'launch',
      name: `Debug ${picked.skill.name}/${picked.script.name}`,
      script: picked.script.path,
      input,
      root,
    });
  };
}

type RecordItem = vscode.QuickPickItem & { readonly uri: vscode.Uri | undefined };

/** The workspace's run records, newest first, and a way to pick any file (an ExecutionResult saved elsewhere). */
async function pickRunRecord(): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles('**/.narratoria/runs/*.json', undefined, RECORD_LIMIT);
  const dated = await Promise.all(files.map(async (uri) => ({ uri, modified: (await stat(uri.fsPath).catch(() => undefined))?.mtimeMs ?? 0 })));
  dated.sort((left, right) => right.modified - left.modified);
  const items: RecordItem[] = [
    ...dated.map(
      ({ uri, modified }): RecordItem => ({
        label: `$(history) ${path.basename(uri.path, '.json')}`,
        description: vscode.workspace.asRelativePath(uri),
        ...(modified ? { detail: `recorded ${new Date(modified).toLocaleString()}` } : {}),
        uri,
      }),
    ),
    { label: '$(folder-opened) Choose a Run Record or ExecutionResult File…', uri: undefined },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Replay Run',
    placeHolder:
      dated.length > 0 ? 'The run to replay (nothing runs: the recorded events are stepped through)' : 'No run records in this workspace yet: choose a file',
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({
    title: 'Replay Run',
    openLabel: 'Replay',
    canSelectMany: false,
    filters: { 'Run record or ExecutionResult': ['json'] },
  });
  return chosen?.[0];
}

/** Margin: the picker lists at most this many run records. */
const RECORD_LIMIT = 200;
