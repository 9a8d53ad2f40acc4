// The Campaign view's tree: campaign entries as tree items with themed icons, health in icons, badges and tooltips; a click opens the file (a beat at its range).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CampaignDiagnostic } from '../../runtime/campaign/index.js';
import { campaignEntries, type CampaignEntry } from '../../runtime/campaign/view/campaignTree.js';
import type { HealthLevel } from '../../runtime/campaign/view/campaignHealth.js';
import { plural } from '../../runtime/common/humanText.js';
import { DisposableStore } from '../../runtime/common/disposable.js';
import type { CampaignViewService } from './campaignViewService.js';

/** The command a click on an entry runs: opens its file, revealing its range. */
export const OPEN_CAMPAIGN_ENTRY_COMMAND = 'narratoria.campaign.openEntry';

/** The scheme of the entries' resource URIs, through which their problem counts show as decorations. */
const ENTRY_SCHEME = 'narratoria-campaign-entry';

/** Sections shown collapsed at first (long lists); the others start expanded. */
const COLLAPSED_SECTIONS = new Set(['lore', 'assets', 'art', 'music', 'endings', 'npcs']);

const HEALTH_COLOURS: Readonly<Record<Exclude<HealthLevel, 'healthy' | 'info'>, string>> = {
  error: 'list.errorForeground',
  warning: 'list.warningForeground',
};

export class CampaignTreeProvider implements vscode.TreeDataProvider<CampaignEntry>, vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<CampaignEntry | undefined>();
  private readonly decorationEmitter = new vscode.EventEmitter<undefined>();
  private readonly disposables = new DisposableStore();
  private roots: CampaignEntry[] = [];
  private parents = new Map<string, CampaignEntry>();
  private byUri = new Map<string, CampaignEntry>();
  /** What the tree showed last, as text: a check that finds the same (a file saved unchanged) redraws nothing. */
  private shown: string | undefined;

  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly onDidChangeFileDecorations = this.decorationEmitter.event;

  constructor(private readonly service: CampaignViewService) {
    this.disposables.addAll(
      this.changeEmitter,
      this.decorationEmitter,
      service.onDidChange(() => this.rebuild()),
      vscode.window.registerFileDecorationProvider(this),
    );
    this.rebuild();
  }

  /** The entries at the top: a campaign's sections, or one entry per campaign when there are several. */
  get topEntries(): readonly CampaignEntry[] {
    return this.roots;
  }

  getChildren(entry?: CampaignEntry): CampaignEntry[] {
    return entry ? [...entry.children] : this.roots;
  }

  getParent(entry: CampaignEntry): CampaignEntry | undefined {
    return this.parents.get(entry.id);
  }

  getTreeItem(entry: CampaignEntry): vscode.TreeItem {
    const expandable = entry.children.length > 0;
    const key = entry.id.slice(entry.id.lastIndexOf('|section:') + '|section:'.length);
    const collapsed = entry.kind === 'npc' || (entry.kind === 'section' && COLLAPSED_SECTIONS.has(key));
    const item = new vscode.TreeItem(
      entry.label,
      !expandable ? vscode.TreeItemCollapsibleState.None : collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = entry.id;
    if (entry.description !== undefined) item.description = entry.description;
    item.iconPath = iconOf(entry);
    item.tooltip = tooltipOf(entry);
    item.resourceUri = entryUri(entry);
    item.contextValue = `narratoria.campaign.${entry.kind}${entry.open ? ' opens' : ''}`;
    const health = entry.health.level === 'healthy' || entry.health.level === 'info' ? 'healthy' : healthWords(entry);
    item.accessibilityInformation = { label: [entry.label, entry.description, health].filter(Boolean).join(', ') };
    if (entry.open) item.command = { command: OPEN_CAMPAIGN_ENTRY_COMMAND, title: 'Open', arguments: [entry] };
    return item;
  }

  /** Problem counts on entries that hold others (a section, an NPC, Beats): a badge and the label in the health's colour. */
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== ENTRY_SCHEME) return undefined;
    const entry = this.byUri.get(uri.toString());
    if (!entry || entry.children.length === 0) return undefined;
    const level = entry.health.level;
    if (level !== 'error' && level !== 'warning') return undefined;
    const count = entry.health.diagnostics.filter((diagnostic) => diagnostic.severity === level).length;
    return new vscode.FileDecoration(count > 99 ? '99+' : String(count), healthWords(entry), new vscode.ThemeColor(HEALTH_COLOURS[level]));
  }

  /** The absolute file of an entry, if it opens one. */
  static fileOf(entry: CampaignEntry): vscode.Uri | undefined {
    return entry.open ? vscode.Uri.file(path.join(entry.campaignFolder, ...entry.open.file.split('/'))) : undefined;
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private rebuild(): void {
    const campaigns = this.service.campaigns;
    const roots = campaigns.flatMap((state) => campaignEntries(state.validation, state.lore, campaigns.length > 1));
    const shown = JSON.stringify(roots);
    if (shown === this.shown) return;
    this.shown = shown;
    this.roots = roots;
    this.parents = new Map();
    this.byUri = new Map();
    const walk = (entries: readonly CampaignEntry[], parent: CampaignEntry | undefined) => {
      for (const entry of entries) {
        if (parent) this.parents.set(entry.id, parent);
        this.byUri.set(entryUri(entry).toString(), entry);
        walk(entry.children, entry);
      }
    };
    walk(this.roots, undefined);
    this.changeEmitter.fire(undefined);
    this.decorationEmitter.fire(undefined);
  }
}

function entryUri(entry: CampaignEntry): vscode.Uri {
  return vscode.Uri.from({ scheme: ENTRY_SCHEME, path: `/${encodeURIComponent(entry.id)}` });
}

/** A leaf with problems shows the error or warning icon; an entry holding others keeps its icon, in the health's colour. */
function iconOf(entry: CampaignEntry): vscode.ThemeIcon {
  const level = entry.health.level;
  if (level !== 'error' && level !== 'warning') return new vscode.ThemeIcon(entry.icon);
  const colour = new vscode.ThemeColor(HEALTH_COLOURS[level]);
  return entry.children.length > 0 ? new vscode.ThemeIcon(entry.icon, colour) : new vscode.ThemeIcon(level, colour);
}

function healthWords(entry: CampaignEntry): string {
  const errors = entry.health.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = entry.health.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').length;
  return [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
}

/** Most problems a tooltip lists (the Problems panel and `narratoria validate` have them all). */
const TOOLTIP_PROBLEMS = 8;

function tooltipOf(entry: CampaignEntry): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${escape(entry.label)}**`);
  if (entry.description) tooltip.appendMarkdown(` ${escape(entry.description)}`);
  tooltip.appendMarkdown('\n\n');
  for (const line of entry.details) tooltip.appendMarkdown(`${escape(line)}  \n`);
  const shown = entry.health.diagnostics.slice(0, TOOLTIP_PROBLEMS);
  if (entry.health.level === 'healthy') tooltip.appendMarkdown('\n$(pass) Healthy: no problems');
  else tooltip.appendMarkdown(`\n$(pulse) Health: **${entry.health.level === 'info' ? 'healthy, with notes' : healthWords(entry)}**  \n`);
  for (const diagnostic of shown) tooltip.appendMarkdown(`${problemLine(diagnostic, entry)}  \n`);
  const more = entry.health.diagnostics.length - shown.length;
  if (more > 0) tooltip.appendMarkdown(`... and ${more} more (see the Problems panel or \`narratoria validate\`)`);
  if (entry.open) tooltip.appendMarkdown(`\n\n$(go-to-file) Click to open ${escape(entry.open.file)}`);
  return tooltip;
}

function problemLine(diagnostic: CampaignDiagnostic, entry: CampaignEntry): string {
  const icon = diagnostic.severity === 'error' ? '$(error)' : diagnostic.severity === 'warning' ? '$(warning)' : '$(info)';
  const file = entry.open?.file === diagnostic.file ? '' : `${diagnostic.file} `;
  const where = diagnostic.range ? ` (${file}line ${diagnostic.range.start.line})` : file ? ` (${file.trim()})` : '';
  return `${icon} ${escape(diagnostic.code)}: ${escape(diagnostic.message)}${escape(where)}`;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, (character) => `\\${character}`);
}
