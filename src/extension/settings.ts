// Reads the `narratoria.*` settings into one typed object; knows nothing about what they drive.
import * as vscode from 'vscode';
import type { NarratorMode } from '../runtime/narrator/narratorFactory.js';

/** The `narratoria.*` settings of one workspace folder (package.json `contributes.configuration`). */
export interface NarratoriaSettings {
  /** Extra skills roots, absolute. */
  readonly skillLocations: readonly string[];
  readonly includeSampleSkills: boolean;
  /** Folders outside skills/ whose scripts plans may run, absolute; always empty in an untrusted workspace. */
  readonly allowedToolRoots: readonly string[];
  readonly narratorMode: NarratorMode;
  /** Absolute model file, or undefined for the cached default model. */
  readonly modelPath: string | undefined;
  readonly downloadBaseUrl: string;
  /** The local model's budget per decision (docs/design-rules.md#the-generation-budget), ms. */
  readonly narratorBudgetMs: number | undefined;
  /** The local model's CPU threads; undefined: chosen from the cores and the model's size. */
  readonly narratorThreads: number | undefined;
  readonly concurrency: number | undefined;
  readonly toolTimeoutMs: number | undefined;
  readonly planTimeoutMs: number | undefined;
  /** Bounds a play turn's whole replan loop, ms; undefined: the runtime default (two plan timeouts). */
  readonly turnBudgetMs: number | undefined;
  readonly maxEventsPerTool: number | undefined;
}

const positiveOrUndefined = (value: number | undefined): number | undefined =>
  value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

/** Reads the settings for `folder` (relative paths resolve against it). */
export function readSettings(folder: vscode.Uri | undefined): NarratoriaSettings {
  const config = vscode.workspace.getConfiguration('narratoria', folder);
  const base = folder?.fsPath;
  const resolve = (value: string): string => (base && !isAbsolute(value) ? joinPath(base, value) : value);
  const mode = config.get<string>('narrator.mode', 'auto');
  const modelPath = config.get<string>('narrator.modelPath', '').trim();
  const folders = (key: string): string[] =>
    config
      .get<unknown[]>(key, [])
      .filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
      .map((entry) => resolve(expandHome(entry.trim())));
  return {
    skillLocations: folders('skills.locations'),
    // A plan is untrusted input: in Restricted Mode the folders a workspace allows count for nothing (package.json restrictedConfigurations).
    allowedToolRoots: vscode.workspace.isTrusted ? folders('allowedToolRoots') : [],
    includeSampleSkills: config.get<boolean>('skills.includeSamples', false),
    narratorMode: mode === 'pattern' || mode === 'llm' ? mode : 'auto',
    modelPath: modelPath === '' ? undefined : resolve(expandHome(modelPath)),
    downloadBaseUrl: config.get<string>('narrator.downloadBaseUrl', 'https://huggingface.co').trim() || 'https://huggingface.co',
    narratorBudgetMs: positiveOrUndefined(config.get<number>('narrator.budgetMs')),
    narratorThreads: positiveOrUndefined(config.get<number>('narrator.threads')),
    concurrency: positiveOrUndefined(config.get<number>('execution.concurrency')),
    toolTimeoutMs: positiveOrUndefined(config.get<number>('execution.toolTimeoutMs')),
    planTimeoutMs: positiveOrUndefined(config.get<number>('execution.planTimeoutMs')),
    turnBudgetMs: positiveOrUndefined(config.get<number>('execution.turnBudgetMs')),
    maxEventsPerTool: positiveOrUndefined(config.get<number>('execution.maxEventsPerTool')),
  };
}

function isAbsolute(value: string): boolean {
  return value.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(value) || value.startsWith('\\\\');
}

function joinPath(base: string, relative: string): string {
  return vscode.Uri.joinPath(vscode.Uri.file(base), relative).fsPath;
}

function expandHome(value: string): string {
  const home = process.env['HOME'] ?? process.env['USERPROFILE'];
  return home && (value === '~' || value.startsWith('~/')) ? home + value.slice(1) : value;
}

/** The execution limits the settings override (only those set), as executor options. */
export function executionLimits(settings: NarratoriaSettings): {
  concurrency?: number;
  toolTimeoutMs?: number;
  planTimeoutMs?: number;
  maxEventsPerTool?: number;
} {
  return {
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
    ...(settings.toolTimeoutMs ? { toolTimeoutMs: settings.toolTimeoutMs } : {}),
    ...(settings.planTimeoutMs ? { planTimeoutMs: settings.planTimeoutMs } : {}),
    ...(settings.maxEventsPerTool ? { maxEventsPerTool: settings.maxEventsPerTool } : {}),
  };
}
