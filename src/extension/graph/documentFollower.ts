// Follows a text document for a graph panel: its edits, once they pause, and its editors' cursor moves.
import * as vscode from 'vscode';

/** How long the text must rest before a graph follows it (typing redraws at most once per pause). */
export const FOLLOW_DELAY_MS = 150;

export interface DocumentFollowing {
  /** After an edit, once the text has rested FOLLOW_DELAY_MS. */
  readonly onText: () => void;
  /** When the cursor moves in an editor of the document. */
  readonly onCursor: (editor: vscode.TextEditor) => void;
}

/** Listens to `document`'s edits and cursor moves until disposed (a pending follow is dropped). */
export function followDocument(document: vscode.TextDocument, following: DocumentFollowing): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const edits = vscode.workspace.onDidChangeTextDocument((event) => {
    if (event.document !== document || event.contentChanges.length === 0) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      following.onText();
    }, FOLLOW_DELAY_MS);
  });
  const cursor = vscode.window.onDidChangeTextEditorSelection((event) => {
    if (event.textEditor.document === document) following.onCursor(event.textEditor);
  });
  return vscode.Disposable.from(edits, cursor, { dispose: () => timer && clearTimeout(timer) });
}
