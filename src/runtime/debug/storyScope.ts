// The debugger's Story scope of a campaign scene: the scene count, the beats (done, active, holding, skipped, pending) and the state keys they read. Pure.
import type { SceneStart } from '../campaign/play/campaignStory.js';
import type { StoryBeat, StoryCampaign } from '../campaign/play/storyCampaign.js';
import { npcNamed } from '../campaign/play/storyCampaign.js';
import { campaignStateOf, npcEntryOf, valueAt } from '../campaign/play/storyState.js';
import { parseCondition, pathsRead } from '../state/conditionExpression.js';

/** The Story scope's value at a scene that has just begun (its beats evaluated, its turn not played yet). */
export function storyScopeOf(campaign: StoryCampaign, start: SceneStart): Record<string, unknown> {
  const record = campaignStateOf(start.state, campaign.title);
  const beat = (id: string) => campaign.beats.find((candidate) => candidate.id === id);
  const done: Record<string, unknown> = {};
  const holding: Record<string, unknown> = {};
  const skipped: Record<string, unknown> = {};
  const pending: Record<string, unknown> = {};
  for (const { id, title } of campaign.beats) {
    const entry = record.beats[id];
    if (!entry) continue;
    if (entry.status === 'done')
      done[id] = { title, scene: entry.scene ?? null, reason: entry.reason ?? '', ...(entry.outcome ? { outcome: entry.outcome } : {}) };
    else if (entry.status === 'skipped') skipped[id] = { title, scene: entry.scene ?? null, reason: entry.reason ?? '' };
    else if (entry.status === 'holding') holding[id] = { title, since: entry.heldSince ?? null, reason: entry.reason ?? '' };
    else pending[id] = pendingBeat(title, start.beats.checks[id] ?? [], entry.availableSince);
  }
  const triggered = Object.fromEntries(
    start.beats.triggered.map(({ beat: { id, title }, reason, outcome }) => [id, { title, reason, ...(outcome ? { outcome } : {}) }]),
  );
  return {
    campaign: campaign.title,
    scene: start.scene,
    input: start.input,
    triggered,
    beats: {
      done,
      active: record.active.map((id) => `${id}: ${beat(id)?.title ?? id}`),
      holding,
      skipped,
      pending,
    },
    flags: beatFlags(campaign, start.state),
    choices: [...record.choices],
    present: start.present.map((npc) => npc.name),
    endingsInReach: [...record.endingsInReach],
    ...(start.ending ? { ending: { id: start.ending.ending.id, title: start.ending.ending.title, reason: start.ending.reason } } : {}),
  };
}

/** A beat still waiting: each condition's verdict this scene (`holds: ...` or `waits: ...`) and the first one it waits on. */
function pendingBeat(
  title: string,
  checks: readonly { kind: string; holds: boolean; reason: string }[],
  availableSince: number | undefined,
): Record<string, unknown> {
  const waiting = checks.find((check) => !check.holds);
  const conditions: Record<string, string> = {};
  for (const check of checks) conditions[check.kind] = `${check.holds ? 'holds' : 'waits'}: ${check.reason}`;
  return {
    title,
    waitingOn: waiting ? `${waiting.kind}: ${waiting.reason}` : 'its turn (its conditions hold)',
    possibleSince: availableSince ?? null,
    conditions,
  };
}

/**
 * The state keys the beats' conditions read (docs/campaigns.md#state-keys), with their values now (null when unset):
 * `player.<key>` (or the whole `player` for a condition in words), `npcs.<name>`, `world.<key>`, a custom expression's paths.
 */
export function beatFlags(campaign: Pick<StoryCampaign, 'beats' | 'npcs'>, state: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  const read = (path: string) => {
    if (!(path in flags)) flags[path] = valueAt(state, path) ?? null;
  };
  for (const beat of campaign.beats) for (const path of keysRead(beat, campaign, state)) read(path);
  return flags;
}

/** The dotted state paths one beat's conditions read, in file order. */
function keysRead(beat: StoryBeat, campaign: Pick<StoryCampaign, 'npcs'>, state: Readonly<Record<string, unknown>>): string[] {
  const paths: string[] = [];
  for (const [kind, value] of Object.entries(beat.conditions)) {
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    if (kind === 'player_state') paths.push(...(object ? Object.keys(object).map((key) => `player.${key}`) : ['player']));
    else if (kind === 'world_state' && object) paths.push(...Object.keys(object).map((key) => `world.${key}`));
    else if (kind === 'npc_state' && object) {
      for (const name of Object.keys(object)) {
        const npc = npcNamed(campaign, name);
        const entry = npcEntryOf(state, npc?.aliases ?? [name.toLowerCase()]);
        paths.push(`npcs.${entry?.key ?? name}`);
      }
    } else if (kind === 'custom' && typeof object?.['expression'] === 'string') {
      const parsed = parseCondition(object['expression'], { bareNamesInState: true });
      if (parsed.ok) paths.push(...pathsRead(parsed.expression, ['state']));
    }
  }
  return paths;
}
