// VS Code extension entry point. Only wiring lives here; the views and commands arrive with the extension issue (#4).
import type * as vscode from 'vscode';

/** Called by VS Code on activation. Nothing is contributed yet, so there is nothing to wire. */
export function activate(_context: vscode.ExtensionContext): void {}

/** Called by VS Code on shutdown; disposables registered on the context are released by VS Code. */
export function deactivate(): void {}
