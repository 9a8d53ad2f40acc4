// Checks of what campaign files name: characters a beat names have a profile; portrait, voice, music, background and secrets paths lead to files of the right kind. Pure.
import { closestMatch } from '../validation/closestMatch.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { Campaign, CampaignNpc, PathLink } from './campaignModel.js';
import { AUDIO_EXTENSIONS, characterKey, extensionOf, IMAGE_EXTENSIONS, NON_NPC_SPEAKERS } from './folderLayout.js';

/** What each kind of path must name, by extension. */
const PATH_KINDS: Readonly<Record<PathLink['kind'], { readonly extensions: ReadonlySet<string>; readonly words: string }>> = {
  portrait: { extensions: IMAGE_EXTENSIONS, words: 'an image (PNG, JPEG or WebP)' },
  background: { extensions: IMAGE_EXTENSIONS, words: 'an image (PNG, JPEG or WebP)' },
  voice: { extensions: AUDIO_EXTENSIONS, words: 'a sound (MP3, OGG, WAV or FLAC)' },
  music: { extensions: AUDIO_EXTENSIONS, words: 'a sound (MP3, OGG, WAV or FLAC)' },
  secrets: { extensions: new Set(['.md']), words: 'a Markdown file' },
};

/** The names a character is matched by: its folder's name, its profile's name, and the first and last words of that name. */
export function npcNames(npc: CampaignNpc): string[] {
  const names = new Set([characterKey(npc.key)]);
  if (npc.name !== undefined) {
    const key = characterKey(npc.name);
    const words = key.split('_').filter((word) => word.length > 2);
    names.add(key);
    if (words.length > 1) {
      names.add(words[0]!);
      names.add(words.at(-1)!);
    }
  }
  return [...names].filter((name) => name !== '');
}

/** The NPC a name in a campaign file means, if any. */
export function npcNamed(npcs: readonly CampaignNpc[], name: string): CampaignNpc | undefined {
  const key = characterKey(name);
  return npcs.find((npc) => npc.profile !== undefined && npcNames(npc).includes(key));
}

/** npc_state keys and dialogue speakers that name no NPC with a profile. */
export function checkNpcMentions(campaign: Campaign, drafts: CampaignDiagnosticDraft[]): void {
  if (!campaign.beats) return;
  const withProfiles = campaign.npcs.filter((npc) => npc.profile !== undefined);
  const keys = withProfiles.map((npc) => npc.key);
  for (const beat of campaign.beats.beats) {
    for (const mention of beat.npcMentions) {
      if (mention.kind === 'dialogue' && NON_NPC_SPEAKERS.has(characterKey(mention.name))) continue;
      if (npcNamed(withProfiles, mention.name)) continue;
      const suggestion = closestMatch(characterKey(mention.name), keys);
      const where = mention.kind === 'npcState' ? 'npc_state' : 'the dialogue';
      const hint = suggestion ? `; did you mean "${suggestion}"?` : keys.length > 0 ? `; the NPCs are ${keys.join(', ')}` : '';
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_UNKNOWN_NPC,
        message: `${where} of ${beat.id ?? 'a beat'} names "${mention.name}", who has no profile in characters/npcs/${hint}`,
        ...mention.at,
      });
    }
  }
}

/** Every path the campaign's files name. */
export function pathLinks(campaign: Campaign): PathLink[] {
  return [...campaign.npcs.flatMap((npc) => npc.paths), ...(campaign.beats?.beats.flatMap((beat) => beat.paths) ?? [])];
}

/**
 * Paths that name no file (FR-031), or a file of the wrong kind. `elsewhere` holds the targets found on disk outside
 * the campaign's folders (the loader lists only those).
 */
export function checkPaths(campaign: Campaign, elsewhere: ReadonlySet<string>, drafts: CampaignDiagnosticDraft[]): void {
  const files = new Set(campaign.files.map((file) => file.path));
  for (const link of pathLinks(campaign)) {
    const kind = PATH_KINDS[link.kind];
    if (!files.has(link.target) && !elsewhere.has(link.target)) {
      const suggestion = closestMatch(
        link.target,
        [...files].filter((file) => kind.extensions.has(extensionOf(file))),
      );
      const resolved = link.target === link.written ? '' : ` (${link.target} in the campaign)`;
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_PATH_NOT_FOUND,
        message: `the ${link.kind} "${link.written}"${resolved} does not exist${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        ...link.at,
      });
    } else if (!kind.extensions.has(extensionOf(link.target))) {
      drafts.push({
        severity: 'warning',
        code: CampaignDiagnosticCode.CAMPAIGN_UNEXPECTED_FILE,
        message: `the ${link.kind} "${link.written}" should be ${kind.words}`,
        ...link.at,
      });
    }
  }
}
