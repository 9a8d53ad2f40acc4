// Editing campaigns in VS Code: the campaigns of the workspace, their problems as the author types, and completion, hover, navigation and rename in their files.
import type * as vscode from 'vscode';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { CampaignDiagnostics } from './campaignDiagnostics.js';
import { CampaignEditingWorkspace } from './campaignEditingWorkspace.js';
import { registerCampaignLanguageFeatures } from './campaignLanguage.js';

export interface CampaignEditingOptions {
  /** The docs page of a diagnostic code. */
  readonly docs: (code: string) => vscode.Uri;
  readonly log: vscode.LogOutputChannel;
}

export class CampaignEditing implements vscode.Disposable {
  readonly campaigns: CampaignEditingWorkspace;
  readonly diagnostics: CampaignDiagnostics;
  private readonly disposables = new DisposableStore();

  constructor(options: CampaignEditingOptions) {
    this.campaigns = new CampaignEditingWorkspace(options.log);
    this.diagnostics = new CampaignDiagnostics(this.campaigns, options.docs, options.log);
    // Disposed in reverse: the providers and the diagnostics before the campaigns they read.
    this.disposables.addAll(this.campaigns, this.diagnostics, ...registerCampaignLanguageFeatures(this.campaigns));
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
