// Realistic play panel messages for the webview tests and screenshots: a two-turn session, a streamed third turn, a max-replan turn, plan graphs.
import { layoutPlanGraph } from '../../src/runtime/graph/graphLayout.js';
import type { PlanGraphLayout } from '../../src/runtime/graph/graphTypes.js';
import { buildPlanGraph } from '../../src/runtime/graph/planGraph.js';
import type { AttemptView, NarratorStatusView, PlaySnapshot, SkillSummaryView, ToolRunView, TurnView } from '../../src/protocol/playPanelMessages.js';

export const skills: readonly SkillSummaryView[] = [
  { name: 'storyteller', displayName: 'Storyteller', health: 'healthy' },
  { name: 'dice-roller', displayName: 'Dice Roller', health: 'healthy' },
  { name: 'player-choices', displayName: 'Player Choices', health: 'healthy' },
  { name: 'memory', displayName: 'Memory', health: 'healthy' },
  { name: 'reputation', displayName: 'Reputation', health: 'healthy' },
  { name: 'npc-perception', displayName: 'NPC Perception', health: 'degraded', reason: 'a temporary failure (a timeout or a network error)' },
  { name: 'character-portraits', displayName: 'Character Portraits', health: 'healthy' },
];

export const patternNarrator: NarratorStatusView = {
  state: 'pattern',
  label: 'Pattern narrator',
  detail:
    'No local model is downloaded, so the deterministic pattern narrator writes the plans. Run "Narratoria: Download Narrator Model" to use Phi-3.5-mini.',
};

export const choices = ['Slip through the gate before the guard turns', 'Ask the old gatekeeper about the lantern', 'Search the ruined guardhouse'];

const turnOne: TurnView = {
  index: 1,
  input: 'look around',
  narrative:
    'Rain needles across the causeway as you reach the Lantern Keep. Its outer wall has slumped into the moat, but the iron gate still stands, chained shut, and a single lantern burns in the gatehouse window.\n\nSomewhere above, a shutter bangs in the wind.',
  choices: ['Pick the lock on the gate', 'Call up to the lantern window'],
  fallback: false,
  cancelled: false,
  narrator: 'pattern',
  disabledSkills: [],
  changedKeys: ['location', 'memory'],
  assets: [],
  uiEvents: [],
  attempts: [{ attempt: 1, planId: 'turn-1-look', narrator: 'pattern', outcome: 'success', failedTools: [], disabledSkills: [], tools: ['recall', 'narrate'] }],
  durationMs: 412,
  errors: [],
};

export function turnTwo(origin: string): TurnView {
  return {
    index: 2,
    input: 'Pick the lock on the gate',
    narrative:
      'You kneel in the mud and work the picks into the old lock. The tumblers fight you, then give all at once — the chain slithers free and the gate groans open a hand’s width.\n\nThe gatekeeper’s lantern swings toward the noise.',
    choices,
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: ['npc-perception'],
    disabledReasons: { 'npc-perception': 'perceive failed: SCRIPT_EXIT_NONZERO: the script exited with code 1' },
    changedKeys: ['dice', 'choices', 'flags'],
    assets: [
      {
        assetId: 'portrait-gatekeeper',
        kind: 'portrait',
        mediaType: 'image/svg+xml',
        path: 'skills/character-portraits/data/gatekeeper.svg',
        uri: `${origin}/media/portrait.svg`,
        toolId: 'portrait',
      },
      {
        assetId: 'ambience-rain',
        kind: 'ambience',
        mediaType: 'audio/wav',
        path: 'assets/audio/rain-on-stone.wav',
        uri: `${origin}/media/ambience.wav`,
        toolId: 'narrate',
      },
      {
        assetId: 'map-keep',
        kind: 'map',
        mediaType: 'image/png',
        path: '/home/author/Downloads/keep-map.png',
        unavailableReason: 'The file is outside the workspace and the skills folders, so the panel does not load it.',
        toolId: 'narrate',
      },
    ],
    uiEvents: [
      {
        toolId: 'roll',
        event: 'dice_roll',
        payload: { formula: '1d20+3', dice: [{ sides: 20, value: 14 }], modifier: 3, total: 17, reason: 'pick the lock', dc: 15, success: true },
      },
      {
        toolId: 'offer',
        event: 'narrative_choice',
        payload: {
          choices,
          hints: [
            { choice: choices[0], consequence: 'Quick, but the guard may hear you', approach: 'stealth' },
            { choice: choices[1], consequence: 'He knows the keep, if he trusts you', approach: 'social' },
            { choice: choices[2], consequence: 'Slow; might turn up a key', approach: 'explore' },
          ],
        },
      },
    ],
    attempts: [
      {
        attempt: 1,
        planId: 'turn-2-lock',
        narrator: 'pattern',
        outcome: 'failed',
        failedTools: ['perceive'],
        disabledSkills: [],
        tools: ['roll', 'perceive', 'offer', 'narrate'],
      },
      {
        attempt: 2,
        planId: 'turn-2-lock-r1',
        narrator: 'pattern',
        outcome: 'success',
        failedTools: [],
        disabledSkills: ['npc-perception'],
        tools: ['roll', 'offer', 'portrait', 'narrate'],
        explanation: [
          'roll ← dice-roller/roll: matched "pick", "lock", "chance" (score 4.2; cues: chance); input: reason ← "the player\'s words", dc ← "15"',
          'narrate ← storyteller/narrate: narrates the outcome of roll',
          'offer ← player-choices/offer: matched "options" (score 2.1; cues: options); script: its example "What are my options?" is the player\'s words',
          'portrait ← character-portraits/portrait: matched "look", "portrait" (score 3.3; cues: appearance)',
        ],
        nearMisses: ['memory stayed out: 0.51 < 1 (matched "lock" in the prompt.md only)'],
      },
    ],
    durationMs: 1840,
    errors: [
      {
        attempt: 1,
        toolId: 'perceive',
        skill: 'npc-perception',
        category: 'process_error',
        message: "perceive.js exited with code 3 (TypeError: Cannot read properties of undefined (reading 'attitude'))",
      },
    ],
  };
}

export const sessionState: Record<string, unknown> = {
  player: { name: 'Mara Quill', hp: 9, maxHp: 12, inventory: ['lockpicks', 'storm lantern', 'rope (30 ft)'] },
  location: { name: 'Lantern Keep — outer gate', weather: 'rain', visited: ['causeway', 'outer gate'] },
  dice: {
    lastRoll: {
      formula: '1d20+3',
      rolls: [{ sides: 20, value: 14 }],
      modifier: 3,
      total: 17,
      reason: 'pick the lock',
      label: null,
      dc: 15,
      success: true,
      critical: null,
    },
  },
  choices: { offered: choices },
  flags: { gateOpen: true, alarmRaised: false },
  reputation: { townGuard: 12, smugglers: -5 },
  memory: { entries: [{ text: 'A lantern burns in the gatehouse window.', turn: 1 }] },
};

export function snapshot(origin: string, overrides: Partial<PlaySnapshot> = {}): PlaySnapshot {
  return {
    sessionId: 'session-lantern-keep',
    sessionName: '2026-11-28-1642',
    turns: [turnOne, turnTwo(origin)],
    state: sessionState,
    changedKeys: ['dice', 'choices', 'flags'],
    skills,
    narrator: patternNarrator,
    trusted: true,
    busy: false,
    ...overrides,
  };
}

/** Tool statuses of the streamed third turn. */
export function toolRun(attempt: number, toolId: string, skill: string, status: ToolRunView['status'], extra: Partial<ToolRunView> = {}): ToolRunView {
  return { attempt, planId: `turn-3-guardhouse${attempt > 1 ? `-r${attempt - 1}` : ''}`, toolId, skill, status, retries: 0, logLines: [], ...extra };
}

export const turnThreeInput = 'Search the ruined guardhouse';

export function turnThree(attempts: readonly AttemptView[]): TurnView {
  return {
    index: 3,
    input: turnThreeInput,
    narrative: 'Behind a fallen rack of spears you find a ring of keys, green with age, and a ledger whose last page is torn out.',
    choices: ['Take the keys', 'Read the ledger by lantern light', 'Head for the inner ward'],
    fallback: false,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: ['npc-perception'],
    changedKeys: ['player', 'location'],
    assets: [],
    uiEvents: [
      {
        toolId: 'roll',
        event: 'dice_roll',
        payload: { formula: '1d20', dice: [{ sides: 20, value: 20 }], modifier: 0, total: 20, reason: 'search', critical: 'success' },
      },
    ],
    attempts,
    durationMs: 2310,
    errors: [{ attempt: 1, toolId: 'perceive', skill: 'npc-perception', category: 'timeout', message: 'perceive took longer than 5 s and was stopped' }],
  };
}

/** A turn after five failed plans, told with fallback narration. */
export function maxReplanTurn(index: number): TurnView {
  const attempts: AttemptView[] = [1, 2, 3, 4, 5].map((attempt) => ({
    attempt,
    planId: `turn-${index}-storm${attempt > 1 ? `-r${attempt - 1}` : ''}`,
    narrator: 'pattern',
    outcome: 'failed',
    failedTools: ['roll'],
    disabledSkills: attempt > 2 ? ['dice-roller'] : [],
    tools: ['roll', 'narrate'],
  }));
  return {
    index,
    input: 'Storm the inner ward',
    narrative: 'You press on into the inner ward. (The narrator could not run its plan, so this is the template narration.)',
    choices: [],
    fallback: true,
    cancelled: false,
    narrator: 'pattern',
    disabledSkills: ['dice-roller'],
    changedKeys: [],
    assets: [],
    uiEvents: [],
    attempts,
    durationMs: 5200,
    errors: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      toolId: 'roll',
      skill: 'broken-dice',
      category: 'process_error',
      message: 'roll.js exited with code 1',
    })),
  };
}

/** One tool of a fixture plan: `skill/script` and the toolIds it depends on, plus plan fields (retryPolicy, timeoutMs, required…). */
interface FixtureTool {
  readonly toolId: string;
  readonly script: string;
  readonly dependencies?: readonly string[];
  readonly [field: string]: unknown;
}

/** The layout the host sends with an attempt: `layoutPlanGraph(buildPlanGraph(plan))` of a plan with these tools. */
export function planGraph(tools: readonly FixtureTool[]): PlanGraphLayout {
  const plan = {
    requestId: 'fixture',
    tools: tools.map(({ script, dependencies, ...rest }) => ({ toolPath: `skills/${script}`, input: {}, dependencies: dependencies ?? [], ...rest })),
  };
  return layoutPlanGraph(buildPlanGraph(plan));
}

/** Turn 3, attempt 1: recall and roll feed a perception check, then the narration (perception times out). */
export const guardhouseGraph = planGraph([
  { toolId: 'recall', script: 'memory/scripts/recall.js' },
  { toolId: 'roll', script: 'dice-roller/scripts/roll.js', retryPolicy: { maxRetries: 2, backoffMs: 200 } },
  { toolId: 'perceive', script: 'npc-perception/scripts/query.js', dependencies: ['recall'], timeoutMs: 5000, required: false },
  { toolId: 'narrate', script: 'storyteller/scripts/narrate.js', dependencies: ['recall', 'roll', 'perceive'] },
]);

/** Turn 3, attempt 2 (npc-perception disabled): roll, then the narration. */
export const guardhouseReplanGraph = planGraph([
  { toolId: 'roll', script: 'dice-roller/scripts/roll.js' },
  { toolId: 'narrate', script: 'storyteller/scripts/narrate.js', dependencies: ['roll'] },
]);
