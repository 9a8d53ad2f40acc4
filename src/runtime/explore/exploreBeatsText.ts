// A campaign's part of the explore report as text: each beat (sessions it triggered in, its median scene, skips and their reasons, the closest session), the endings' histogram and SC-004.
import type { TextStyle } from '../common/textStyle.js';
import { plural } from '../common/humanText.js';
import type { ExploreStoryReport } from './exploreTypes.js';

export function storyText(story: ExploreStoryReport, style: TextStyle): string[] {
  const lines = [style.bold(`Campaign "${story.title}": beats`)];
  for (const beat of story.beats) {
    const when = beat.medianScene === null ? '' : `, median scene ${beat.medianScene}`;
    const head = `  ${beat.id} "${beat.title}": triggered in ${plural(beat.triggered, 'session')}${when}`;
    lines.push(beat.triggered === 0 ? style.red(`${head} (never triggered)`) : head);
    for (const [reason, count] of Object.entries(beat.skipReasons)) lines.push(style.yellow(`    skipped in ${plural(count, 'session')}: ${reason}`));
    if (beat.closest)
      lines.push(
        `    closest: session ${beat.closest.session}, scene ${beat.closest.scene}, ${beat.closest.met} of ${beat.closest.of} conditions held; ${beat.closest.reason}` +
          (beat.closest.playtest ? ` → ${beat.closest.playtest}` : ''),
      );
  }
  const endings = Object.entries(story.endings)
    .map(([ending, count]) => `${ending} ${count}`)
    .join(', ');
  lines.push(`endings: ${endings}`);
  const share = story.sc004.share === null ? 'no beat held' : `${(story.sc004.share * 100).toFixed(1)}%`;
  lines.push(
    `beats triggered within 2 scenes of their conditions holding (SC-004): ${share} (${story.sc004.withinTwoScenes} of ${story.sc004.held}` +
      `${story.sc004.tooLate > 0 ? `; ${story.sc004.tooLate} held too late in their session to count` : ''})`,
  );
  if (story.neverTriggered.length > 0) lines.push(style.red(`beats no session reached: ${story.neverTriggered.join(', ')}`));
  return lines;
}
