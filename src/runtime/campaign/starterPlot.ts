// The complete starter campaign's plot/beats.json: six beats using every kind of condition, outcomes, a timeout and assets. Our own writing; text only.
import type { StarterFile } from './starterCampaigns.js';

const BEATS = {
  beats: [
    {
      id: 'beat_001',
      title: 'The Dark Lantern',
      description: "The player lands at the wrong pier and climbs to the Lantern. The keeper's door is locked from the inside; the lamp is cold.",
      conditions: { scene_count: { min: 1, max: 2 } },
      priority: 'critical',
      consequences: ['The player knows the keeper is missing', 'The fog starts to rise each night'],
      dialogue: [{ speaker: 'tamsin', line: 'She never lets it go dark. Never.', context: 'Looking up at the tower from the boat' }],
      location: "The Lantern tower and the keeper's cottage",
      mood: 'Uneasy',
      music: 'music/ambient/foghorn.wav',
      background: 'art/locations/lantern-tower.png',
      tags: ['arrival', 'mystery'],
    },
    {
      id: 'beat_002',
      title: "Tamsin's Bargain",
      description: 'Tamsin offers to sail the player round the north cove to look for Odile, if the player keeps quiet about her cargo.',
      conditions: {
        requires_beat: 'beat_001',
        player_choice: 'asked_tamsin_for_help',
        npc_state: { tamsin: 'worried about Odile' },
      },
      priority: 'high',
      outcomes: [
        { description: 'The player accepts and keeps her secret', triggers_beat: 'beat_004', probability: 0.6 },
        { description: 'The player refuses; Tamsin goes alone', probability: 0.4 },
      ],
      tags: ['ally', 'choice'],
    },
    {
      id: 'beat_003',
      title: "The Tide-Priest's Sermon",
      description: 'At dusk, Brother Alder tells the town that the sea must be given an offering, and looks straight at the stranger.',
      conditions: {
        requires_beat: 'beat_001',
        npc_state: { alder: 'preaching in the square' },
        world_state: { fog: 'haze', time: 'dusk' },
      },
      priority: 'high',
      consequences: ['Some islanders start to avoid the player'],
      dialogue: [{ speaker: 'Brother Alder', line: 'The tide forgives what it is given. Who among us has been given to it?' }],
      location: 'The harbour square',
      mood: 'Tense',
    },
    {
      id: 'beat_004',
      title: "The Keeper's Log",
      description: "In the tower, the player finds Odile's logbook in cipher, and a page that says where she went: Saltmere.",
      conditions: {
        requires_any_beat: ['beat_002', 'beat_003'],
        player_state: 'has the tower key',
        scene_count: { min: 3, max: 6 },
      },
      priority: 'critical',
      timeout: { scene_count: 4, fallback_beat: 'beat_005' },
      consequences: ['The player knows Odile went to Saltmere on purpose'],
      background: 'art/locations/lantern-tower.png',
    },
    {
      id: 'beat_005',
      title: 'Voices Under the Jetty',
      description: 'Following Alder after dark, the player hears the drowned singing under the jetty, and one voice says their name.',
      conditions: { requires_beat: 'beat_003', player_choices: ['followed_alder', 'stayed_out_after_dark'] },
      priority: 'medium',
      skippable: true,
      mood: 'Eerie',
    },
    {
      id: 'beat_006',
      title: 'Into Saltmere',
      description: 'At the lowest tide of the season, the player walks into the drowned village and finds Odile keeping a light among the dead.',
      conditions: { requires_beat: ['beat_004'], custom: { expression: 'player.saltlight >= 1 && world.tide == "lowest"' } },
      priority: 'critical',
      dialogue: [
        { speaker: 'odile', line: 'Light first, questions after. You brought oil, I hope.' },
        { speaker: 'player', line: 'I brought your logbook.', context: 'If the player has it' },
      ],
      location: 'Saltmere, under the north cove',
      mood: 'Hushed, luminous',
      tags: ['climax'],
    },
  ],
};

/** plot/beats.json. */
export function plotFiles(): StarterFile[] {
  return [{ path: 'plot/beats.json', text: `${JSON.stringify(BEATS, null, 2)}\n` }];
}
