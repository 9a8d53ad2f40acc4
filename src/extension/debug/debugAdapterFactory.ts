// Creates the plan debugger inline in the extension host (a NarratoriaDebugSession per debug session) and shows its runs and paused tool in the plan graph; no debugging logic here.
import * as vscode from 'vscode';
import { NarratoriaDebugSession } from '../../runtime/debug/dap/narratoriaDebugSession.js';
import type { DebugHost, DebugLocation, DebugRunStarted } from '../../runtime/debug/dap/debugHost.js';
import type { PlanGraphService } from '../graph/planGraphService.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

export interface DebugAdapterFactoryOptions {
  /** The story root of the window, for a session without a workspace folder of its own. */
  readonly root: string | undefined;
  /** Extra skills roots and the skills' configuration, exactly as Run Plan gets them. */
  readonly skills: SkillsService;
  /** The plan graph views: a debug run shows live in the graph of its plan, with the paused tool selected. */
  readonly graphs: PlanGraphService;
  readonly log: vscode.LogOutputChannel;
}

/** The `narratoria` debug type's adapter factory: the adapter runs in this process (no executable, no server). */
export class DebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory, vscode.Disposable {
  /** What each debug session subscribed to, by session id (released when the session ends). */
  private readonly sessions = new Map<string, DisposableStore>();
  /** Live graph overlays of debug runs; each one ends with its run (a terminated session's run still reports its cancelled result). */
  private readonly liveRuns = new Set<vscode.Disposable>();
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: DebugAdapterFactoryOptions) {
    this.disposables.addAll(vscode.debug.onDidTerminateDebugSession((session) => this.release(session.id)));
  }

  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.DebugAdapterDescriptor {
    const adapter = new NarratoriaDebugSession(this.hostOf(session));
    this.release(session.id);
    const followed = new DisposableStore();
    followed.addAll(...this.follow(adapter, session));
    this.sessions.set(session.id, followed);
    this.options.log.info(`debug session "${session.name}" started (${describeTarget(session.configuration)})`);
    return new vscode.DebugAdapterInlineImplementation(adapter);
  }

  dispose(): void {
    for (const id of [...this.sessions.keys()]) this.release(id);
    for (const live of [...this.liveRuns]) live.dispose();
    this.disposables.dispose();
  }

  /** What the adapter needs from the extension host, as Run Plan provides it. */
  private hostOf(session: vscode.DebugSession): DebugHost {
    const folder = session.workspaceFolder?.uri.scheme === 'file' ? session.workspaceFolder.uri.fsPath : undefined;
    return {
      workspaceFolder: folder ?? this.options.root,
      extraSkillRoots: this.options.skills.extraSkillRoots(),
      allowedToolRoots: this.options.skills.allowedToolRoots(),
      skillContext: this.options.skills,
      isTrusted: () => vscode.workspace.isTrusted,
    };
  }

  /** Forwards the session's runs and paused tool to the plan graph; the returned disposables stop that. */
  private follow(adapter: NarratoriaDebugSession, session: vscode.DebugSession): vscode.Disposable[] {
    let highlighted: vscode.Uri | undefined;
    let live: vscode.Disposable | undefined;
    const label = `Debug: ${session.name}`;
    return [
      adapter.onDidStartRun((started: DebugRunStarted) => {
        // A fork (Restart Frame) replaces the run: the old one must not paint over the new one's states.
        live?.dispose();
        live = this.attachRun(started, label);
      }),
      adapter.onDidChangeLocation((location: DebugLocation | undefined) => {
        const target = location?.planFile ? vscode.Uri.file(location.planFile) : undefined;
        if (highlighted && highlighted.toString() !== target?.toString()) this.options.graphs.highlight(highlighted, undefined);
        if (target && location) this.options.graphs.highlight(target, location.toolId);
        highlighted = target;
      }),
      {
        dispose: () => {
          if (highlighted) this.options.graphs.highlight(highlighted, undefined);
          highlighted = undefined;
        },
      },
    ];
  }

  /** Shows a debug run (the first one, or a fork from Restart Frame) live in the open graph of its plan file, until it finishes. */
  private attachRun({ planFile, plan, run }: DebugRunStarted, label: string): vscode.Disposable | undefined {
    if (!planFile) return undefined;
    const attached = this.options.graphs.attachRun(
      vscode.Uri.file(planFile),
      run,
      plan.tools.map((tool) => tool.toolId),
      label,
    );
    // Subscribed after the overlay, so the overlay draws the final states before it is stopped.
    const finished = run.onDidFinishPlan(() => {
      live.dispose();
    });
    const live: vscode.Disposable = {
      dispose: () => {
        this.liveRuns.delete(live);
        finished.dispose();
        attached.dispose();
      },
    };
    this.liveRuns.add(live);
    return live;
  }

  private release(id: string): void {
    this.sessions.get(id)?.dispose();
    this.sessions.delete(id);
  }
}

/** The plan, replay or script a launch configuration names, for the log. */
function describeTarget(configuration: vscode.DebugConfiguration): string {
  const target = [
    configuration['replay'] ? `replay ${String(configuration['replay'])}` : undefined,
    configuration['plan'] ? `plan ${String(configuration['plan'])}` : undefined,
    configuration['script'] ? `script ${String(configuration['script'])}` : undefined,
  ].filter(Boolean);
  return target.length > 0 ? target.join(', ') : 'nothing to debug';
}
