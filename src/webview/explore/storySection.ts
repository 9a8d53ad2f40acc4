// The Explore report's Story section of a campaign: the unreached-beat problem, beats never triggered (closest session, playtest), skipped beats, endings, median scenes. Browser only.
import { ExploreTestId, type FromExploreView } from '../../protocol/exploreMessages.js';
import type { ExploreStoryReport } from '../../runtime/explore/exploreTypes.js';
import { exploreStoryView, type EndingBarView, type NeverTriggeredView, type SkippedBeatView } from '../../runtime/explore/exploreStoryView.js';
import { plural } from '../../runtime/common/humanText.js';
import { codicon, el } from '../common/dom.js';

/** The section of a report's `story` over `sessions` played; `post` opens a closest session's playtest. */
export function renderStorySection(story: ExploreStoryReport, sessions: number, post: (message: FromExploreView) => void): HTMLElement {
  const view = exploreStoryView(story, sessions);
  return el(
    'section',
    { className: 'story', testId: ExploreTestId.story },
    el('h2', {}, codicon('book'), ` Story: ${view.title}`),
    el('p', { className: 'story-summary' }, view.summary, ' ', el('span', { className: 'note' }, view.sc004)),
    view.problem ? el('p', { className: 'story-problem', testId: ExploreTestId.storyProblem }, codicon('warning', 'found'), ` ${view.problem}`) : null,
    el(
      'div',
      { className: 'story-columns' },
      el(
        'div',
        { testId: ExploreTestId.neverTriggered },
        el('h3', {}, `Beats never triggered (${view.neverTriggered.length})`),
        view.neverTriggered.length === 0
          ? el('p', { className: 'empty' }, 'None: every beat triggered in some session.')
          : el('ul', { className: 'beat-list' }, ...view.neverTriggered.map((beat) => neverTriggered(beat, post))),
      ),
      el(
        'div',
        { testId: ExploreTestId.skippedBeats },
        el('h3', {}, `Beats skipped (${view.skipped.length})`),
        view.skipped.length === 0
          ? el('p', { className: 'empty' }, 'None: no session skipped a beat.')
          : el('ul', { className: 'beat-list' }, ...view.skipped.map(skippedBeat)),
      ),
    ),
    el('h3', {}, 'Endings reached'),
    endings(view.endings, sessions),
    el('h3', {}, 'When each beat triggered'),
    beatTable(view),
  );
}

function neverTriggered(beat: NeverTriggeredView, post: (message: FromExploreView) => void): HTMLElement {
  const playtest = beat.playtest;
  const open = playtest
    ? el(
        'button',
        { className: 'link-button', testId: ExploreTestId.openClosestPlaytest, title: `Open ${playtest}`, data: { beatId: beat.id } },
        codicon('beaker'),
        ` ${playtest}`,
      )
    : null;
  open?.addEventListener('click', () => post({ type: 'openPlaytest', playtest: playtest! }));
  return beatItem(
    beat,
    beat.closest ? el('div', { className: 'beat-detail' }, el('span', { className: 'note' }, 'Closest: '), beat.closest) : null,
    open ? el('div', { className: 'beat-detail' }, el('span', { className: 'note' }, 'Reproduced by '), open) : null,
  );
}

/** A beat's list item: its title and id, then what the section says of it. */
function beatItem(beat: { readonly id: string; readonly title: string }, ...details: (Node | string | null)[]): HTMLElement {
  return el('li', { data: { beatId: beat.id } }, el('strong', {}, beat.title), ' ', el('code', {}, beat.id), ...details);
}

function skippedBeat(beat: SkippedBeatView): HTMLElement {
  return beatItem(
    beat,
    el('span', { className: 'note' }, ` skipped in ${plural(beat.sessions, 'session')}`),
    el(
      'ul',
      { className: 'reasons' },
      ...beat.reasons.map((reason) => el('li', {}, el('span', { className: 'count' }, `${reason.sessions}\u00d7`), ` ${reason.reason}`)),
    ),
  );
}

/** The endings as a histogram: a bar per ending, its length the count against the largest, with the count and share in words. */
function endings(bars: readonly EndingBarView[], sessions: number): HTMLElement {
  return el(
    'table',
    { className: 'histogram', testId: ExploreTestId.endings, attrs: { 'aria-label': `Endings reached across ${plural(sessions, 'session')}` } },
    el(
      'tbody',
      {},
      ...bars.map((bar) => {
        const meter = el('meter', { className: 'bar', attrs: { min: 0, max: 1, value: bar.length, 'aria-hidden': 'true' } });
        return el(
          'tr',
          { className: bar.id === 'none' ? 'no-ending' : undefined, data: { ending: bar.id } },
          el('th', { attrs: { scope: 'row' } }, bar.label),
          el('td', { className: 'bar-cell' }, meter),
          el('td', { className: 'number' }, String(bar.sessions)),
          el('td', { className: 'note number' }, `${Math.round(bar.share * 100)}%`),
        );
      }),
    ),
  );
}

function beatTable(view: ReturnType<typeof exploreStoryView>): HTMLElement {
  return el(
    'table',
    { className: 'beat-scenes', testId: ExploreTestId.beatScenes },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Beat', 'Triggered in', 'Median scene', 'Skipped in'].map((name, index) =>
          el('th', { className: index > 0 ? 'number' : '', attrs: { scope: 'col' } }, name),
        ),
      ),
    ),
    el(
      'tbody',
      {},
      ...view.beats.map((beat) =>
        el(
          'tr',
          { className: beat.neverTriggered ? 'failing' : '', data: { beatId: beat.id } },
          el('td', {}, el('code', {}, beat.id), ` ${beat.title}`),
          el('td', { className: 'number' }, beat.triggered),
          el('td', { className: 'number' }, beat.medianScene),
          el('td', { className: 'number' }, String(beat.skipped)),
        ),
      ),
    ),
  );
}
