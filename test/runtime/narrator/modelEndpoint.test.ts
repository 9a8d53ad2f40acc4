// The local model as a service to skill scripts (real node-llama-cpp, tiny generated model): the storyteller's retelling streams from the narrator's loaded model through NARRATORIA_MODEL_ENDPOINT, a killed script stops its generation, bad requests get a reason.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { LlamaNarrator } from '../../../src/runtime/narrator/llamaNarrator.js';
import { parseRequest } from '../../../src/runtime/narrator/modelEndpoint.js';
import { contractValidator } from '../../../src/runtime/contracts/schemas.js';
import { createModelDirectory, loadShippedSkills, RecordingNarrator, REPOSITORY_ROOT, TSX_WORKER, type ModelDirectory } from './narratorFixtures.js';

/** Runs the storyteller with the given environment; resolves its NDJSON events. */
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
      JSON.stringify({
        input: { action: 'I roll to pick the lock' },
        dependencies: { roll: { ok: true, result: { formula: '1d20', rolls: [17], total: 17, dc: 15, success: true } } },
      }),
    );
  });
}

/** Sends one raw line to the endpoint; resolves every reply line. */
function ask(address: string, line: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(address, () => socket.write(`${line}\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        text
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((each) => JSON.parse(each) as Record<string, unknown>),
      ),
    );
  });
}

describe('the model endpoint (real node-llama-cpp, tiny model)', () => {
  let models: ModelDirectory;
  let narrator: LlamaNarrator;
  let address: string;

  before(async () => {
    models = createModelDirectory();
    narrator = new LlamaNarrator({
      root: REPOSITORY_ROOT,
      workerCommand: TSX_WORKER,
      threads: 1,
      contextSize: 4096,
      promptCache: false,
      modelPath: models.model('tiny.gguf'),
      fallback: new RecordingNarrator(),
    });
    address = await narrator.openEndpoint();
    assert.equal(await narrator.openEndpoint(), address, 'one endpoint per narrator');
  });
  after(async () => {
    await narrator.dispose();
    models.remove();
  });

  test('the storyteller streams its local retelling from the loaded model: narration_chunk events, then the whole narration', async () => {
    const events = await narrate({
      NARRATORIA_SKILL_CONFIG: JSON.stringify({ provider: 'local' }),
      NARRATORIA_MODEL_ENDPOINT: address,
      NARRATORIA_MODEL_PATH: '',
      NARRATORIA_MODEL_WORKER: '',
      // Margin for a loaded 2-core machine: the first request loads the tiny model.
      NARRATORIA_MODEL_TIMEOUT_MS: String(10 * 60_000),
    });
    for (const event of events) assert.ok(contractValidator('tool-event.schema.json')(event), JSON.stringify(event));
    const chunks = events
      .filter((event) => event['type'] === 'ui_event' && event['event'] === 'narration_chunk')
      .map((event) => (event['payload'] as { text: string }).text);
    const done = events.at(-1) as { type: string; ok: boolean; output: { provider: string; narration: string } };
    assert.equal(done.ok, true);
    assert.equal(done.output.provider, 'local', JSON.stringify(events.filter((event) => event['type'] === 'log')));
    assert.ok(chunks.length >= 2, `${chunks.length} chunks`);
    // The narration is the streamed text, tidied (first paragraph, spaces, at most 400 characters).
    const streamed = chunks
      .join('')
      .trim()
      .split(/\n\s*\n/)[0]!
      .replace(/\s+/g, ' ')
      .trim();
    assert.ok(done.output.narration.length > 0 && done.output.narration.length <= 400);
    assert.equal(done.output.narration.slice(0, 40).replace(/^["“]/, ''), streamed.replace(/^["“]/, '').slice(0, 40));
    // The narration event carries the whole text; the chunks stream before it.
    const narrationAt = events.findIndex((event) => event['event'] === 'narration');
    const lastChunkAt = events.findLastIndex((event) => event['event'] === 'narration_chunk');
    assert.ok(lastChunkAt < narrationAt);
  });

  test('a script that goes away mid-retelling stops its generation; the next retelling still works', async () => {
    const long = JSON.stringify({ type: 'retell', style: 'vivid', draft: 'You walk the long road north.', maxTokens: 400, seed: 3, temperature: 0.7 });
    await new Promise<void>((resolve, reject) => {
      const socket = net.createConnection(address, () => socket.write(`${long}\n`));
      socket.setEncoding('utf8').once('data', () => {
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    const replies = await ask(address, JSON.stringify({ type: 'retell', style: 'terse', draft: 'You open the door.', maxTokens: 8, seed: 1, temperature: 0 }));
    const done = replies.at(-1)!;
    assert.equal(done['type'], 'done', JSON.stringify(replies));
    assert.ok((done['tokens'] as number) >= 1 && (done['tokens'] as number) <= 8);
    assert.ok(typeof done['firstChunkMs'] === 'number');
  });

  test("preparing a session with the endpoint open evaluates the retelling's fixed prompt: a retelling then evaluates only its own words", async () => {
    const replyOf = async (prepared: boolean): Promise<Record<string, unknown>> => {
      const fresh = new LlamaNarrator({
        root: REPOSITORY_ROOT,
        workerCommand: TSX_WORKER,
        threads: 1,
        contextSize: 4096,
        promptCache: false,
        promptBudget: { behavioralPromptChars: 600 },
        modelPath: models.model('tiny.gguf'),
        fallback: new RecordingNarrator(),
      });
      try {
        const endpoint = await fresh.openEndpoint();
        assert.equal(await fresh.prepare(prepared ? loadShippedSkills() : undefined), undefined);
        return (await ask(endpoint, JSON.stringify({ type: 'retell', style: 'terse', draft: 'You open the door.', maxTokens: 4, seed: 1, temperature: 0 }))).at(
          -1,
        )!;
      } finally {
        await fresh.dispose();
      }
    };
    const cold = await replyOf(false);
    const warm = await replyOf(true);
    assert.equal(cold['type'], 'done', JSON.stringify(cold));
    assert.equal(warm['type'], 'done', JSON.stringify(warm));
    assert.ok(
      (warm['promptTokens'] as number) + 20 < (cold['promptTokens'] as number),
      `prompt tokens evaluated: ${String(warm['promptTokens'])} prepared, ${String(cold['promptTokens'])} not`,
    );
  });

  test('a request that is not a retelling gets an error line with the reason', async () => {
    assert.match(String((await ask(address, 'not json'))[0]?.['reason']), /not JSON/);
    assert.match(String((await ask(address, JSON.stringify({ type: 'generate' })))[0]?.['reason']), /unknown request type/);
    assert.match(
      String((await ask(address, JSON.stringify({ type: 'retell', style: 'vivid', draft: ' ' })))[0]?.['reason']),
      /draft must be a string that is not empty/,
    );
    const bounded = parseRequest(JSON.stringify({ type: 'retell', draft: ' You  open\n the door. ', maxTokens: 1e9, temperature: -3, seed: -7.5 }));
    assert.deepEqual(bounded, { type: 'retell', style: 'plain', draft: 'You open the door.', maxTokens: 400, seed: 7, temperature: 0 });
  });
});
