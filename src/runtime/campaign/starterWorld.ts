// The complete starter campaign's manifest, world, premise and endings ("The Salt Lantern"). Our own writing; text only.
import type { StarterFile } from './starterCampaigns.js';

export const COMPLETE_TITLE = 'The Salt Lantern';

const MANIFEST = {
  title: COMPLETE_TITLE,
  version: '1.0.0',
  author: 'The Narratoria team',
  description:
    'The lantern of Gullhaven has gone dark and its keeper has vanished. Without the saltlight, the drowned will walk ashore with the fog. Find the keeper, or become one.',
  genre: 'Coastal folk horror',
  tone: 'Brooding, salt-stung, hopeful at the edges',
  content_rating: 'Teen (peril, grief)',
  rules_hint: 'rules-light',
  hydration_guidance: 'Follow the beats and profiles closely; invent minor islanders and weather freely, never new magic.',
  content_warnings: ['drowning', 'loss of a parent figure'],
  estimated_playtime_hours: 3,
  campaign_format_version: '1.0.0',
  license: 'CC BY 4.0',
  tags: ['lighthouse', 'island', 'mystery', 'ghosts'],
};

const SETTING = `# Gullhaven Isle

Gullhaven is a hook of granite off a storm coast, two hours by ferry from the mainland in fair weather and
unreachable in foul. Four hundred people live in the harbour town below the cliffs: fishers, net-menders,
a chapel of the Tide, two taverns and a customs house that nobody staffs anymore.

Above the town stands the Lantern, a white tower whose lamp burns **saltlight**: oil rendered from sea-salt
and kelp by a recipe only the keepers know. Saltlight does more than guide ships. Its beam keeps the
drowned, the islanders' word for the restless dead of the sea, from walking out of the fog and into the town.

The era is the tail end of sail. There are oil lamps, brass telescopes and clockwork foghorns; there are no
engines on the island and no telegraph. Letters come with the ferry, twice a week, when the sea allows.

The fog season is starting. Every night the fog comes in a little earlier, and this year the Lantern is dark.
`;

const RULES = `# Rules

Gullhaven plays rules-light. When the outcome of an action is uncertain and matters, roll two six-sided dice
and add the bonus of the trait that fits (from -1 to +2).

- **10 or more**: it works, and the player says one thing that goes better than hoped.
- **7 to 9**: it works at a cost: time, noise, a debt, or a light that gutters.
- **6 or less**: the narrator says what goes wrong, and the fog comes a little closer.

**Saltlight** is counted in measures. A full lantern holds three. Each measure burned holds the drowned back
for one scene in the place it lights. A player may carry at most one measure in a sealed jar.

**Fog** rises one step at the end of every scene spent outdoors after dark (clear, haze, thick, drowning).
At *drowning* the dead walk the streets until a saltlight is lit.
`;

const CONSTRAINTS = `# Constraints

These hold for the whole campaign; the narrator never breaks them.

1. **The dead do not return to life.** The drowned are echoes; they can be calmed or sent back, never revived.
2. **Saltlight is not magic anyone can learn by accident.** It is a craft with a recipe, ingredients and time.
3. **No engines and no telegraph.** News travels by ferry, by foot or by shouting across the harbour.
4. **The sea cannot be fought.** Storms are endured, never defeated; no one commands the tide.
5. **Odile Marrow is alive until the final scene decides otherwise.** Her fate is the campaign's question.
`;

const PREMISE = `# Premise

You come to Gullhaven on the last ferry before the fog season, carrying a letter from Keeper Odile Marrow:
*"Come at once. Bring nothing but your patience. The recipe must not die with me."* You have never met her.
You do not know why she chose you.

The ferrywoman who brings you across, Tamsin Reed, will not dock at the usual pier. The Lantern above the
town is dark. In the square, Brother Alder of the Tide is telling a frightened crowd that the light failed
because the island has sinned, and that the sea should be given what it asks for.

The keeper's door is locked from the inside. The fog is already in the harbour. Someone has to light the
lantern tonight.
`;

const ENDINGS: Readonly<Record<string, string>> = {
  rekindled: `# Ending: The lantern rekindled

The player finds Odile in the drowned chapel of Saltmere, learns the last step of the recipe from her, and
carries the saltlight back up the tower before the fog reaches *drowning*. Odile lives, older and quieter.
She names the player keeper in her place and leaves on the spring ferry.

**Reached when** beat_006 happens, the lantern holds at least one measure, and Tamsin or Odile trusts the
player. **Tone**: tired, earned, warm.
`,
  drowned: `# Ending: The drowned town

The lantern stays dark one night too long. The fog reaches *drowning*, and the dead of Saltmere walk up the
harbour steps. No one is hurt, but everyone remembers. By morning the island has decided to leave, and the
player rows the last boat out while the tower goes grey behind them.

**Reached when** the fog reaches *drowning* twice, or the player gives Alder the recipe. **Tone**: mournful,
not cruel; the islanders forgive the player.
`,
  departed: `# Ending: The keeper's choice

Odile will not come back. She has made peace with the drowned and stays with them in Saltmere, keeping a light
on the other side. The player carries her logbook up the tower alone and lights the lamp with her recipe, now
theirs. Gullhaven is safe; its keeper is the stranger from the ferry.

**Reached when** beat_006 happens but the player lets Odile stay. **Tone**: bittersweet, steady.
`,
};

/** The complete campaign's manifest, world files, premise and endings. */
export function worldFiles(): StarterFile[] {
  return [
    { path: 'manifest.json', text: `${JSON.stringify(MANIFEST, null, 2)}\n` },
    { path: 'world/setting.md', text: SETTING },
    { path: 'world/rules.md', text: RULES },
    { path: 'world/constraints.md', text: CONSTRAINTS },
    { path: 'plot/premise.md', text: PREMISE },
    ...Object.entries(ENDINGS).map(([name, text]) => ({ path: `plot/endings/${name}.md`, text })),
  ];
}
