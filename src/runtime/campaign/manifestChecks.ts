// Checks of what the schemas leave open: manifest keys the format does not define (a warning with a "did you mean"), recommended keys, the format version. Pure.
import { contractSchemas } from '../contracts/schemas.js';
import { closestMatch } from '../validation/closestMatch.js';
import { pointerFromPath } from '../validation/jsonLocator.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { CampaignFormatInfo, CampaignManifest, CampaignNpc } from './campaignModel.js';

/** Keys the manifest should have (FR-008). */
const RECOMMENDED_MANIFEST_KEYS = ['author', 'description', 'genre', 'tone', 'content_rating'] as const;
/** Keys an NPC profile should have (FR-015). */
const RECOMMENDED_PROFILE_KEYS = ['motivations', 'relationships', 'speech_patterns', 'secrets'] as const;

const MANIFEST_KEYS: readonly string[] = Object.keys(contractSchemas['campaign/manifest.schema.json'].properties);

/** The manifest's unknown keys, missing recommended keys and format version. */
export function checkManifest(manifest: CampaignManifest, format: CampaignFormatInfo, drafts: CampaignDiagnosticDraft[]): void {
  const data = manifest.data;
  if (!data) return;
  const file = manifest.file.path;
  for (const key of Object.keys(data)) {
    if (MANIFEST_KEYS.includes(key)) continue;
    const suggestion = closestMatch(key, MANIFEST_KEYS);
    drafts.push({
      severity: 'warning',
      code: CampaignDiagnosticCode.CAMPAIGN_UNKNOWN_KEY,
      message: `unknown key "${key}" in the manifest; Narratoria ignores it${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
      file,
      pointer: pointerFromPath([key]),
      target: 'key',
    });
  }
  recommend(data, RECOMMENDED_MANIFEST_KEYS, file, 'the manifest', 'players choose a campaign by them', drafts);
  const declared = data['campaign_format_version'];
  if (typeof declared === 'string' && /^\d+\./.test(declared) && majorOf(declared) !== majorOf(format.version)) {
    drafts.push({
      severity: 'warning',
      code: CampaignDiagnosticCode.CAMPAIGN_FORMAT_VERSION,
      message: `the campaign is written in format version ${declared}; this Narratoria reads version ${format.version} (${format.label}), so some of it may be misread`,
      file,
      pointer: '/campaign_format_version',
    });
  }
}

/** An NPC profile's missing recommended keys. */
export function checkNpcProfile(npc: CampaignNpc, drafts: CampaignDiagnosticDraft[]): void {
  if (!npc.profile || !npc.data) return;
  recommend(npc.data, RECOMMENDED_PROFILE_KEYS, npc.profile.path, `the profile of ${npc.name ?? npc.key}`, 'the narrator plays the NPC from them', drafts);
}

function recommend(
  data: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  file: string,
  what: string,
  why: string,
  drafts: CampaignDiagnosticDraft[],
): void {
  const missing = keys.filter((key) => !Object.hasOwn(data, key));
  if (missing.length === 0) return;
  drafts.push({
    severity: 'info',
    code: CampaignDiagnosticCode.CAMPAIGN_RECOMMENDED_KEY_MISSING,
    message: `${what} has no ${missing.map((key) => `"${key}"`).join(', ')}; the format recommends ${missing.length === 1 ? 'it' : 'them'}: ${why}`,
    file,
    // A missing key's pointer ranges over the opening brace of the object that should hold it.
    pointer: pointerFromPath([missing[0]!]),
  });
}

function majorOf(version: string): number {
  return Number(version.split('.')[0]);
}
