// Extension entry point.
export function activate(): void {}
export function deactivate(): void {}
