// Validates a loaded campaign: what its format found while reading, then the checks every format shares; locates each diagnostic and sorts them by file and position.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { isPathInside } from '../common/pathContainment.js';
import type { SourceRange } from '../validation/diagnostic.js';
import { checkBeats } from './beatChecks.js';
import { compareCampaignDiagnostics, type CampaignDiagnostic, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { Campaign } from './campaignModel.js';
import { checkContent } from './contentChecks.js';
import { checkSidecars } from './provenanceChecks.js';
import { checkNpcMentions, checkPaths, pathLinks } from './referenceChecks.js';

/** The outcome of validating a campaign. */
export interface CampaignValidation {
  readonly campaign: Campaign;
  /** Every problem, by file then position. */
  readonly diagnostics: readonly CampaignDiagnostic[];
  /** No diagnostic has severity error. */
  readonly valid: boolean;
}

/** A whole file's problem in a file that was not read as text (an image): its start. */
const START_OF_FILE: SourceRange = { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };

/** Runs every check on `campaign` (its format's reading problems included). Reads the disk only for paths outside the campaign's folders. */
export async function validateLoadedCampaign(campaign: Campaign): Promise<CampaignValidation> {
  const drafts: CampaignDiagnosticDraft[] = [...campaign.readProblems];
  checkContent(campaign, drafts);
  if (campaign.beats) checkBeats(campaign.beats, drafts);
  checkNpcMentions(campaign, drafts);
  checkPaths(campaign, await targetsElsewhere(campaign), drafts);
  checkSidecars(campaign, drafts);
  const diagnostics = drafts.map((draft) => locate(campaign, draft)).sort(compareCampaignDiagnostics);
  return { campaign, diagnostics, valid: !diagnostics.some((diagnostic) => diagnostic.severity === 'error') };
}

/** The paths named by campaign files that are files on disk inside the campaign folder but outside the folders the loader lists. */
async function targetsElsewhere(campaign: Campaign): Promise<Set<string>> {
  const listed = new Set(campaign.files.map((file) => file.path));
  const found = new Set<string>();
  const targets = [...new Set(pathLinks(campaign).map((link) => link.target))].filter((target) => !listed.has(target));
  await Promise.all(
    targets.map(async (target) => {
      const absolute = path.join(campaign.folder, ...target.split('/'));
      if (!isPathInside(absolute, campaign.folder)) return;
      try {
        if ((await stat(absolute)).isFile()) found.add(target);
      } catch {
        // not there: reported as CAMPAIGN_PATH_NOT_FOUND
      }
    }),
  );
  return found;
}

function locate(campaign: Campaign, draft: CampaignDiagnosticDraft): CampaignDiagnostic {
  const { target, range: given, wholeFolder, related, ...rest } = draft;
  const document = campaign.documents.get(draft.file);
  const range = given ?? (wholeFolder ? undefined : (document?.rangeOf(draft.pointer, target ?? 'value') ?? START_OF_FILE));
  const located = related?.map((information) => {
    const relatedRange = campaign.documents.get(information.file)?.rangeOf(information.pointer);
    return relatedRange ? { ...information, range: relatedRange } : information;
  });
  return { ...rest, ...(range ? { range } : {}), ...(located && located.length > 0 ? { related: located } : {}) };
}
