// The one object that owns the extension's state and disposables: log, settings, skills, narrator, play session, views and the plan debugger.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScriptRuns } from '../runtime/inspect/scriptRuns.js';
import { InspectorPanel, INSPECTOR_VIEW_TYPE, type InspectorHost } from './inspect/inspectorPanel.js';
import { findScript, liveTarget } from './inspect/inspectorTargets.js';
import { LastInputs } from './inspect/lastInputs.js';
import { NdjsonDiagnosticsPublisher } from './inspect/ndjsonDiagnosticsPublisher.js';
import { RunComparisons } from './inspect/runComparison.js';
import { PlanAuthoring } from './authoring/planAuthoring.js';
import { PlanDebugging } from './debug/planDebugging.js';
import { PlanGraphService } from './graph/planGraphService.js';
import { NarratorService } from './narrator/narratorService.js';
import { NarratorStatusBar } from './narrator/narratorStatusBar.js';
import { PlayController } from './play/playController.js';
import { PlayPanel, PLAY_PANEL_VIEW_TYPE, type PlayPanelHost } from './play/playPanel.js';
import { readSettings, type NarratoriaSettings } from './settings.js';
import { ManifestHintDiagnostics } from './skills/manifestHintDiagnostics.js';
import { SkillProblemDiagnostics } from './skills/skillProblemDiagnostics.js';
import { healthLabelOf } from '../runtime/skills/skillHealthLabel.js';
import { SkillsService } from './skills/skillsService.js';
import { problemRange, SkillsTreeProvider, type SkillTreeNode } from './skills/skillsTreeProvider.js';
import { SkillCoverageStore } from './coverage/skillCoverageStore.js';
import { PlaytestTests } from './playtest/playtestTests.js';
import { PlaytestEditorSupport } from './playtest/playtestEditorSupport.js';
import { DisposableStore } from '../runtime/common/disposable.js';
import { CampaignView } from './campaign/campaignView.js';
import { CampaignEditing } from './campaign/campaignEditing.js';

/** Picks the story root: the first workspace folder with a skills/ folder, else the first folder. */
function storyRoot(): vscode.Uri | undefined {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  return (folders.find((folder) => existsSync(path.join(folder.uri.fsPath, 'skills'))) ?? folders[0])?.uri;
}

export class NarratoriaContext implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly root: vscode.Uri | undefined;
  readonly skills: SkillsService;
  readonly narrator: NarratorService;
  private playController: PlayController | undefined;
  readonly tree: SkillsTreeProvider;
  /** The last coverage run's per-skill counts (Run with Coverage, Explore Story). */
  readonly skillCoverage: SkillCoverageStore;
  readonly treeView: vscode.TreeView<SkillTreeNode>;
  readonly authoring: PlanAuthoring;
  readonly graphs: PlanGraphService;
  readonly debugging: PlanDebugging;
  readonly recordings: NdjsonDiagnosticsPublisher;
  readonly manifestHints: ManifestHintDiagnostics;
  /** The skills' problems (a broken skill.json first of all) in the Problems panel. */
  readonly skillProblems: SkillProblemDiagnostics;
  readonly lastInputs: LastInputs;
  /** The "Narratoria Playtests" Test Controller. */
  readonly playtests: PlaytestTests;
  /** Problems and skill-name completion in playtest files. */
  readonly playtestEditing: PlaytestEditorSupport;
  private readonly comparisons: RunComparisons;
  /** Campaigns (issue 43): the Campaign view, the beat graph, the lore lens and chunk preview. */
  readonly campaignView: CampaignView;
  /** Campaign files: problems as the author types, completion, hover, navigation and rename of beat ids and NPC names. */
  readonly campaignEditing: CampaignEditing;
  private readonly disposables = new DisposableStore();

  constructor(readonly extension: vscode.ExtensionContext) {
    this.log = vscode.window.createOutputChannel('Narratoria', { log: true });
    this.root = storyRoot();
    const settings = (): NarratoriaSettings => readSettings(this.root);
    this.skills = new SkillsService({
      root: this.root?.fsPath,
      sampleSkillsDirectory: this.sampleSkillsDirectory,
      settings,
      workspaceState: extension.workspaceState,
      secrets: extension.secrets,
      log: this.log,
    });
    this.narrator = new NarratorService({
      root: this.root?.fsPath,
      settings,
      log: this.log,
      skills: async () => {
        await this.skills.ready();
        const disabled = this.skills.disabledSkills();
        return this.skills.narratorSkills().filter((skill) => !disabled.includes(skill.name));
      },
    });
    this.skillCoverage = new SkillCoverageStore();
    this.tree = new SkillsTreeProvider(this.skills, this.skillCoverage);
    this.treeView = vscode.window.createTreeView('narratoria.skills', { treeDataProvider: this.tree, showCollapseAll: true });
    this.graphs = new PlanGraphService({
      extensionUri: extension.extensionUri,
      log: this.log,
      root: this.root?.fsPath,
      planModel: (document) => this.authoring.plans.model(document).current,
    });
    this.authoring = new PlanAuthoring({
      graphs: this.graphs,
      extensionUri: extension.extensionUri,
      root: this.root?.fsPath,
      skills: this.skills,
      settings,
      scriptEnvironment: () => this.narrator.scriptEnvironment(),
      log: this.log,
    });
    this.debugging = new PlanDebugging({ root: this.root, skills: this.skills, graphs: this.graphs, log: this.log });
    this.recordings = new NdjsonDiagnosticsPublisher();
    this.manifestHints = new ManifestHintDiagnostics((code) => this.authoring.docsOf(code));
    this.skillProblems = new SkillProblemDiagnostics(this.skills, (code) => this.authoring.docsOf(code));
    this.lastInputs = new LastInputs(extension.workspaceState);
    this.comparisons = new RunComparisons();
    this.playtests = new PlaytestTests({ root: this.root?.fsPath, skills: this.skills, narrator: this.narrator, log: this.log, coverage: this.skillCoverage });
    this.playtestEditing = new PlaytestEditorSupport(this.skills);
    this.disposables.addAll(this.playtests, this.playtestEditing, this.skillCoverage);
    this.campaignEditing = this.disposables.add(new CampaignEditing({ docs: (code) => this.authoring.docsOf(code), log: this.log }));
    this.campaignView = this.disposables.add(new CampaignView(extension.extensionUri, this.campaignEditing, this.log));
    this.disposables.addAll(
      this.log,
      this.skills,
      this.narrator,
      this.tree,
      this.treeView,
      new NarratorStatusBar(this.narrator),
      this.authoring,
      this.graphs,
      this.debugging,
      this.recordings,
      this.manifestHints,
      this.skillProblems,
      this.comparisons,
    );
    this.disposables.addAll(
      vscode.workspace.onDidChangeConfiguration((event) => this.onSettingsChanged(event)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('the workspace is now trusted: skill scripts may run');
        this.playController?.invalidateSession();
        void this.skills.reload();
      }),
      this.skills.onDidChangeSkills(() => this.updateTreeMessage()),
      vscode.window.registerWebviewPanelSerializer(PLAY_PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => {
          if (!this.root) {
            panel.dispose();
            return;
          }
          PlayPanel.revive(panel, this.playPanelHost());
        },
      }),
      vscode.window.registerWebviewPanelSerializer(INSPECTOR_VIEW_TYPE, {
        deserializeWebviewPanel: (panel, state) =>
          InspectorPanel.revive(panel, this.inspectorHost(), state, async (scriptPath) => {
            const found = await findScript(this.skills, scriptPath);
            return found && liveTarget(this, found.skill, found.script, this.lastInputs.get(found.script.path) ?? {});
          }),
      }),
    );
    this.skills.watch();
    void this.skills.ready().catch((error: unknown) => this.log.error(`loading the skills failed: ${String(error)}`));
    this.log.info(
      `Narratoria ${String(extension.extension.packageJSON['version'])} activated for ${this.root?.fsPath ?? 'no folder'}${vscode.workspace.isTrusted ? '' : ' (untrusted: nothing runs)'}`,
    );
  }

  /** The Inspector panel's current run or recording, if the panel is open. */
  get inspector(): typeof InspectorPanel.shown {
    return InspectorPanel.shown;
  }

  get sampleSkillsDirectory(): string {
    return vscode.Uri.joinPath(this.extension.extensionUri, 'skills').fsPath;
  }

  /** The play controller, created on first use (it needs a folder). */
  get play(): PlayController | undefined {
    if (!this.root) return undefined;
    if (!this.playController) {
      this.playController = new PlayController({
        root: this.root.fsPath,
        skills: this.skills,
        narrator: this.narrator,
        settings: () => readSettings(this.root),
        log: this.log,
      });
      this.disposables.addAll(
        this.playController,
        this.playController.onDidChangeBusy((busy) => void vscode.commands.executeCommand('setContext', 'narratoria.turnRunning', busy)),
      );
    }
    return this.playController;
  }

  /** What the Inspector panel runs scripts with, keeps their inputs and runs in, and compares runs through. */
  inspectorHost(): InspectorHost {
    const storage = this.extension.storageUri ?? this.extension.globalStorageUri;
    return {
      extensionUri: this.extension.extensionUri,
      log: this.log,
      skillContext: this.skills,
      scriptEnvironment: () => this.narrator.scriptEnvironment(),
      lastInputs: this.lastInputs,
      scriptRuns: new ScriptRuns(vscode.Uri.joinPath(storage, 'inspector').fsPath),
      comparisons: this.comparisons,
    };
  }

  playPanelHost(): PlayPanelHost {
    const controller = this.play;
    if (!controller) throw new Error('the play panel needs an open folder');
    return {
      extensionUri: this.extension.extensionUri,
      controller,
      assetRoots: () => [this.root!, ...this.skills.extraSkillRoots().map((root) => vscode.Uri.file(root))],
      log: this.log,
      newGame: () => vscode.commands.executeCommand('narratoria.play.newGame'),
      chooseSession: () => vscode.commands.executeCommand('narratoria.play.continue'),
      onDidChangeAssetRoots: (listener) =>
        this.skills.onDidChangeSkills(() => {
          listener();
        }),
      openSkill: async (name) => {
        const skill = this.skills.skills.find((candidate) => candidate.name === name);
        const broken = skill ? undefined : this.skills.brokenSkills.find((candidate) => candidate.name === name);
        if (broken) {
          // A skill whose skill.json does not load: its manifest, at the problem.
          const range = broken.problems[0] ? problemRange(broken.problems[0]) : undefined;
          await vscode.window.showTextDocument(vscode.Uri.file(broken.manifestPath), range ? { selection: range } : {});
          return;
        }
        if (!skill) return;
        await vscode.commands.executeCommand('narratoria.skills.focus');
        await this.treeView.reveal({ kind: 'skill', skill }, { select: true, focus: true, expand: true }).then(undefined, () => undefined);
      },
    };
  }

  dispose(): void {
    try {
      this.disposables.dispose();
    } catch (error) {
      console.error('Narratoria: dispose failed', error);
    }
  }

  private onSettingsChanged(event: vscode.ConfigurationChangeEvent): void {
    if (!event.affectsConfiguration('narratoria', this.root)) return;
    if (event.affectsConfiguration('narratoria.narrator', this.root)) {
      this.log.info('narrator settings changed: the next turn chooses the narrator again');
      void this.narrator.reset();
    }
    if (event.affectsConfiguration('narratoria.skills', this.root)) {
      this.log.info('skills settings changed: reloading the skills');
      void this.skills.reload();
    }
    this.playController?.invalidateSession();
  }

  private updateTreeMessage(): void {
    const unhealthy =
      this.skills.skills.filter((skill) => {
        const status = this.skills.status(skill.name);
        const label = status ? healthLabelOf(status) : 'healthy';
        return label === 'degraded' || label === 'unusable';
      }).length + this.skills.brokenSkills.length;
    this.treeView.badge = unhealthy > 0 ? { value: unhealthy, tooltip: `${unhealthy} skill(s) not healthy` } : undefined;
    const restricted = !vscode.workspace.isTrusted && this.skills.skills.length > 0;
    this.treeView.message = restricted ? 'Restricted Mode: skills are listed but nothing runs until you trust this workspace.' : '';
  }
}
