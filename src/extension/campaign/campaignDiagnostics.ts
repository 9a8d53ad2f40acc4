// Publishes each campaign's validation to the Problems panel ('narratoria-campaign'), again a moment after each change, leaving out what VS Code's JSON validation already shows.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { shownByEditor, type EditorState } from '../../runtime/campaign/authoring/index.js';
import { validateLoadedCampaign, type CampaignDiagnostic, type CampaignReplacement, type CampaignValidation } from '../../runtime/campaign/index.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import { rangeOfSource } from '../authoring/planConvert.js';
import { diagnosticKey } from './campaignCodeActions.js';
import type { CampaignEditingWorkspace } from './campaignEditingWorkspace.js';

/** Delay after the last change before a campaign is checked again. */
const TYPING_DELAY_MS = 300;

/** VS Code's JSON language features, which check open JSON files (syntax, and the schemas of jsonValidation). */
const JSON_EXTENSION = 'vscode.json-language-features';

const severities: Record<CampaignDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class CampaignDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('narratoria-campaign');
  /** The URIs each campaign published to, so a file that no longer has problems (or no longer exists) is cleared. */
  private readonly published = new Map<string, Set<string>>();
  /** The fixes of the published diagnostics, by file URI and diagnosticKey. */
  private readonly replacements = new Map<string, Map<string, CampaignReplacement>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables = new DisposableStore();
  private readonly validated = new vscode.EventEmitter<{ readonly folder: string; readonly validation: CampaignValidation }>();

  /** A campaign was checked and its problems published (the Campaign view shows the same validation). */
  readonly onDidValidate = this.validated.event;

  constructor(
    private readonly campaigns: CampaignEditingWorkspace,
    private readonly docs: (code: string) => vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.addAll(
      this.collection,
      this.validated,
      campaigns.onDidChangeCampaign((folder) => this.schedule(folder, TYPING_DELAY_MS)),
      campaigns.onDidRemoveCampaign((folder) => this.clear(folder)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('json.validate')) this.scheduleAll();
      }),
      vscode.extensions.onDidChange(() => this.scheduleAll()),
    );
  }

  /**
   * Validates a campaign now, from its files as they are (not as last read), and publishes the result (resolves when
   * published or superseded by a newer change).
   */
  async validateNow(folder: string): Promise<void> {
    clearTimeout(this.timers.get(folder));
    this.timers.delete(folder);
    this.campaigns.markStale(folder);
    const generation = this.campaigns.generationOf(folder);
    try {
      const campaign = await this.campaigns.campaign(folder);
      if (!campaign) {
        this.clear(folder);
        return;
      }
      const validation = await validateLoadedCampaign(campaign);
      // A newer change is on its way: its own validation publishes.
      if (this.campaigns.generationOf(folder) !== generation) return;
      this.publish(folder, validation.diagnostics);
      this.validated.fire({ folder, validation });
    } catch (error) {
      this.log.error(`validating the campaign ${folder} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  /** The fix the checks gave a diagnostic this collection published for the file. */
  replacementOf(uri: vscode.Uri, diagnostic: vscode.Diagnostic): CampaignReplacement | undefined {
    return this.replacements.get(uri.toString())?.get(diagnosticKey(diagnostic));
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.disposables.dispose();
  }

  private schedule(folder: string, delayMs: number): void {
    clearTimeout(this.timers.get(folder));
    this.timers.set(
      folder,
      setTimeout(() => void this.validateNow(folder), delayMs),
    );
  }

  private scheduleAll(): void {
    for (const folder of this.campaigns.folders) this.schedule(folder, 0);
  }

  private publish(folder: string, diagnostics: readonly CampaignDiagnostic[]): void {
    const editor = editorState(folder);
    const byUri = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[]; replacements: Map<string, CampaignReplacement> }>();
    for (const diagnostic of diagnostics) {
      const file = absolute(folder, diagnostic.file);
      if (shownByEditor(diagnostic, file, editor)) continue;
      const uri = vscode.Uri.file(file);
      const entry = byUri.get(uri.toString()) ?? { uri, diagnostics: [], replacements: new Map<string, CampaignReplacement>() };
      const shown = this.toDiagnostic(folder, diagnostic);
      entry.diagnostics.push(shown);
      if (diagnostic.replacement) entry.replacements.set(diagnosticKey(shown), diagnostic.replacement);
      byUri.set(uri.toString(), entry);
    }
    for (const stale of this.published.get(folder) ?? []) {
      if (byUri.has(stale)) continue;
      this.collection.delete(vscode.Uri.parse(stale));
      this.replacements.delete(stale);
    }
    for (const { uri, diagnostics: list, replacements } of byUri.values()) {
      this.collection.set(uri, list);
      this.replacements.set(uri.toString(), replacements);
    }
    this.published.set(folder, new Set(byUri.keys()));
  }

  private clear(folder: string): void {
    clearTimeout(this.timers.get(folder));
    this.timers.delete(folder);
    for (const uri of this.published.get(folder) ?? []) {
      this.collection.delete(vscode.Uri.parse(uri));
      this.replacements.delete(uri);
    }
    this.published.delete(folder);
  }

  private toDiagnostic(folder: string, diagnostic: CampaignDiagnostic): vscode.Diagnostic {
    const range = diagnostic.range ? rangeOfSource(diagnostic.range) : new vscode.Range(0, 0, 0, 0);
    const result = new vscode.Diagnostic(range, diagnostic.message, severities[diagnostic.severity]);
    result.source = 'narratoria';
    result.code = { value: diagnostic.code, target: this.docs(diagnostic.code) };
    if (diagnostic.related && diagnostic.related.length > 0) {
      result.relatedInformation = diagnostic.related.map((information) => {
        const where = information.range ? rangeOfSource(information.range) : new vscode.Range(0, 0, 0, 0);
        return new vscode.DiagnosticRelatedInformation(new vscode.Location(vscode.Uri.file(absolute(folder, information.file)), where), information.message);
      });
    }
    return result;
  }
}

/** Which campaign files VS Code has open, and whether it checks JSON itself. */
function editorState(folder: string): EditorState {
  const languages = new Map<string, string>();
  for (const document of vscode.workspace.textDocuments) {
    if (document.uri.scheme === 'file' && !document.isClosed) languages.set(document.uri.fsPath, document.languageId);
  }
  const jsonValidation =
    vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) && vscode.extensions.getExtension(JSON_EXTENSION) !== undefined;
  return { languageOf: (file) => languages.get(absolute(folder, file)), jsonValidation };
}

/** The absolute path of a campaign-relative path ('' is the folder). */
function absolute(folder: string, file: string): string {
  return file === '' ? folder : path.join(folder, ...file.split('/'));
}
