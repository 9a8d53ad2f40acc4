// The last input each skill script ran with in the Inspector (or Run/Debug Skill Script), kept in the workspace's state.
import type * as vscode from 'vscode';

const KEY = 'narratoria.inspector.lastInputs';
/** Scripts remembered; the oldest is forgotten first. */
const MAX_SCRIPTS = 200;

export class LastInputs {
  constructor(private readonly memento: vscode.Memento) {}

  get(scriptPath: string): Record<string, unknown> | undefined {
    return this.all()[scriptPath];
  }

  async set(scriptPath: string, input: Record<string, unknown>): Promise<void> {
    const all = this.all();
    delete all[scriptPath];
    all[scriptPath] = input;
    const keys = Object.keys(all);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_SCRIPTS))) delete all[key];
    await this.memento.update(KEY, all);
  }

  private all(): Record<string, Record<string, unknown>> {
    const stored = this.memento.get<unknown>(KEY);
    return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, Record<string, unknown>>) } : {};
  }
}
