// Typed messages of the Explore Story report panel (docs/design-rules.md#typed-webview-messages): the report as the runtime wrote it, and what the view asks the extension to open.
import type { ExploreReport } from '../runtime/explore/exploreTypes.js';

export type { ExploreReport };

/** Extension → webview. */
export type ToExploreView =
  /** The report of the last exploration (sent after each `ready`); `running` while another one plays. */
  { readonly type: 'report'; readonly report: ExploreReport | undefined; readonly running: boolean };

/** Webview → extension. */
export type FromExploreView =
  | { readonly type: 'ready' }
  /** Opens a saved playtest (its path as the report gives it: relative to the story root, or absolute). */
  | { readonly type: 'openPlaytest'; readonly playtest: string }
  /** Opens a script by its plan toolPath (relative to the story root, or absolute). */
  | { readonly type: 'openScript'; readonly toolPath: string }
  /** Runs the same exploration again. */
  | { readonly type: 'exploreAgain' }
  | { readonly type: 'viewError'; readonly message: string };

/** Stable test ids of the report's parts (the end-to-end tests find them by these). */
export const ExploreTestId = {
  summary: 'explore-summary',
  problems: 'explore-problems',
  failedSession: 'explore-failed-session',
  openPlaytest: 'explore-open-playtest',
  neverSelected: 'explore-never-selected',
  neverRun: 'explore-never-run',
  scripts: 'explore-scripts',
  /** A campaign's Story section, and its parts. */
  story: 'explore-story',
  storyProblem: 'explore-story-problem',
  neverTriggered: 'explore-never-triggered',
  skippedBeats: 'explore-skipped-beats',
  endings: 'explore-endings',
  beatScenes: 'explore-beat-scenes',
  /** Opens the saved playtest of the session that came closest to a beat never triggered (has data-beat-id). */
  openClosestPlaytest: 'explore-open-closest-playtest',
} as const;
