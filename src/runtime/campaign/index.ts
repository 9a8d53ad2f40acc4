// Public API of campaigns: the formats Narratoria reads, finding and loading a campaign, validating it, and the model and diagnostics views and commands use.
import * as path from 'node:path';
import type { Campaign, CampaignFormat, CampaignLoadOptions } from './campaignModel.js';
import { folderFormat } from './folderFormat.js';
import { MANIFEST_FILE } from './folderLayout.js';
import { validateLoadedCampaign, type CampaignValidation } from './validateCampaign.js';

/** Every campaign format, asked in this order; a new format is one module added here. */
export const CAMPAIGN_FORMATS: readonly CampaignFormat[] = [folderFormat];

/** The format `folder` (absolute) is written in, or undefined when it holds no campaign. */
export async function detectCampaignFormat(folder: string, formats: readonly CampaignFormat[] = CAMPAIGN_FORMATS): Promise<CampaignFormat | undefined> {
  for (const format of formats) if (await format.detect(folder)) return format;
  return undefined;
}

/** Loads the campaign in `folder` (absolute) with the first format that recognizes it; undefined when none does. */
export async function loadCampaign(
  folder: string,
  formats: readonly CampaignFormat[] = CAMPAIGN_FORMATS,
  options: CampaignLoadOptions = {},
): Promise<Campaign | undefined> {
  const format = await detectCampaignFormat(folder, formats);
  return format ? await format.load(folder, options) : undefined;
}

/** Loads and validates the campaign in `folder` (absolute); undefined when it holds no campaign. */
export async function validateCampaign(folder: string, formats: readonly CampaignFormat[] = CAMPAIGN_FORMATS): Promise<CampaignValidation | undefined> {
  const campaign = await loadCampaign(folder, formats);
  return campaign ? await validateLoadedCampaign(campaign) : undefined;
}

/**
 * The campaign folder a command-line argument names: the folder itself, or the folder of a `manifest.json` given as a
 * file. Only the name is looked at; {@link detectCampaignFormat} says whether a campaign is there.
 */
export function campaignFolderOf(argument: string, isDirectory: boolean): string | undefined {
  if (isDirectory) return argument;
  return path.basename(argument) === MANIFEST_FILE ? path.dirname(argument) : undefined;
}

export { validateLoadedCampaign, type CampaignValidation } from './validateCampaign.js';
export {
  CampaignDiagnosticCode,
  campaignReportDiagnostic,
  compareCampaignDiagnostics,
  type CampaignDiagnostic,
  type CampaignRelatedInformation,
  type ReportRelatedInformation,
} from './campaignDiagnostic.js';
export type * from './campaignModel.js';
export { beatsById } from './beatChecks.js';
export { npcNamed, npcNames } from './referenceChecks.js';
export { CAMPAIGN_FOLDERS, MANIFEST_FILE } from './folderLayout.js';
