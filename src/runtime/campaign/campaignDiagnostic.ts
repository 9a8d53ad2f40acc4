// Diagnostics of campaign validation: the stable CAMPAIGN_* codes, a diagnostic in a campaign file, and its flat report shape.
import * as path from 'node:path';
import { pathFromRoot } from '../common/pathContainment.js';
import {
  comparePositions,
  reportFields,
  type DiagnosticCode,
  type DiagnosticSeverity,
  type ReportDiagnostic,
  type SourceRange,
} from '../validation/diagnostic.js';
import type { PointerTarget } from '../validation/jsonLocator.js';

/** Every stable code of campaign validation (docs/diagnostics.md#campaign-diagnostics explains each). */
export const CampaignDiagnosticCode = {
  /** error: a file of the campaign cannot be read (permissions, a broken link). */
  CAMPAIGN_FILE_UNREADABLE: 'CAMPAIGN_FILE_UNREADABLE',
  /** error: a file the layout needs is missing: an NPC folder under characters/npcs/ without its profile.json. */
  CAMPAIGN_FILE_MISSING: 'CAMPAIGN_FILE_MISSING',
  /** info: the campaign has no world/setting.md or no plot/premise.md; the narrator will invent what they would say. */
  CAMPAIGN_RECOMMENDED_FILE_MISSING: 'CAMPAIGN_RECOMMENDED_FILE_MISSING',
  /** error: a Markdown file of world/, plot/ or an NPC's folder is empty, or holds only headings and comments. */
  CAMPAIGN_EMPTY_FILE: 'CAMPAIGN_EMPTY_FILE',
  /** warning: a lore file is empty, so it gives the narrator nothing to retrieve. */
  CAMPAIGN_EMPTY_LORE_FILE: 'CAMPAIGN_EMPTY_LORE_FILE',
  /** warning: a folder or file is named close to one the format knows (charaters/, plot/beat.json); the message says which. */
  CAMPAIGN_UNKNOWN_NAME: 'CAMPAIGN_UNKNOWN_NAME',
  /** warning: a file is not of the kind its folder holds: not Markdown in world/ or plot/endings/, not an image in art/, not a sound in music/. */
  CAMPAIGN_UNEXPECTED_FILE: 'CAMPAIGN_UNEXPECTED_FILE',
  /** warning: manifest.json has a key the format does not define; the range is its key, the message may hold a "did you mean". */
  CAMPAIGN_UNKNOWN_KEY: 'CAMPAIGN_UNKNOWN_KEY',
  /** info: manifest.json or an NPC profile lacks keys the format recommends (author, description...; motivations, secrets...). */
  CAMPAIGN_RECOMMENDED_KEY_MISSING: 'CAMPAIGN_RECOMMENDED_KEY_MISSING',
  /** warning: manifest.json's campaign_format_version has a major version this Narratoria does not read. */
  CAMPAIGN_FORMAT_VERSION: 'CAMPAIGN_FORMAT_VERSION',
  /** error: two beats of plot/beats.json share an id; related information points at the first one. */
  CAMPAIGN_DUPLICATE_BEAT_ID: 'CAMPAIGN_DUPLICATE_BEAT_ID',
  /** error: requires_beat, requires_any_beat, triggers_beat or fallback_beat names no beat of the file (with a "did you mean" when one is close). */
  CAMPAIGN_UNKNOWN_BEAT: 'CAMPAIGN_UNKNOWN_BEAT',
  /** error: beats require each other in a cycle through requires_beat; the message holds the path, e.g. `beat_002 -> beat_003 -> beat_002`. */
  CAMPAIGN_BEAT_CYCLE: 'CAMPAIGN_BEAT_CYCLE',
  /** error: a beat's scene_count window has its min above its max, so it can never open. */
  CAMPAIGN_SCENE_WINDOW: 'CAMPAIGN_SCENE_WINDOW',
  /** warning: a beat's npc_state or dialogue names a character with no profile under characters/npcs/. */
  CAMPAIGN_UNKNOWN_NPC: 'CAMPAIGN_UNKNOWN_NPC',
  /** warning: a portrait, voice, music, background or secrets path names a file that does not exist (FR-031). */
  CAMPAIGN_PATH_NOT_FOUND: 'CAMPAIGN_PATH_NOT_FOUND',
  /** warning: a sidecar (FILE.keywords.txt, FILE.meta.json) sits beside no FILE. */
  CAMPAIGN_ORPHAN_SIDECAR: 'CAMPAIGN_ORPHAN_SIDECAR',
  /** warning: a .keywords.txt sidecar holds no keyword (only blank lines and comments); keywords are then extracted as if it were absent. */
  CAMPAIGN_EMPTY_SIDECAR: 'CAMPAIGN_EMPTY_SIDECAR',
  /** error: a sidecar says `generated: true` without a provenance holding source_model, generated_at and seed_data (FR-044). */
  CAMPAIGN_PROVENANCE_MISSING: 'CAMPAIGN_PROVENANCE_MISSING',
  /** error: a sidecar says `generated: false` yet carries a provenance: a human file has none (FR-044a). */
  CAMPAIGN_PROVENANCE_ON_HUMAN_FILE: 'CAMPAIGN_PROVENANCE_ON_HUMAN_FILE',
  /** warning: a file named *_generated.* has no FILE.meta.json sidecar saying `generated: true` with its provenance (FR-034). */
  CAMPAIGN_GENERATED_UNMARKED: 'CAMPAIGN_GENERATED_UNMARKED',
  /** info: the campaign holds generated files; review their provenance before sharing it (FR-044c). */
  CAMPAIGN_GENERATED_CONTENT: 'CAMPAIGN_GENERATED_CONTENT',
  /** info: both NAME.ext and NAME_generated.ext exist; the author's file is read and the generated one is left aside (FR-036). */
  CAMPAIGN_GENERATED_SUPERSEDED: 'CAMPAIGN_GENERATED_SUPERSEDED',
} as const;

/** A stable campaign code (the values of {@link CampaignDiagnosticCode}). */
export type CampaignDiagnosticCode = (typeof CampaignDiagnosticCode)[keyof typeof CampaignDiagnosticCode];

/** A secondary location, possibly in another file of the campaign (the first beat of a duplicated id, each edge of a cycle). */
export interface CampaignRelatedInformation {
  /** Campaign-relative path with / separators. */
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  readonly range?: SourceRange;
}

/** One problem of a campaign, in one of its files. JSON files use the plan validator's JSON_* and SCHEMA_* codes too. */
export interface CampaignDiagnostic {
  readonly severity: DiagnosticSeverity;
  readonly code: CampaignDiagnosticCode | DiagnosticCode;
  readonly message: string;
  /** The file it is in, relative to the campaign folder with / separators ('' for the folder itself). */
  readonly file: string;
  /** RFC 6901 JSON pointer in a JSON file ('' for the root, or for a file that is not JSON). */
  readonly pointer: string;
  /** Where in the file; absent for a problem of a whole folder. */
  readonly range?: SourceRange;
  readonly related?: readonly CampaignRelatedInformation[];
}

/** A diagnostic before its range is found: the checks name a file and a pointer, the validator locates them. */
export interface CampaignDiagnosticDraft {
  readonly severity: DiagnosticSeverity;
  readonly code: CampaignDiagnosticCode | DiagnosticCode;
  readonly message: string;
  readonly file: string;
  readonly pointer: string;
  /** Range on the property key instead of its value. */
  readonly target?: PointerTarget;
  /** A range already known (syntax errors, Markdown lines). */
  readonly range?: SourceRange;
  /** No range at all: the problem is a folder's. */
  readonly wholeFolder?: boolean;
  readonly related?: readonly { readonly file: string; readonly pointer: string; readonly message: string }[];
}

/** Orders diagnostics by file, then position (a folder's before its files' ranges). */
export function compareCampaignDiagnostics(left: CampaignDiagnostic, right: CampaignDiagnostic): number {
  if (left.file !== right.file) return left.file < right.file ? -1 : 1;
  if (left.range && right.range) return comparePositions(left.range.start, right.range.start) || comparePositions(left.range.end, right.range.end);
  if (left.range || right.range) return left.range ? 1 : -1;
  return 0;
}

/** A related location as the report prints it: its file relative to `base` and its line and column. */
export interface ReportRelatedInformation {
  readonly pointer: string;
  readonly message: string;
  readonly file: string;
  readonly line: number | null;
  readonly column: number | null;
}

/**
 * The flat shape of contracts/validate-report.schema.json for a campaign's diagnostic. `file` is the diagnostic's
 * file relative to `base` (the working directory) when inside it, so `file:line:column` opens it.
 */
export function campaignReportDiagnostic(diagnostic: CampaignDiagnostic, campaignFolder: string, base: string): ReportDiagnostic {
  const where = (file: string): string => pathFromRoot(path.join(campaignFolder, ...file.split('/').filter((part) => part !== '')), base);
  const related: ReportRelatedInformation[] | undefined = diagnostic.related?.map((information) => ({
    pointer: information.pointer,
    message: information.message,
    file: where(information.file),
    line: information.range?.start.line ?? null,
    column: information.range?.start.column ?? null,
  }));
  return {
    ...reportFields(diagnostic),
    file: where(diagnostic.file),
    ...(related && related.length > 0 ? { related } : {}),
  };
}
