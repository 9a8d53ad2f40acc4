// Typed messages between the play panel's extension side and its webview (docs/design-rules.md#typed-webview-messages). Pure JSON-able types; imports types only.
import type { PlanGraphLayout } from '../runtime/graph/graphTypes.js';
import type { ToolRunState } from '../runtime/contractTypes/executionResult.js';
import type { StoryProgressView, TurnStoryView } from '../runtime/campaign/view/storyProgress.js';

export type { BeatName, BeatTimelineEntry, StoryProgressView, TurnStoryView } from '../runtime/campaign/view/storyProgress.js';

/**
 * Plans with more tools than this are not laid out for the tool panel's inline graph (the layout would cost the
 * extension host too much and could not be read at the side panel's width): their Graph toggle says so instead.
 */
export const INLINE_GRAPH_MAX_TOOLS = 300;

/** Health of a skill as the panel shows it: the one vocabulary of every view (mirrors the runtime's SkillHealthLabel). */
export type SkillHealthView = 'healthy' | 'degraded' | 'unusable' | 'disabled';

/** Which narrator wrote a plan. */
export type NarratorKindView = 'llm' | 'pattern';

/** An asset of a turn, already resolved for the webview. */
export interface AssetView {
  readonly assetId: string;
  readonly kind: string;
  readonly mediaType: string;
  /** Path as the skill reported it (for captions and the placeholder card). */
  readonly path: string;
  /** webview URI (asWebviewUri) when the file is inside an allowed root and its media type can be shown. */
  readonly uri?: string;
  /** Why no URI is given (outside the allowed roots, missing file, unknown media type). */
  readonly unavailableReason?: string;
  readonly toolId?: string;
}

/** A ui_event of a turn (dice_roll, narrative_choice, …). */
export interface UiEventView {
  readonly toolId: string;
  readonly event: string;
  readonly payload?: Record<string, unknown>;
}

/** One plan attempt of a turn, for replan visibility. */
export interface AttemptView {
  readonly attempt: number;
  readonly planId: string | null;
  readonly narrator: NarratorKindView;
  /** Why the LLM narrator fell back to the pattern narrator. */
  readonly fallbackReason?: string;
  readonly outcome: 'success' | 'failed' | 'invalid' | 'cancelled';
  readonly failedTools: readonly string[];
  /** Skills disabled while this attempt was generated. */
  readonly disabledSkills: readonly string[];
  /** Tool ids of the plan in order ("narrative only" when empty). */
  readonly tools: readonly string[];
  /** Why each tool was chosen, one line per tool (the pattern narrator's words and scores, or "chosen by the model"): `roll ← dice-roller/roll: matched "lock" (score 4.2; cues: chance)`. */
  readonly explanation?: readonly string[];
  /** Skills that matched some of the words and stayed out, one line each: `weather stayed out: 0.84 < 1 (matched "rain" in the description only)`. */
  readonly nearMisses?: readonly string[];
  /**
   * The plan laid out for the tool panel's inline graph. Absent when the plan is not known (saved turns, the live
   * attempt log: the graph came with `attemptStarted`), has no tools, or has more than INLINE_GRAPH_MAX_TOOLS.
   */
  readonly graph?: PlanGraphLayout;
}

/** A played turn as the story view shows it. */
export interface TurnView {
  readonly index: number;
  readonly input: string;
  readonly narrative: string;
  readonly choices: readonly string[];
  /** Template narration was used because every attempt failed. */
  readonly fallback: boolean;
  readonly cancelled: boolean;
  readonly narrator: NarratorKindView;
  readonly disabledSkills: readonly string[];
  /** Why the replan loop disabled each skill ("cross hung: still running when the plan timed out after 3.0 s"). */
  readonly disabledReasons?: Readonly<Record<string, string>>;
  /** Top-level state keys this turn changed. */
  readonly changedKeys: readonly string[];
  readonly assets: readonly AssetView[];
  readonly uiEvents: readonly UiEventView[];
  readonly attempts: readonly AttemptView[];
  readonly durationMs: number;
  /** Errors worth an inline notice (failed tools of the turn), newest attempt last. */
  readonly errors: readonly ToolErrorView[];
  /** A campaign's turn: its scene, the beats it triggered or skipped and why, the ending it reached. */
  readonly story?: TurnStoryView;
}

/** A tool failure of a turn, for the inline error notice. */
export interface ToolErrorView {
  readonly attempt: number;
  readonly toolId: string;
  readonly skill: string | null;
  /** Error category (process_error, timeout, tool_failure, protocol_violation, …). */
  readonly category: string;
  readonly message: string;
}

/** Live status of one tool of the running turn (tool execution panel). */
export interface ToolRunView {
  readonly attempt: number;
  readonly planId: string;
  readonly toolId: string;
  readonly skill: string | null;
  readonly status: ToolRunState;
  /** Retries so far (0 for the first try). */
  readonly retries: number;
  readonly durationMs?: number;
  /** Log lines and stderr, newest last (the extension caps how many it keeps). */
  readonly logLines: readonly LogLineView[];
  readonly error?: { readonly category: string; readonly message: string };
}

export interface LogLineView {
  readonly level: 'debug' | 'info' | 'warn' | 'error' | 'stderr';
  readonly text: string;
}

/** An attempt of the running turn, as `attemptStarted` announced it, with its tools now and its end when known. */
export interface RunningAttemptView {
  readonly attempt: number;
  readonly planId: string;
  readonly narrator: NarratorKindView;
  readonly tools: readonly ToolRunView[];
  /** The plan laid out for the inline graph (see AttemptView.graph). */
  readonly graph?: PlanGraphLayout;
  readonly finished?: AttemptView;
}

/** Narrator state for the panel header (same words as the status-bar item). */
export interface NarratorStatusView {
  /** idle: a local model is configured but not loaded yet (it loads on the first turn). */
  readonly state: 'pattern' | 'idle' | 'loading' | 'ready' | 'downloading' | 'failed';
  /** Short label, e.g. "Pattern narrator" or "Phi-3.5-mini ready". */
  readonly label: string;
  /** Why this narrator is used (shown as a tooltip). */
  readonly detail: string;
  /** 0..100 while downloading. */
  readonly percent?: number;
}

/** A skill as the panel header lists it. */
export interface SkillSummaryView {
  readonly name: string;
  readonly displayName: string;
  readonly health: SkillHealthView;
  /** Why, when not plainly healthy (e.g. "skills/ferryman/skill.json:10:7: MANIFEST_JSON_INVALID: …"). */
  readonly reason?: string;
}

/** Everything the webview needs to draw itself from scratch (sent after `ready`, after New Game and after Continue). */
export interface PlaySnapshot {
  readonly sessionId: string;
  /** The play-through's name in the session store (`.narratoria/sessions/<name>`), shown in the header. */
  readonly sessionName: string;
  readonly turns: readonly TurnView[];
  readonly state: Record<string, unknown>;
  /** The last turn's changed keys, highlighted in the state inspector. */
  readonly changedKeys: readonly string[];
  readonly skills: readonly SkillSummaryView[];
  readonly narrator: NarratorStatusView;
  /** False in an untrusted workspace: the panel reads but never runs anything, and says why. */
  readonly trusted: boolean;
  /** Set while a turn runs (after a reload mid-turn it is false: the turn was abandoned). */
  readonly busy: boolean;
  /** Input of the running turn, when busy. */
  readonly runningInput?: string;
  /** The running turn's attempts so far with their tools (a panel opened mid-turn shows its progress). */
  readonly runningAttempts?: readonly RunningAttemptView[];
  /** A notice for the author (e.g. "a saved play-through could not be opened: … It was left as it is."). */
  readonly notice?: string;
  /** Set when the root holds a campaign: the story header and the beat timeline. */
  readonly story?: StoryProgressView;
}

/** Extension → webview. */
export type ToPlayWebview =
  | { readonly type: 'snapshot'; readonly snapshot: PlaySnapshot }
  | { readonly type: 'turnStarted'; readonly input: string; readonly index: number }
  | {
      readonly type: 'attemptStarted';
      readonly attempt: number;
      readonly planId: string;
      readonly narrator: NarratorKindView;
      readonly tools: readonly ToolRunView[];
      /** The plan laid out for the inline graph (absent over INLINE_GRAPH_MAX_TOOLS tools). */
      readonly graph?: PlanGraphLayout;
    }
  | { readonly type: 'toolUpdated'; readonly tool: ToolRunView }
  /** A piece of the turn's narration as the local model writes it (the storyteller's streamed retelling). */
  | { readonly type: 'narrationStreamed'; readonly text: string }
  | { readonly type: 'attemptFinished'; readonly attempt: AttemptView }
  | { readonly type: 'stateChanged'; readonly state: Record<string, unknown>; readonly changedKeys: readonly string[] }
  | {
      readonly type: 'turnFinished';
      readonly turn: TurnView;
      readonly state: Record<string, unknown>;
      readonly maxAttemptsReached: boolean;
      /** A campaign's story header and beat timeline after the turn. */
      readonly story?: StoryProgressView;
    }
  | { readonly type: 'turnFailed'; readonly message: string }
  | { readonly type: 'skillsChanged'; readonly skills: readonly SkillSummaryView[] }
  | { readonly type: 'narratorChanged'; readonly narrator: NarratorStatusView }
  | { readonly type: 'trustChanged'; readonly trusted: boolean };

/** Webview → extension. */
export type FromPlayWebview =
  | { readonly type: 'ready' }
  /** Play free text (also used for Retry: the last input again). */
  | { readonly type: 'play'; readonly input: string }
  /** Click on a narrative_choice button: `turnIndex` is the turn that offered it, `choiceIndex` 0-based. */
  | { readonly type: 'choose'; readonly turnIndex: number; readonly choiceIndex: number }
  | { readonly type: 'cancel' }
  /** New Game: a new play-through starts; the current one stays saved and listed. */
  | { readonly type: 'newGame' }
  /** Continue…: the session picker (the saved play-throughs, to continue one). */
  | { readonly type: 'chooseSession' }
  /** Opens the full details of a turn (attempts, plans, tool results) in an editor. */
  | { readonly type: 'showDetails'; readonly turnIndex: number }
  | { readonly type: 'showLogs' }
  /** Save Session as Playtest (the command of the same name). */
  | { readonly type: 'saveAsPlaytest' }
  | { readonly type: 'manageTrust' }
  | { readonly type: 'openSkill'; readonly skill: string };

/** UI-only state the webview keeps with getState/setState (survives hide/show). */
export interface PlayWebviewUiState {
  readonly inputHistory: readonly string[];
  readonly draft: string;
  readonly expandedStatePaths: readonly string[];
  readonly dismissedNotices: readonly string[];
}

/** Exhaustiveness helper for `switch` over message unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(value)}`);
}
