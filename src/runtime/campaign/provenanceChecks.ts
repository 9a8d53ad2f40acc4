// Checks of sidecars and provenance (spec 007's creeds): sidecars beside a file, keywords present, generated files marked with their provenance, human files without one. Pure.
import * as path from 'node:path';
import { closestMatch } from '../validation/closestMatch.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { Campaign, CampaignSidecar } from './campaignModel.js';
import { META_SUFFIX } from './folderLayout.js';

/** What a generated file's provenance must say (FR-044). */
const PROVENANCE_FIELDS = ['source_model', 'generated_at', 'seed_data'] as const;

/** Generated files named in the FR-044c notice before "and N more". */
const NAMED_GENERATED = 3;

export function checkSidecars(campaign: Campaign, drafts: CampaignDiagnosticDraft[]): void {
  const files = campaign.files.map((file) => file.path);
  for (const sidecar of campaign.sidecars) {
    const file = sidecar.file.path;
    if (!sidecar.subjectExists) {
      const folder = path.posix.dirname(sidecar.subject);
      const neighbours = files.filter((other) => path.posix.dirname(other) === folder && other !== file && !other.endsWith(sidecarSuffix(sidecar)));
      const suggestion = closestMatch(sidecar.subject, neighbours);
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_ORPHAN_SIDECAR,
        message: `${file} describes ${sidecar.subject}, which does not exist${suggestion ? `; did you mean a sidecar of "${suggestion}"?` : ''}`,
        file,
        pointer: '',
      });
    }
    if (sidecar.kind === 'keywords' && sidecar.keywords?.length === 0) {
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_EMPTY_SIDECAR,
        message: `${file} holds no keyword (one per line; # starts a comment), so keywords are extracted from ${sidecar.subject} instead`,
        file,
        pointer: '',
      });
    }
    if (sidecar.kind === 'meta') checkProvenance(sidecar, drafts);
  }
  checkGeneratedFiles(campaign, drafts);
}

function sidecarSuffix(sidecar: CampaignSidecar): string {
  return sidecar.kind === 'meta' ? META_SUFFIX : '.keywords.txt';
}

/** generated: true needs the three fields of a provenance; generated: false allows none (FR-044, FR-044a). */
function checkProvenance(sidecar: CampaignSidecar, drafts: CampaignDiagnosticDraft[]): void {
  const meta = sidecar.meta;
  if (!meta) return;
  const file = sidecar.file.path;
  if (meta.generated === true) {
    const provenance = meta.provenance;
    const missing = PROVENANCE_FIELDS.filter((field) => typeof provenance?.[field] !== 'string' || (provenance[field] as string).trim() === '');
    if (missing.length === 0) return;
    drafts.push({
      severity: 'error',
      code: CampaignDiagnosticCode.CAMPAIGN_PROVENANCE_MISSING,
      message: provenance
        ? `${sidecar.subject} is marked generated, but its provenance has no ${missing.join(', ')}: a generated file says which model made it, when, and from what`
        : `${sidecar.subject} is marked generated but has no provenance: add "provenance": { "source_model", "generated_at", "seed_data" }`,
      file,
      pointer: provenance ? '/provenance' : '/generated',
    });
  } else if (meta.generated === false && meta.provenance !== undefined) {
    drafts.push({
      severity: 'error',
      code: CampaignDiagnosticCode.CAMPAIGN_PROVENANCE_ON_HUMAN_FILE,
      message: `${sidecar.subject} is marked as made by a person ("generated": false) but carries a provenance: remove it, or mark the file generated`,
      file,
      pointer: '/provenance',
      target: 'key',
    });
  }
}

/** Files named *_generated.* without a sidecar marking them generated (FR-034), and the count of generated files (FR-044c). */
function checkGeneratedFiles(campaign: Campaign, drafts: CampaignDiagnosticDraft[]): void {
  const metaOf = new Map(campaign.sidecars.filter((sidecar) => sidecar.kind === 'meta').map((sidecar) => [sidecar.subject, sidecar]));
  for (const file of campaign.files) {
    if (!file.generatedName || file.role === 'keywordsSidecar' || file.role === 'metaSidecar') continue;
    const sidecar = metaOf.get(file.path);
    if (sidecar?.meta?.generated === true) continue;
    const said = sidecar?.meta?.generated === false ? ` (${sidecar.file.path} says "generated": false)` : '';
    drafts.push({
      severity: 'warning',
      code: CampaignDiagnosticCode.CAMPAIGN_GENERATED_UNMARKED,
      message:
        `${file.path} is named as generated, but no ${file.path}${META_SUFFIX} marks it "generated": true with its provenance${said}; ` +
        'rename it if a person wrote it',
      file: file.path,
      pointer: '',
    });
  }
  const generated = [...metaOf.values()].filter((sidecar) => sidecar.meta?.generated === true && sidecar.subjectExists).map((sidecar) => sidecar.subject);
  const manifest = campaign.manifest?.file.path;
  if (generated.length === 0 || manifest === undefined) return;
  const named = generated.slice(0, NAMED_GENERATED).join(', ') + (generated.length > NAMED_GENERATED ? `, and ${generated.length - NAMED_GENERATED} more` : '');
  drafts.push({
    severity: 'info',
    code: CampaignDiagnosticCode.CAMPAIGN_GENERATED_CONTENT,
    message: `the campaign holds ${generated.length} generated file(s) (${named}); review their content and provenance before sharing it`,
    file: manifest,
    pointer: '',
  });
}
