// The standalone `narratoria debug-adapter` on a campaign's story turns, driven by a real DAP client: a `beat:<id>` function breakpoint holds where its beat triggers, the Story scope, a saved session played on a copy, and launches that fail clearly.
import { after, afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { PatternNarrator } from '../../src/runtime/narrator/patternNarrator.js';
import { PlaySession } from '../../src/runtime/session/playSession.js';
import { sessionFile } from '../../src/runtime/session/sessionStore.js';
import { sessionScope } from '../../src/runtime/skills/skillDataScope.js';
import { SkillRegistry } from '../../src/runtime/skills/skillRegistry.js';
import { positionOf, removeCampaignFolders, writeStarterCampaign } from '../runtime/campaign/campaignFixture.js';
import { launch, scopeValue, SessionEvents, startClient, topFrame } from '../support/debugClient.js';

const repo = path.resolve(import.meta.dirname, '../..');
/** Margin: a safety net so a session that never stops fails its test instead of hanging the suite (two real turns of sample skills). */
const TEST_TIMEOUT_MS = 240_000;
/** The starter campaign's first move (its beat_001 triggers in scene 1), then the choice beat_002 waits for. */
const FIRST = "Go to the Lantern tower and the keeper's cottage";
const SECOND = 'Ask Tamsin for help';
let client: DebugClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});
after(removeCampaignFolders);

test('beat:beat_002 holds where the beat triggers, in its beats file, with the Story scope; unknown beats are unverified', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const root = writeStarterCampaign('complete');
  client = await startClient(root);
  const events = new SessionEvents(client);
  const launched = await launch(
    client,
    { root, playerInputs: [FIRST, SECOND], seed: 7 },
    { functionBreakpoints: [{ name: 'beat:beat_002' }, { name: 'beat:beat_0002' }, { name: 'beat:no_such_beat' }, { name: 'dice-roller' }] },
  );
  const [beat, typo, unknown, tool] = launched.functions!.body.breakpoints;
  assert.equal(beat!.verified, true);
  assert.equal(typo!.verified, false);
  assert.match(typo!.message ?? '', /no beat "beat_0002" in this campaign; did you mean "beat_002"\?/);
  assert.equal(unknown!.verified, false);
  assert.match(unknown!.message ?? '', /no beat "no_such_beat" in this campaign \(its beats: beat_001, beat_002, .*\)/);
  assert.equal(tool!.verified, false);
  assert.match(tool!.message ?? '', /a story turn stops where its beats trigger: name a beat, as in beat:beat_003/);

  const stop = await events.stop();
  assert.equal(stop.body.reason, 'function breakpoint');
  assert.deepEqual(stop.body.hitBreakpointIds, [beat!.id]);
  assert.match(
    stop.body.description ?? '',
    /^Paused on beat beat_002 "Tamsin's Bargain", triggered in scene 2: its conditions held since scene 2: requires_beat \(beat_001 done\)/,
  );
  // The top frame is the beat's object in plot/beats.json; the scene is below it.
  const trace = await client.stackTraceRequest({ threadId: stop.body.threadId! });
  const [beatFrame, sceneFrame] = trace.body.stackFrames;
  assert.equal(beatFrame!.name, "beat_002: Tamsin's Bargain");
  assert.equal(beatFrame!.source?.path, path.join(root, 'plot', 'beats.json'));
  assert.equal(beatFrame!.line, positionOf(root, 'plot/beats.json', '"id": "beat_002"').line - 1, "the frame starts at the beat's opening brace");
  assert.equal(sceneFrame!.name, `scene 2: "${SECOND}"`);
  assert.equal(sceneFrame!.presentationHint, 'label', 'under the beat, the scene is a label');

  const story = (await scopeValue(client, beatFrame!.id, 'Story')) as Record<string, unknown>;
  assert.equal(story['scene'], 2);
  assert.equal(story['input'], SECOND);
  assert.deepEqual(Object.keys(story['triggered'] as object), ['beat_002']);
  const beats = story['beats'] as { done: Record<string, Record<string, unknown>>; pending: Record<string, Record<string, unknown>>; active: string[] };
  assert.deepEqual(Object.keys(beats.done).sort(), ['beat_001', 'beat_002']);
  assert.equal(beats.done['beat_001']!['scene'], 1);
  assert.match(String(beats.done['beat_002']!['reason']), /npc_state\.tamsin \("worried about Odile" holds by meaning/);
  assert.deepEqual(beats.active, ["beat_002: Tamsin's Bargain"]);
  assert.match(String(beats.pending['beat_003']!['waitingOn']), /^npc_state: not judged yet \(world_state\.fog: world\.fog is not set\)/);
  const flags = story['flags'] as Record<string, unknown>;
  // npc_state reads the NPC's entry under npcs (seeded by npc-perception from the profile); world_state and custom, their keys.
  for (const key of ['npcs.Tamsin Reed', 'world.fog', 'world.time', 'player', 'player.saltlight', 'world.tide'])
    assert.ok(key in flags, `the flags show ${key}: ${JSON.stringify(flags)}`);
  assert.equal((flags['npcs.Tamsin Reed'] as { attitude: string }).attitude, 'cordial');
  assert.equal(flags['world.fog'], null);
  assert.deepEqual(story['choices'], ['asked_tamsin_for_help']);
  const state = (await scopeValue(client, beatFrame!.id, 'State')) as { campaign: { scene: number } };
  assert.equal(state.campaign.scene, 2);
  const scene = await client.evaluateRequest({ expression: '/campaign/scene', frameId: beatFrame!.id, context: 'watch' });
  assert.equal(scene.body.result, '2');

  await Promise.all([events.end(), client.continueRequest({ threadId: stop.body.threadId! })]);
  const console = events.outputs.map((output) => output.output).join('');
  assert.match(console, /Debugging 2 story turn\(s\) of "The Salt Lantern" from a new session \(seed 7/);
  assert.match(console, /scene 1 > Go to the Lantern tower[^\n]*\n {2}beat beat_001 "The Dark Lantern" triggers: its conditions held since scene 1/);
  assert.match(console, /Played 2 turn\(s\); at scene 2, beats done: beat_001, beat_002\./);
});

test('a saved session is played on a copy: Step Over holds at the next scene, and the saved file does not change', { timeout: TEST_TIMEOUT_MS }, async () => {
  const root = writeStarterCampaign('complete');
  const registry = await SkillRegistry.load({ root, extraSkillRoots: [path.join(repo, 'skills')] });
  const saved = await PlaySession.open({
    root,
    file: sessionFile(root, 'saved'),
    dataScope: sessionScope(root, 'saved'),
    narrator: new PatternNarrator(),
    skills: registry,
    execution: { extraSkillRoots: [path.join(repo, 'skills')], skillContext: registry },
    attemptLogFile: null,
    seed: 7,
  });
  await saved.play(FIRST);
  saved.dispose();
  registry.dispose();
  const before = readFileSync(sessionFile(root, 'saved'), 'utf8');

  client = await startClient(root);
  const events = new SessionEvents(client);
  await launch(client, { root, session: 'saved', playerInputs: [SECOND, 'I look around'], stopOnEntry: true }, {});
  const entry = await events.stop();
  assert.equal(entry.body.reason, 'entry');
  const entryFrame = await topFrame(client, entry.body.threadId!);
  assert.equal(entryFrame.name, "beat_002: Tamsin's Bargain", 'at entry the frames show the beats that triggered');
  await client.nextRequest({ threadId: entry.body.threadId! });
  const step = await events.stop();
  assert.equal(step.body.reason, 'step');
  const sceneFrame = await topFrame(client, step.body.threadId!);
  assert.equal(sceneFrame.name, 'scene 3: "I look around"');
  assert.equal(((await scopeValue(client, sceneFrame.id, 'Story')) as { scene: number }).scene, 3);
  const refused = await client.stepBackRequest({ threadId: step.body.threadId! }).then(
    () => assert.fail('a story turn cannot step back'),
    (error: Error) => error.message,
  );
  assert.match(refused, /a story turn cannot step back/);
  await Promise.all([events.end(), client.continueRequest({ threadId: step.body.threadId! })]);
  assert.match(events.outputs.map((output) => output.output).join(''), /from the saved session "saved" \(scene 1\), played on a copy/);
  assert.equal(readFileSync(sessionFile(root, 'saved'), 'utf8'), before, 'the saved session is untouched');
});

test('a gutter breakpoint on a beat in plot/beats.json holds when its condition does; breakpoints elsewhere are unverified', {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const root = writeStarterCampaign('complete');
  const beatsFile = path.join(root, 'plot', 'beats.json');
  const inside = positionOf(root, 'plot/beats.json', '"title": "The Dark Lantern"').line;
  client = await startClient(root);
  const events = new SessionEvents(client);
  // Set before configurationDone, as VS Code sends them: the first scene begins right after.
  const { lines } = await launch(
    client,
    { root, playerInput: FIRST, seed: 7 },
    {
      functionBreakpoints: [{ name: 'beat:beat_001', condition: 'state.campaign.scene == 5' }],
      planFile: beatsFile,
      lineBreakpoints: [{ line: inside, condition: 'state.campaign.scene == 1' }, { line: 1 }],
    },
  );
  assert.deepEqual(
    lines!.body.breakpoints.map((breakpoint) => breakpoint.verified),
    [true, true],
  );
  assert.match(lines!.body.breakpoints[1]!.message ?? '', /line 1 is outside every beat: moved to "beat_001"/);
  const stop = await events.stop();
  assert.equal(stop.body.reason, 'breakpoint', "the function breakpoint's condition does not hold: only the line breakpoints stop");
  assert.deepEqual(
    stop.body.hitBreakpointIds,
    lines!.body.breakpoints.map((breakpoint) => breakpoint.id),
  );
  assert.equal((await topFrame(client, stop.body.threadId!)).name, 'beat_001: The Dark Lantern');
  const elsewhere = await client.setBreakpointsRequest({ source: { path: path.join(root, 'manifest.json') }, breakpoints: [{ line: 2 }] });
  assert.equal(elsewhere.body.breakpoints[0]!.verified, false);
  assert.match(elsewhere.body.breakpoints[0]!.message ?? '', /set breakpoints on a beat in .*beats\.json, or a function breakpoint beat:<id>/);
  await Promise.all([events.end(), client.continueRequest({ threadId: stop.body.threadId! })]);
});

/** A launch that must fail: its message (the session ends). */
async function failedLaunch(cwd: string, args: Record<string, unknown>): Promise<string> {
  const session = await startClient(cwd);
  try {
    const events = new SessionEvents(session);
    await session.initializeRequest({ adapterID: 'narratoria', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const message = await session.launchRequest(args as DebugProtocol.LaunchRequestArguments).then(
      () => assert.fail(`launch ${JSON.stringify(args)} should have failed`),
      (error: Error) => error.message,
    );
    await events.end();
    return message;
  } finally {
    await session.stop();
  }
}

test('a bad story launch fails with a clear message', { timeout: TEST_TIMEOUT_MS }, async () => {
  const root = writeStarterCampaign('minimal');
  const notCampaign = path.join(root, 'plot');
  assert.match(await failedLaunch(root, { root: notCampaign, playerInput: 'hello' }), /"root": .*plot holds no campaign \(no manifest\.json there\)/);
  assert.match(await failedLaunch(root, { root, playerInput: 'hello', plan: 'x.plan.json' }), /leave out "plan", "replay" and "script"/);
  assert.match(
    await failedLaunch(root, { root, playerInput: 'a', playerInputs: ['b'] }),
    /set "playerInput" \(one turn\) or "playerInputs" \(several\), not both/,
  );
  assert.match(await failedLaunch(root, { root, playerInputs: ['a', 3] }), /"playerInputs"\[1\] must be a non-empty string/);
  assert.match(await failedLaunch(root, { root, playerInput: '   ' }), /"playerInput" must be what the player types/);
  assert.match(await failedLaunch(root, { root, playerInput: 'a', seed: -1 }), /"seed" must be a whole number/);
  assert.match(await failedLaunch(root, { root, playerInput: 'a', session: 'nobody' }), /"session": there is no saved play-through at .*nobody.*session\.json/);
  assert.match(await failedLaunch(root, { root, playerInput: 'a', session: '../up' }), /"session": there is no saved play-through at/);
});
