// The layout of a campaign folder (spec 007): its known folders and files, what each path is to the campaign, sidecar and generated names. Pure.
import type { CampaignFileRole } from './campaignModel.js';

/** The folders a campaign may have at its root (FR-002). */
export const CAMPAIGN_FOLDERS = ['world', 'characters', 'plot', 'lore', 'art', 'music'] as const;

/** The file that makes a folder a campaign (FR-001). */
export const MANIFEST_FILE = 'manifest.json';

/** Images of art/ (FR-006, FR-026) and sounds of music/ (FR-006a, FR-026a), by lower-case extension. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.png', '.jpg', '.jpeg', '.webp']);
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set(['.mp3', '.ogg', '.wav', '.flac']);

/** Sidecars, named after the file they describe: FILE.keywords.txt (FR-039a) and FILE.meta.json (asset-sidecar.schema.json). */
export const KEYWORDS_SUFFIX = '.keywords.txt';
export const META_SUFFIX = '.meta.json';

/** Names each folder expects, for "did you mean" on near misses (plot/beat.json, charaters/). */
export const KNOWN_NAMES: Readonly<Record<string, readonly string[]>> = {
  '': [...CAMPAIGN_FOLDERS],
  world: ['setting.md', 'rules.md', 'constraints.md'],
  characters: ['npcs', 'player'],
  'characters/player': ['template.json'],
  plot: ['premise.md', 'beats.json', 'endings'],
};

/** Folders at a campaign's root that belong to the story around it, never a near miss of a campaign folder. */
export const STORY_FOLDERS: ReadonlySet<string> = new Set(['skills', 'plans', 'playtests', 'node_modules', 'dist', 'out']);

const GENERATED_SUFFIX = /_generated(?=(\.[^./]*)?$)/;

/** The extension of a file name, lower-case, with its dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Whether a file name says a model generated it: `NAME_generated.ext` (FR-034). */
export function isGeneratedName(name: string): boolean {
  return GENERATED_SUFFIX.test(name);
}

/** The author's name a generated file stands in for: `rules_generated.md` -> `rules.md`. */
export function authoredName(name: string): string {
  return name.replace(GENERATED_SUFFIX, '');
}

/** The file a sidecar describes, or undefined when `path` is no sidecar. */
export function sidecarSubject(path: string): { readonly kind: 'keywords' | 'meta'; readonly subject: string } | undefined {
  if (path.endsWith(KEYWORDS_SUFFIX)) return { kind: 'keywords', subject: path.slice(0, -KEYWORDS_SUFFIX.length) };
  if (path.endsWith(META_SUFFIX)) return { kind: 'meta', subject: path.slice(0, -META_SUFFIX.length) };
  return undefined;
}

/** What a campaign-relative path (/ separators) is to the campaign, from its folder and its name. */
export function roleOf(path: string): CampaignFileRole {
  if (sidecarSubject(path)) return path.endsWith(KEYWORDS_SUFFIX) ? 'keywordsSidecar' : 'metaSidecar';
  const parts = path.split('/');
  const name = authoredName(parts.at(-1)!);
  const extension = extensionOf(name);
  const [top, second] = parts;
  if (parts.length === 1) return name === MANIFEST_FILE ? 'manifest' : name.toLowerCase() === 'readme.md' ? 'readme' : 'other';
  switch (top) {
    case 'world':
      if (parts.length === 2 && name === 'setting.md') return 'setting';
      if (parts.length === 2 && name === 'rules.md') return 'rules';
      if (parts.length === 2 && name === 'constraints.md') return 'constraints';
      return extension === '.md' ? 'worldNote' : 'other';
    case 'characters':
      return characterRole(parts, name, extension);
    case 'plot':
      if (parts.length === 2 && name === 'premise.md') return 'premise';
      if (parts.length === 2 && name === 'beats.json') return 'beats';
      if (second === 'endings' && parts.length > 2) return extension === '.md' ? 'ending' : 'other';
      return extension === '.md' ? 'plotNote' : 'other';
    case 'lore':
      return 'lore';
    case 'art':
    case 'music':
      return IMAGE_EXTENSIONS.has(extension) ? 'image' : AUDIO_EXTENSIONS.has(extension) ? 'audio' : 'other';
    default:
      return 'other';
  }
}

function characterRole(parts: readonly string[], name: string, extension: string): CampaignFileRole {
  const [, group] = parts;
  if (group === 'npcs') {
    // characters/npcs/NAME.json (a profile on its own, as enrichment writes them) or characters/npcs/NAME/profile.json.
    if (parts.length === 3) return extension === '.json' ? 'npcProfile' : 'other';
    if (parts.length === 4 && name === 'profile.json') return 'npcProfile';
    if (IMAGE_EXTENSIONS.has(extension)) return 'image';
    if (AUDIO_EXTENSIONS.has(extension)) return 'audio';
    return 'npcFile';
  }
  if (group === 'player') return parts.length === 3 && name === 'template.json' ? 'playerTemplate' : 'playerFile';
  return 'other';
}

/** The NPC key of a path under characters/npcs/: its folder's name, or a lone profile's name without `_generated` and `.json`. */
export function npcKeyOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'characters' || parts[1] !== 'npcs' || parts.length < 3) return undefined;
  if (parts.length === 3) return authoredName(parts[2]!).replace(/\.json$/i, '');
  return parts[2];
}

/** A character name as files match it: lower-case, runs of other characters than letters and digits as one `_`. */
export function characterKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** Speakers of a beat's dialogue that are no NPC. */
export const NON_NPC_SPEAKERS: ReadonlySet<string> = new Set(['player', 'narrator', 'you', 'all', 'crowd']);
