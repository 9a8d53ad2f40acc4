// The campaign format of Narratoria spec 007: a folder with manifest.json, JSON and Markdown files in world/, characters/, plot/, lore/, art/ and music/.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ContractName } from '../contracts/schemas.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import { readJsonFile, textDocument } from './campaignDocuments.js';
import { listCampaignFolder, type ListedFile } from './campaignFiles.js';
import type {
  Campaign,
  CampaignAsset,
  CampaignDocument,
  CampaignFile,
  CampaignFormat,
  CampaignFormatInfo,
  CampaignLoadOptions,
  CampaignSidecar,
} from './campaignModel.js';
import { extensionOf, isGeneratedName, MANIFEST_FILE, npcKeyOf, roleOf, sidecarSubject } from './folderLayout.js';
import { checkNearMissNames, checkNpcFolders, checkUnexpectedFiles } from './layoutChecks.js';
import { checkManifest, checkNpcProfile } from './manifestChecks.js';
import { asRecord, readBeats, readKeywords, readNpc, readSidecarMeta } from './modelReading.js';

const INFO: CampaignFormatInfo = { id: 'folder-json', version: '1.0.0', label: 'campaign folder of JSON and Markdown files (Narratoria spec 007)' };

/** Text files the loader reads, by extension; other files (images, sounds) are only listed. */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['.json', '.md', '.markdown', '.txt']);

/** Files read at once, to stay far from the limit of open files. */
const READ_CONCURRENCY = 64;

/** The contract each JSON role is checked against. */
const CONTRACTS: Partial<Record<CampaignFile['role'], ContractName>> = {
  manifest: 'campaign/manifest.schema.json',
  npcProfile: 'campaign/npc-profile.schema.json',
  playerTemplate: 'campaign/player-template.schema.json',
  beats: 'campaign/beats.schema.json',
  metaSidecar: 'campaign/asset-sidecar.schema.json',
};

/** Roles of which a campaign has one file (an NPC has one profile): an author's file wins over a generated one. */
const SINGLE_ROLES: ReadonlySet<CampaignFile['role']> = new Set([
  'manifest',
  'setting',
  'rules',
  'constraints',
  'premise',
  'beats',
  'playerTemplate',
  'npcProfile',
]);

export const folderFormat: CampaignFormat = {
  ...INFO,
  detect: async (folder) => {
    try {
      return (await stat(path.join(folder, MANIFEST_FILE))).isFile();
    } catch {
      return false;
    }
  },
  load: loadFolderCampaign,
};

async function loadFolderCampaign(folder: string, options: CampaignLoadOptions = {}): Promise<Campaign> {
  const readText = options.readText ?? ((file: string) => readFile(file, 'utf8'));
  const listing = await listCampaignFolder(folder);
  const drafts: CampaignDiagnosticDraft[] = [];
  for (const entry of listing.unreadable) {
    const message = `cannot read ${entry.path}: ${entry.message}`;
    drafts.push({ severity: 'error', code: CampaignDiagnosticCode.CAMPAIGN_FILE_UNREADABLE, message, file: entry.path, pointer: '', wholeFolder: true });
  }
  const all = listing.files.map(campaignFile).filter((file) => file.path.includes('/') || file.role === 'manifest' || file.role === 'readme');
  const { chosen, superseded } = chooseAuthored(all, drafts);
  const files = all.filter((file) => !superseded.has(file.path));

  const documents = new Map<string, CampaignDocument>();
  const values = new Map<string, unknown>();
  await eachLimited(
    files.filter((file) => TEXT_EXTENSIONS.has(extensionOf(file.path)) || file.role === 'keywordsSidecar'),
    READ_CONCURRENCY,
    async (file) => {
      let text: string;
      try {
        text = await readText(path.join(folder, ...file.path.split('/')));
      } catch (error) {
        const message = `cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
        drafts.push({ severity: 'error', code: CampaignDiagnosticCode.CAMPAIGN_FILE_UNREADABLE, message, file: file.path, pointer: '' });
        return;
      }
      if (extensionOf(file.path) !== '.json') {
        documents.set(file.path, textDocument(file.path, text));
        return;
      }
      const read = readJsonFile(file.path, text, CONTRACTS[file.role]);
      documents.set(file.path, read.document);
      values.set(file.path, read.value);
      drafts.push(...read.drafts);
    },
  );

  const nearMisses = checkNearMissNames(listing, drafts);
  checkUnexpectedFiles(files, nearMisses, drafts);
  const byPath = new Map(files.map((file) => [file.path, file]));
  const single = (role: CampaignFile['role']): CampaignFile | undefined => chosen.get(role);

  const manifestFile = single('manifest');
  const manifestData = manifestFile ? asRecord(values.get(manifestFile.path)) : undefined;
  const manifest = manifestFile
    ? { file: manifestFile, data: manifestData, title: stringOf(manifestData?.['title']), version: stringOf(manifestData?.['version']) }
    : undefined;
  if (manifest) checkManifest(manifest, INFO, drafts);

  const npcs = [...npcGroups(files, chosen)].map(([key, group]) => {
    const npc = readNpc(key, group.folder, group.profile, group.profile ? values.get(group.profile.path) : undefined, group.files);
    checkNpcProfile(npc, drafts);
    return npc;
  });
  checkNpcFolders(listing, new Set(npcs.filter((npc) => npc.profile).map((npc) => npc.folder)), drafts);

  const beatsFile = single('beats');
  const sidecars: CampaignSidecar[] = files
    .filter((file) => file.role === 'keywordsSidecar' || file.role === 'metaSidecar')
    .map((file) => {
      const { kind, subject } = sidecarSubject(file.path)!;
      const base = { file, kind, subject, subjectExists: byPath.has(subject) || superseded.has(subject) };
      if (kind === 'keywords') return { ...base, keywords: readKeywords(documents.get(file.path)?.text ?? '') };
      const meta = readSidecarMeta(values.get(file.path));
      return meta ? { ...base, meta } : base;
    });
  const sidecarOf = (subject: string, kind: CampaignSidecar['kind']): CampaignFile | undefined =>
    sidecars.find((sidecar) => sidecar.subject === subject && sidecar.kind === kind)?.file;
  const assets: CampaignAsset[] = files
    .filter((file) => file.role === 'image' || file.role === 'audio')
    .map((file) => ({
      file,
      kind: file.role === 'image' ? 'image' : 'audio',
      keywordsSidecar: sidecarOf(file.path, 'keywords'),
      metaSidecar: sidecarOf(file.path, 'meta'),
    }));

  return {
    folder,
    format: INFO,
    manifest,
    world: { setting: single('setting'), rules: single('rules'), constraints: single('constraints'), notes: files.filter((file) => file.role === 'worldNote') },
    npcs,
    player: single('playerTemplate'),
    premise: single('premise'),
    beats: beatsFile ? readBeats(beatsFile, values.get(beatsFile.path)) : undefined,
    endings: files.filter((file) => file.role === 'ending'),
    lore: files.filter((file) => file.role === 'lore').map((file) => ({ file })),
    assets,
    sidecars,
    files,
    documents,
    readProblems: drafts,
  };
}

function campaignFile(listed: ListedFile): CampaignFile {
  return { path: listed.path, size: listed.size, role: roleOf(listed.path), generatedName: isGeneratedName(listed.path.split('/').at(-1)!) };
}

/**
 * The one file of each single role (per NPC for profiles): the author's over a generated stand-in (FR-036). A generated
 * file left aside is reported (CAMPAIGN_GENERATED_SUPERSEDED) and not read.
 */
function chooseAuthored(files: readonly CampaignFile[], drafts: CampaignDiagnosticDraft[]): { chosen: Map<string, CampaignFile>; superseded: Set<string> } {
  const slots = new Map<string, CampaignFile[]>();
  for (const file of files) {
    if (!SINGLE_ROLES.has(file.role)) continue;
    const slot = file.role === 'npcProfile' ? `npc:${npcKeyOf(file.path)}` : file.role;
    slots.set(slot, [...(slots.get(slot) ?? []), file]);
  }
  const chosen = new Map<string, CampaignFile>();
  const superseded = new Set<string>();
  for (const [slot, candidates] of slots) {
    // An author's file first; then a profile in its own folder before one directly in characters/npcs/.
    const ranked = [...candidates].sort((left, right) => Number(left.generatedName) - Number(right.generatedName) || depth(right) - depth(left));
    const [winner, ...others] = ranked;
    chosen.set(slot, winner!);
    for (const other of others) {
      if (!other.generatedName || winner!.generatedName) continue;
      superseded.add(other.path);
      drafts.push({
        severity: 'info',
        code: CampaignDiagnosticCode.CAMPAIGN_GENERATED_SUPERSEDED,
        message: `${other.path} is left aside: the author's ${winner!.path} takes its place, and is never replaced by generated content`,
        file: other.path,
        pointer: '',
      });
    }
  }
  return { chosen, superseded };
}

function depth(file: CampaignFile): number {
  return file.path.split('/').length;
}

/** NPCs by key: the chosen profile (if any) and the other files of the NPC's folder. */
function npcGroups(
  files: readonly CampaignFile[],
  chosen: ReadonlyMap<string, CampaignFile>,
): Map<string, { folder: string; profile?: CampaignFile; files: CampaignFile[] }> {
  const groups = new Map<string, { folder: string; profile?: CampaignFile; files: CampaignFile[] }>();
  for (const file of files) {
    const key = npcKeyOf(file.path);
    if (key === undefined || (file.role !== 'npcProfile' && file.path.split('/').length === 3)) continue;
    const profile = chosen.get(`npc:${key}`);
    const folder = file.path.split('/').length === 3 ? file.path : `characters/npcs/${key}`;
    const group = groups.get(key) ?? { folder: profile && depth(profile) === 3 ? profile.path : folder, files: [] };
    if (file === profile) group.profile = file;
    else if (file.role !== 'npcProfile') group.files.push(file);
    groups.set(key, group);
  }
  return new Map([...groups].filter(([, group]) => group.profile !== undefined || group.files.length > 0));
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
