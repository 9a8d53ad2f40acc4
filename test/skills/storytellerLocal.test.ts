// The storyteller's "local" provider with a real (tiny, generated) model through the runtime's model worker.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createModelDirectory, REPOSITORY_ROOT, TSX_WORKER } from '../runtime/narrator/narratorFixtures.js';
import { contractValidator } from '../../src/runtime/contracts/schemas.js';

function narrate(env: Record<string, string>): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPOSITORY_ROOT, 'skills/storyteller/scripts/narrate.js')], { env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.on('error', reject);
    child.on('close', () =>
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      ),
    );
    child.stdin.end(
      JSON.stringify({ input: { action: 'I roll to pick the lock' }, dependencies: { roll: { ok: true, result: { total: 17, dc: 15, success: true } } } }),
    );
  });
}

test('provider local: the model retells the narration; without a model the templates are used with a warning', async () => {
  const models = createModelDirectory();
  try {
    const events = await narrate({
      NARRATORIA_SKILL_CONFIG: JSON.stringify({ provider: 'local' }),
      NARRATORIA_MODEL_PATH: models.model('tiny.gguf'),
      NARRATORIA_MODEL_CONTEXT: '4096',
      NARRATORIA_MODEL_WORKER: JSON.stringify([TSX_WORKER.command, ...TSX_WORKER.args]),
      // Margin: starting the worker, loading the tiny model and generating take a few seconds; the script's default
      // 20 s deadline could pass on a loaded 2-core machine and turn the expected "local" narration into a fallback.
      NARRATORIA_MODEL_TIMEOUT_MS: String(10 * 60_000),
    });
    for (const event of events) assert.ok(contractValidator('tool-event.schema.json')(event), JSON.stringify(event));
    const done = events.at(-1) as { type: string; ok: boolean; output: { provider: string; narration: string } };
    assert.equal(done.type, 'done');
    assert.equal(done.ok, true);
    assert.equal(done.output.provider, 'local', 'the tiny model wrote the narration');
    assert.ok(done.output.narration.length > 0 && done.output.narration.length <= 400);

    const without = await narrate({ NARRATORIA_SKILL_CONFIG: JSON.stringify({ provider: 'local' }), NARRATORIA_MODEL_PATH: '', NARRATORIA_MODEL_WORKER: '' });
    const warning = without.find((event) => event['type'] === 'log' && event['level'] === 'warn');
    assert.match(String(warning?.['message']), /needs a local model/);
    assert.equal((without.at(-1) as { output: { provider: string } }).output.provider, 'template');

    const broken = await narrate({
      NARRATORIA_SKILL_CONFIG: JSON.stringify({ provider: 'local' }),
      NARRATORIA_MODEL_PATH: models.directory + '/none.gguf',
      NARRATORIA_MODEL_WORKER: JSON.stringify([TSX_WORKER.command, ...TSX_WORKER.args]),
    });
    assert.equal((broken.at(-1) as { ok: boolean; output: { provider: string } }).output.provider, 'template', 'a failing model falls back to the templates');
  } finally {
    models.remove();
  }
});
