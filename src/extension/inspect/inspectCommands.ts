// Inspect Skill Script… (from the Skills tree, a script's editor title or the palette, then the Inspector panel) and Open in Inspector (an .ndjson recording replayed, nothing run).
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRecording, recordingOfText } from '../../runtime/inspect/recording.js';
import { pickInput, pickSkillScript, type SkillCommandContext } from '../skills/skillCommands.js';
import type { SkillTreeNode } from '../skills/skillsTreeProvider.js';
import { InspectorPanel, type InspectorHost } from './inspectorPanel.js';
import { findScript, liveTarget } from './inspectorTargets.js';

/**
 * `subject` is the tree node or the script file the command was invoked on. `input`, when given as a plain object
 * (by another command or a test), skips the input picker.
 */
export function inspectSkillScriptCommand(context: SkillCommandContext, host: () => InspectorHost) {
  return async (subject?: SkillTreeNode | vscode.Uri, givenInput?: Record<string, unknown>): Promise<void> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Narratoria runs no skill scripts in an untrusted workspace.');
      return;
    }
    const picked = subject instanceof vscode.Uri ? await scriptOfFile(context, subject) : await pickSkillScript(context, subject, 'Inspect a script of…');
    if (!picked) return;
    const { skill, script } = picked;
    const input =
      givenInput !== null && typeof givenInput === 'object' && !Array.isArray(givenInput)
        ? givenInput
        : await pickInput(skill, script, context.lastInputs.get(script.path));
    if (input === undefined) return;
    InspectorPanel.show(host(), await liveTarget(context, skill, script, input));
  };
}

/** The skill script a file is (the editor-title button shows only on declared scripts; a stale click says why). */
async function scriptOfFile(context: SkillCommandContext, file: vscode.Uri): Promise<Awaited<ReturnType<typeof findScript>>> {
  const real = await realpath(file.fsPath).catch(() => file.fsPath);
  const found = await findScript(context.skills, real);
  if (!found) void vscode.window.showInformationMessage(`${path.basename(file.fsPath)} is not a script that a loaded skill declares.`);
  return found;
}

/** The recording in the active editor (or the file the command was invoked on), with its sidecar when it has one. */
export function openInInspectorCommand(host: () => InspectorHost) {
  return async (resource?: vscode.Uri): Promise<void> => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    if (!uri || !uri.path.endsWith('.ndjson')) {
      void vscode.window.showInformationMessage('Open a .ndjson recording to show it in the Inspector.');
      return;
    }
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    try {
      // An edited, unsaved recording is replayed as it reads now (its sidecar may no longer match it).
      const fromText = open?.isDirty || uri.scheme !== 'file';
      const recording = fromText ? recordingOfText((open ?? (await vscode.workspace.openTextDocument(uri))).getText()) : await readRecording(uri.fsPath);
      InspectorPanel.show(host(), { kind: 'recording', label: path.basename(uri.path), recording, file: fromText ? undefined : uri.fsPath });
    } catch (error) {
      void vscode.window.showErrorMessage(`Cannot open the recording: ${(error as Error).message}`);
    }
  };
}
