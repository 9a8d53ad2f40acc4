// Commands of playtests: Save Session as Playtest (palette and play panel), and on a failed turn's message Replay Turn in Debugger and Show Turn Graph (over the turn's recorded run).
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { freePlaytestFile, playtestFromSession } from '../../runtime/playtest/playtestFromSession.js';
import type { PlayController } from '../play/playController.js';
import type { PlaytestTests } from './playtestTests.js';

/** What the Testing view passes to a test message's menu command. */
interface TestMessageArguments {
  readonly test?: vscode.TestItem;
}

/** `narratoria.saveSessionAsPlaytest [name]`: writes `playtests/<name>.playtest.json` from the play session (never over a file), opens it, offers to run it. Without a name it asks for one. */
export function saveSessionAsPlaytestCommand(root: () => string | undefined, play: () => PlayController | undefined, tests: () => PlaytestTests | undefined) {
  return async (givenName?: string): Promise<vscode.Uri | undefined> => {
    const folder = root();
    const controller = play();
    if (!folder || !controller) {
      void vscode.window.showWarningMessage('Open a story folder and play a few turns first.');
      return undefined;
    }
    const session = await controller.savedSession();
    if (!session || session.turns.length === 0) {
      void vscode.window
        .showInformationMessage('The play session has no turns yet: play a few, then save them as a playtest.', 'Open Play Panel')
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('narratoria.openPlayPanel');
        });
      return undefined;
    }
    const name =
      typeof givenName === 'string' && givenName.trim() !== ''
        ? givenName
        : await vscode.window.showInputBox({
            title: 'Save Session as Playtest',
            prompt: `A name for the playtest of these ${session.turns.length} turn(s); it is saved in playtests/ and never replaces a file.`,
            value: `Session of ${new Date().toISOString().slice(0, 10)}`,
            validateInput: (value) => (value.trim() === '' ? 'The playtest needs a name.' : undefined),
          });
    if (name === undefined) return undefined;
    const file = freePlaytestFile(path.join(folder, 'playtests'), name.trim());
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, playtestFromSession(session, name.trim()), { flag: 'wx' });
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(uri, { preview: false });
    void vscode.window
      .showInformationMessage(`Saved ${path.relative(folder, file)}: ${session.turns.length} turn(s), each expecting what happened.`, 'Run Playtest')
      .then((choice) => {
        if (choice) void tests()?.runFile(uri);
      });
    return uri;
  };
}

/** `narratoria.playtests.replayTurn` / `.showTurnGraph`: the failed turn's recorded run in the debugger, or as a graph. */
export function turnRunCommand(tests: () => PlaytestTests | undefined, command: 'narratoria.replayRun' | 'narratoria.showPlanGraph') {
  return async (argument?: TestMessageArguments): Promise<unknown> => {
    const item = argument?.test;
    const record = item ? tests()?.runRecordOf(item) : undefined;
    if (!record) {
      void vscode.window.showInformationMessage('This turn has no recorded run: run its playtest first.');
      return undefined;
    }
    return vscode.commands.executeCommand(command, record);
  };
}
