// Which beats can never happen, and why: a requirement that is missing, in a requires_beat cycle or itself unreachable, no requires_any_beat that can happen, a scene window that never opens. Pure.
import type { CampaignBeat, CampaignBeats } from '../campaignModel.js';

/** A beat that can never happen, with the first reason found. */
export interface UnreachableBeat {
  readonly id: string;
  readonly reason: string;
}

/**
 * The beats whose conditions can never all hold, by id (the first beat of each id; the order of the file). A beat can
 * happen when its scene window can open, every requires_beat names a beat that can happen, and at least one
 * requires_any_beat (when it has some) does. Outcomes and timeouts lead to a beat but do not lift its conditions,
 * so they do not make it reachable. The other conditions (choices, states) are the story's to meet and count as met.
 */
export function unreachableBeats(beats: CampaignBeats): UnreachableBeat[] {
  const byId = new Map<string, CampaignBeat>();
  for (const beat of beats.beats) if (beat.id !== undefined && !byId.has(beat.id)) byId.set(beat.id, beat);
  const reachable = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, beat] of byId) {
      if (reachable.has(id) || !windowOpens(beat)) continue;
      const all = targets(beat, 'requires');
      const any = targets(beat, 'requiresAny');
      if (all.every((target) => reachable.has(target)) && (any.length === 0 || any.some((target) => reachable.has(target)))) {
        reachable.add(id);
        changed = true;
      }
    }
  }
  const cyclic = requirementCycleMembers(byId);
  return [...byId.entries()].filter(([id]) => !reachable.has(id)).map(([id, beat]) => ({ id, reason: reasonOf(beat, byId, cyclic, reachable) }));
}

function windowOpens(beat: CampaignBeat): boolean {
  const window = beat.sceneWindow;
  return window?.min === undefined || window.max === undefined || window.min <= window.max;
}

function targets(beat: CampaignBeat, kind: 'requires' | 'requiresAny'): string[] {
  return [...new Set(beat.links.filter((link) => link.kind === kind).map((link) => link.target))];
}

function reasonOf(beat: CampaignBeat, byId: ReadonlyMap<string, CampaignBeat>, cyclic: ReadonlySet<string>, reachable: ReadonlySet<string>): string {
  if (!windowOpens(beat)) return `its scene window opens at scene ${beat.sceneWindow!.min} but closes at scene ${beat.sceneWindow!.max}`;
  const all = targets(beat, 'requires');
  const missing = all.find((target) => !byId.has(target));
  if (missing !== undefined) return `it requires ${missing}, which no beat is`;
  if (cyclic.has(beat.id!)) return 'it is in a requires_beat cycle';
  const blocked = all.find((target) => !reachable.has(target));
  if (blocked !== undefined) return `it requires ${blocked}, which can never happen`;
  const any = targets(beat, 'requiresAny');
  return any.every((target) => !byId.has(target))
    ? `none of its requires_any_beat (${any.join(', ')}) is a beat`
    : `none of its requires_any_beat (${any.join(', ')}) can happen`;
}

/** Beats on a requires_beat cycle (a beat requiring itself included). */
function requirementCycleMembers(byId: ReadonlyMap<string, CampaignBeat>): Set<string> {
  const members = new Set<string>();
  const requires = (id: string): string[] => targets(byId.get(id)!, 'requires').filter((target) => byId.has(target));
  for (const start of byId.keys()) {
    // Whether start reaches itself through requires_beat (campaigns have tens of beats: a search per beat is cheap).
    const seen = new Set<string>();
    const stack = requires(start);
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === start) {
        members.add(start);
        break;
      }
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...requires(id));
    }
  }
  return members;
}
