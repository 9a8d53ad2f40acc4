// `narratoria validate` on a campaign: whether an argument names one (its folder or its manifest.json), and its entry of the validate report.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { campaignFolderOf, campaignReportDiagnostic, detectCampaignFormat, validateLoadedCampaign } from '../../runtime/campaign/index.js';
import type { ReportDiagnostic } from '../../runtime/validation/diagnostic.js';

/** One entry of contracts/validate-report.schema.json. */
export interface ValidateEntry {
  readonly file: string;
  /** Only campaigns say what they are; a plan's entry keeps the shape it always had. */
  readonly kind?: 'campaign';
  readonly format?: { readonly id: string; readonly version: string };
  readonly valid: boolean;
  readonly diagnostics: readonly ReportDiagnostic[];
}

/** What an argument of `validate` names. */
export type ValidateTarget =
  | { readonly kind: 'plan' }
  | { readonly kind: 'campaign'; readonly folder: string }
  /** A folder that holds no campaign: the message says what validate takes. */
  | { readonly kind: 'folder'; readonly message: string };

/** Whether `argument` (resolved against `cwd`) names a plan file, a campaign, or a folder that is no campaign. */
export async function validateTarget(argument: string, cwd: string): Promise<ValidateTarget> {
  const absolute = path.resolve(cwd, argument);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(absolute)).isDirectory();
  } catch {
    // Missing: read as a plan, whose reading reports it.
    return { kind: 'plan' };
  }
  const folder = campaignFolderOf(absolute, isDirectory);
  if (folder !== undefined && (await detectCampaignFormat(folder))) return { kind: 'campaign', folder };
  if (!isDirectory) return { kind: 'plan' };
  return {
    kind: 'folder',
    message: `${argument} is a folder without manifest.json: validate takes plan files, or a campaign (a folder with manifest.json at its root)`,
  };
}

/** Validates the campaign in `folder`; diagnostics name their files relative to `cwd`. */
export async function campaignEntry(argument: string, folder: string, cwd: string): Promise<ValidateEntry> {
  const format = (await detectCampaignFormat(folder))!;
  const validation = await validateLoadedCampaign(await format.load(folder));
  return {
    file: argument,
    kind: 'campaign',
    format: { id: format.id, version: format.version },
    valid: validation.valid,
    diagnostics: validation.diagnostics.map((diagnostic) => campaignReportDiagnostic(diagnostic, folder, cwd)),
  };
}
