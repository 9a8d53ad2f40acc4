// Launch configurations of the `narratoria` debug type: launch.json entries, F5 without a launch.json, the Run and Debug picker, and the Restricted Mode refusal; the adapter does the rest.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { NarratoriaLaunchArguments } from '../../runtime/debug/dap/launchArguments.js';
import { readSettings } from '../settings.js';

export const DEBUG_TYPE = 'narratoria';

/** A `narratoria` configuration: the runtime's launch arguments (package.json `debuggers[0].configurationAttributes.launch`). */
export type NarratoriaLaunchConfiguration = vscode.DebugConfiguration & NarratoriaLaunchArguments;

/** A run record of the workspace: `<story>/.narratoria/runs/<id>.json`. */
const RUN_RECORD_PATH = /[\\/]\.narratoria[\\/]runs[\\/][^\\/]+\.json$/;

/** True for a plan file (`*.plan.json`). */
export function isPlanFile(uri: vscode.Uri): boolean {
  return uri.path.endsWith('.plan.json');
}

/** True for a run record (`.narratoria/runs/<id>.json`). */
export function isRunRecord(uri: vscode.Uri): boolean {
  return RUN_RECORD_PATH.test(uri.path);
}

/** The configuration that debugs a plan file. */
export function planConfiguration(plan: vscode.Uri): NarratoriaLaunchConfiguration {
  return { type: DEBUG_TYPE, request: 'launch', name: `Debug ${path.basename(plan.path)}`, plan: plan.fsPath, stopOnEntry: false };
}

/** The configuration that replays a run record or an ExecutionResult (nothing runs). */
export function replayConfiguration(record: vscode.Uri): NarratoriaLaunchConfiguration {
  return { type: DEBUG_TYPE, request: 'launch', name: `Replay ${path.basename(record.path)}`, replay: record.fsPath };
}

/**
 * Says why a live launch (a plan or a script, not a replay) does not start in Restricted Mode;
 * offers to manage trust, never to run anyway.
 */
export function refuseLiveLaunch(what: string): void {
  void vscode.window
    .showErrorMessage(
      `Debugging ${what} is off in Restricted Mode: it would start skill scripts as processes on this machine. ` +
        "Trust the workspace to debug live runs; a run record's states and timeline stay readable with Show Plan Graph.",
      'Manage Workspace Trust',
    )
    .then((choice) => choice && vscode.commands.executeCommand('workbench.trust.manage'));
}

/** Resolves F5 and launch.json configurations; gives launch.json its first entries. */
export class DebugConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(
    /** The story root of the window, whose settings apply when a session has no workspace folder. */
    private readonly root: vscode.Uri | undefined,
  ) {}

  /** The entries a new launch.json starts with (the same as `initialConfigurations` in package.json). */
  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: DEBUG_TYPE, request: 'launch', name: 'Debug Plan', plan: '${file}', stopOnEntry: true }];
  }

  /** Before variables are replaced: F5 without a launch.json, and configurations that name nothing to debug. */
  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, configuration: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    let resolved = configuration as NarratoriaLaunchConfiguration;
    // F5 without a launch.json: debug the plan, or replay the run record, in the active editor.
    if (!configuration.type && !configuration.request && !configuration.name) {
      const active = vscode.window.activeTextEditor?.document.uri;
      // Run Without Debugging (Ctrl+F5) comes as `noDebug`: kept.
      const noDebug = configuration['noDebug'] === true ? { noDebug: true } : {};
      if (active && isPlanFile(active)) resolved = { ...planConfiguration(active), ...noDebug };
      else if (active && isRunRecord(active)) resolved = { ...replayConfiguration(active), ...noDebug };
      else {
        void vscode.window.showInformationMessage(
          'Narratoria debugs a *.plan.json file or replays a run record (.narratoria/runs/<id>.json): open one and press F5 again, or add a "narratoria" launch configuration.',
        );
        return undefined;
      }
    }
    if (!resolved.plan && !resolved.replay && !resolved.script) {
      void vscode.window.showErrorMessage(
        `The launch configuration "${resolved.name}" names nothing to debug: set "plan" (a plan file), "replay" (a run record) or "script" (a skill script with its "input").`,
      );
      return undefined;
    }
    return resolved;
  }

  /** After `${file}` and the other variables are replaced: refuses a live launch in Restricted Mode, fills the limits from the settings. */
  resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    configuration: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    const resolved = configuration as NarratoriaLaunchConfiguration;
    if (!resolved.replay && !vscode.workspace.isTrusted) {
      refuseLiveLaunch(
        typeof resolved.plan === 'string'
          ? `the plan ${path.basename(resolved.plan)}`
          : typeof resolved.script === 'string'
            ? `the script ${path.basename(resolved.script)}`
            : `"${resolved.name}"`,
      );
      return undefined;
    }
    return withSettingLimits(resolved, readSettings(folder?.uri ?? this.root));
  }
}

/** The Run and Debug view's picker: a configuration per plan file and per run record of the workspace. */
export class DynamicDebugConfigurationProvider implements vscode.DebugConfigurationProvider {
  async provideDebugConfigurations(folder: vscode.WorkspaceFolder | undefined, token?: vscode.CancellationToken): Promise<vscode.DebugConfiguration[]> {
    const pattern = (glob: string): vscode.GlobPattern => (folder ? new vscode.RelativePattern(folder, glob) : glob);
    const [plans, records] = await Promise.all([
      vscode.workspace.findFiles(pattern('**/*.plan.json'), '**/node_modules/**', PICKER_LIMIT, token),
      vscode.workspace.findFiles(pattern('**/.narratoria/runs/*.json'), undefined, PICKER_LIMIT, token),
    ]);
    const byPath = (left: vscode.Uri, right: vscode.Uri) => left.path.localeCompare(right.path);
    return [...plans.sort(byPath).map(planConfiguration), ...records.sort(byPath).map(replayConfiguration)];
  }
}

/** Margin: the picker lists at most this many plans (and run records); launch.json covers the rest. */
const PICKER_LIMIT = 50;

/** Fills the execution limits a configuration leaves out from the `narratoria.execution.*` settings, as Run Plan uses them. */
function withSettingLimits(configuration: NarratoriaLaunchConfiguration, settings: ReturnType<typeof readSettings>): NarratoriaLaunchConfiguration {
  return {
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
    ...(settings.toolTimeoutMs ? { toolTimeoutMs: settings.toolTimeoutMs } : {}),
    ...(settings.planTimeoutMs ? { planTimeoutMs: settings.planTimeoutMs } : {}),
    ...configuration,
  };
}
