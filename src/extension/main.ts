// Extension entry point: wires the NarratoriaContext and the commands; activation never loads the model.
import type * as vscode from 'vscode';
import { registerCommands } from './commands.js';
import { NarratoriaContext } from './narratoriaContext.js';

let context: NarratoriaContext | undefined;

/** Public API returned from activate (used by the extension-host tests). */
export interface NarratoriaApi {
  readonly context: NarratoriaContext;
}

export function activate(extension: vscode.ExtensionContext): NarratoriaApi {
  context = new NarratoriaContext(extension);
  extension.subscriptions.push(context, ...registerCommands(context));
  return { context };
}

export function deactivate(): void {
  context?.dispose();
  context = undefined;
}
