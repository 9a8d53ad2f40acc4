// The Explore Story report: problems found (by kind, each problem session with its playtest), what was never reached, and each script's runs and timings. Browser only.
import type { ExploreReport, FromExploreView, ToExploreView } from '../../protocol/exploreMessages.js';
import { ExploreTestId } from '../../protocol/exploreMessages.js';
import type { FailedSession } from '../../runtime/explore/exploreTypes.js';
import { formatDuration, plural } from '../../runtime/common/humanText.js';
import { codicon, el } from '../common/dom.js';

/** How the report names each kind of problem. */
const KIND_LABELS: Readonly<Record<string, string>> = {
  exception: 'Runtime exceptions',
  invalid_first_plan: 'Invalid first plans',
  tool_failure: 'Tool failures',
  replan: 'Replans',
  template_fallback: 'Template fallbacks',
  over_time_budget: 'Turns over the time budget',
  broken_skill: 'Broken skills (skill.json does not load)',
  unreached_beat: 'Plot beats no session reached',
};

const FAILURE_LABELS: Readonly<Record<string, string>> = {
  timeout: 'timeouts',
  protocol_error: 'protocol errors',
  non_zero_exit: 'non-zero exits',
  done_not_ok: 'done.ok false',
};

/** Each broken skill at its first problem: `ferryman (skills/ferryman/skill.json:9:7)`. */
function brokenNote(report: ExploreReport): string {
  const broken = (report.problems.brokenSkills ?? []).map((skill) => {
    const first = skill.problems[0];
    return `${skill.skill} (${skill.file}${first?.line !== undefined ? `:${first.line}:${first.column ?? 1}` : ''})`;
  });
  return broken.length > 0 ? `(${broken.join(', ')})` : '';
}

export class ExploreView {
  readonly element = el('main', { className: 'explore-root' });

  constructor(private readonly post: (message: FromExploreView) => void) {
    this.element.append(el('p', { className: 'empty' }, 'Exploring…'));
  }

  apply(message: ToExploreView): void {
    switch (message.type) {
      case 'report':
        this.element.replaceChildren(
          ...(message.report
            ? this.render(message.report, message.running)
            : [el('p', { className: 'empty' }, message.running ? 'Exploring…' : 'No exploration yet.')]),
        );
        return;
    }
  }

  private render(report: ExploreReport, running: boolean): HTMLElement[] {
    return [this.header(report, running), this.problems(report), this.failedSessions(report), this.unreached(report), this.scripts(report)];
  }

  private header(report: ExploreReport, running: boolean): HTMLElement {
    const clean = report.problems.total === 0;
    const again = el('button', { className: 'button secondary', attrs: { type: 'button', disabled: running } }, codicon('refresh'), ' Explore Again');
    again.addEventListener('click', () => this.post({ type: 'exploreAgain' }));
    const options = report.options;
    return el(
      'header',
      { className: 'summary', testId: ExploreTestId.summary },
      el(
        'h1',
        {},
        codicon(clean ? 'pass-filled' : 'warning', clean ? 'clean' : 'found'),
        clean ? ' No problem found' : ` ${plural(report.problems.total, 'problem')} in ${plural(report.sessions.withProblems, 'session')}`,
      ),
      el(
        'p',
        { className: 'detail' },
        `${plural(report.sessions.played, 'session')} and ${plural(report.sessions.turns, 'turn')} played ` +
          `(up to ${options.turns} each, seed ${options.seed}, ${options.narrator} narrator) in ${formatDuration(report.durationMs)}`,
        report.cancelled ? ' — cancelled before the end.' : '.',
      ),
      again,
    );
  }

  private problems(report: ExploreReport): HTMLElement {
    const rows = Object.entries(report.problems.byKind).filter(([, count]) => count > 0);
    const failures = Object.entries(report.problems.toolFailures)
      .filter(([, count]) => count > 0)
      .map(([category, count]) => `${count} ${FAILURE_LABELS[category] ?? category}`);
    return section(
      'Problems',
      ExploreTestId.problems,
      rows.length === 0
        ? [el('p', { className: 'empty' }, 'None: every turn planned, ran and narrated within its budget.')]
        : [
            el(
              'table',
              {},
              el(
                'tbody',
                {},
                ...rows.map(([kind, count]) =>
                  el(
                    'tr',
                    {},
                    el('th', { attrs: { scope: 'row' } }, KIND_LABELS[kind] ?? kind),
                    el('td', { className: 'number' }, String(count)),
                    el(
                      'td',
                      { className: 'note' },
                      kind === 'tool_failure' && failures.length > 0 ? `(${failures.join(', ')})` : kind === 'broken_skill' ? brokenNote(report) : '',
                    ),
                  ),
                ),
              ),
            ),
          ],
    );
  }

  private failedSessions(report: ExploreReport): HTMLElement {
    const sessions = report.failedSessions;
    return section(
      `Sessions with problems (${sessions.length})`,
      undefined,
      sessions.length === 0 ? [el('p', { className: 'empty' }, 'None.')] : sessions.map((session) => this.failedSession(session)),
    );
  }

  private failedSession(session: FailedSession): HTMLElement {
    const open = session.playtest
      ? el(
          'button',
          { className: 'link-button', testId: ExploreTestId.openPlaytest, title: `Open ${session.playtest}` },
          codicon('beaker'),
          ` ${session.playtest}`,
        )
      : null;
    open?.addEventListener('click', () => this.post({ type: 'openPlaytest', playtest: session.playtest! }));
    const problems = session.problems.map((problem) => el('li', {}, el('span', { className: 'turn' }, `turn ${problem.turn}`), ` ${problem.message}`));
    if (session.droppedProblems > 0) problems.push(el('li', { className: 'note' }, `and ${plural(session.droppedProblems, 'more problem')}`));
    const inputs = session.inputs.map((input) =>
      el('li', {}, el('span', { className: 'turn' }, `turn ${input.turn}`), ` ${input.input}`, el('span', { className: 'note' }, ` (${input.source})`)),
    );
    return el(
      'details',
      { className: 'session', testId: ExploreTestId.failedSession, data: { session: session.index } },
      el(
        'summary',
        {},
        el('strong', {}, `Session ${session.index}`),
        el(
          'span',
          { className: 'note' },
          ` seed ${session.seed} · ${plural(session.turns, 'turn')} · ${plural(session.problems.length + session.droppedProblems, 'problem')}`,
        ),
      ),
      open ? el('p', {}, 'Reproduced by ', open) : el('p', { className: 'note' }, 'Not saved as a playtest.'),
      el('ul', { className: 'problems' }, ...problems),
      el('details', { className: 'inputs' }, el('summary', {}, 'What the player typed'), el('ol', {}, ...inputs)),
    );
  }

  private unreached(report: ExploreReport): HTMLElement {
    const scripts = report.neverRunScripts.map((script) => {
      const known = report.scripts.find((candidate) => candidate.script === script);
      const button = el('button', { className: 'link-button', title: known ? `Open ${known.toolPath}` : script }, script);
      if (known) button.addEventListener('click', () => this.post({ type: 'openScript', toolPath: known.toolPath }));
      return el('li', {}, button);
    });
    const events = Object.entries(report.eventTypesNeverEmitted).filter(([, types]) => types.length > 0);
    return section('Never reached', undefined, [
      el(
        'div',
        { className: 'columns' },
        el(
          'div',
          { testId: ExploreTestId.neverSelected },
          el('h3', {}, `Skills never selected (${report.neverSelectedSkills.length})`),
          list(report.neverSelectedSkills.map((skill) => el('li', {}, skill))),
        ),
        el('div', { testId: ExploreTestId.neverRun }, el('h3', {}, `Scripts never run (${scripts.length})`), list(scripts)),
        el(
          'div',
          {},
          el('h3', {}, 'Event types never emitted'),
          list(events.map(([script, types]) => el('li', {}, el('code', {}, script), `: ${types.join(', ')}`))),
        ),
      ),
    ]);
  }

  private scripts(report: ExploreReport): HTMLElement {
    const written = report.stateKeysBySkill;
    return section('Scripts', ExploreTestId.scripts, [
      el(
        'table',
        { className: 'scripts' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['Script', 'Runs', 'Failures', 'p50', 'p95', 'Events'].map((name, index) =>
              el('th', { className: index > 0 && index < 5 ? 'number' : '', attrs: { scope: 'col' } }, name),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          ...report.scripts.map((script) =>
            el(
              'tr',
              { className: script.failures > 0 ? 'failing' : '' },
              el('td', {}, el('code', {}, script.script)),
              el('td', { className: 'number' }, String(script.runs)),
              el('td', { className: 'number' }, String(script.failures)),
              el('td', { className: 'number' }, script.runs > 0 ? formatDuration(script.p50Ms) : '–'),
              el('td', { className: 'number' }, script.runs > 0 ? formatDuration(script.p95Ms) : '–'),
              el('td', { className: 'note' }, script.eventTypes.join(', ')),
            ),
          ),
        ),
      ),
      el('h3', {}, 'State keys each skill wrote'),
      list(
        Object.entries(written)
          .filter(([, keys]) => keys.length > 0)
          .map(([skill, keys]) => el('li', {}, el('strong', {}, skill), `: ${keys.join(', ')}`)),
      ),
    ]);
  }
}

function section(title: string, testId: string | undefined, children: readonly HTMLElement[]): HTMLElement {
  return el('section', { testId }, el('h2', {}, title), ...children);
}

function list(items: readonly HTMLElement[]): HTMLElement {
  return items.length === 0 ? el('p', { className: 'empty' }, 'None.') : el('ul', {}, ...items);
}
