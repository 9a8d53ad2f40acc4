// A campaign turn's expectations (docs/playtests.md#beats): beats triggered, not triggered and active after the turn, the ending reached, the lore retrieved. Pure.
import { campaignStateOf } from '../campaign/play/storyState.js';
import type { TurnResult } from '../session/turnTypes.js';
import type { Expectations } from './playtestTypes.js';

/** A failed story expectation, before its position in the file is known. */
export interface StoryFailure {
  readonly expectation: string;
  readonly message: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

function listed(ids: readonly string[]): string {
  return ids.join(', ');
}

/** Every failed expectation of `beats`, `ending` and `lore`; a turn of a story that is no campaign fails each one it is given. */
export function storyFailures(expect: Expectations, result: TurnResult): StoryFailure[] {
  if (expect.beats === undefined && expect.ending === undefined && expect.lore === undefined) return [];
  const failures: StoryFailure[] = [];
  const campaign = campaignStateOf(result.state);
  const done = Object.entries(campaign.beats).flatMap(([id, record]) => (record.status === 'done' ? [id] : []));
  const status = Object.fromEntries(Object.entries(campaign.beats).map(([id, record]) => [id, record.status]));
  const fail = (expectation: string, message: string, expected: unknown, actual: unknown) => failures.push({ expectation, message, expected, actual });
  const noCampaign = result.story === undefined && result.state['campaign'] === undefined;
  if (expect.beats?.triggered) {
    const missing = expect.beats.triggered.filter((id) => !done.includes(id));
    if (missing.length > 0) {
      // Why each stands where it does: its skip or holding reason, else the first condition that did not hold this scene.
      const waiting = new Map((result.story?.waiting ?? []).map((beat) => [beat.id, beat.reason]));
      const reasonOf = (id: string) => campaign.beats[id]?.reason ?? waiting.get(id);
      const why = missing.map((id) => `${id} is ${status[id] ?? 'not a beat of the campaign'}${reasonOf(id) ? ` (${reasonOf(id)})` : ''}`);
      fail(
        'beats.triggered',
        noCampaign ? 'the story is not a campaign: no beat triggers' : `not triggered by this turn: ${why.join('; ')}`,
        expect.beats.triggered,
        status,
      );
    }
  }
  if (expect.beats?.notTriggered) {
    const triggered = expect.beats.notTriggered.filter((id) => done.includes(id));
    if (triggered.length > 0) {
      const when = triggered.map((id) => `${id} in scene ${campaign.beats[id]!.scene ?? '?'}`);
      fail('beats.notTriggered', `triggered, which they must not have: ${listed(when)}`, expect.beats.notTriggered, done);
    }
  }
  if (expect.beats?.active) {
    const missing = expect.beats.active.filter((id) => !campaign.active.includes(id));
    if (missing.length > 0)
      fail(
        'beats.active',
        `not active after the turn: ${listed(missing)} (active: ${listed(campaign.active) || 'none'})`,
        expect.beats.active,
        campaign.active,
      );
  }
  if (expect.ending !== undefined && campaign.ending?.id !== expect.ending) {
    const reached = campaign.ending
      ? `the play-through reached "${campaign.ending.id}" instead`
      : `no ending is reached (in reach: ${listed(campaign.endingsInReach) || 'none'})`;
    fail('ending', `the ending "${expect.ending}" is not reached: ${reached}`, expect.ending, campaign.ending?.id ?? null);
  }
  if (expect.lore) {
    const retrieved = result.story?.lore.map((fact) => fact.id) ?? [];
    const missing = expect.lore.filter((entry) => !retrieved.some((id) => id === entry || id.startsWith(`${entry}#`)));
    if (missing.length > 0)
      fail('lore', `lore not retrieved for the turn: ${listed(missing)} (retrieved: ${listed(retrieved) || 'nothing'})`, expect.lore, retrieved);
  }
  return failures;
}
