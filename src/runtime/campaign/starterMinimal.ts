// The minimal starter campaign of `narratoria init --campaign minimal`: a manifest, a setting and a premise (three files, SC-002). Our own writing; text only.
import type { StarterFile } from './starterCampaigns.js';

const MANIFEST = {
  title: 'The Night Train to Wrenhollow',
  version: '1.0.0',
  author: 'The Narratoria team',
  description: 'You wake on a night train that has not stopped for years, carrying passengers who have all forgotten where they were going.',
  genre: 'Quiet mystery',
  tone: 'Wistful, curious, gently eerie',
  content_rating: 'Everyone 10+',
  rules_hint: 'narrative',
  hydration_guidance: 'Invent freely around the setting and premise; keep the train moving and the passengers kind.',
  campaign_format_version: '1.0.0',
};

const SETTING = `# The night train

The train runs through a country that is always an hour before dawn. Fields of frost slide past the windows,
then a sleeping town, then the same fields again. Nobody has seen it stop. The lamps in the carriages never
need trimming, and the tea urn in the dining car is always warm.

The passengers have forgotten their destinations but not their manners. A retired clockmaker repairs watches
that tell no time; twin sisters argue softly over a map with no names on it; a conductor in a green coat punches
tickets that are blank on both sides. Each of them keeps one object from the place they boarded, and each object
remembers a little more than its owner.

Wrenhollow is the name on the front of the locomotive. No timetable lists it. Some passengers say it is a town
where lost things go; others say it is only the name of the engine. The train is safe, warm and slightly
melancholy. Nothing here wants to hurt anyone, but some doors are locked for reasons nobody can recall.
`;

const PREMISE = `# Premise

You wake in compartment seven with a ticket in your hand. Unlike everyone else's, yours has a word on it:
**Wrenhollow**, in ink that is still wet.

The conductor notices at once. So do the twins, the clockmaker and the cat that sleeps on the luggage rack.
If one ticket can carry a destination, perhaps the train can arrive somewhere after all. But arriving means the
journey ends for everyone aboard, and not all of them are sure they want to remember where they were going.

Find out why your ticket is different, and decide whether the train should stop.
`;

/** The three files of the minimal campaign. */
export function minimalCampaignFiles(): StarterFile[] {
  return [
    { path: 'manifest.json', text: `${JSON.stringify(MANIFEST, null, 2)}\n` },
    { path: 'world/setting.md', text: SETTING },
    { path: 'plot/premise.md', text: PREMISE },
  ];
}
