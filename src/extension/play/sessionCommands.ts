// The play-through commands (New Game, Continue…, Delete Play-through…): quick picks and messages over the PlayController; the choices themselves are the runtime's (sessionPicks.ts).
import * as vscode from 'vscode';
import type { SessionPickEntry } from '../../runtime/session/sessionPicks.js';
import type { PlayController } from './playController.js';

interface SessionPickItem extends vscode.QuickPickItem {
  readonly entry: SessionPickEntry;
}

/** Quick pick items of the entries: unreadable ones say why and cannot be chosen. */
function pickItems(entries: readonly SessionPickEntry[]): SessionPickItem[] {
  return entries.map((entry) => ({
    entry,
    label: `${entry.openable ? (entry.current ? '$(play)' : '$(history)') : '$(error)'} ${entry.label}`,
    description: entry.description,
    detail: entry.detail,
  }));
}

/** Shows the saved play-throughs and returns the one picked (undefined when dismissed). */
async function pickSession(controller: PlayController, title: string, placeHolder: string, openableOnly: boolean): Promise<SessionPickEntry | undefined> {
  const entries = await controller.sessionPicks();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage('This story has no saved play-through yet: play a turn and it is saved.');
    return undefined;
  }
  for (;;) {
    const picked = await vscode.window.showQuickPick(pickItems(entries), { title, placeHolder, matchOnDescription: true, matchOnDetail: true });
    if (!picked) return undefined;
    if (picked.entry.openable || !openableOnly) return picked.entry;
    // A damaged session, or one of another format version: said, never opened; its file stays as it is.
    await vscode.window.showWarningMessage(`The play-through "${picked.entry.label}" cannot be opened: ${picked.entry.detail}. It was left as it is.`, {
      modal: true,
    });
  }
}

/** `narratoria.play.continue`: the session picker; the chosen play-through comes back with its state, turns, seed and skill data. */
export function continueSessionCommand(controller: () => PlayController | undefined, showPanel: () => void) {
  return async (): Promise<string | undefined> => {
    const play = controller();
    if (!play) return undefined;
    const entry = await pickSession(play, 'Continue a Play-through', 'Pick a saved play-through (last played first)', true);
    if (!entry) return undefined;
    showPanel();
    return play.continueSession(entry.target);
  };
}

/** `narratoria.play.newGame`: a new play-through; the current one stays saved (nothing to confirm: nothing is lost). */
export function newGameCommand(controller: () => PlayController | undefined, showPanel: () => void) {
  return async (): Promise<string | undefined> => {
    const play = controller();
    if (!play) return undefined;
    showPanel();
    const previous = play.sessionName;
    const id = await play.newGame();
    void vscode.window.showInformationMessage(`New game "${id}".${previous && previous !== id ? ` "${previous}" stays saved: Continue… lists it.` : ''}`);
    return id;
  };
}

/** `narratoria.play.deleteSession`: deletes a saved play-through and its skills' data, after a modal confirmation; never the current one. */
export function deleteSessionCommand(controller: () => PlayController | undefined) {
  return async (): Promise<void> => {
    const play = controller();
    if (!play) return;
    const entry = await pickSession(play, 'Delete a Play-through', "Pick the play-through to delete with its skills' data", false);
    if (!entry) return;
    if (entry.target.kind === 'olderFile') {
      void vscode.window.showInformationMessage(
        'The older session file (.narratoria/session.json) is not deleted from here: delete the file itself if you no longer need it.',
      );
      return;
    }
    const id = entry.target.id;
    const answer = await vscode.window.showWarningMessage(
      `Delete the play-through "${id}"?`,
      { modal: true, detail: `Its session file and its skills' data under .narratoria/sessions/${id} are deleted.` },
      'Delete',
    );
    if (answer !== 'Delete') return;
    const outcome = await play.deleteSession(id);
    if (outcome === 'current')
      void vscode.window.showWarningMessage(`"${id}" is the play-through the panel plays: start a New Game or Continue another one first.`);
    else if (outcome === 'missing') void vscode.window.showInformationMessage(`There is no play-through "${id}" any more.`);
  };
}
