// The standalone SVG of a beat graph that follows a play session: each beat's status as a class, a box rule and a marker of its own; none without a session.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { starterCampaignFiles } from '../../../src/runtime/campaign/starterCampaigns.js';
import { layoutBeatGraph } from '../../../src/runtime/campaign/view/beatGraph.js';
import { readBeatsText } from '../../../src/runtime/campaign/view/beatsText.js';
import type { BeatPlayStatus } from '../../../src/runtime/campaign/view/beatPlayStates.js';
import { renderGraphSvg } from '../../../src/runtime/graph/graphSvg.js';
import { SVG_THEMES } from '../../../src/runtime/graph/graphPalette.js';

const read = readBeatsText(starterCampaignFiles('complete').find((file) => file.path === 'plot/beats.json')!.text!);
const graph = layoutBeatGraph(read.beats!, read.conditions);
const STATUSES = new Map<string, BeatPlayStatus>([
  ['beat_001', 'done'],
  ['beat_002', 'active'],
  ['beat_003', 'reachable'],
  ['beat_004', 'skipped'],
]);

/** Each node group's classes and what it draws, by beat id. */
function groups(svg: string): Map<string, string> {
  return new Map([...svg.matchAll(/<g class="([^"]*)" data-tool-id="([^"]+)">(.*?)<\/g>/gs)].map((match) => [match[2]!, `${match[1]} ${match[3]}`]));
}

test('each beat of the session carries its status: a class, a marker of its own shape, a tint for done and active, words in its tooltip', () => {
  const svg = renderGraphSvg(graph.layout, {
    title: 'The Salt Lantern: plot/beats.json',
    nodeNoun: 'beat',
    play: { label: 'Play-through s, scene 4', statuses: STATUSES },
  });
  const byId = groups(svg);
  assert.match(byId.get('beat_001')!, /\bplay-done\b.*class="play-tint".*<path class="play-mark"/s);
  assert.match(byId.get('beat_002')!, /\bplay-active\b.*class="play-tint".*<circle class="play-mark-dot"/s);
  assert.match(byId.get('beat_003')!, /\bplay-reachable\b.*<circle class="play-mark"/s);
  assert.doesNotMatch(byId.get('beat_003')!, /play-tint/);
  assert.match(byId.get('beat_004')!, /\bplay-skipped\b.*stroke-dasharray="1.5 1.5"/s);
  for (const id of ['beat_005', 'beat_006']) assert.doesNotMatch(byId.get(id)!, /play-/, `${id} is not in the session`);
  assert.match(byId.get('beat_002')!, /in play: active<\/title>/);
  assert.match(svg, /<title>The Salt Lantern: plot\/beats\.json \(Play-through s, scene 4\)<\/title>/);
  for (const status of STATUSES.values()) assert.match(svg, new RegExp(`\\.play-${status} \\.box \\{`), `the ${status} rule`);
  assert.match(svg, /--graph-play-done: #1a7f37;/, 'the light default of each play colour');
  assert.match(svg, /prefers-color-scheme: dark[^\n]*--graph-play-active: #58a6ff;/);
});

test('without a session the SVG has no play marks, rules or colour uses', () => {
  const svg = renderGraphSvg(graph.layout, { title: 'The Salt Lantern: plot/beats.json', nodeNoun: 'beat' });
  assert.doesNotMatch(svg, /class="[^"]*play-/);
  assert.doesNotMatch(svg, /\.play-|var\(--graph-play/);
  assert.match(svg, /<title>The Salt Lantern: plot\/beats\.json<\/title>/);
});

test('every play colour has a light and a dark default', () => {
  for (const name of ['--graph-play-done', '--graph-play-active', '--graph-play-reachable', '--graph-play-skipped'] as const) {
    assert.match(SVG_THEMES.light[name], /^#[0-9a-f]{6}$/);
    assert.match(SVG_THEMES.dark[name], /^#[0-9a-f]{6}$/);
  }
});
