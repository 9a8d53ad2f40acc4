// The playtest `narratoria init --campaign complete` adds: The Salt Lantern played to its rekindled ending, through the campaign's own skill (skills/gullhaven).
import type { StarterFile } from './starterCampaigns.js';

const PLAYTEST = {
  name: "The lantern rekindled: the island's clock, a measure of saltlight, and Saltmere at the lowest tide",
  seed: 7,
  turns: [
    { input: 'I climb up to the lantern tower', expect: { beats: { triggered: ['beat_001'] } } },
    {
      input: 'I wait until dusk',
      expect: {
        skills: ['gullhaven', 'storyteller'],
        state: ['world.time == "dusk"', 'world.fog == "haze"'],
        narration: { contains: ['Brother Alder is preaching in the square'] },
      },
    },
    { input: 'Ask Tamsin for help', expect: { beats: { triggered: ['beat_002'] } } },
    { input: 'I search the cottage for the tower key', expect: { beats: { triggered: ['beat_003'] } } },
    { input: 'I take the tower key', expect: { beats: { triggered: ['beat_004'] } } },
    { input: 'I fill a jar with saltlight', expect: { skills: ['gullhaven'], state: ['player.saltlight == 1'] } },
    { input: 'I wait for the lowest tide', expect: { state: ['world.tide == "lowest"'] } },
    { input: 'I row out to Saltmere', expect: { beats: { triggered: ['beat_006'] } } },
    { input: 'Bring the story to its end: The lantern rekindled', expect: { ending: 'rekindled' } },
  ],
};

/** Where the playtest goes in a new story: beside the story's first playtest. */
export const PLAYTHROUGH_PLAYTEST = 'playtests/the-lantern-rekindled.playtest.json';

/**
 * The playtest of a story whose root is the complete starter campaign. Only `init` writes it: a campaign made in a
 * sub-folder (New Campaign) is not its story's root, where playtests play.
 */
export function starterPlaythroughFiles(): StarterFile[] {
  return [{ path: PLAYTHROUGH_PLAYTEST, text: `${JSON.stringify(PLAYTEST, null, 2)}\n` }];
}
