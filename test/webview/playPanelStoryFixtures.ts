// A Salt Lantern session as the play panel gets it, built by the runtime's view-models from records and state, with the reasons a real session of the starter recorded.
import { emptyStoryTurn, type StoryTurn } from '../../src/runtime/campaign/play/storyContext.js';
import { storyProgressOf, turnStoryOf } from '../../src/runtime/campaign/view/storyProgress.js';
import type { PlaySnapshot, TurnView } from '../../src/protocol/playPanelMessages.js';
import { patternNarrator, skills } from './playPanelFixtures.js';

const REASON_001 = 'its conditions held since scene 1: scene_count (scene 1, scenes 1-2)';
const REASON_002 =
  'its conditions held since scene 2: requires_beat (beat_001 done); player_choice (chose asked_tamsin_for_help); npc_state.tamsin ("worried about Odile" holds ' +
  'by meaning (0.92): the profile of Tamsin Reed "Ally - ferrywoman, smuggler, the keeper\'s ward. quick, wary, loyal, funny when..." (worried~wary, odile))';
const REASON_004 = 'its scenes (3-6) passed without its other conditions holding';

function storyTurn(scene: number, extra: Partial<StoryTurn> = {}): StoryTurn {
  return { ...emptyStoryTurn(scene, `Scene ${scene}.`), ...extra };
}

interface FixtureTurn {
  readonly index: number;
  readonly input: string;
  readonly narrative: string;
  readonly choices: readonly string[];
  readonly story: StoryTurn;
}

const TURNS: readonly FixtureTurn[] = [
  {
    index: 1,
    input: '',
    narrative:
      'The Salt Lantern\n\nYou come to Gullhaven on the last ferry before the fog season, carrying a letter from Keeper Odile Marrow: come at once, the lamp is failing.',
    choices: ["Go to the Lantern tower and the keeper's cottage", 'Talk to Tamsin Reed', 'Talk to Brother Alder', 'Look around'],
    story: storyTurn(0, { opening: true }),
  },
  {
    index: 2,
    input: "Go to the Lantern tower and the keeper's cottage",
    narrative:
      "Without hesitating, you go to the Lantern tower and the keeper's cottage. Everything around you feels uneasy.\n\nThe Dark Lantern. You land at the wrong pier and " +
      'climb to the Lantern. The keeper\'s door is locked from the inside; the lamp is cold. "She never lets it go dark. Never." Tamsin Reed says, looking up at the tower from the boat.',
    choices: ['Ask Tamsin for help'],
    story: storyTurn(1, { triggered: [{ id: 'beat_001', title: 'The Dark Lantern', reason: REASON_001, lag: 0, told: 'storyteller' }] }),
  },
  {
    index: 3,
    input: 'Ask Tamsin for help',
    narrative:
      "You ask Tamsin for help. Tamsin's Bargain. Tamsin offers to sail you round the north cove to look for Odile, if you keep quiet about her cargo.\n\n" +
      'Tamsin Reed, funny when frightened and cordial toward you, says: "Hold the gunwale, not my arm, I need that arm."',
    choices: ['Take the tower key', 'Look around'],
    story: storyTurn(2, {
      triggered: [
        { id: 'beat_002', title: "Tamsin's Bargain", reason: REASON_002, lag: 0, outcome: 'The player refuses; Tamsin goes alone', told: 'storyteller' },
      ],
    }),
  },
];

/** The session state after turn 2 (beat_001 done), 3 (beat_002 too) or, with 4, after the skipping turn (scene 7). */
export function campaignState(upTo: 2 | 3 | 4): Record<string, unknown> {
  const beats: Record<string, unknown> = {
    beat_001: { status: 'done', title: 'The Dark Lantern', priority: 'critical', heldSince: 1, scene: 1, reason: REASON_001 },
    beat_002: { status: 'waiting', title: "Tamsin's Bargain", priority: 'high', availableSince: 2 },
    beat_003: { status: 'waiting', title: "The Tide-Priest's Sermon", priority: 'high', availableSince: 2 },
    beat_004: { status: 'waiting', title: "The Keeper's Log", priority: 'critical' },
    beat_005: { status: 'waiting', title: 'Voices Under the Jetty', priority: 'medium' },
    beat_006: { status: 'waiting', title: 'Into Saltmere', priority: 'critical' },
  };
  if (upTo >= 3)
    beats['beat_002'] = {
      status: 'done',
      title: "Tamsin's Bargain",
      priority: 'high',
      heldSince: 2,
      scene: 2,
      reason: REASON_002,
      outcome: 'The player refuses; Tamsin goes alone',
    };
  if (upTo >= 4) {
    beats['beat_004'] = { status: 'skipped', title: "The Keeper's Log", priority: 'critical', availableSince: 3, scene: 7, reason: REASON_004 };
    beats['beat_006'] = { status: 'skipped', title: 'Into Saltmere', priority: 'critical', scene: 7, reason: 'it requires beat_004, which was skipped' };
  }
  const scene = upTo >= 4 ? 7 : upTo - 1;
  return {
    player: { items: ['letter from Odile'], location: 'Gullhaven' },
    campaign: {
      title: 'The Salt Lantern',
      scene,
      choices: upTo >= 3 ? ['asked_tamsin_for_help'] : [],
      offered: [],
      beats,
      active: upTo >= 3 ? ['beat_002'] : ['beat_001'],
      endingsInReach: [],
      seeded: true,
    },
  };
}

/** Turn 8 (scene 7): the player looked around instead of taking the key; beat_004's window passed, so it and beat_006 are skipped. */
export const skippingTurn: FixtureTurn = {
  index: 8,
  input: 'Look around',
  narrative: 'You look around. The fog has come in over the harbour, and the Lantern is still dark.',
  choices: ['Look around'],
  story: storyTurn(7, {
    skipped: [
      { id: 'beat_004', reason: REASON_004 },
      { id: 'beat_006', reason: 'it requires beat_004, which was skipped' },
    ],
  }),
};

/** A turn of the fixture as the extension sends it (its beats named from `state`). */
export function campaignTurnView(turn: FixtureTurn, state: Record<string, unknown>): TurnView {
  return {
    index: turn.index,
    input: turn.input,
    narrative: turn.narrative,
    choices: turn.choices,
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: [],
    changedKeys: turn.index === 1 ? [] : ['campaign', 'story'],
    assets: [],
    uiEvents: [],
    attempts:
      turn.index === 1
        ? []
        : [{ attempt: 1, planId: `turn-${turn.index}`, narrator: 'pattern', outcome: 'success', failedTools: [], disabledSkills: [], tools: ['narrate'] }],
    durationMs: turn.index === 1 ? 0 : 640,
    errors: [],
    story: turnStoryOf(turn.story, state)!,
  };
}

/** The snapshot of the session after turn `upTo` (2: beat_001 triggered; 3: beat_002 too). */
export function campaignSnapshot(upTo: 2 | 3, overrides: Partial<PlaySnapshot> = {}): PlaySnapshot {
  const state = campaignState(upTo);
  const turns = TURNS.slice(0, upTo);
  return {
    sessionId: 'session-salt-lantern',
    sessionName: '2026-11-29-1015',
    turns: turns.map((turn) => campaignTurnView(turn, state)),
    state,
    changedKeys: ['campaign'],
    skills,
    narrator: patternNarrator,
    trusted: true,
    busy: false,
    story: storyProgressOf(state, turns)!,
    ...overrides,
  };
}

/** The story after the skipping turn (for a turnFinished message). */
export function storyAfterSkips() {
  const state = campaignState(4);
  return { state, story: storyProgressOf(state, [...TURNS, skippingTurn])!, turn: campaignTurnView(skippingTurn, state) };
}
