// Checks of a campaign's prose: the setting and premise it should have, and Markdown files that say nothing (empty, or only headings and comments). Pure.
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { Campaign, CampaignFile } from './campaignModel.js';

/** Roles whose Markdown must say something (FR-011 to FR-013, FR-018, FR-020). */
const PROSE_ROLES: ReadonlySet<CampaignFile['role']> = new Set(['setting', 'rules', 'constraints', 'worldNote', 'premise', 'plotNote', 'ending']);

/** What is left of a Markdown text without its HTML comments, headings and blank space. */
export function proseOf(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .split(/\r\n|\r|\n/)
    .filter((line) => !/^\s{0,3}#{1,6}(\s|$)/.test(line))
    .join('')
    .trim();
}

/** Missing setting or premise, empty prose files and empty lore files. */
export function checkContent(campaign: Campaign, drafts: CampaignDiagnosticDraft[]): void {
  const manifest = campaign.manifest?.file.path;
  if (manifest !== undefined) {
    const missing = [
      campaign.world.setting ? undefined : 'world/setting.md (the world, its era and its tone)',
      campaign.premise ? undefined : 'plot/premise.md (where the story starts, and its hook)',
    ].filter((what): what is string => what !== undefined);
    if (missing.length > 0) {
      drafts.push({
        severity: 'info',
        code: CampaignDiagnosticCode.CAMPAIGN_RECOMMENDED_FILE_MISSING,
        message: `the campaign has no ${missing.join(' and no ')}; the narrator will invent ${missing.length === 1 ? 'it' : 'them'}`,
        file: manifest,
        pointer: '',
      });
    }
  }
  const secretFiles = new Set(campaign.npcs.flatMap((npc) => npc.paths.filter((link) => link.kind === 'secrets').map((link) => link.target)));
  for (const file of campaign.files) {
    const document = campaign.documents.get(file.path);
    if (!document || proseOf(document.text) !== '') continue;
    const what = document.text.trim() === '' ? 'is empty' : 'holds only headings or comments';
    if (PROSE_ROLES.has(file.role) || secretFiles.has(file.path)) {
      drafts.push({
        severity: 'error',
        code: CampaignDiagnosticCode.CAMPAIGN_EMPTY_FILE,
        message: `${file.path} ${what}; write what it is for, or delete it`,
        file: file.path,
        pointer: '',
      });
    } else if (file.role === 'lore') {
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_EMPTY_LORE_FILE,
        message: `the lore file ${file.path} ${what}, so it gives the narrator nothing to draw on`,
        file: file.path,
        pointer: '',
      });
    }
  }
}
