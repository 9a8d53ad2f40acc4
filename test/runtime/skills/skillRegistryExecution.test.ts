// Integration: a real plan run with the registry as the executor's SkillContextProvider, then its result fed back into skill health.
// Margin: every script here finishes in well under a second; the 60 s manifest timeout of echo.js, the default 30 s
// tool and 60 s plan timeouts are far beyond what a loaded 2-core machine needs, and no test asserts a duration.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { executePlan } from '../../../src/runtime/executor/planExecutor.js';
import { validateAgainst } from '../../../src/runtime/contracts/schemas.js';
import { SkillRegistry, type HealthChange } from '../../../src/runtime/skills/skillRegistry.js';
import { configSchema, createTempStory } from './skillFixture.js';

const SECRET = 'sk-integration-secret-7';

const ECHO_SCRIPT = `#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const data = process.env.NARRATORIA_SKILL_DATA;
  const counter = path.join(data, 'runs.txt');
  const runs = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
  fs.writeFileSync(counter, String(runs));
  const output = { config: process.env.NARRATORIA_SKILL_CONFIG, data, runs };
  process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true, output }) + '\\n');
});
`;

const FAILING_SCRIPT = `#!/usr/bin/env node
process.stdin.resume();
process.stdin.on('end', () => {
  process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: false, summary: 'the lantern is out of oil' }) + '\\n');
});
`;

let counter = 0;
const planId = () => `cccccccc-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

test('executePlan with skillContext: registry passes config and data dir to scripts; recordExecution updates health', async () => {
  const story = createTempStory();
  story.skill(
    'echo',
    { scripts: [{ name: 'echo', path: 'scripts/echo.js', timeout: 60_000 }] },
    {
      'scripts/echo.js': ECHO_SCRIPT,
      'config-schema.json': configSchema({
        greeting: { type: 'string', default: 'hello' },
        apiKey: { type: 'string', 'x-sensitive': true },
        region: { type: 'string', 'x-env-var': 'ECHO_REGION' },
      }),
      'config.json': { greeting: 'hi ${PLAYER}' },
    },
  );
  story.skill('lantern', {}, { 'scripts/glow.js': FAILING_SCRIPT });
  const registry = await SkillRegistry.load({
    root: story.root,
    environment: { PLAYER: 'Ada', ECHO_REGION: 'north' },
    secrets: async (skill, key) => (skill === 'echo' && key === 'apiKey' ? SECRET : undefined),
  });
  const changes: HealthChange[] = [];
  registry.onDidChangeHealth((change) => changes.push(change));
  try {
    assert.deepEqual(registry.problems, []);
    const plan = () => ({
      requestId: planId(),
      tools: [
        { toolId: 'echo1', toolPath: 'skills/echo/scripts/echo.js', input: {} },
        { toolId: 'glow1', toolPath: 'skills/lantern/scripts/glow.js', required: false, retryPolicy: { maxRetries: 0 } },
      ],
      disabledSkills: registry.disabledSkills(),
    });
    // Outside any play-through the story's default session keeps the data (never the skill's own folder).
    const dataDirectory = path.join(story.root, '.narratoria', 'sessions', 'default', 'data', 'echo');
    for (let run = 1; run <= 3; run++) {
      const result = await executePlan(plan(), { root: story.root, skillContext: registry });
      assert.deepEqual(validateAgainst('execution-result.schema.json', result), []);
      const echo = result.toolResults[0]!;
      assert.equal(echo.state, 'success', JSON.stringify(echo.error));
      assert.equal(echo.skill, 'echo');
      const output = echo.output?.result as { config: string; data: string; runs: number };
      assert.deepEqual(JSON.parse(output.config), { greeting: 'hi Ada', apiKey: SECRET, region: 'north' });
      assert.equal(output.data, dataDirectory);
      assert.equal(output.runs, run, 'data/ persists between runs');
      assert.equal(result.toolResults[1]!.state, 'failed');
      assert.deepEqual(result.disabledSkills, ['lantern']);
      // The script echoes its config on purpose; apart from what it printed, the secret appears nowhere in the result.
      const withoutEcho = { ...result, toolResults: result.toolResults.map(({ output: _output, events: _events, ...rest }) => rest) };
      assert.ok(!JSON.stringify(withoutEcho).includes(SECRET), 'the secret reaches the script through its environment only');
      registry.recordExecution(result);
    }
    assert.equal(registry.health('echo'), 'healthy');
    assert.equal(registry.health('lantern'), 'degraded', 'three failed runs degrade the skill');
    assert.deepEqual(
      changes.map((change) => [change.skill, change.current, change.toolId]),
      [['lantern', 'degraded', 'glow1']],
    );
    assert.equal(fs.readFileSync(path.join(dataDirectory, 'runs.txt'), 'utf8'), '3');
    assert.equal(fs.existsSync(path.join(story.root, 'skills', 'echo', 'data')), false, 'nothing written into the skill');
  } finally {
    registry.dispose();
    story.remove();
  }
});
