// The starter campaigns of `narratoria init --campaign`: minimal (3 files) and complete (every part of the format), written for Narratoria.
import { castFiles } from './starterCast.js';
import { loreFiles } from './starterLore.js';
import { loreQueryFiles } from './starterLoreQueries.js';
import { mediaFiles } from './starterMedia.js';
import { minimalCampaignFiles } from './starterMinimal.js';
import { plotFiles } from './starterPlot.js';
import { starterSkillFiles } from './starterSkill.js';
import { worldFiles } from './starterWorld.js';

/** One file of a starter campaign: text, or bytes (images, sounds). */
export interface StarterFile {
  /** Campaign-relative path with / separators. */
  readonly path: string;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

/** The starter campaigns, by the name `--campaign` takes. */
export const STARTER_CAMPAIGNS = ['minimal', 'complete'] as const;
export type StarterCampaign = (typeof STARTER_CAMPAIGNS)[number];

export function isStarterCampaign(name: string): name is StarterCampaign {
  return (STARTER_CAMPAIGNS as readonly string[]).includes(name);
}

/** Every file of a starter campaign, manifest first. */
export function starterCampaignFiles(kind: StarterCampaign): StarterFile[] {
  if (kind === 'minimal') return minimalCampaignFiles();
  return [...worldFiles(), ...castFiles(), ...plotFiles(), ...loreFiles(), ...loreQueryFiles(), ...mediaFiles(), ...starterSkillFiles()];
}

/** The README section about the campaign: its parts, and the command that checks it. */
export function starterCampaignReadme(kind: StarterCampaign): string {
  const parts =
    kind === 'minimal'
      ? `- \`manifest.json\`: the campaign's title, version and tone; it makes this folder a campaign.
- \`world/setting.md\` and \`plot/premise.md\`: the world and where the story starts. The narrator invents the rest.`
      : `- \`manifest.json\`: the campaign's title, version and tone; it makes this folder a campaign.
- \`world/\`: the setting, the rules and the constraints the narrator never breaks.
- \`characters/\`: three NPCs (\`npcs/NAME/profile.json\`) and what a player may be (\`player/template.json\`).
- \`plot/\`: the premise, the beats with their conditions (\`beats.json\`) and the endings.
- \`lore/\`: background the narrator draws on, in nested folders.
- \`art/\` and \`music/\`: portraits, a location and a foghorn, with their \`.keywords.txt\` and \`.meta.json\` sidecars.
- \`skills/gullhaven/\`: the campaign's own skill, the island's clock and the saltlight (below).`;
  return `## The campaign

This folder is also a Narratoria campaign (${kind === 'minimal' ? 'a minimal one' : 'a complete one'}):

${parts}

Run \`narratoria validate .\` here to check the whole campaign; Narratoria's guide to campaigns
(\`docs/campaigns.md\`) explains the format and each check.
${kind === 'complete' ? COMPLETE_STATE_NOTE : ''}`;
}

/** The complete starter's own skill: the state its later beats wait for, and how a skill moves a story on. */
const COMPLETE_STATE_NOTE = `
Three beats wait for state the sample skills do not set: \`beat_003\` for \`world.fog\` and \`world.time\`
(and Brother Alder preaching in the square), and \`beat_006\` for \`player.saltlight\` and \`world.tide\`
(\`beat_005\` follows \`beat_003\`). The campaign's own skill, \`skills/gullhaven\`, sets them: "I wait until
dusk" or "I wait for the lowest tide" moves the island's clock on (\`scripts/wait.js\`), and "I fill a jar with
saltlight" gives the player a measure (\`scripts/fill.js\`). Each sends a \`state_patch\` event; read them to see
how a skill of yours moves a story on ("State keys" in \`docs/campaigns.md\` lists what beats read).
\`playtests/the-lantern-rekindled.playtest.json\` plays the campaign through them to the rekindled ending:
\`narratoria test\` runs it.
`;
