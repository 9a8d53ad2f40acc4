// Checks of plot beats across the file: unique ids, links to beats that exist, requires_beat cycles (with their path), scene windows that can open. Pure.
import { findCycle, type DagNode } from '../dag/toolDependencies.js';
import { closestMatch } from '../validation/closestMatch.js';
import { CampaignDiagnosticCode, type CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { BeatLink, CampaignBeat, CampaignBeats } from './campaignModel.js';

/** Most beat cycles reported for one file. */
const MAX_CYCLE_DIAGNOSTICS = 20;

/** A well-formed beat id (the beats contract reports the others). */
const BEAT_ID = /^beat_[0-9]{3,}$/;

const LINK_WORDS: Readonly<Record<BeatLink['kind'], string>> = {
  requires: 'requires_beat',
  requiresAny: 'requires_any_beat',
  triggers: 'triggers_beat',
  fallback: 'fallback_beat',
};

/** The first beat of each id: what a link to that id means. */
export function beatsById(beats: CampaignBeats): Map<string, CampaignBeat> {
  const byId = new Map<string, CampaignBeat>();
  for (const beat of beats.beats) if (beat.id !== undefined && !byId.has(beat.id)) byId.set(beat.id, beat);
  return byId;
}

export function checkBeats(beats: CampaignBeats, drafts: CampaignDiagnosticDraft[]): void {
  const byId = beatsById(beats);
  for (const beat of beats.beats) {
    const first = beat.id === undefined ? undefined : byId.get(beat.id);
    if (first && first !== beat) {
      drafts.push({
        severity: 'error',
        code: CampaignDiagnosticCode.CAMPAIGN_DUPLICATE_BEAT_ID,
        message: `another beat already has the id "${beat.id}" (beat ${first.index + 1}, "${first.title ?? ''}"); links to it reach only that one`,
        ...beat.idAt,
        related: [{ ...first.idAt, message: `the first beat with the id "${beat.id}"` }],
      });
    }
    const window = beat.sceneWindow;
    if (window?.min !== undefined && window.max !== undefined && window.min > window.max) {
      drafts.push({
        severity: 'error',
        code: CampaignDiagnosticCode.CAMPAIGN_SCENE_WINDOW,
        message: `the scene window of ${beat.id ?? 'this beat'} opens at scene ${window.min} but closes at scene ${window.max}, so it never opens`,
        file: beat.at.file,
        pointer: `${beat.at.pointer}/conditions/scene_count`,
      });
    }
    for (const link of beat.links) {
      if (!BEAT_ID.test(link.target) || byId.has(link.target)) continue;
      const suggestion = closestMatch(link.target, byId.keys());
      drafts.push({
        severity: 'error',
        code: CampaignDiagnosticCode.CAMPAIGN_UNKNOWN_BEAT,
        message: `${LINK_WORDS[link.kind]} names "${link.target}", which is no beat of ${beats.file.path}${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        ...link.at,
      });
    }
  }
  checkRequirementCycles(beats, byId, drafts);
}

/**
 * Reports each cycle of requires_beat as a path (`beat_002 -> beat_004 -> beat_002`, from the member listed first):
 * every beat on it waits for the next, so none can happen. After each cycle its members are left out and the search goes on.
 */
function checkRequirementCycles(beats: CampaignBeats, byId: ReadonlyMap<string, CampaignBeat>, drafts: CampaignDiagnosticDraft[]): void {
  const requirement = (from: CampaignBeat, to: string): BeatLink | undefined => from.links.find((link) => link.kind === 'requires' && link.target === to);
  let nodes: DagNode[] = [...byId.values()].map((beat) => ({
    toolId: beat.id!,
    dependencies: [...new Set(beat.links.filter((link) => link.kind === 'requires' && byId.has(link.target)).map((link) => link.target))],
  }));
  for (let reported = 0; reported < MAX_CYCLE_DIAGNOSTICS; reported++) {
    const cycle = findCycle(nodes);
    if (!cycle) return;
    const members = cycle.slice(0, -1);
    let start = 0;
    members.forEach((id, position) => {
      if (byId.get(id)!.index < byId.get(members[start]!)!.index) start = position;
    });
    const path = [...members.slice(start), ...members.slice(0, start), members[start]!];
    const related = path.slice(0, -1).map((id, step) => ({
      ...requirement(byId.get(id)!, path[step + 1]!)!.at,
      message: `"${id}" requires "${path[step + 1]}"`,
    }));
    const first = requirement(byId.get(path[0]!)!, path[1]!)!;
    drafts.push({
      severity: 'error',
      code: CampaignDiagnosticCode.CAMPAIGN_BEAT_CYCLE,
      message:
        path.length === 2
          ? `${path[0]} requires itself, so it can never happen`
          : `requires_beat cycle: ${path.join(' -> ')} (each beat waits for the next, so none of them can happen)`,
      ...first.at,
      related,
    });
    const removed = new Set(members);
    nodes = nodes
      .filter((node) => !removed.has(node.toolId))
      .map((node) => ({ toolId: node.toolId, dependencies: (node.dependencies ?? []).filter((id) => !removed.has(id)) }));
  }
}
