// Helpers shared by the extension-host test suites (bundled into each): the extension under test and the story workspace it runs in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** `publisher.name` from package.json. */
export const EXTENSION_ID = 'narratoria.narratoria-vscode';

/** The extension under test, activated. */
export async function activatedExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
  await extension.activate();
  return extension;
}

/** The story workspace the tests were started in (a copy of the sample skills under `skills/`). */
export function storyFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder (the runners open a story workspace)');
  return folder.uri;
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
