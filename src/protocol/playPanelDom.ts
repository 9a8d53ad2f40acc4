// Stable `data-testid` names of the play panel's DOM, shared by the webview code and the end-to-end tests. No imports.

/** Use as `[data-testid="<value>"]`. */
export const PlayPanelTestId = {
  /** The scrolling story view (player inputs, narration, assets, choices). */
  story: 'story',
  /** One player input entry in the story view. */
  playerEntry: 'player-entry',
  /** One narration entry in the story view (has data-turn-index and data-narrator). */
  narrationEntry: 'narration-entry',
  /** A dice_roll ui_event card (text includes the formula and total). */
  diceRoll: 'dice-roll',
  /** A narrative_choice button (has data-choice-index and data-turn-index). */
  choiceButton: 'choice-button',
  /** An asset (img/audio/video) or its placeholder card. */
  asset: 'asset',
  /** Replan / fallback / narrator summary of a turn. */
  turnAttempts: 'turn-attempts',
  /** The inline error notice (Show details / Retry / Dismiss). */
  errorNotice: 'error-notice',
  /** The max-replan dialog (Continue with fallback / Restart session / View details). */
  maxReplanDialog: 'max-replan-dialog',
  /** The free-text input (a textarea). */
  input: 'player-input',
  sendButton: 'send-button',
  cancelButton: 'cancel-button',
  /** Header: New Game (a new play-through; the current one stays saved). */
  newGameButton: 'new-game-button',
  /** Header: Continue… (the session picker). */
  continueButton: 'continue-button',
  /** Header: the current play-through's name. */
  sessionName: 'session-name',
  /** The tool execution panel and its rows (rows have data-tool-id and data-status). */
  toolPanel: 'tool-panel',
  toolRow: 'tool-row',
  /** An attempt's Graph toggle in the tool panel (aria-pressed; has data-attempt). */
  graphToggle: 'graph-toggle',
  /** An attempt's inline plan graph (has data-attempt; its nodes have data-tool-id and data-state). */
  toolGraph: 'tool-graph',
  /** The state inspector and its rows (rows have data-key-path; changed keys also have data-changed="true"). */
  stateInspector: 'state-inspector',
  stateRow: 'state-row',
  /** Header chip with the narrator state. */
  narratorStatus: 'narrator-status',
  /** The banner shown in an untrusted workspace. */
  trustBanner: 'trust-banner',
  /** Shown while a turn runs. */
  busyIndicator: 'busy-indicator',
  /** A campaign's story header: its title, scene, active beats and beats done (has data-scene). */
  storyHeader: 'story-header',
  /** The side section with the beat timeline, and its entries (data-beat-id, data-event, data-scene, data-turn). */
  beatTimeline: 'beat-timeline',
  beatTimelineEntry: 'beat-timeline-entry',
  /** A beat a turn triggered or skipped, or the ending it reached, in the turn's entry (data-beat-id, data-event). */
  turnBeat: 'turn-beat',
} as const;

export type PlayPanelTestIdName = keyof typeof PlayPanelTestId;
