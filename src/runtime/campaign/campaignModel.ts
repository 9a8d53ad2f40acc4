// The campaign model every format loads into (manifest, world, NPCs, player, plot, lore, assets, sidecars) and the CampaignFormat port. Types only.
import type { SourceRange } from '../validation/diagnostic.js';
import type { PointerTarget } from '../validation/jsonLocator.js';
import type { CampaignDiagnosticDraft } from './campaignDiagnostic.js';

/** Which format a campaign was read with, and which version of it. */
export interface CampaignFormatInfo {
  /** Stable id, e.g. `folder-json`. */
  readonly id: string;
  /** The campaign format version this reader implements (semantic version). */
  readonly version: string;
  /** A name for people. */
  readonly label: string;
}

/**
 * A way of writing a campaign on disk. Each format is one module; a new one (say Markdown with YAML front matter)
 * implements this port and joins CAMPAIGN_FORMATS in index.ts, and every check, view and command works on it.
 */
export interface CampaignFormat extends CampaignFormatInfo {
  /** Whether `folder` (absolute) holds a campaign in this format. Reads as little as it can. */
  detect(folder: string): Promise<boolean>;
  /** Reads the whole campaign. Never throws for a bad campaign: what it cannot read becomes `readProblems`. */
  load(folder: string, options?: CampaignLoadOptions): Promise<Campaign>;
}

/** How a format reads a campaign's files: from the disk unless told otherwise. */
export interface CampaignLoadOptions {
  /**
   * The text of a file (absolute path), e.g. an editor's unsaved text of an open document; rejects, as reading the
   * disk does, when the file cannot be read. Which files exist still comes from the disk.
   */
  readonly readText?: (file: string) => Promise<string>;
}

/** A place in a campaign file: a JSON pointer in it, on the value or on its key. */
export interface CampaignLocation {
  /** Campaign-relative path with / separators. */
  readonly file: string;
  readonly pointer: string;
  readonly target?: PointerTarget;
}

/** A file's text, with the ranges of its parts (JSON pointers for JSON; '' is the first line of any text). */
export interface CampaignDocument {
  readonly file: string;
  readonly text: string;
  rangeOf(pointer: string, target?: PointerTarget): SourceRange | undefined;
}

/** What a file is to the campaign, from where it sits and what it is called. */
export type CampaignFileRole =
  | 'manifest'
  | 'readme'
  | 'setting'
  | 'rules'
  | 'constraints'
  | 'worldNote'
  | 'npcProfile'
  | 'npcFile'
  | 'playerTemplate'
  | 'playerFile'
  | 'premise'
  | 'beats'
  | 'ending'
  | 'plotNote'
  | 'lore'
  | 'image'
  | 'audio'
  | 'keywordsSidecar'
  | 'metaSidecar'
  | 'other';

/** One file of the campaign. */
export interface CampaignFile {
  /** Campaign-relative path with / separators. */
  readonly path: string;
  readonly size: number;
  readonly role: CampaignFileRole;
  /** Its name says a model generated it (`NAME_generated.ext`, FR-034). */
  readonly generatedName: boolean;
}

export interface CampaignManifest {
  readonly file: CampaignFile;
  /** The parsed object; undefined when the file does not parse. */
  readonly data: Readonly<Record<string, unknown>> | undefined;
  readonly title: string | undefined;
  readonly version: string | undefined;
}

/** A path a campaign file names (a portrait, a beat's music), resolved against the campaign's root or the naming file's folder. */
export interface PathLink {
  readonly kind: 'portrait' | 'voice' | 'music' | 'background' | 'secrets';
  /** As written. */
  readonly written: string;
  /** Campaign-relative, / separators. */
  readonly target: string;
  readonly at: CampaignLocation;
}

export interface CampaignNpc {
  /** The NPC's folder name (or file stem), the name other files match first. */
  readonly key: string;
  /** The NPC's folder, e.g. `characters/npcs/odile`; for a profile directly in characters/npcs/, the profile's path. */
  readonly folder: string;
  readonly profile: CampaignFile | undefined;
  /** The parsed profile; undefined when missing or unparseable. */
  readonly data: Readonly<Record<string, unknown>> | undefined;
  /** The profile's `name`. */
  readonly name: string | undefined;
  readonly role: string | undefined;
  /** Other files in the NPC's folder (portrait.png, secrets.md). */
  readonly files: readonly CampaignFile[];
  readonly paths: readonly PathLink[];
}

/** An edge from a beat to another beat. */
export interface BeatLink {
  /** requires: requires_beat (all of them); requiresAny: requires_any_beat; triggers: an outcome's triggers_beat; fallback: timeout.fallback_beat. */
  readonly kind: 'requires' | 'requiresAny' | 'triggers' | 'fallback';
  readonly target: string;
  readonly at: CampaignLocation;
}

/** A character a beat names: an npc_state key or a dialogue speaker. */
export interface NpcMention {
  readonly name: string;
  readonly kind: 'npcState' | 'dialogue';
  readonly at: CampaignLocation;
}

export type BeatPriority = 'critical' | 'high' | 'medium' | 'low' | 'optional';

export interface CampaignBeat {
  /** Position in the beats array. */
  readonly index: number;
  readonly id: string | undefined;
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** `medium` when the beat gives none. */
  readonly priority: BeatPriority;
  readonly sceneWindow: { readonly min?: number; readonly max?: number } | undefined;
  /** The condition keys the beat uses (scene_count, requires_beat, player_choice...), in file order. */
  readonly conditionKinds: readonly string[];
  readonly links: readonly BeatLink[];
  readonly npcMentions: readonly NpcMention[];
  readonly paths: readonly PathLink[];
  /** The beat object. */
  readonly at: CampaignLocation;
  /** Its id's value (where go to definition lands). */
  readonly idAt: CampaignLocation;
}

export interface CampaignBeats {
  readonly file: CampaignFile;
  readonly beats: readonly CampaignBeat[];
}

/** A lore file (FR-022, FR-024): listed here; its chunks are the lore chunker's (lore*.ts), keyed by `file.path`. */
export interface CampaignLoreFile {
  readonly file: CampaignFile;
}

export interface CampaignAsset {
  readonly file: CampaignFile;
  readonly kind: 'image' | 'audio';
  readonly keywordsSidecar: CampaignFile | undefined;
  readonly metaSidecar: CampaignFile | undefined;
}

/** What a FILE.meta.json sidecar says (asset-sidecar.schema.json), as far as it parsed. */
export interface SidecarMeta {
  readonly generated: boolean | undefined;
  readonly provenance: Readonly<Record<string, unknown>> | undefined;
}

export interface CampaignSidecar {
  readonly file: CampaignFile;
  readonly kind: 'keywords' | 'meta';
  /** The path of the file it describes (its own path without the suffix). */
  readonly subject: string;
  readonly subjectExists: boolean;
  /** keywords: the keywords, comments and blank lines left out. */
  readonly keywords?: readonly string[];
  /** meta: what it says; undefined when it does not parse. */
  readonly meta?: SidecarMeta;
}

/** A campaign as a format read it. Plain data: views, commands and checks read it, nothing changes it. */
export interface Campaign {
  /** Absolute folder. */
  readonly folder: string;
  readonly format: CampaignFormatInfo;
  readonly manifest: CampaignManifest | undefined;
  readonly world: {
    readonly setting: CampaignFile | undefined;
    readonly rules: CampaignFile | undefined;
    readonly constraints: CampaignFile | undefined;
    /** Other Markdown files of world/. */
    readonly notes: readonly CampaignFile[];
  };
  readonly npcs: readonly CampaignNpc[];
  readonly player: CampaignFile | undefined;
  readonly premise: CampaignFile | undefined;
  readonly beats: CampaignBeats | undefined;
  readonly endings: readonly CampaignFile[];
  readonly lore: readonly CampaignLoreFile[];
  readonly assets: readonly CampaignAsset[];
  readonly sidecars: readonly CampaignSidecar[];
  /** Every file of the campaign's folders, by path. */
  readonly files: readonly CampaignFile[];
  /** The text of every file that was read (JSON, Markdown, sidecars), by path. */
  readonly documents: ReadonlyMap<string, CampaignDocument>;
  /** What reading found: syntax and schema problems, the layout's and the manifest's. */
  readonly readProblems: readonly CampaignDiagnosticDraft[];
}
