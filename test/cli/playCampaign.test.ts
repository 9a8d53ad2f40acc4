// `narratoria play --root CAMPAIGN` with the built CLI (real processes): the complete starter campaign opens on its premise, a beat triggers by its conditions within 2 scenes and is told, --explain lists the lore with its sources.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliPath, narratoria } from './cliHarness.js';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';

let scratch: string;
let story: string;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-play-campaign-'));
  story = path.join(scratch, 'salt-lantern');
  const init = await narratoria(['init', story, '--campaign', 'complete']);
  assert.equal(init.code, 0, init.stderr);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Plays the lines through stdin (piped, so each is echoed after its prompt) and collects the transcript. */
function play(lines: readonly string[], extra: readonly string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'play', '--root', story, '--narrator', 'pattern', '--new', ...extra], {
      cwd: scratch,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

test('the campaign opens on its premise and choices; choosing plays scenes whose beats trigger by their conditions and are told', async () => {
  const run = await play(['1', 'Ask Tamsin for help', '/state', '/quit']);
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout;
  assert.match(out, /The Salt Lantern: a campaign, played scene by scene/);
  assert.match(out, /You come to Gullhaven on the last ferry before the fog season/);
  assert.match(out, /\n {2}1\. Go to the Lantern tower and the keeper's cottage\n {2}2\. Talk to Tamsin Reed\n/);
  assert.match(out, /beat beat_001 "The Dark Lantern" triggered in scene 1\n/);
  assert.match(out, /The Dark Lantern\. You land at the wrong pier/);
  // beat_002 waits on a choice, an NPC's state and beat_001: it triggers in the scene its conditions hold.
  assert.match(out, /beat beat_002 "Tamsin's Bargain" triggered in scene 2/);
  assert.match(out, /Tamsin Reed, [a-z ]+ and cordial toward you, says: "/);
  assert.match(out, /"scene": 2/);
  assert.match(out, /"status": "done"/);
});

test('--explain lists why each beat triggered, the judgements, and the lore retrieved with its sources', async () => {
  const run = await play(['1', 'Ask Tamsin for help', '/quit'], ['--explain']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    / {2}story beat beat_001 "The Dark Lantern" triggered in scene 1: its conditions held since scene 1: scene_count \(scene 1, scenes 1-2\)/,
  );
  assert.match(run.stdout, / {2}story judged beat_002 npc_state\.tamsin: "worried about Odile" holds by meaning/);
  assert.match(run.stdout, / {2}story lore lore\/places\/the-lantern-tower\.md#\d \(\d\.\d\d\)/);
  assert.match(run.stdout, / {2}story choices taken: asked_tamsin_for_help/);
});

test('play --once on a campaign plays its first scene in a play-through of its own, saving none', async () => {
  const sessions = path.join(story, '.narratoria', 'sessions');
  const before = existsSync(sessions) ? readdirSync(sessions).sort() : [];
  const run = await narratoria(['play', '--root', story, '--once', 'Go to the Lantern tower', '--narrator', 'pattern', '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { story?: { scene: number; triggered: { id: string; told: string }[] }; narrative: string };
  assert.deepEqual(validateAgainst('turn-result.schema.json', result), []);
  assert.equal(result.story?.scene, 1);
  assert.deepEqual(
    result.story?.triggered.map((beat) => [beat.id, beat.told]),
    [['beat_001', 'storyteller']],
  );
  assert.match(result.narrative, /The Dark Lantern\./);
  assert.deepEqual(existsSync(sessions) ? readdirSync(sessions).sort() : [], before);
});

test("the starter's own skill (skills/gullhaven) moves the island's clock and gives saltlight: beat_003 and beat_006 trigger, and the endings come in reach", async () => {
  const run = await play([
    'I climb up to the lantern tower',
    'I wait until dusk',
    'I ask Tamsin for help',
    'I search the cottage for the tower key',
    'I take the tower key',
    'I fill a jar with saltlight',
    'I wait for the lowest tide',
    'I row out to Saltmere',
    '/state',
    '/quit',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout;
  // "I wait until dusk": the wait script's summary is told, and beat_003's world_state and npc_state then hold.
  assert.match(out, /It is dusk on Gullhaven\. The tide is ebbing, the fog haze; Brother Alder is preaching in the square\./);
  assert.match(out, /beat beat_003 "The Tide-Priest's Sermon" triggered in scene \d+/);
  assert.match(out, /You seal a measure of saltlight in a jar\./);
  assert.match(out, /It is dawn on Gullhaven\. The tide is lowest/);
  assert.match(out, /beat beat_006 "Into Saltmere" triggered in scene \d+/);
  assert.match(out, /Bring the story to its end: The lantern rekindled/);
  // What the skill wrote, as /state shows it.
  assert.match(out, /"saltlight": 1/);
  assert.match(out, /"tide": "lowest"/);
});

test('the story init makes for the complete campaign passes its playtests: the rekindled play-through reaches its ending', async () => {
  const run = await narratoria(['test', '--root', story, '--format', 'json']);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as { playtests: { file: string; status: string; turns: { status: string }[] }[] };
  const playthrough = report.playtests.find((playtest) => playtest.file.endsWith('the-lantern-rekindled.playtest.json'));
  assert.ok(playthrough, `the init's playtests: ${report.playtests.map((playtest) => playtest.file).join(', ')}`);
  assert.equal(playthrough.status, 'passed');
  assert.deepEqual(
    playthrough.turns.map((turn) => turn.status),
    Array.from({ length: 9 }, () => 'passed'),
  );
  assert.ok(report.playtests.every((playtest) => playtest.status === 'passed'));
});
