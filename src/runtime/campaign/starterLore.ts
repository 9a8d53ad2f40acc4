// The complete starter campaign's lore/ (nested folders, paragraphs for chunking) and the keyword sidecars of its art. Our own writing; text only.
import type { StarterFile } from './starterCampaigns.js';

const LORE: Readonly<Record<string, string>> = {
  'history/the-first-keeper.md': `# The first keeper

Before the tower there was a bonfire. Ysolde Gann, a widow whose three sons had drowned in one winter, kept a
fire on the headland every night for eleven years so that no other mother would lose a child to the rocks.

The islanders say the drowned came to her fire and stood at its edge without crossing. She noticed that they
kept further off when the fire was fed with driftwood crusted in salt. From that she made the first saltlight.

When she died, the town built the tower over her hearth. Every keeper since has been chosen by the one before,
and every keeper has been, like Ysolde, someone the sea had already taken something from.
`,
  'history/the-drowning-of-saltmere.md': `# The drowning of Saltmere

Saltmere was a fishing village in the north cove, older than the harbour town. Sixty years ago a spring tide
and a storm met over it, and the sea did not go back down. The church bell still rings at the lowest tides.

The keeper then was Maren Marrow, Odile's mother. The story in the taverns is that Maren saw the storm coming
and could have warned the cove, but the lantern could only face one way that night, and she turned it to the
harbour where her daughter slept.

The drowned of Saltmere are the only dead on the island who sing. The old fishers say they are still waiting
for the warning that never came.
`,
  'places/gullhaven-harbour.md': `# Gullhaven harbour

The harbour town climbs the cliff in terraces connected by stairways the islanders call ladders. The Mended
Net and the Widow's Lamp are the two taverns; the first is for fishers, the second for everyone else.

The chapel of the Tide stands where the harbour wall meets the square. Its bell is rung for births, drownings
and the first fog of the season. Brother Alder has rung it every evening this week.

The customs house has been empty for a decade. Tamsin keeps things in its cellar that the customs men would
have wanted to see.
`,
  'places/the-lantern-tower.md': `# The Lantern tower

One hundred and twelve steps lead from the keeper's cottage to the lamp room. The lamp is a brass basin with
seven wicks behind a lens the size of a cartwheel, ground on the mainland and carried up in pieces.

Saltlight is stored in a locked cupboard in the watch room, one floor below the lamp. The cupboard holds
twelve measures when full. It is nearly empty now, and the ledger beside it does not explain why.

From the gallery you can see the whole island, the mainland on clear days, and, at the lowest tides, the roofs
of Saltmere under the water in the north cove.
`,
  'saltlight/how-saltlight-burns.md': `# How saltlight burns

Saltlight is rendered from three things: sea salt boiled out of spring-tide water, kelp cut at new moon, and
oil pressed from the liver of a fish the keepers will not name. The rendering takes a night and a day.

It burns blue-white and smells of a beach after a storm. It gives less light than lamp oil but carries further
in fog. Where its beam falls, the drowned stop, listen, and turn back toward the sea.

The last step of the recipe has never been written down. Each keeper teaches it to the next aloud, in the lamp
room, with the lamp lit.
`,
};

const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  'art/characters/odile.png': ['odile', 'keeper', 'mentor', 'old woman', 'lamplight', 'scarred hands'],
  'art/characters/tamsin.png': ['tamsin', 'ferrywoman', 'smuggler', 'sailor', 'ally'],
  'art/locations/lantern-tower.png': ['lantern', 'lighthouse', 'tower', 'fog', 'night'],
};

/** The lore files and the keyword sidecars of the art. */
export function loreFiles(): StarterFile[] {
  return [
    ...Object.entries(LORE).map(([name, text]) => ({ path: `lore/${name}`, text })),
    ...Object.entries(KEYWORDS).map(([asset, words]) => ({
      path: `${asset}.keywords.txt`,
      text: `# Keywords for ${asset.split('/').at(-1)}: one per line, used instead of extracted ones\n${words.join('\n')}\n`,
    })),
  ];
}
