// `narratoria graph`: the JSON contract, SVG as XML, DOT and Mermaid, recorded states from run records and ExecutionResults, and the exit codes.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, storyRoot } from './cliHarness.js';

const example = path.join(projectRoot, 'contracts', 'examples', 'parallel-checks.plan.json');
let scratch: string;
let root: string;

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-graph-'));
  // A story root of our own: runs are recorded under <root>/.narratoria/runs.
  root = path.join(scratch, 'story');
  for (const part of ['skills', 'lib']) cpSync(path.join(storyRoot, part), path.join(root, part), { recursive: true });
  // The fixture scripts are CommonJS (test/fixtures/package.json says so for the originals).
  writeFileSync(path.join(root, 'package.json'), '{ "type": "commonjs" }\n');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

interface GraphJson {
  nodes: {
    id: string;
    toolPath: string;
    skill: string | null;
    level: number;
    x: number;
    y: number;
    width: number;
    height: number;
    state?: string;
    durationMs?: number;
    retryCount?: number;
  }[];
  edges: { from: string; to: string; points: { x: number; y: number }[] }[];
  cycles: string[][];
  width: number;
  height: number;
}

test('graph: JSON by default, valid against contracts/plan-graph.schema.json, edges from dependency to dependent', async () => {
  const run = await narratoria(['graph', example]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const graph = JSON.parse(run.stdout) as GraphJson;
  assert.deepEqual(validateAgainst('plan-graph.schema.json', graph), []);
  assert.deepEqual(
    graph.nodes.map((node) => [node.id, node.skill, node.level]),
    [
      ['hero-balance', 'dice-roller', 0],
      ['companion-balance', 'dice-roller', 0],
      ['narrate', 'storyteller', 1],
    ],
  );
  assert.deepEqual(
    graph.edges.map((edge) => [edge.from, edge.to]),
    [
      ['hero-balance', 'narrate'],
      ['companion-balance', 'narrate'],
    ],
  );
  assert.deepEqual(graph.cycles, []);
  const same = await narratoria(['graph', example, '--format', 'json']);
  assert.equal(same.stdout, run.stdout, 'the same plan always gets the same layout');
});

test('graph --format svg: well-formed XML holding every toolId as text; --out writes the file', async () => {
  const out = path.join(scratch, 'out', 'graph.svg');
  const run = await narratoria(['graph', example, '--format', 'svg', '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, '');
  const svg = readFileSync(out, 'utf8');
  assert.equal(XMLValidator.validate(svg), true);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  for (const id of ['hero-balance', 'companion-balance', 'narrate']) assert.ok(svg.includes(`>${id}</text>`), id);
  assert.match(svg, /--graph-background/, 'themeable through --graph-* custom properties');
  // Characters XML must escape, in a toolId.
  const tricky = write('tricky.plan.json', { requestId: 'r', tools: [{ toolId: 'a<b>&"c"', toolPath: 'skills/x/y.js' }] });
  const escaped = await narratoria(['graph', tricky, '--format', 'svg']);
  assert.equal(escaped.code, 0, escaped.stderr);
  assert.equal(XMLValidator.validate(escaped.stdout), true);
  assert.ok(escaped.stdout.includes('>a&lt;b&gt;&amp;&quot;c&quot;</text>'));
});

test('graph --format dot and mermaid', async () => {
  const dot = await narratoria(['graph', example, '--format', 'dot']);
  assert.equal(dot.code, 0, dot.stderr);
  assert.match(dot.stdout, /^digraph "plan" \{/);
  assert.match(dot.stdout, /"hero-balance" -> "narrate";/);
  const mermaid = await narratoria(['graph', example, '--format', 'mermaid']);
  assert.equal(mermaid.code, 0, mermaid.stderr);
  assert.match(mermaid.stdout, /^flowchart TD\n/);
  assert.match(mermaid.stdout, /t0\["hero-balance<br\/>dice-roller · roll\.js"\]/);
  assert.match(mermaid.stdout, /t0 --> t2/);
});

test('graph: a plan with a cycle or an unknown dependency is drawn, listed and exits 1', async () => {
  const cycle = path.join(projectRoot, 'test', 'fixtures', 'plans', 'cycle.plan.json');
  const run = await narratoria(['graph', cycle]);
  assert.equal(run.code, 1);
  const graph = JSON.parse(run.stdout) as GraphJson;
  assert.deepEqual(validateAgainst('plan-graph.schema.json', graph), []);
  assert.equal(graph.cycles.length, 1);
  assert.deepEqual([...graph.cycles[0]!].sort(), ['x', 'y', 'z']);
  assert.match(run.stderr, /dependency cycle: x → z → y → x/);
  const unknown = write('unknown.plan.json', { requestId: 'r', tools: [{ toolId: 'a', toolPath: 'skills/x/a.js', dependencies: ['ghost'] }] });
  const dangling = await narratoria(['graph', unknown, '--format', 'svg']);
  assert.equal(dangling.code, 1);
  assert.match(dangling.stderr, /"a" depends on "ghost", which no tool has/);
  assert.ok(dangling.stdout.includes('? ghost'));
});

test('graph: usage errors, unreadable files and non-JSON exit 2', async () => {
  assert.equal((await narratoria(['graph'])).code, 2);
  assert.equal((await narratoria(['graph', example, '--format', 'png'])).code, 2);
  assert.equal((await narratoria(['graph', example, '--colour'])).code, 2);
  assert.equal((await narratoria(['graph', path.join(scratch, 'missing.json')])).code, 2);
  const broken = await narratoria(['graph', write('broken.json', '{ "tools": [')]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /is not valid JSON/);
});

test('graph of a run record and of an ExecutionResult: recorded state, duration and retry count per node', async () => {
  const counter = path.join(scratch, 'flaky-counter');
  const plan = write('recorded.plan.json', {
    requestId: '5e0c1d6a-7c1b-4c55-9d0a-0b6c1c1d2e3f',
    tools: [
      { toolId: 'first', toolPath: 'skills/helpers/scripts/echo.js', input: { message: 'hi' } },
      {
        toolId: 'flaky',
        toolPath: 'skills/helpers/scripts/flaky.js',
        input: { counterFile: counter, failTimes: 1 },
        retryPolicy: { maxRetries: 2, backoffMs: 10 },
        dependencies: ['first'],
      },
      { toolId: 'bad', toolPath: 'skills/faults/scripts/done-not-ok.js', required: false, retryPolicy: { maxRetries: 0 }, dependencies: ['first'] },
    ],
  });
  const executed = await narratoria(['run', plan, '--root', root, '--format', 'json']);
  assert.equal(executed.code, 0, executed.stderr);
  const resultFile = write('result.json', executed.stdout);
  const [recordName] = readdirSync(path.join(root, '.narratoria', 'runs')).filter((name) => name.endsWith('.json'));
  assert.ok(recordName, 'the run was recorded');
  for (const [file, extra] of [
    [path.join(root, '.narratoria', 'runs', recordName), []],
    [resultFile, ['--root', root]],
  ] as const) {
    const run = await narratoria(['graph', file, ...extra]);
    assert.equal(run.code, 0, run.stderr);
    const graph = JSON.parse(run.stdout) as GraphJson;
    assert.deepEqual(validateAgainst('plan-graph.schema.json', graph), []);
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    assert.equal(byId.get('first')!.state, 'success');
    assert.equal(byId.get('flaky')!.state, 'success');
    assert.equal(byId.get('flaky')!.retryCount, 1);
    assert.equal(byId.get('bad')!.state, 'failed');
    for (const node of graph.nodes) assert.equal(typeof node.durationMs, 'number', node.id);
    // The dependencies come from the recorded plan (for the ExecutionResult: from the run record of its planId).
    assert.deepEqual(graph.edges.map((edge) => `${edge.from}>${edge.to}`).sort(), ['first>bad', 'first>flaky']);
  }
  // Without the run record, an ExecutionResult still draws its tools, with a warning and exit 0.
  const alone = await narratoria(['graph', resultFile, '--root', scratch]);
  assert.equal(alone.code, 0, alone.stderr);
  assert.match(alone.stderr, /warning: the ExecutionResult holds no plan/);
  assert.equal((JSON.parse(alone.stdout) as GraphJson).nodes.length, 3);
});
