// The campaign context of one scene, as the narrators get it (PlanRequest.story) and as a turn records it (TurnResult.story, contracts/turn-result.schema.json). Types only.
import type { RollBand } from './rules.js';

/** A beat triggered this scene: what the narration tells. */
export interface ToldBeat {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly reason: string;
  readonly mood?: string;
  readonly location?: string;
  /** Its lines, speakers as the profiles name them; the player's own lines left out. */
  readonly dialogue: readonly { readonly speaker: string; readonly line: string; readonly context?: string }[];
  readonly outcome?: string;
}

/** An NPC present in the scene and how it speaks (the documented minimum: its name, a speech-pattern phrase, its attitude). */
export interface NpcVoice {
  readonly name: string;
  readonly phrase: string;
  readonly attitude: string;
  /** A personality trait ("wary"). */
  readonly trait?: string;
  /** How it sees another character named in the scene. */
  readonly about?: { readonly name: string; readonly relationship: string };
}

/** A chunk of lore the narration may use, with its source (file and chunk index). */
export interface LoreFact {
  /** `<file>#<chunkIndex>`. */
  readonly id: string;
  readonly file: string;
  readonly chunkIndex: number;
  readonly text: string;
  /** The retrieval's score (words and meaning, 0..1). */
  readonly score: number;
}

/** What the narrators know of the campaign in this scene. */
export interface StoryContext {
  readonly title: string;
  readonly scene: number;
  /** The setting in a line or two. */
  readonly setting: string;
  /** world/constraints.md, one line each: never broken. */
  readonly constraints: readonly string[];
  readonly triggered: readonly ToldBeat[];
  /** The beats in play (triggered last). */
  readonly active: readonly { readonly id: string; readonly title: string }[];
  /** Beats possible now and not done, with what they wait on. */
  readonly next: readonly { readonly id: string; readonly title: string; readonly waitingOn: string }[];
  readonly npcs: readonly NpcVoice[];
  /** Every name of every NPC (for the pattern narrator: a name in the player's words is a person). */
  readonly npcNames: readonly { readonly alias: string; readonly name: string }[];
  readonly lore: readonly LoreFact[];
  readonly rules: { readonly formula: string; readonly bands: readonly RollBand[] };
  /** The ending this scene reaches. */
  readonly ending?: { readonly id: string; readonly title: string; readonly telling: string };
  /** Where the scene is, when a beat says. */
  readonly location?: string;
  readonly mood?: string;
}

/** A free-text condition's judgement, as a turn records it. */
export interface RecordedJudgement {
  readonly beat: string;
  readonly kind: string;
  readonly holds: boolean;
  readonly score: number;
  readonly reason: string;
}

/** What a turn of a campaign did to the story (TurnRecord.story, TurnResult.story). */
export interface StoryTurn {
  readonly scene: number;
  /** Set on the opening scene (the premise, no turn played). */
  readonly opening?: boolean;
  readonly triggered: readonly {
    readonly id: string;
    readonly title: string;
    readonly reason: string;
    readonly lag: number;
    readonly outcome?: string;
    /** Who told it: the storyteller, or the runtime when no storyteller did. */
    readonly told: 'storyteller' | 'runtime';
  }[];
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
  /** Beats holding after the scene (they trigger within the next scene). */
  readonly holding: readonly string[];
  readonly active: readonly string[];
  readonly judgements: readonly RecordedJudgement[];
  /** Beats checked this scene whose conditions did not all hold: how many held, and the first that did not. */
  readonly waiting: readonly { readonly id: string; readonly met: number; readonly of: number; readonly reason: string }[];
  readonly lore: readonly { readonly id: string; readonly score: number }[];
  readonly npcs: readonly string[];
  /** The player_choice ids this move took. */
  readonly choices: readonly string[];
  readonly endingsInReach: readonly string[];
  readonly ending?: { readonly id: string; readonly title: string; readonly reason: string };
  /** The scene summary stored in memory. */
  readonly summary: string;
}

/** A turn in which nothing of the story happened (yet): its scene and summary, every list empty. */
export function emptyStoryTurn(scene: number, summary: string): StoryTurn {
  return {
    scene,
    triggered: [],
    skipped: [],
    holding: [],
    active: [],
    judgements: [],
    waiting: [],
    lore: [],
    npcs: [],
    choices: [],
    endingsInReach: [],
    summary,
  };
}
