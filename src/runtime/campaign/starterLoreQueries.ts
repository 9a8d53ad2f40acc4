// The complete starter campaign's lore.queries.json: questions an author would ask of its lore, each with the chunks it should find (docs/lore.md#measuring-retrieval). Our own writing.
import type { StarterFile } from './starterCampaigns.js';

/** Written before the retrieval was tuned, as an author would, from the lore files alone. */
const QUERIES = [
  { query: 'How is saltlight made?', expect: ['lore/saltlight/how-saltlight-burns.md#1'] },
  { query: 'Where is the saltlight stored in the tower?', expect: ['lore/places/the-lantern-tower.md#2'] },
  { query: 'Who was the first keeper?', expect: ['lore/history/the-first-keeper.md#1'] },
  { query: 'What happened to the village of Saltmere?', expect: ['lore/history/the-drowning-of-saltmere.md#1'] },
  { query: "What did Odile's mother do the night of the storm?", expect: ['lore/history/the-drowning-of-saltmere.md#2'] },
  { query: 'Why do the drowned sing?', expect: ['lore/history/the-drowning-of-saltmere.md#3'] },
  { query: 'Which taverns are in the harbour?', expect: ['lore/places/gullhaven-harbour.md#1'] },
  { query: 'Where does Brother Alder ring the bell?', expect: ['lore/places/gullhaven-harbour.md#2'] },
  { query: 'What does Tamsin hide in the customs house?', expect: ['lore/places/gullhaven-harbour.md#3'] },
  { query: 'How many steps up to the lamp room?', expect: ['lore/places/the-lantern-tower.md#1'] },
  { query: 'What can you see from the gallery?', expect: ['lore/places/the-lantern-tower.md#3'] },
  { query: 'What colour does saltlight burn, and why does it matter in fog?', expect: ['lore/saltlight/how-saltlight-burns.md#2'] },
  { query: 'How is the last step of the recipe passed on?', expect: ['lore/saltlight/how-saltlight-burns.md#3'] },
  { query: 'How are keepers chosen?', expect: ['lore/history/the-first-keeper.md#3'] },
  { query: 'How did salt keep the drowned away from the bonfire?', expect: ['lore/history/the-first-keeper.md#2'] },
  { query: 'Can you see Saltmere from the tower?', expect: ['lore/places/the-lantern-tower.md#3'] },
];

/** lore.queries.json at the campaign's root. */
export function loreQueryFiles(): StarterFile[] {
  const file = { $schema: 'https://narratoria.dev/contracts/campaign/lore-queries.schema.json', queries: QUERIES };
  return [{ path: 'lore.queries.json', text: `${JSON.stringify(file, null, 2)}\n` }];
}
