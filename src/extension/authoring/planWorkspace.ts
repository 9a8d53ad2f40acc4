// The plan files of the workspace as the editor features see them: each document's model, story root, skill catalog and latest validation.
import * as vscode from 'vscode';
import { PlanDocumentTracker, type TrackedPlanDocument } from '../../runtime/authoring/planDocumentTracker.js';
import { findStoryRoot } from '../../runtime/authoring/storyRoot.js';
import { createSkillCatalog, type SkillCatalog } from '../../runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../runtime/skills/skillDiscovery.js';
import { validatePlanText, type PlanValidationResult } from '../../runtime/validation/validatePlan.js';
import { ALLOWED_TOOL_ROOTS_SETTING } from '../../runtime/validation/toolPathPolicy.js';
import type { SkillsService } from '../skills/skillsService.js';
import { DisposableStore } from '../../runtime/common/disposable.js';

/** Which documents are plans: `*.plan.json` files, saved or not. */
export const PLAN_DOCUMENT_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.plan.json' }];

/** True for a `*.plan.json` document. */
export function isPlanDocument(document: vscode.TextDocument): boolean {
  return document.uri.path.endsWith('.plan.json');
}

/** The latest validation of one version of a document. */
export interface PlanValidation {
  readonly version: number;
  readonly result: PlanValidationResult;
}

export class PlanWorkspace implements vscode.Disposable {
  private readonly trackers = new Map<string, PlanDocumentTracker>();
  private readonly validations = new Map<string, PlanValidation>();
  private readonly otherCatalogs = new Map<string, Promise<SkillCatalog>>();
  private readonly disposables = new DisposableStore();
  private readonly catalogEmitter = new vscode.EventEmitter<void>();

  /** Fires when what the skills say about plans may have changed (skills reloaded, health or enablement changed). */
  readonly onDidChangeCatalog = this.catalogEmitter.event;

  constructor(
    private readonly skills: SkillsService,
    private readonly workspaceRoot: string | undefined,
  ) {
    this.disposables.addAll(
      this.catalogEmitter,
      skills.onDidChangeSkills(() => {
        this.otherCatalogs.clear();
        this.catalogEmitter.fire();
      }),
      // The folders plans may run scripts from change what validation says of their toolPaths.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(ALLOWED_TOOL_ROOTS_SETTING)) this.catalogEmitter.fire();
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.trackers.delete(document.uri.toString());
        this.validations.delete(document.uri.toString());
      }),
    );
  }

  /** The model of the document's current text, and its last well-formed one. */
  model(document: vscode.TextDocument): TrackedPlanDocument {
    const key = document.uri.toString();
    let tracker = this.trackers.get(key);
    if (!tracker) {
      tracker = new PlanDocumentTracker();
      this.trackers.set(key, tracker);
    }
    return tracker.update(document.getText());
  }

  /** The story root of a plan: the nearest ancestor with skills/, else its workspace folder. */
  rootOf(document: vscode.TextDocument): string {
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? this.workspaceRoot;
    if (document.uri.scheme !== 'file') return folder ?? this.workspaceRoot ?? process.cwd();
    return findStoryRoot(document.uri.fsPath, folder);
  }

  /** The skills a plan under `root` can use: the live registry's for the story root, discovered once for other roots. */
  catalogFor(root: string): Promise<SkillCatalog> {
    if (root === this.skills.root) return this.skills.ready().then(() => this.skills.catalog());
    let catalog = this.otherCatalogs.get(root);
    if (!catalog) {
      catalog = discoverSkills({ root, extraSkillRoots: this.skills.extraSkillRoots() }).then(({ skills }) => createSkillCatalog(skills));
      this.otherCatalogs.set(root, catalog);
    }
    return catalog;
  }

  /** Validates the document's current text with the runtime's validator (the one `narratoria validate` uses). */
  async validate(document: vscode.TextDocument): Promise<PlanValidation> {
    const version = document.version;
    const root = this.rootOf(document);
    const skills = await this.catalogFor(root);
    // A tool of a skill whose skill.json is broken is an error (SKILL_BROKEN), as in `narratoria validate`.
    const brokenSkills = root === this.skills.root ? this.skills.brokenSkills : [];
    const result = await validatePlanText(document.getText(), {
      root,
      extraSkillRoots: this.skills.extraSkillRoots(),
      allowedToolRoots: this.skills.allowedToolRoots(),
      skills,
      brokenSkills,
    });
    const validation = { version, result };
    if (document.version === version) this.validations.set(document.uri.toString(), validation);
    return validation;
  }

  /** The latest validation of the document, if it is of its current version. */
  currentValidation(document: vscode.TextDocument): PlanValidation | undefined {
    const validation = this.validations.get(document.uri.toString());
    return validation?.version === document.version ? validation : undefined;
  }

  dispose(): void {
    this.disposables.dispose();
    this.trackers.clear();
    this.validations.clear();
  }
}
