// A campaign's beats across explored sessions: never triggered, skipped with reasons, endings, median scenes, SC-004; the closest session to an unreached beat as a playtest.
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from '../common/atomicWrite.js';
import { validateAgainst } from '../contracts/schemas.js';
import type { CampaignStory } from '../campaign/play/campaignStory.js';
import { PLAYTEST_SUFFIX } from '../playtest/playtestDocument.js';
import type { NarratorChoice } from '../playtest/playtestTypes.js';
import type { ExploreStoryReport, PlayedInput, SessionStory } from './exploreTypes.js';

/** FR-021 of spec 008: a beat whose conditions hold triggers within this many scenes. */
const TRIGGER_WINDOW = 2;

/** A session as the beats' report reads it. */
export interface ExploredStorySession {
  readonly index: number;
  readonly seed: number;
  readonly inputs: readonly PlayedInput[];
  readonly story: SessionStory;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The beats' and endings' report of the sessions played (without the closest sessions' playtests: {@link saveClosestPlaytests} adds them). */
export function storyReport(story: CampaignStory, sessions: readonly ExploredStorySession[]): ExploreStoryReport {
  let held = 0;
  let within = 0;
  let tooLate = 0;
  const beats = story.campaign.beats.map((beat) => {
    const scenes: number[] = [];
    const skipReasons: Record<string, number> = {};
    let skipped = 0;
    let closest: { session: number; scene: number; met: number; of: number; reason: string } | undefined;
    for (const session of sessions) {
      const record = session.story.beats[beat.id] ?? {};
      if (record.triggered !== undefined) scenes.push(record.triggered);
      if (record.skipped !== undefined) {
        skipped++;
        skipReasons[record.skipped] = (skipReasons[record.skipped] ?? 0) + 1;
      }
      if (record.heldSince !== undefined) {
        if (record.triggered !== undefined) {
          held++;
          if (record.triggered - record.heldSince <= TRIGGER_WINDOW) within++;
        } else if (session.story.scenes - record.heldSince >= TRIGGER_WINDOW) held++;
        // Its conditions held in the last scenes: the session ended before the window did.
        else tooLate++;
      }
      const near = session.story.closest[beat.id];
      const share = (entry: { met: number; of: number } | undefined) => (entry === undefined || entry.of === 0 ? -1 : entry.met / entry.of);
      if (near && share(near) > share(closest)) closest = { session: session.index, ...near };
    }
    return {
      id: beat.id,
      title: beat.title,
      triggered: scenes.length,
      medianScene: median(scenes),
      skipped,
      skipReasons,
      ...(scenes.length === 0 && closest ? { closest } : {}),
    };
  });
  const endings: Record<string, number> = Object.fromEntries([...story.campaign.endings.map((ending) => [ending.id, 0] as const), ['none', 0] as const]);
  for (const session of sessions) endings[session.story.ending ?? 'none'] = (endings[session.story.ending ?? 'none'] ?? 0) + 1;
  return {
    title: story.title,
    beats,
    neverTriggered: beats.filter((beat) => beat.triggered === 0).map((beat) => beat.id),
    endings,
    sc004: { held, withinTwoScenes: within, share: held === 0 ? null : Math.round((within / held) * 1000) / 1000, tooLate },
  };
}

/** The file the closest session to a beat is saved to. */
export function beatPlaytestFile(outDirectory: string, seed: number, beat: string): string {
  return path.join(outDirectory, `explore-seed-${seed}-${beat}${PLAYTEST_SUFFIX}`);
}

/**
 * Saves, for each beat no session triggered, the session that came closest as a playtest: its inputs, the last turn
 * expecting the beat triggered, so `narratoria test` fails the same way and says why. Returns the report with
 * each playtest's path (as `shown` gives it).
 */
export async function saveClosestPlaytests(
  report: ExploreStoryReport,
  sessions: readonly ExploredStorySession[],
  options: { readonly seed: number; readonly narrator: NarratorChoice; readonly outDirectory: string; readonly shown: (file: string) => string },
): Promise<ExploreStoryReport> {
  const beats = [];
  for (const beat of report.beats) {
    const session = beat.closest ? sessions.find((candidate) => candidate.index === beat.closest!.session) : undefined;
    if (!beat.closest || !session) {
      beats.push(beat);
      continue;
    }
    // The whole session: its last turn shows where the beat ended up and why (skipped, or the condition still unmet).
    const inputs = session.inputs;
    const turns = inputs.map((input, position) => {
      const played = input.choice !== undefined ? { choice: input.choice } : { input: input.input };
      return position === inputs.length - 1 ? { ...played, expect: { beats: { triggered: [beat.id] } } } : played;
    });
    const value = {
      name: `explore --seed ${options.seed}: ${beat.id} "${beat.title}" never triggered (closest: session ${session.index}, scene ${beat.closest.scene})`,
      narrator: options.narrator,
      seed: session.seed,
      state: {},
      turns,
    };
    if (turns.length === 0 || validateAgainst('playtest.schema.json', value).length > 0) {
      beats.push(beat);
      continue;
    }
    const file = beatPlaytestFile(options.outDirectory, options.seed, beat.id);
    await mkdir(options.outDirectory, { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
    beats.push({ ...beat, closest: { ...beat.closest, playtest: options.shown(file) } });
  }
  return { ...report, beats };
}
