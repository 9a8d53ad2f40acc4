// Inspect Skill Script… (Run Skill Script's pickers, then the Inspector panel) and Open in Inspector (an .ndjson recording replayed, nothing run).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRecording, recordingOfText } from '../../runtime/inspect/recording.js';
import { pickInput, pickSkillScript, type SkillCommandContext } from '../skills/skillCommands.js';
import type { SkillTreeNode } from '../skills/skillsTreeProvider.js';
import { InspectorPanel, type InspectorHost } from './inspectorPanel.js';

function hostOf(context: SkillCommandContext): InspectorHost {
  return { extensionUri: context.extensionUri, log: context.log, skillContext: context.skills, scriptEnvironment: context.scriptEnvironment };
}

/** `input`, when given as a plain object (by another command or a test), skips the input picker. */
export function inspectSkillScriptCommand(context: SkillCommandContext) {
  return async (node?: SkillTreeNode, givenInput?: Record<string, unknown>): Promise<void> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Narratoria runs no skill scripts in an untrusted workspace.');
      return;
    }
    const picked = await pickSkillScript(context, node, 'Inspect a script of…');
    if (!picked) return;
    const { skill, script } = picked;
    const input = givenInput !== null && typeof givenInput === 'object' && !Array.isArray(givenInput) ? givenInput : await pickInput(skill, script);
    if (input === undefined) return;
    InspectorPanel.show(hostOf(context), {
      kind: 'live',
      label: `${skill.name}/${script.name}`,
      scriptPath: script.path,
      root: context.skills.root ?? skill.directory,
      timeoutMs: script.timeoutMs,
      input,
      pickInput: () => pickInput(skill, script),
    });
  };
}

/** The recording in the active editor (or the file the command was invoked on), with its sidecar when it has one. */
export function openInInspectorCommand(context: SkillCommandContext) {
  return async (resource?: vscode.Uri): Promise<void> => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    if (!uri || !uri.path.endsWith('.ndjson')) {
      void vscode.window.showInformationMessage('Open a .ndjson recording to show it in the Inspector.');
      return;
    }
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    try {
      // An edited, unsaved recording is replayed as it reads now (its sidecar may no longer match it).
      const recording = open?.isDirty || uri.scheme !== 'file' ? recordingOfText((open ?? (await vscode.workspace.openTextDocument(uri))).getText()) : await readRecording(uri.fsPath);
      InspectorPanel.show(hostOf(context), { kind: 'recording', label: path.basename(uri.path), recording });
    } catch (error) {
      void vscode.window.showErrorMessage(`Cannot open the recording: ${(error as Error).message}`);
    }
  };
}
