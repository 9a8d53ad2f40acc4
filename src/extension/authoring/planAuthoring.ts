// Wires the Plan JSON authoring features into VS Code: the plan workspace, diagnostics, language providers, code lens and Run Plan (live in the graph).
import * as vscode from 'vscode';
import type { NarratoriaSettings } from '../settings.js';
import type { SkillsService } from '../skills/skillsService.js';
import type { PlanGraphService } from '../graph/planGraphService.js';
import { PlanCodeLensProvider } from './planCodeLens.js';
import { PlanDiagnostics } from './planDiagnostics.js';
import { registerPlanLanguageFeatures } from './planLanguageFeatures.js';
import { PLAN_DOCUMENT_SELECTOR, PlanWorkspace } from './planWorkspace.js';
import { runPlanCommand } from './runPlanCommand.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

export interface PlanAuthoringOptions {
  readonly extensionUri: vscode.Uri;
  readonly root: string | undefined;
  readonly skills: SkillsService;
  readonly settings: () => NarratoriaSettings;
  readonly scriptEnvironment: () => Promise<Readonly<Record<string, string>>>;
  readonly log: vscode.LogOutputChannel;
  /** The plan graph views: Run Plan shows its run live in the graph of the plan. */
  readonly graphs: PlanGraphService;
}

export class PlanAuthoring implements vscode.Disposable {
  readonly plans: PlanWorkspace;
  readonly diagnostics: PlanDiagnostics;
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: PlanAuthoringOptions) {
    this.plans = new PlanWorkspace(options.skills, options.root);
    this.diagnostics = new PlanDiagnostics(this.plans, (code) => this.docsOf(code), options.log);
    this.disposables.addAll(
      this.plans,
      this.diagnostics,
      vscode.languages.registerCodeLensProvider(PLAN_DOCUMENT_SELECTOR, new PlanCodeLensProvider(this.plans)),
      ...registerPlanLanguageFeatures(this.plans),
    );
  }

  /** The command handler of `narratoria.runPlan`. */
  runPlan(): ReturnType<typeof runPlanCommand> {
    return runPlanCommand({
      plans: this.plans,
      skills: this.options.skills,
      settings: this.options.settings,
      scriptEnvironment: this.options.scriptEnvironment,
      log: this.options.log,
      onRunStarted: (document, run, toolIds, label) => this.options.graphs.attachRun(document, run, toolIds, label),
    });
  }

  /** The section of docs/diagnostics.md that explains a diagnostic code. */
  docsOf(code: string): vscode.Uri {
    return vscode.Uri.joinPath(this.options.extensionUri, 'docs', 'diagnostics.md').with({ fragment: code.toLowerCase() });
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
