// A campaign's story header over the story column: its title, the scene, the active beats, the beats done (and skipped), the ending reached. Hidden for a story that is no campaign.
import type { BeatName, StoryProgressView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el, type Child } from '../common/dom.js';

export class StoryHeader {
  readonly element: HTMLElement;

  constructor() {
    this.element = el('section', { className: 'story-header', testId: PlayPanelTestId.storyHeader, attrs: { 'aria-label': 'Story' } });
    this.element.hidden = true;
  }

  /** Shows a campaign's progress (undefined: no campaign, the header hides). */
  set(story: StoryProgressView | undefined): void {
    this.element.hidden = story === undefined;
    if (!story) {
      this.element.replaceChildren();
      return;
    }
    this.element.dataset['scene'] = String(story.scene);
    const parts: HTMLElement[] = [
      el('h2', { className: 'story-title' }, codicon('book'), el('span', {}, story.title || 'Campaign')),
      item('story-scene', 'location', 'Scene', story.scene === 0 ? '0 (the opening)' : String(story.scene)),
      item('story-active', 'target', 'Active', names(story.active, 'none yet')),
      item(
        'story-done',
        'pass',
        'Beats done',
        `${story.done.length} of ${story.total}`,
        story.done.length > 0 ? ` (${story.done.map((beat) => beat.title).join(', ')})` : '',
      ),
    ];
    if (story.skipped > 0) parts.push(item('story-skipped', 'debug-step-over', 'Skipped', String(story.skipped)));
    if (story.holding.length > 0) parts.push(item('story-holding', 'watch', 'Next scene', names(story.holding, '')));
    if (story.ending) parts.push(item('story-ending', 'flag', 'Ending', `${story.ending.title} (scene ${story.ending.scene})`));
    else if (story.endingsInReach.length > 0) parts.push(item('story-reach', 'flag', 'Ending in reach', story.endingsInReach.join(', ')));
    this.element.replaceChildren(...parts);
  }
}

/** One fact of the header: an icon, a label and its value (all of it wraps; nothing is cut). */
function item(className: string, icon: string, label: string, ...value: Child[]): HTMLElement {
  return el(
    'span',
    { className: `story-fact ${className}` },
    codicon(icon),
    el('span', { className: 'story-fact-label' }, `${label}:`),
    ' ',
    el('span', { className: 'story-fact-value' }, ...value),
  );
}

function names(beats: readonly BeatName[], none: string): string {
  return beats.length === 0 ? none : beats.map((beat) => beat.title).join(', ');
}
