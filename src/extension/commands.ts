// Registers every Narratoria command; each handler is a factory over the NarratoriaContext (no logic of its own here).
import * as vscode from 'vscode';
import { addExamplePlanCommand } from './authoring/examplePlanCommand.js';
import { ALLOW_TOOL_ROOT_COMMAND, allowToolRootCommand } from './authoring/allowToolRootCommand.js';
import { graphSourceToWorkOn } from './authoring/planPicker.js';
import { debugPlanCommand, debugSkillScriptCommand, replayRunCommand } from './debug/debugCommands.js';
import { inspectSkillScriptCommand, openInInspectorCommand } from './inspect/inspectCommands.js';
import { downloadNarratorModel } from './narrator/modelDownloadCommand.js';
import type { NarratoriaContext } from './narratoriaContext.js';
import { PlayPanel } from './play/playPanel.js';
import { continueSessionCommand, deleteSessionCommand, newGameCommand } from './play/sessionCommands.js';
import {
  addSampleSkillsCommand,
  configureSkillCommand,
  newSkillCommand,
  openManifestCommand,
  resetHealthCommand,
  runSkillScriptCommand,
  setSkillEnabledCommand,
  type SkillCommandContext,
} from './skills/skillCommands.js';
import { readSettings } from './settings.js';
import { saveSessionAsPlaytestCommand, turnRunCommand } from './playtest/playtestCommands.js';
import { exploreStoryCommand } from './explore/exploreCommand.js';

type Handler = (...args: never[]) => unknown;

/** Command id → handler factory. Ids match package.json `contributes.commands`. */
export function commandFactories(context: NarratoriaContext): Record<string, Handler> {
  const skillContext: SkillCommandContext = {
    skills: context.skills,
    extensionUri: context.extension.extensionUri,
    sampleSkillsDirectory: context.sampleSkillsDirectory,
    secrets: context.extension.secrets,
    log: context.log,
    scriptEnvironment: () => context.narrator.scriptEnvironment(),
    lastInputs: context.lastInputs,
  };
  const showPlayPanel = (): void => {
    if (context.root) PlayPanel.show(context.playPanelHost());
  };
  return {
    'narratoria.openPlayPanel': async () => {
      if (!context.root) {
        void vscode.window.showWarningMessage('Open a folder with a story (a skills/ folder) to play-test it.', 'Open Folder').then((choice) => {
          if (choice) void vscode.commands.executeCommand('vscode.openFolder');
        });
        return;
      }
      PlayPanel.show(context.playPanelHost());
      if (vscode.workspace.isTrusted) void context.narrator.prepare();
    },
    'narratoria.newSkill': newSkillCommand(skillContext),
    'narratoria.addSampleSkills': addSampleSkillsCommand(skillContext),
    'narratoria.refreshSkills': () => context.skills.refresh(),
    'narratoria.runSkillScript': runSkillScriptCommand(skillContext),
    'narratoria.inspectSkillScript': inspectSkillScriptCommand(skillContext, () => context.inspectorHost()),
    'narratoria.openInInspector': openInInspectorCommand(() => context.inspectorHost()),
    'narratoria.openSkillManifest': openManifestCommand(skillContext),
    'narratoria.configureSkill': configureSkillCommand(skillContext),
    'narratoria.enableSkill': setSkillEnabledCommand(skillContext, true),
    'narratoria.disableSkill': setSkillEnabledCommand(skillContext, false),
    'narratoria.resetSkillHealth': resetHealthCommand(skillContext),
    'narratoria.play.newGame': newGameCommand(() => context.play, showPlayPanel),
    'narratoria.play.continue': continueSessionCommand(() => context.play, showPlayPanel),
    'narratoria.play.deleteSession': deleteSessionCommand(() => context.play),
    // Restart Session became New Game (issue 40): the old id stays for keybindings and scripts.
    'narratoria.restartSession': newGameCommand(() => context.play, showPlayPanel),
    'narratoria.cancelTurn': () => context.play?.cancel(),
    'narratoria.downloadModel': () => downloadNarratorModel({ narrator: context.narrator, settings: () => readSettings(context.root), log: context.log }),
    'narratoria.showLogs': () => context.log.show(),
    'narratoria.addExamplePlan': addExamplePlanCommand({ extensionUri: context.extension.extensionUri, root: () => context.root?.fsPath, log: context.log }),
    'narratoria.runPlan': context.authoring.runPlan(),
    [ALLOW_TOOL_ROOT_COMMAND]: allowToolRootCommand(context.log),
    'narratoria.debugPlan': debugPlanCommand(),
    'narratoria.replayRun': replayRunCommand(),
    'narratoria.debugSkillScript': debugSkillScriptCommand(skillContext),
    'narratoria.showPlanGraph': async (resource?: vscode.Uri) => {
      const uri = resource instanceof vscode.Uri ? resource : await graphSourceToWorkOn();
      if (uri) await context.graphs.show(uri);
    },
    'narratoria.exploreStory': exploreStoryCommand({
      root: () => context.root?.fsPath,
      skills: context.skills,
      coverage: context.skillCoverage,
      extensionUri: context.extension.extensionUri,
      log: context.log,
    }),
    'narratoria.saveSessionAsPlaytest': saveSessionAsPlaytestCommand(
      () => context.root?.fsPath,
      () => context.play,
      () => context.playtests,
    ),
    'narratoria.playtests.replayTurn': turnRunCommand(() => context.playtests, 'narratoria.replayRun'),
    'narratoria.playtests.showTurnGraph': turnRunCommand(() => context.playtests, 'narratoria.showPlanGraph'),
    ...context.campaignView.commands(),
    'narratoria.showNarratorActions': async () => {
      const status = context.narrator.status;
      const picked = await vscode.window.showQuickPick(
        [
          { label: '$(cloud-download) Download Narrator Model', command: 'narratoria.downloadModel' },
          { label: '$(settings-gear) Choose the Narrator…', command: 'workbench.action.openSettings', args: ['narratoria.narrator'] },
          { label: '$(output) Show Logs', command: 'narratoria.showLogs' },
        ],
        { title: `Narrator: ${status.label}`, placeHolder: status.detail },
      );
      if (picked) await vscode.commands.executeCommand(picked.command, ...(picked.args ?? []));
    },
  };
}

/** Registers the commands; the returned disposables unregister them. */
export function registerCommands(context: NarratoriaContext): vscode.Disposable[] {
  return Object.entries(commandFactories(context)).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (handler as (...values: unknown[]) => unknown)(...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        context.log.error(`${id} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
        void vscode.window.showErrorMessage(`Narratoria: ${message}`, 'Show Logs').then((choice) => {
          if (choice) context.log.show();
        });
        return undefined;
      }
    }),
  );
}
