// `narratoria skills` prints the narrator's hints for thin manifests (text and JSON), and `play --explain` prints the near misses: the real bundle on a temporary story with an author's skills.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { narratoria } from './cliHarness.js';

let story: string;
const script =
  '#!/usr/bin/env node\nlet input = "";\nprocess.stdin.on("data", (chunk) => (input += chunk)).on("end", () => process.stdout.write(JSON.stringify({ version: "0", type: "done", ok: true, summary: "done" }) + "\\n"));\n';

function skill(name: string, manifest: Record<string, unknown>): void {
  mkdirSync(path.join(story, 'skills', name, 'scripts'), { recursive: true });
  writeFileSync(path.join(story, 'skills', name, 'skill.json'), `${JSON.stringify({ name, version: '1.0.0', ...manifest }, null, 2)}\n`);
  writeFileSync(path.join(story, 'skills', name, 'scripts', 'main.js'), script, { mode: 0o755 });
}

before(() => {
  story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-skill-hints-'));
  skill('tides', { description: 'Tide tables.', scripts: [{ name: 'main', path: 'scripts/main.js' }] });
  skill('weather', {
    description: 'Decides the weather of the region each day: rain, snow, fog or sun, and how cold or warm it is.',
    capabilities: ['weather', 'forecast'],
    scripts: [{ name: 'main', path: 'scripts/main.js', description: 'Reports the weather today.' }],
  });
});
after(() => rmSync(story, { recursive: true, force: true }));

test("skills: a thin manifest's hints with their skill.json positions and suggested keywords; none for a good one", async () => {
  const text = await narratoria(['skills', '--root', story, '--no-bundled-skills']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /ℹ SKILL_DESCRIPTION_SHORT: .* \(skill\.json:4:3\)/);
  assert.match(text.stdout, /ℹ SKILL_NO_CAPABILITIES: /);
  assert.match(text.stdout, /ℹ SKILL_SCRIPT_UNDESCRIBED: Script "main" has no description/);
  assert.match(text.stdout, /keywords a player might use: "keywords": \[.*"tidal".*\]/);
  const json = JSON.parse((await narratoria(['skills', '--root', story, '--no-bundled-skills', '--format', 'json'])).stdout) as {
    skills: { name: string; hints: { code: string; line: number }[]; suggestedKeywords: string[] }[];
  };
  const tides = json.skills.find((each) => each.name === 'tides')!;
  assert.deepEqual(
    tides.hints.map((hint) => hint.code),
    ['SKILL_DESCRIPTION_SHORT', 'SKILL_NO_CAPABILITIES', 'SKILL_SCRIPT_UNDESCRIBED'],
  );
  assert.ok(tides.suggestedKeywords.includes('tidal'));
  assert.deepEqual(json.skills.find((each) => each.name === 'weather')!.hints, []);
});

test('play --explain: why each tool was chosen, and which skills stayed out with their score and where their words matched', async () => {
  const run = await narratoria([
    'play',
    '--root',
    story,
    '--once',
    'Will there be fog at the docks tomorrow, and are the tide tables right?',
    '--narrator',
    'pattern',
    '--explain',
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /why [\w-]+ ← tides\/main: matched "tide", "tables" \(score [\d.]+\)/);
  assert.match(run.stdout, /why weather stayed out: [\d.]+ < [\d.]+, far behind the best match \(matched "fog" in the description only\)/);
  const quiet = await narratoria(['play', '--root', story, '--once', 'I squint at the haze.', '--narrator', 'pattern', '--explain']);
  assert.equal(quiet.code, 0, quiet.stderr);
  // One word of the description, and no keywords: enough.
  assert.match(quiet.stdout, /why [\w-]+ ← weather\/main: matched "haze" \(score [\d.]+\)/);
});
