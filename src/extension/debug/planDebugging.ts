// Wires the plan debugger into VS Code: the inline adapter factory and the configuration providers of the `narratoria` debug type.
import * as vscode from 'vscode';
import type { PlanGraphService } from '../graph/planGraphService.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DebugAdapterFactory } from './debugAdapterFactory.js';
import { DEBUG_TYPE, DebugConfigurationProvider, DynamicDebugConfigurationProvider } from './debugConfigurationProvider.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { Narrator } from '../../runtime/narrator/index.js';

export interface PlanDebuggingOptions {
  readonly root: vscode.Uri | undefined;
  readonly skills: SkillsService;
  readonly graphs: PlanGraphService;
  readonly log: vscode.LogOutputChannel;
  /** The play narrator, for story turns and re-planning. */
  readonly narrator?: Narrator | undefined;
  /** The scripts' extra environment in play (the local model's endpoint), for story turns. */
  readonly scriptEnvironment?: (() => Promise<Readonly<Record<string, string>>>) | undefined;
}

export class PlanDebugging implements vscode.Disposable {
  private readonly disposables = new DisposableStore();

  constructor(options: PlanDebuggingOptions) {
    const factory = new DebugAdapterFactory({
      root: options.root?.fsPath,
      skills: options.skills,
      graphs: options.graphs,
      log: options.log,
      ...(options.narrator ? { narrator: options.narrator } : {}),
      ...(options.scriptEnvironment ? { scriptEnvironment: options.scriptEnvironment } : {}),
    });
    this.disposables.addAll(
      factory,
      vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, factory),
      vscode.debug.registerDebugConfigurationProvider(
        DEBUG_TYPE,
        new DebugConfigurationProvider(options.root),
        vscode.DebugConfigurationProviderTriggerKind.Initial,
      ),
      vscode.debug.registerDebugConfigurationProvider(
        DEBUG_TYPE,
        new DynamicDebugConfigurationProvider(),
        vscode.DebugConfigurationProviderTriggerKind.Dynamic,
      ),
    );
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
