// Checks of a campaign folder's layout: names close to the known ones, files of the wrong kind for their folder, NPC folders without a profile. Pure.
import { closestMatch } from '../validation/closestMatch.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { CampaignFile } from './campaignModel.js';
import type { FolderListing } from './campaignFiles.js';
import { authoredName, KNOWN_NAMES, STORY_FOLDERS } from './folderLayout.js';

/** Folders whose files must be of one kind, and what that kind is, for CAMPAIGN_UNEXPECTED_FILE. */
const EXPECTED_KIND: readonly (readonly [prefix: string, kind: string])[] = [
  ['plot/endings/', 'endings are Markdown files (.md)'],
  ['world/', 'world/ holds Markdown files (.md)'],
  ['art/', 'art/ holds images: PNG, JPEG or WebP'],
  ['music/', 'music/ holds sounds: MP3, OGG, WAV or FLAC'],
  ['plot/', 'plot/ holds premise.md, beats.json, endings/ and Markdown notes'],
  ['characters/', 'characters/ holds npcs/ and player/'],
];

/**
 * Names close to one the layout knows, where the known one is absent: `charaters/`, `plot/beat.json`, `world/setings.md`.
 * Returns the paths reported, so they are not reported again as unexpected files.
 */
export function checkNearMissNames(listing: FolderListing, drafts: CampaignDiagnosticDraft[]): Set<string> {
  const reported = new Set<string>();
  const entries = new Map<string, { name: string; isFolder: boolean }[]>();
  const add = (entryPath: string, isFolder: boolean): void => {
    const slash = entryPath.lastIndexOf('/');
    const parent = slash < 0 ? '' : entryPath.slice(0, slash);
    entries.set(parent, [...(entries.get(parent) ?? []), { name: entryPath.slice(slash + 1), isFolder }]);
  };
  for (const name of listing.rootFolders) add(name, true);
  for (const folder of listing.folders) if (folder.includes('/')) add(folder, true);
  for (const file of listing.files) if (file.path.includes('/')) add(file.path, false);
  for (const [parent, known] of Object.entries(KNOWN_NAMES)) {
    const present = new Set((entries.get(parent) ?? []).map((entry) => authoredName(entry.name)));
    for (const entry of entries.get(parent) ?? []) {
      const name = authoredName(entry.name);
      if (known.includes(name) || (parent === '' && (STORY_FOLDERS.has(name) || !entry.isFolder))) continue;
      // A folder is only taken for a folder (no extension), a file for a file.
      const suggestion = closestMatch(
        name,
        known.filter((candidate) => candidate.includes('.') !== entry.isFolder),
      );
      if (suggestion === undefined || present.has(suggestion)) continue;
      const entryPath = parent === '' ? entry.name : `${parent}/${entry.name}`;
      reported.add(entryPath);
      const kind = entry.isFolder ? 'folder' : 'file';
      const where = parent === '' ? 'at the campaign root' : `in ${parent}/`;
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_UNKNOWN_NAME,
        message: `the ${kind} "${entry.name}" is not one the campaign format reads ${where}; did you mean "${suggestion}"?`,
        file: entryPath,
        pointer: '',
        ...(entry.isFolder ? { wholeFolder: true } : {}),
      });
    }
  }
  return reported;
}

/** Files of the campaign's folders that are of no kind their folder holds (a GIF in art/, a .txt ending). */
export function checkUnexpectedFiles(files: readonly CampaignFile[], alreadyReported: ReadonlySet<string>, drafts: CampaignDiagnosticDraft[]): void {
  for (const file of files) {
    if (file.role !== 'other' || !file.path.includes('/') || alreadyReported.has(file.path)) continue;
    if ([...alreadyReported].some((reported) => file.path.startsWith(`${reported}/`))) continue;
    const expected = EXPECTED_KIND.find(([prefix]) => file.path.startsWith(prefix));
    if (!expected) continue;
    drafts.push({
      severity: 'warning',
      code: CampaignDiagnosticCode.CAMPAIGN_UNEXPECTED_FILE,
      message: `${file.path} is not read as part of the campaign: ${expected[1]}`,
      file: file.path,
      pointer: '',
    });
  }
}

/** NPC folders (characters/npcs/NAME/) with no profile.json: the NPC has no name, role or personality (FR-014). */
export function checkNpcFolders(listing: FolderListing, profiles: ReadonlySet<string>, drafts: CampaignDiagnosticDraft[]): void {
  for (const folder of listing.folders) {
    const parts = folder.split('/');
    if (parts.length !== 3 || parts[0] !== 'characters' || parts[1] !== 'npcs' || profiles.has(folder)) continue;
    drafts.push({
      severity: 'error',
      code: CampaignDiagnosticCode.CAMPAIGN_FILE_MISSING,
      message: `the NPC folder ${folder}/ has no profile.json: an NPC needs one with its name, role and personality`,
      file: folder,
      pointer: '',
      wholeFolder: true,
    });
  }
}
