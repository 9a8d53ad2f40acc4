// The Campaign view's tree as plain data: manifest, world, NPCs, player, plot (beats, endings), lore (chunk counts) and assets, each entry with its health and the file it opens. Pure.
import * as path from 'node:path';
import { plural } from '../../common/humanText.js';
import type { SourceRange } from '../../validation/diagnostic.js';
import type { CampaignDiagnostic } from '../campaignDiagnostic.js';
import type { Campaign, CampaignAsset, CampaignBeat, CampaignFile, CampaignNpc } from '../campaignModel.js';
import type { CampaignValidation } from '../validateCampaign.js';
import { sceneWindowLabel } from './beatGraph.js';
import { combinedHealth, DiagnosticsByFile, HEALTHY, type EntryHealth } from './campaignHealth.js';
import type { LoreCounts } from './loreCounts.js';

/** What an entry is (the view's context values and icons follow it). */
export type CampaignEntryKind = 'campaign' | 'section' | 'manifest' | 'file' | 'npc' | 'beats' | 'beat' | 'lore' | 'asset' | 'problem';

/** One row of the Campaign view. */
export interface CampaignEntry {
  /** Unique in the window (starts with the campaign's folder). */
  readonly id: string;
  readonly kind: CampaignEntryKind;
  readonly label: string;
  readonly description?: string;
  /** The codicon of a healthy entry. */
  readonly icon: string;
  /** Tooltip lines, plain text (the health's diagnostics come after them). */
  readonly details: readonly string[];
  readonly health: EntryHealth;
  /** The file a click opens (campaign-relative), and the range to reveal in it. */
  readonly open?: { readonly file: string; readonly range?: SourceRange };
  readonly children: readonly CampaignEntry[];
  /** The absolute folder of the campaign the entry belongs to. */
  readonly campaignFolder: string;
  /** A beat's id (kind beat), for commands on it. */
  readonly beatId?: string;
}

/**
 * The entries of a validated campaign: its sections at the top, or (`asRoot`, one row per campaign when a window has
 * several) one campaign entry holding them. Empty sections are left out; diagnostics of files the tree does not list
 * are under a last "Other problems" section, so every problem has a row.
 */
export function campaignEntries(validation: CampaignValidation, lore: LoreCounts | undefined, asRoot: boolean): CampaignEntry[] {
  const campaign = validation.campaign;
  const diagnostics = new DiagnosticsByFile(validation.diagnostics);
  const maker = new EntryMaker(campaign, diagnostics);
  const sections = [maker.manifest(), maker.world(), maker.npcs(), maker.player(), maker.plot(), maker.lore(lore), maker.assets()].filter(
    (entry): entry is CampaignEntry => entry !== undefined,
  );
  const others = maker.otherProblems();
  if (others) sections.push(others);
  if (!asRoot) return sections;
  const title = campaign.manifest?.title ?? path.basename(campaign.folder);
  return [
    {
      id: `${campaign.folder}|campaign`,
      kind: 'campaign',
      label: title,
      description: path.basename(campaign.folder),
      icon: 'book',
      details: [title, campaign.folder, `format: ${campaign.format.label} ${campaign.format.version}`],
      health: combinedHealth(sections.map((section) => section.health)),
      children: sections,
      campaignFolder: campaign.folder,
    },
  ];
}

/** Builds the entries of one campaign, claiming the diagnostics each shows. */
class EntryMaker {
  constructor(
    private readonly campaign: Campaign,
    private readonly diagnostics: DiagnosticsByFile,
  ) {}

  manifest(): CampaignEntry | undefined {
    const manifest = this.campaign.manifest;
    if (!manifest) return undefined;
    const title = manifest.title ?? '(no title)';
    const version = manifest.version !== undefined ? `v${manifest.version}` : 'no version';
    const data = manifest.data ?? {};
    const details = [`${title}, ${version}`];
    for (const key of ['author', 'genre', 'tone', 'content_rating'] as const)
      if (typeof data[key] === 'string') details.push(`${key.replace('_', ' ')}: ${data[key] as string}`);
    return this.fileEntry(manifest.file, { kind: 'manifest', label: 'Manifest', description: `${title} · ${version}`, icon: 'book', details });
  }

  world(): CampaignEntry | undefined {
    const world = this.campaign.world;
    const children = [
      world.setting && this.fileEntry(world.setting, { label: 'Setting', icon: 'globe', details: ['The world, its era and tone.'] }),
      world.rules && this.fileEntry(world.rules, { label: 'Rules', icon: 'law', details: ["The game's mechanics."] }),
      world.constraints && this.fileEntry(world.constraints, { label: 'Constraints', icon: 'shield', details: ['What the narrator must never break.'] }),
      ...world.notes.map((note) => this.fileEntry(note, { label: path.posix.basename(note.path), icon: 'note', details: ['A note about the world.'] })),
    ].filter((entry): entry is CampaignEntry => entry !== undefined);
    const missing = [!world.setting && 'setting.md', !world.rules && 'rules.md', !world.constraints && 'constraints.md'].filter(Boolean);
    const details = missing.length > 0 ? [`Not written: ${missing.join(', ')}`] : [];
    return this.section('world', 'World', 'map', children, details);
  }

  npcs(): CampaignEntry | undefined {
    const children = this.campaign.npcs.map((npc) => this.npc(npc));
    return this.section('npcs', 'NPCs', 'organization', children, [], plural(children.length, 'character'));
  }

  player(): CampaignEntry | undefined {
    const player = this.campaign.player;
    if (!player) return undefined;
    return this.fileEntry(player, { label: 'Player', description: 'template.json', icon: 'account', details: ['What a player may be.'] });
  }

  plot(): CampaignEntry | undefined {
    const campaign = this.campaign;
    const children: CampaignEntry[] = [];
    if (campaign.premise) children.push(this.fileEntry(campaign.premise, { label: 'Premise', icon: 'play-circle', details: ['Where the story starts.'] }));
    if (campaign.beats) children.push(this.beats());
    if (campaign.endings.length > 0) {
      const endings = campaign.endings.map((ending) =>
        this.fileEntry(ending, { label: path.posix.basename(ending.path, '.md'), icon: 'flag', details: ['An ending.'] }),
      );
      children.push(this.section('endings', 'Endings', 'flag', endings, [], plural(endings.length, 'ending'))!);
    }
    return this.section('plot', 'Plot', 'milestone', children, []);
  }

  lore(counts: LoreCounts | undefined): CampaignEntry | undefined {
    const children = this.campaign.lore.map(({ file }) => {
      const summary = counts?.files.get(file.path);
      const skipped = counts?.skipped.get(file.path);
      const description = summary ? plural(summary.chunks, 'chunk') : skipped ? 'not chunked' : undefined;
      const details = summary
        ? [
            `${plural(summary.chunks, 'chunk')} from ${plural(summary.paragraphs, 'paragraph')}, ${plural(summary.tokens, 'token')} in all`,
            `largest chunk: ${plural(summary.largestChunk, 'token')}`,
            ...(summary.sentenceSplit > 0 ? [`${plural(summary.sentenceSplit, 'paragraph')} over the limit, cut at sentence ends`] : []),
          ]
        : skipped
          ? [`Not chunked: ${skipped.reason}`]
          : ['Counting its chunks...'];
      return this.fileEntry(file, { kind: 'lore', label: file.path.slice('lore/'.length), icon: 'book', details, ...(description ? { description } : {}) });
    });
    const total = counts ? [...counts.files.values()].reduce((sum, summary) => sum + summary.chunks, 0) : undefined;
    const description = total === undefined ? plural(children.length, 'file') : `${plural(children.length, 'file')} · ${plural(total, 'chunk')}`;
    return this.section('lore', 'Lore', 'library', children, ['Background the narrator retrieves by chunks of at most 512 tokens.'], description);
  }

  assets(): CampaignEntry | undefined {
    const group = (kind: CampaignAsset['kind'], id: string, label: string, icon: string) => {
      const entries = this.campaign.assets
        .filter((asset) => asset.kind === kind && !asset.file.path.startsWith('characters/'))
        .map((asset) => this.asset(asset, icon));
      return this.section(id, label, icon, entries, [], plural(entries.length, 'file'));
    };
    const children = [group('image', 'art', 'Art', 'file-media'), group('audio', 'music', 'Music', 'music')].filter(
      (entry): entry is CampaignEntry => entry !== undefined,
    );
    return this.section('assets', 'Assets', 'archive', children, []);
  }

  /** The diagnostics no other entry shows, one row each. */
  otherProblems(): CampaignEntry | undefined {
    const rows = this.diagnostics.unclaimed().map((diagnostic, position) => this.problemRow(diagnostic, position));
    return this.section('problems', 'Other problems', 'warning', rows, ['Problems of files and folders the sections above do not list.']);
  }

  private npc(npc: CampaignNpc): CampaignEntry {
    const files = npc.files.map((file) =>
      this.fileEntry(file, { label: path.posix.basename(file.path), icon: file.role === 'image' ? 'file-media' : 'file-text', details: [file.path] }),
    );
    const profile = npc.profile;
    const own = profile ? this.diagnostics.file(profile.path) : HEALTHY;
    const details = [npc.name ?? npc.key, ...(npc.role ? [npc.role] : []), profile ? profile.path : `${npc.folder} has no profile.json`];
    return {
      id: `${this.campaign.folder}|npc:${npc.key}`,
      kind: 'npc',
      label: npc.name ?? npc.key,
      ...(npc.role !== undefined ? { description: npc.role } : {}),
      icon: 'person',
      details,
      health: combinedHealth([own, ...files.map((file) => file.health)]),
      ...(profile ? { open: { file: profile.path } } : {}),
      children: files,
      campaignFolder: this.campaign.folder,
    };
  }

  private beats(): CampaignEntry {
    const beats = this.campaign.beats!;
    const document = this.campaign.documents.get(beats.file.path);
    const children = beats.beats.map((beat) => this.beat(beat, document?.rangeOf(beat.at.pointer)));
    const rest = this.diagnostics.file(beats.file.path);
    return {
      id: `${this.campaign.folder}|beats`,
      kind: 'beats',
      label: 'Beats',
      description: plural(children.length, 'beat'),
      icon: 'type-hierarchy-sub',
      details: [`${beats.file.path}: the beats the story works toward, in the order of the file.`],
      health: combinedHealth([rest, ...children.map((child) => child.health)]),
      open: { file: beats.file.path },
      children,
      campaignFolder: this.campaign.folder,
    };
  }

  private beat(beat: CampaignBeat, range: SourceRange | undefined): CampaignEntry {
    const file = this.campaign.beats!.file.path;
    const window = sceneWindowLabel(beat.sceneWindow);
    const id = beat.id ?? `beat ${beat.index + 1}`;
    const details = [
      `${id}: ${beat.title ?? '(no title)'}`,
      `priority: ${beat.priority}${window ? ` · ${window}` : ''}`,
      ...(beat.conditionKinds.length > 0 ? [`conditions: ${beat.conditionKinds.join(', ')}`] : []),
      ...(beat.description ? [beat.description] : []),
    ];
    return {
      id: `${this.campaign.folder}|beat:${beat.index}`,
      kind: 'beat',
      label: beat.title ?? '(no title)',
      description: [id, window].filter(Boolean).join(' · '),
      icon: beat.priority === 'critical' ? 'star-full' : 'milestone',
      details,
      health: this.diagnostics.range(file, range),
      open: { file, ...(range ? { range } : {}) },
      children: [],
      campaignFolder: this.campaign.folder,
      ...(beat.id !== undefined ? { beatId: beat.id } : {}),
    };
  }

  private asset(asset: CampaignAsset, icon: string): CampaignEntry {
    const sidecars = [asset.keywordsSidecar, asset.metaSidecar].filter((file): file is CampaignFile => file !== undefined);
    const keywords = this.campaign.sidecars.find((sidecar) => sidecar.file === asset.keywordsSidecar)?.keywords;
    const meta = this.campaign.sidecars.find((sidecar) => sidecar.file === asset.metaSidecar)?.meta;
    const details = [
      asset.file.path,
      ...(keywords && keywords.length > 0 ? [`keywords: ${keywords.join(', ')}`] : []),
      ...(meta?.generated === true ? ['generated (see its .meta.json provenance)'] : meta?.generated === false ? ["an author's file"] : []),
    ];
    const entry = this.fileEntry(asset.file, { kind: 'asset', label: path.posix.basename(asset.file.path), icon, details });
    const description = path.posix.dirname(asset.file.path);
    return { ...entry, description, health: combinedHealth([entry.health, this.diagnostics.files(sidecars.map((file) => file.path))]) };
  }

  private problemRow(diagnostic: CampaignDiagnostic, position: number): CampaignEntry {
    const where = diagnostic.range ? `${diagnostic.file}:${diagnostic.range.start.line}` : diagnostic.file || '(the campaign folder)';
    const opens = diagnostic.file !== '' && diagnostic.range !== undefined;
    return {
      id: `${this.campaign.folder}|problem:${position}:${diagnostic.code}:${diagnostic.file}`,
      kind: 'problem',
      label: diagnostic.message,
      description: where,
      icon: 'warning',
      details: [],
      health: { level: diagnostic.severity, diagnostics: [diagnostic] },
      ...(opens ? { open: { file: diagnostic.file, range: diagnostic.range! } } : {}),
      children: [],
      campaignFolder: this.campaign.folder,
    };
  }

  private fileEntry(
    file: CampaignFile,
    entry: { kind?: CampaignEntryKind; label: string; description?: string; icon: string; details: readonly string[] },
  ): CampaignEntry {
    return {
      id: `${this.campaign.folder}|file:${file.path}`,
      kind: entry.kind ?? 'file',
      label: entry.label,
      ...(entry.description !== undefined ? { description: entry.description } : {}),
      icon: entry.icon,
      details: [...entry.details, ...(file.generatedName ? ['(generated: its name ends in _generated)'] : []), file.path],
      health: this.diagnostics.file(file.path),
      open: { file: file.path },
      children: [],
      campaignFolder: this.campaign.folder,
    };
  }

  private section(
    key: string,
    label: string,
    icon: string,
    children: readonly CampaignEntry[],
    details: readonly string[],
    description?: string,
  ): CampaignEntry | undefined {
    if (children.length === 0) return undefined;
    return {
      id: `${this.campaign.folder}|section:${key}`,
      kind: 'section',
      label,
      ...(description !== undefined ? { description } : {}),
      icon,
      details,
      health: combinedHealth(children.map((child) => child.health)),
      children,
      campaignFolder: this.campaign.folder,
    };
  }
}
