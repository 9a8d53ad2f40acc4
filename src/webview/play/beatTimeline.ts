// The beat timeline, a side section of a campaign session: each beat that triggered or was skipped, in which scene and turn, and why (the runtime's reason). Hidden for a story that is no campaign.
import type { BeatTimelineEntry, StoryProgressView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { PanelSection } from './panelSection.js';
import type { UiStateStore } from './uiStateStore.js';

export class BeatTimeline {
  private readonly section: PanelSection;
  private readonly list: HTMLOListElement;
  private readonly empty: HTMLElement;
  /** How many entries the timeline shows. */
  private shown = 0;

  constructor(store: UiStateStore) {
    this.section = new PanelSection({ id: 'beats', title: 'Beats', testId: PlayPanelTestId.beatTimeline, store });
    this.list = el('ol', { className: 'beat-timeline', attrs: { 'aria-label': 'Beat timeline' } });
    this.empty = el('p', { className: 'section-note' }, 'No beat has triggered yet: a beat triggers within a scene of its conditions holding.');
    this.section.body.append(this.empty, this.list);
    this.section.element.hidden = true;
  }

  get element(): HTMLElement {
    return this.section.element;
  }

  /** Shows a campaign's timeline (undefined: no campaign, the section hides). */
  set(story: StoryProgressView | undefined): void {
    this.section.element.hidden = story === undefined;
    if (!story) return;
    const triggered = story.timeline.filter((entry) => entry.event === 'triggered').length;
    const skipped = story.timeline.length - triggered;
    this.section.setDescription(`${story.done.length} of ${story.total} done${skipped > 0 ? ` \u00b7 ${skipped} skipped` : ''}`);
    this.empty.hidden = story.timeline.length > 0;
    const added = story.timeline.length > this.shown;
    this.shown = story.timeline.length;
    const active = new Set(story.active.map((beat) => beat.id));
    this.list.replaceChildren(...story.timeline.map((entry) => renderEntry(entry, active.has(entry.id))));
    // The newest beats are at the end: a timeline longer than its room shows them.
    if (added) this.section.body.scrollTop = this.section.body.scrollHeight;
  }
}

function renderEntry(entry: BeatTimelineEntry, active: boolean): HTMLElement {
  const triggered = entry.event === 'triggered';
  const when = [`Scene ${entry.scene}`, entry.turn !== undefined ? `turn ${entry.turn}` : undefined, triggered ? toldWords(entry) : 'skipped']
    .filter((part) => part !== undefined)
    .join(' \u00b7 ');
  return el(
    'li',
    {
      className: `beat-entry is-${entry.event}${active ? ' is-active' : ''}`,
      testId: PlayPanelTestId.beatTimelineEntry,
      data: { beatId: entry.id, event: entry.event, scene: entry.scene, turn: entry.turn },
    },
    el('span', { className: 'beat-entry-icon' }, codicon(triggered ? (active ? 'target' : 'pass') : 'debug-step-over')),
    el(
      'div',
      { className: 'beat-entry-body' },
      el(
        'div',
        { className: 'beat-entry-title' },
        el('span', { className: 'beat-entry-name' }, entry.title),
        ' ',
        el('code', { className: 'beat-entry-id' }, entry.id),
        active ? el('span', { className: 'badge beat-entry-badge' }, 'active') : null,
      ),
      el('div', { className: 'beat-entry-when' }, when),
      el('div', { className: 'beat-entry-reason' }, el('span', { className: 'visually-hidden' }, triggered ? 'Why: ' : 'Skipped because: '), entry.reason),
      entry.outcome ? el('div', { className: 'beat-entry-outcome' }, el('span', { className: 'beat-entry-label' }, 'Outcome: '), entry.outcome) : null,
    ),
  );
}

function toldWords(entry: BeatTimelineEntry): string {
  if (entry.told === 'storyteller') return 'told by the storyteller';
  if (entry.told === 'runtime') return 'told by the runtime';
  return 'triggered';
}
