// The Explore Story command: picks how much to explore, runs exploreStory under a cancellable progress notification, then shows the report panel. Translation only.
import * as vscode from 'vscode';
import { exploreStory, EXPLORE_DEFAULTS } from '../../runtime/explore/explorer.js';
import type { ExploreReport } from '../../runtime/explore/exploreTypes.js';
import { plural } from '../../runtime/common/humanText.js';
import type { SkillCoverageStore } from '../coverage/skillCoverageStore.js';
import type { SkillsService } from '../skills/skillsService.js';
import { ExplorePanel } from './explorePanel.js';

export interface ExploreCommandContext {
  readonly root: () => string | undefined;
  readonly skills: SkillsService;
  readonly coverage: SkillCoverageStore;
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
}

/** How much to explore (the command's argument skips the pick: the tests and keybindings use it). */
export interface ExploreChoice {
  readonly runs: number;
  readonly turns: number;
  readonly coverage: boolean;
  readonly seed?: number;
}

const PRESETS: readonly (vscode.QuickPickItem & { readonly choice: ExploreChoice })[] = [
  {
    label: `$(compass) ${EXPLORE_DEFAULTS.runs} sessions`,
    description: `up to ${EXPLORE_DEFAULTS.turns} turns each`,
    detail: 'A quick look for problems, with the pattern narrator.',
    choice: { runs: EXPLORE_DEFAULTS.runs, turns: EXPLORE_DEFAULTS.turns, coverage: false },
  },
  {
    label: `$(graph-line) ${EXPLORE_DEFAULTS.runs} sessions with coverage`,
    description: `up to ${EXPLORE_DEFAULTS.turns} turns each`,
    detail: "Also measures which lines of the skills' JavaScript ran (shown in the Skills view).",
    choice: { runs: EXPLORE_DEFAULTS.runs, turns: EXPLORE_DEFAULTS.turns, coverage: true },
  },
  {
    label: '$(search) 200 sessions',
    description: `up to ${EXPLORE_DEFAULTS.turns} turns each`,
    detail: 'A longer search; it can be cancelled from its notification.',
    choice: { runs: 200, turns: EXPLORE_DEFAULTS.turns, coverage: false },
  },
];

/** The command's handler; with coverage, the result also feeds the Skills view's counts (the SkillCoverageStore). */
export function exploreStoryCommand(context: ExploreCommandContext): (given?: ExploreChoice) => Promise<ExploreReport | undefined> {
  let last: ExploreChoice | undefined;
  const explore = async (given?: ExploreChoice): Promise<ExploreReport | undefined> => {
    const root = context.root();
    if (!root) {
      void vscode.window.showWarningMessage('Open a folder with a story (a skills/ folder) to explore it.');
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      const choice = await vscode.window.showWarningMessage(
        'Exploring plays the story, which runs its skill scripts; this workspace is not trusted.',
        'Manage Workspace Trust',
      );
      if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
      return undefined;
    }
    const choice =
      given ??
      (await vscode.window.showQuickPick(PRESETS, { title: 'Explore Story', placeHolder: 'Simulated players play seeded sessions and report what goes wrong' }))
        ?.choice;
    if (!choice) return undefined;
    last = choice;
    await context.skills.ready();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Exploring the story', cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        let done = 0;
        try {
          return await exploreStory({
            root,
            extraSkillRoots: context.skills.extraSkillRoots(),
            runs: choice.runs,
            turns: choice.turns,
            seed: choice.seed ?? EXPLORE_DEFAULTS.seed,
            narrator: 'pattern',
            coverage: choice.coverage,
            environment: process.env,
            signal: abort.signal,
            onLog: (message) => context.log.debug(`explore: ${message}`),
            onProgress: (state) => {
              const increment = ((state.sessionsDone - done) / state.sessionsTotal) * 100;
              done = state.sessionsDone;
              progress.report({
                increment,
                message: `${state.sessionsDone} of ${plural(state.sessionsTotal, 'session')} · ${plural(state.problems, 'problem')}`,
              });
            },
          });
        } finally {
          cancel.dispose();
        }
      },
    );
    const report = result.report;
    if (result.coverage) context.coverage.record(result.coverage);
    context.log.info(
      `explore: ${plural(report.sessions.played, 'session')}, ${plural(report.sessions.turns, 'turn')}, ${plural(report.problems.total, 'problem')}${report.cancelled ? ' (cancelled)' : ''}`,
    );
    ExplorePanel.show({ extensionUri: context.extensionUri, log: context.log, exploreAgain: async () => void (await explore(last)) }, report, false);
    return report;
  };
  return explore;
}
