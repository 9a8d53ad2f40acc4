// The beat graph: the complete starter's beats as nodes by priority with their scene windows, edges by relation, and seeded cycles, unknown beats, duplicates and unreachable beats marked.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { starterCampaignFiles } from '../../../../src/runtime/campaign/starterCampaigns.js';
import { layoutBeatGraph, sceneWindowLabel } from '../../../../src/runtime/campaign/view/beatGraph.js';
import { readBeatsText } from '../../../../src/runtime/campaign/view/beatsText.js';
import { unreachableBeats } from '../../../../src/runtime/campaign/view/beatReachability.js';

const STARTER = starterCampaignFiles('complete').find((file) => file.path === 'plot/beats.json')!.text!;

/** The starter's beats.json with `edit` applied to its parsed value. */
function edited(edit: (beats: Record<string, unknown>[]) => void): string {
  const value = JSON.parse(STARTER) as { beats: Record<string, unknown>[] };
  edit(value.beats);
  return JSON.stringify(value, null, 2);
}

function graphOf(text: string) {
  const read = readBeatsText(text);
  assert.ok(read.beats, read.syntaxError);
  return layoutBeatGraph(read.beats, read.conditions);
}

function conditions(beat: Record<string, unknown>): Record<string, unknown> {
  return beat['conditions'] as Record<string, unknown>;
}

test("the starter's beats: a node per beat, critical first, with its title, priority and scene window", () => {
  const graph = graphOf(STARTER);
  assert.deepEqual(
    graph.model.tools.map((tool) => tool.id),
    ['beat_001', 'beat_004', 'beat_006', 'beat_002', 'beat_003', 'beat_005'],
  );
  const first = graph.layout.nodes.find((node) => node.id === 'beat_001')!;
  assert.equal(first.script, 'The Dark Lantern');
  assert.equal(first.title, 'The Dark Lantern');
  assert.deepEqual(
    first.badges.map((badge) => badge.label),
    ['critical', 'scenes 1-2'],
  );
  assert.deepEqual(first.input, { scene_count: { min: 1, max: 2 } });
  assert.match(first.description ?? '', /wrong pier/);
  assert.deepEqual(graph.problems, []);
  assert.deepEqual(graph.layout.cycles, []);
  // Priority colours: critical and medium differ; equal priorities share one.
  const colour = (id: string) => graph.layout.nodes.find((node) => node.id === id)!.colour;
  assert.notEqual(colour('beat_001'), colour('beat_005'));
  assert.equal(colour('beat_001'), colour('beat_004'));
});

test('edges: requires_beat and requires_any_beat from the beat required, triggers_beat and fallback_beat from the beat that leads on', () => {
  const graph = graphOf(STARTER);
  const edges = graph.layout.edges.map((edge) => `${edge.from}->${edge.to} ${edge.relation} ${edge.kind}`).sort();
  assert.deepEqual(edges, [
    'beat_001->beat_002 requires dependency',
    'beat_001->beat_003 requires dependency',
    'beat_002->beat_004 requiresAny dependency',
    'beat_002->beat_004 triggers dependency',
    'beat_003->beat_004 requiresAny dependency',
    'beat_003->beat_005 requires dependency',
    'beat_004->beat_005 fallback dependency',
    'beat_004->beat_006 requires dependency',
  ]);
  // The two edges between beat_002 and beat_004 leave and enter at different points, so both can be seen.
  const pair = graph.layout.edges.filter((edge) => edge.from === 'beat_002' && edge.to === 'beat_004');
  assert.notDeepEqual(pair[0]!.points[0], pair[1]!.points[0]);
  // A beat sits below the beats it requires; nodes never overlap.
  const node = (id: string) => graph.layout.nodes.find((candidate) => candidate.id === id)!;
  assert.ok(node('beat_001').y < node('beat_002').y && node('beat_002').y < node('beat_004').y && node('beat_004').y < node('beat_006').y);
  for (const left of graph.layout.nodes)
    for (const right of graph.layout.nodes)
      if (left !== right)
        assert.ok(
          left.x + left.width <= right.x || right.x + right.width <= left.x || left.y + left.height <= right.y || right.y + right.height <= left.y,
          `${left.id} and ${right.id} overlap`,
        );
});

test('a requires_beat cycle is marked as errors; its beats and those that require them can never happen', () => {
  const graph = graphOf(
    edited((beats) => {
      conditions(beats[0]!)['requires_beat'] = 'beat_005';
    }),
  );
  assert.deepEqual(
    graph.requirementCycles.map((cycle) => [...cycle].sort()),
    [['beat_001', 'beat_003', 'beat_005']],
  );
  const cycleEdges = graph.layout.edges.filter((edge) => edge.kind === 'cycle').map((edge) => `${edge.from}->${edge.to}`);
  assert.deepEqual(cycleEdges.sort(), ['beat_001->beat_003', 'beat_003->beat_005', 'beat_005->beat_001']);
  assert.deepEqual(graph.layout.cycles, graph.requirementCycles);
  // requires_any and triggers edges inside the loop are laid out but are no errors.
  assert.ok(graph.layout.edges.filter((edge) => edge.relation !== 'requires').every((edge) => edge.kind === 'dependency'));
  assert.deepEqual(
    graph.unreachable.map((beat) => beat.id),
    ['beat_001', 'beat_002', 'beat_003', 'beat_004', 'beat_005', 'beat_006'],
  );
  assert.match(graph.unreachable[0]!.reason, /requires_beat cycle/);
  assert.match(graph.unreachable.find((beat) => beat.id === 'beat_002')!.reason, /requires beat_001, which can never happen/);
  assert.match(graph.unreachable.find((beat) => beat.id === 'beat_004')!.reason, /none of its requires_any_beat \(beat_002, beat_003\) can happen/);
  assert.ok(graph.problems.some((problem) => /^requires_beat cycle: beat_\d+ -> .* -> beat_\d+ \(each waits for the next\)\.$/.test(problem)));
  assert.ok(graph.layout.nodes.every((node) => node.badges.some((badge) => badge.kind === 'unreachable')));
});

test('an unknown beat gets a box; a beat requiring it can never happen, and so can what requires that beat', () => {
  const graph = graphOf(
    edited((beats) => {
      conditions(beats[3]!)['requires_any_beat'] = ['beat_098', 'beat_099'];
    }),
  );
  assert.deepEqual(graph.layout.missing.map((box) => box.id).sort(), ['beat_098', 'beat_099']);
  assert.deepEqual(
    graph.unreachable.map((beat) => `${beat.id}: ${beat.reason}`),
    ['beat_004: none of its requires_any_beat (beat_098, beat_099) is a beat', 'beat_006: it requires beat_004, which can never happen'],
  );
  assert.ok(graph.problems.includes('"beat_098" is no beat of plot/beats.json (named by beat_004).'));
});

test('duplicates are left out and listed; a window that never opens makes its beat unreachable', () => {
  const graph = graphOf(
    edited((beats) => {
      beats[4]!['id'] = 'beat_003';
      conditions(beats[1]!)['scene_count'] = { min: 5, max: 2 };
    }),
  );
  assert.equal(graph.layout.nodes.filter((node) => node.id === 'beat_003').length, 1);
  assert.deepEqual(graph.model.duplicateIds, ['beat_003']);
  assert.deepEqual(
    graph.unreachable.map((beat) => `${beat.id}: ${beat.reason}`),
    ['beat_002: its scene window opens at scene 5 but closes at scene 2'],
  );
  assert.ok(graph.problems[0]!.startsWith('Two or more beats have the id "beat_003"'));
});

test('a beat requiring itself is a one-beat cycle; reachability ignores outcomes and timeouts', () => {
  const read = readBeatsText(
    JSON.stringify({
      beats: [
        { id: 'beat_001', title: 'Start', description: 'The first beat.', outcomes: [{ description: 'on', triggers_beat: 'beat_002' }] },
        { id: 'beat_002', title: 'Loop', description: 'Waits for itself.', conditions: { requires_beat: ['beat_002'] } },
      ],
    }),
  );
  const graph = layoutBeatGraph(read.beats!);
  assert.deepEqual(graph.requirementCycles, [['beat_002']]);
  assert.deepEqual(unreachableBeats(read.beats!), [{ id: 'beat_002', reason: 'it is in a requires_beat cycle' }]);
  assert.ok(graph.problems.includes('beat_002 requires itself, so it can never happen.'));
  const loop = graph.layout.edges.find((edge) => edge.from === 'beat_002' && edge.to === 'beat_002')!;
  assert.equal(loop.kind, 'cycle');
});

test('scene windows read as words; long titles are shortened in the node only', () => {
  assert.equal(sceneWindowLabel({ min: 1, max: 2 }), 'scenes 1-2');
  assert.equal(sceneWindowLabel({ min: 3, max: 3 }), 'scene 3');
  assert.equal(sceneWindowLabel({ min: 3 }), 'from scene 3');
  assert.equal(sceneWindowLabel({ max: 6 }), 'by scene 6');
  assert.equal(sceneWindowLabel(undefined), undefined);
  const long = 'A title that goes on and on well past what a node can show';
  const graph = graphOf(
    edited((beats) => {
      beats[0]!['title'] = long;
    }),
  );
  const node = graph.layout.nodes.find((candidate) => candidate.id === 'beat_001')!;
  assert.ok(node.script.endsWith('...') && node.script.length <= 36, node.script);
  assert.equal(node.title, long);
});
