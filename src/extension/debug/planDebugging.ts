// Wires the plan debugger into VS Code: the inline adapter factory and the configuration providers of the `narratoria` debug type.
import * as vscode from 'vscode';
import type { PlanGraphService } from '../graph/planGraphService.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DebugAdapterFactory } from './debugAdapterFactory.js';
import { DEBUG_TYPE, DebugConfigurationProvider, DynamicDebugConfigurationProvider } from './debugConfigurationProvider.js';

export interface PlanDebuggingOptions {
  readonly root: vscode.Uri | undefined;
  readonly skills: SkillsService;
  readonly graphs: PlanGraphService;
  readonly log: vscode.LogOutputChannel;
}

export class PlanDebugging implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(options: PlanDebuggingOptions) {
    const factory = new DebugAdapterFactory({ root: options.root?.fsPath, skills: options.skills, graphs: options.graphs, log: options.log });
    this.disposables.push(
      factory,
      vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, factory),
      vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new DebugConfigurationProvider(options.root), vscode.DebugConfigurationProviderTriggerKind.Initial),
      vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new DynamicDebugConfigurationProvider(), vscode.DebugConfigurationProviderTriggerKind.Dynamic),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0).reverse()) disposable.dispose();
  }
}
