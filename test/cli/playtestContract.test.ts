// Blind acceptance tests for `narratoria test` and the *.playtest.json contract (contracts/playtest.schema.json,
// contracts/playtest-report.schema.json), run against the built bundle as a real process. Every test plays in its
// own temporary story root with the bundled sample skills and the pattern narrator.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria, projectRoot, type CliRun } from './cliHarness.js';

// ---------------------------------------------------------------------------------------------------------------
// Report shapes (as the contract describes them; the schema check is the authority).

interface Failure {
  expectation: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  line: number;
  column: number;
}
interface TurnReport {
  index: number;
  input: unknown;
  status: string;
  attempts: unknown;
  skills: string[];
  failures: Failure[];
  runId?: string;
}
interface PlaytestReport {
  file: string;
  name: string;
  status: 'passed' | 'failed' | 'error';
  durationMs: number;
  turns: TurnReport[];
}
interface SkillSelection {
  expected: number;
  chosen: number;
  right: number;
}
interface Report {
  playtests: PlaytestReport[];
  summary: {
    passed: number;
    failed: number;
    errors: number;
    durationMs: number;
    selection: { turns: number; right: number; bySkill: Record<string, SkillSelection> };
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** Runs `body` in a fresh temporary story root that is always removed afterwards. */
async function inStory(body: (root: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-playtest-'));
  try {
    await body(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Writes `text` to `<root>/<relative>` (creating folders) and returns the absolute path. */
function write(root: string, relative: string, text: string): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** Writes a playtest as pretty JSON (2-space indent) and returns the absolute path. */
function writePlaytest(root: string, relative: string, playtest: unknown): string {
  return write(root, relative, JSON.stringify(playtest, null, 2) + '\n');
}

/** 1-based line of the first line of `text` containing `needle` (asserts there is exactly one). */
function lineOf(text: string, needle: string): number {
  const lines = text.split('\n');
  const hits = lines.flatMap((line, index) => (line.includes(needle) ? [index + 1] : []));
  assert.equal(hits.length, 1, `fixture: exactly one line contains ${needle}`);
  return hits[0]!;
}

/** `narratoria test ...args --root root --narrator pattern`, run from the story root. */
function playtest(root: string, args: readonly string[]): Promise<CliRun> {
  return narratoria(['test', ...args, '--root', root, '--narrator', 'pattern'], root);
}

function show(run: CliRun): string {
  return `exit ${run.code}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
}

function parseReport(run: CliRun): Report {
  let report: Report;
  try {
    report = JSON.parse(run.stdout) as Report;
  } catch (error) {
    assert.fail(`--format json printed something that is not JSON (${String(error)})\n${show(run)}`);
  }
  return report;
}

// Typed through validateAgainst's own parameter so the file compiles before and after the new schemas are registered.
type SchemaName = Parameters<typeof validateAgainst>[0];
const reportSchema = 'playtest-report.schema.json' as string as SchemaName;
const playtestSchema = 'playtest.schema.json' as string as SchemaName;

function assertValidReport(report: Report): void {
  assert.ok(existsSync(path.join(projectRoot, 'contracts', reportSchema)), `contracts/${reportSchema} exists`);
  assert.deepEqual(validateAgainst(reportSchema, report), [], 'the report matches contracts/playtest-report.schema.json');
}

function assertValidPlaytest(playtestValue: unknown): void {
  assert.ok(existsSync(path.join(projectRoot, 'contracts', playtestSchema)), `contracts/${playtestSchema} exists`);
  assert.deepEqual(validateAgainst(playtestSchema, playtestValue), [], 'the fixture matches contracts/playtest.schema.json');
}

/** The playtest of the report whose file ends with `fileName`. */
function byFile(report: Report, fileName: string): PlaytestReport {
  const found = report.playtests.filter((entry) => entry.file.replace(/\\/g, '/').endsWith(fileName));
  assert.equal(found.length, 1, `one playtest reported for ${fileName}: ${report.playtests.map((entry) => entry.file).join(', ')}`);
  return found[0]!;
}

function runsDir(root: string): string {
  return path.join(root, '.narratoria', 'runs');
}

/** Nothing ran: no plan run was recorded. */
function assertNothingRan(root: string): void {
  const dir = runsDir(root);
  assert.ok(!existsSync(dir) || readdirSync(dir).length === 0, `no run recorded in ${dir}`);
}

/** `file:line:column: error CODE: message` on stdout or stderr, for a file named *.playtest.json. */
const fileError = /playtest\.json:(\d+):(\d+): error [A-Za-z0-9_.-]+: \S/;

function assertFileError(run: CliRun, fileName?: string): { line: number; column: number } {
  assert.equal(run.code, 2, show(run));
  const output = run.stdout + '\n' + run.stderr;
  const pattern = fileName ? new RegExp(fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + /:(\d+):(\d+): error [A-Za-z0-9_.-]+: \S/.source) : fileError;
  const match = pattern.exec(output);
  assert.ok(match, `a "file:line:column: error CODE: message" line${fileName ? ` for ${fileName}` : ''}\n${show(run)}`);
  return { line: Number(match[1]), column: Number(match[2]) };
}

/** The last non-empty line of the text report: `N passed, N failed`. */
function countsLine(run: CliRun): { passed: number; failed: number } {
  const lines = run.stdout.split(/\r?\n/).filter((line) => line.trim() !== '');
  const last = lines.at(-1) ?? '';
  const match = /(\d+) passed, (\d+) failed/.exec(last);
  assert.ok(match, `the text report ends with "N passed, N failed"\n${show(run)}`);
  return { passed: Number(match[1]), failed: Number(match[2]) };
}

const rollInput = 'I roll to pick the lock';

/** A one-turn playtest that passes: the roll, its event and its state. */
function passingRoll(name: string, seed = 7): Record<string, unknown> {
  return {
    name,
    narrator: 'pattern',
    seed,
    turns: [
      {
        input: rollInput,
        expect: {
          skills: ['dice-roller'],
          events: [{ type: 'ui_event', event: 'dice_roll' }],
          state: ['dice.lastRoll.total >= 1'],
        },
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A tiny XML well-formedness checker and tree builder (no dependencies).

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const badAmpersand = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/;

function decodeXml(raw: string, where: string): string {
  assert.ok(!raw.includes('<'), `no raw "<" in ${where}: ${raw}`);
  assert.ok(!badAmpersand.test(raw), `every "&" in ${where} starts an entity: ${raw}`);
  return raw.replace(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (_whole, entity: string) => {
    switch (entity) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    }
  });
}

function parseXml(xml: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const name = '[A-Za-z_][A-Za-z0-9_.:-]*';
  const startTag = new RegExp(`<(${name})((?:\\s+${name}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`, 'y');
  const endTag = new RegExp(`</(${name})\\s*>`, 'y');
  const attribute = new RegExp(`(${name})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  while (i < xml.length) {
    if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      assert.ok(end >= 0, 'processing instruction closed');
      i = end + 2;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i);
      assert.ok(end >= 0, 'comment closed');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      assert.ok(end >= 0, 'CDATA closed');
      const top = stack.at(-1);
      assert.ok(top, 'CDATA inside an element');
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<!DOCTYPE', i)) {
      const end = xml.indexOf('>', i);
      assert.ok(end >= 0, 'DOCTYPE closed');
      i = end + 1;
    } else if (xml.startsWith('</', i)) {
      endTag.lastIndex = i;
      const match = endTag.exec(xml);
      assert.ok(match, `a well-formed end tag at offset ${i}: ${xml.slice(i, i + 40)}`);
      const open = stack.pop();
      assert.ok(open, `</${match[1]}> closes an open element`);
      assert.equal(match[1], open.name, `</${match[1]}> closes <${open.name}>`);
      i = endTag.lastIndex;
    } else if (xml[i] === '<') {
      startTag.lastIndex = i;
      const match = startTag.exec(xml);
      assert.ok(match, `a well-formed start tag at offset ${i}: ${xml.slice(i, i + 60)}`);
      const element: XmlElement = { name: match[1]!, attributes: {}, children: [], text: '' };
      for (const attr of (match[2] ?? '').matchAll(attribute)) {
        const key = attr[1]!;
        assert.ok(!(key in element.attributes), `attribute ${key} of <${element.name}> appears once`);
        element.attributes[key] = decodeXml(attr[2] ?? attr[3] ?? '', `attribute ${key} of <${element.name}>`);
      }
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else {
        assert.equal(root, undefined, 'exactly one root element');
        root = element;
      }
      if (match[3] !== '/') stack.push(element);
      i = startTag.lastIndex;
    } else {
      const next = xml.indexOf('<', i);
      const end = next < 0 ? xml.length : next;
      const raw = xml.slice(i, end);
      const top = stack.at(-1);
      if (top) top.text += decodeXml(raw, `the text of <${top.name}>`);
      else assert.equal(raw.trim(), '', `only whitespace outside the root element: ${raw.slice(0, 40)}`);
      i = end;
    }
  }
  assert.equal(stack.length, 0, `every element is closed (open: ${stack.map((element) => element.name).join(', ')})`);
  assert.ok(root, 'a root element');
  return root;
}

function descendants(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (child.name === name) found.push(child);
      visit(child);
    }
  };
  if (element.name === name) found.push(element);
  visit(element);
  return found;
}

function allText(element: XmlElement): string {
  return [Object.values(element.attributes).join('\n'), element.text, ...element.children.map(allText)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// 1. A passing playtest

test('a passing playtest exits 0; the text report shows ✔ and ends with "1 passed, 0 failed"', async () => {
  await inStory(async (root) => {
    const value = {
      name: 'The lock scene',
      narrator: 'pattern',
      seed: 7,
      state: { flags: { alarm: true } },
      turns: [
        {
          input: rollInput,
          expect: {
            skills: ['dice-roller'],
            skillsMatch: 'superset',
            notSkills: ['memory'],
            outcome: 'success',
            state: ['dice.lastRoll.total >= 1', 'flags.alarm == true'],
            narration: { notContains: ['The story listens'] },
            events: [{ type: 'ui_event', event: 'dice_roll' }],
            maxAttempts: 1,
          },
        },
      ],
    };
    assertValidPlaytest(value);
    const file = writePlaytest(root, 'lock.playtest.json', value);
    const run = await playtest(root, [file, '--format', 'text']);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /✔/);
    assert.doesNotMatch(run.stdout, /✖/);
    assert.deepEqual(countsLine(run), { passed: 1, failed: 0 });
    // Every turn's plan runs are recorded in the story root.
    assert.ok(existsSync(runsDir(root)) && readdirSync(runsDir(root)).length > 0, 'runs recorded under .narratoria/runs');
  });
});

test('the default format is text, and a playtest with only the required fields passes', async () => {
  await inStory(async (root) => {
    // No name, narrator, seed or state: the defaults apply; an empty expect checks nothing.
    const file = write(root, 'minimal.playtest.json', '{ "turns": [ { "input": "I look around" }, { "input": "I look around", "expect": {} } ] }\n');
    const run = await playtest(root, [file]);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /✔/);
    assert.deepEqual(countsLine(run), { passed: 1, failed: 0 });
  });
});

// 2. A failing playtest

test('failing expectations exit 1; the text report shows ✖ and each failed expectation at its file:line:column', async () => {
  await inStory(async (root) => {
    writePlaytest(root, 'pass.playtest.json', passingRoll('Passes'));
    // Written by hand so the line of each expectation is known; each failing expectation sits on its own line.
    const text = [
      '{',
      '  "name": "Fails",',
      '  "seed": 7,',
      '  "turns": [',
      '    {',
      '      "input": "I roll to pick the lock",',
      '      "expect": {',
      '        "skills": ["dice-roller"],',
      '        "notSkills": ["dice-roller"],',
      '        "outcome": "fallback",',
      '        "state": ["dice.lastRoll.total > 1000"],',
      '        "events": [{ "type": "ui_event", "event": "fireworks_show" }],',
      '        "narration": { "contains": ["xylophone-quokka"] }',
      '      }',
      '    }',
      '  ]',
      '}',
      '',
    ].join('\n');
    assertValidPlaytest(JSON.parse(text));
    write(root, 'fail.playtest.json', text);
    const run = await playtest(root, [path.join(root, 'pass.playtest.json'), path.join(root, 'fail.playtest.json'), '--format', 'text']);
    assert.equal(run.code, 1, show(run));
    assert.match(run.stdout, /✔/, 'the passing turn is ticked');
    assert.match(run.stdout, /✖/, 'the failing turn is crossed');
    assert.deepEqual(countsLine(run), { passed: 1, failed: 1 });
    const locations = [...run.stdout.matchAll(/fail\.playtest\.json:(\d+):(\d+)/g)].map((match) => Number(match[1]));
    for (const key of ['"notSkills"', '"outcome"', '"state"', '"events"', '"narration"']) {
      assert.ok(locations.includes(lineOf(text, key)), `the failure of ${key} points at line ${lineOf(text, key)}\n${show(run)}`);
    }
    assert.ok(!locations.includes(lineOf(text, '"skills"')), 'the expectation that held is not reported as failed');
    assert.ok(!/pass\.playtest\.json:\d+:\d+/.test(run.stdout), 'nothing reported against the passing file');
    // What was expected and what happened: the word the narration lacked, the outcome that happened instead.
    assert.match(run.stdout, /xylophone-quokka/);
    assert.match(run.stdout, /fireworks_show/);
    assert.match(run.stdout, /success/);
  });
});

test("skillsMatch: strict, unordered, superset and subset compare the first attempt's skills", async () => {
  await inStory(async (root) => {
    // "I roll to pick the lock" runs dice-roller then storyteller with the pattern narrator.
    const cases: [string, string[], string, 'passed' | 'failed'][] = [
      ['strict-ok', ['dice-roller', 'storyteller'], 'strict', 'passed'],
      ['strict-order', ['storyteller', 'dice-roller'], 'strict', 'failed'],
      ['strict-missing', ['dice-roller'], 'strict', 'failed'],
      ['unordered-ok', ['storyteller', 'dice-roller'], 'unordered', 'passed'],
      ['unordered-extra', ['storyteller', 'dice-roller', 'memory'], 'unordered', 'failed'],
      ['superset-ok', ['dice-roller'], 'superset', 'passed'],
      ['superset-missing', ['dice-roller', 'memory'], 'superset', 'failed'],
      ['subset-ok', ['dice-roller', 'memory'], 'subset', 'passed'],
      ['subset-storyteller-aside', ['dice-roller'], 'subset', 'passed'],
      ['subset-beyond', ['memory'], 'subset', 'failed'],
    ];
    for (const [name, skills, skillsMatch] of cases) {
      writePlaytest(root, `${name}.playtest.json`, { name, seed: 3, turns: [{ input: rollInput, expect: { skills, skillsMatch } }] });
    }
    const run = await playtest(root, ['--format', 'json', '--jobs', '2']);
    assert.equal(run.code, 1, show(run));
    const report = parseReport(run);
    assertValidReport(report);
    assert.equal(report.playtests.length, cases.length);
    for (const [name, , skillsMatch, status] of cases) {
      const entry = byFile(report, `${name}.playtest.json`);
      assert.equal(entry.status, status, `${name} (${skillsMatch}): ${JSON.stringify(entry.turns)}`);
      assert.deepEqual(entry.turns[0]!.skills, ['dice-roller', 'storyteller'], `${name}: the first attempt's skills in order of first use`);
      if (status === 'failed')
        assert.ok(
          entry.turns[0]!.failures.some((failure) => failure.expectation.includes('skills')),
          `${name}: a skills failure`,
        );
    }
  });
});

// 3. Exit 2: invalid files and usage errors; then nothing runs.

test('invalid JSON exits 2 with file:line:column: error CODE: message, and nothing runs', async () => {
  await inStory(async (root) => {
    writePlaytest(root, 'good.playtest.json', passingRoll('Good'));
    const text = ['{', '  "turns": [', '    { "input": "I look around" }', '  ]', '  "seed": 3', '}', ''].join('\n');
    write(root, 'broken.playtest.json', text);
    const run = await playtest(root, ['--format', 'text']);
    const { line } = assertFileError(run, 'broken.playtest.json');
    assert.ok(line === 4 || line === 5, `the parse error is located near the missing comma (line ${line})`);
    assertNothingRan(root);
  });
});

test('schema violations exit 2 at the offending line, and nothing runs', async () => {
  const cases: { name: string; text: string; needle: string | undefined }[] = [
    {
      name: 'turns-not-array',
      text: ['{', '  "seed": 1,', '  "turns": { "input": "I look around" }', '}', ''].join('\n'),
      needle: '"turns"',
    },
    {
      name: 'skills-match',
      text: [
        '{',
        '  "turns": [',
        '    {',
        '      "input": "I roll to pick the lock",',
        '      "expect": {',
        '        "skills": ["dice-roller"],',
        '        "skillsMatch": "sometimes"',
        '      }',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
      needle: '"skillsMatch"',
    },
    {
      name: 'bad-outcome',
      text: ['{', '  "turns": [', '    {', '      "input": "I look around",', '      "expect": { "outcome": "maybe" }', '    }', '  ]', '}', ''].join('\n'),
      needle: '"outcome"',
    },
    {
      name: 'no-input',
      text: ['{', '  "turns": [', '    { "expect": { "outcome": "success" } }', '  ]', '}', ''].join('\n'),
      needle: undefined,
    },
    {
      name: 'bad-narrator',
      text: ['{', '  "narrator": "oracle",', '  "turns": [ { "input": "I look around" } ]', '}', ''].join('\n'),
      needle: '"narrator"',
    },
  ];
  for (const { name, text, needle } of cases) {
    await inStory(async (root) => {
      assert.ok(existsSync(path.join(projectRoot, 'contracts', playtestSchema)), `contracts/${playtestSchema} exists`);
      assert.notDeepEqual(validateAgainst(playtestSchema, JSON.parse(text)), [], `${name}: the schema rejects the fixture`);
      writePlaytest(root, 'good.playtest.json', passingRoll('Good'));
      write(root, `${name}.playtest.json`, text);
      const run = await playtest(root, ['--format', 'text']);
      const { line, column } = assertFileError(run, `${name}.playtest.json`);
      if (needle !== undefined) assert.equal(line, lineOf(text, needle), `${name}: the error is at the line of ${needle}\n${show(run)}`);
      assert.ok(column >= 1, `${name}: columns are 1-based`);
      assertNothingRan(root);
    });
  }
});

test('an expectation naming a skill the story does not have is an error in the file (exit 2), not a failure', async () => {
  for (const key of ['skills', 'notSkills']) {
    await inStory(async (root) => {
      writePlaytest(root, 'good.playtest.json', passingRoll('Good'));
      const text = [
        '{',
        '  "turns": [',
        '    {',
        '      "input": "I roll to pick the lock",',
        `      "expect": { "${key}": ["lockpicking-wizard"] }`,
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n');
      assertValidPlaytest(JSON.parse(text));
      write(root, 'unknown.playtest.json', text);
      const run = await playtest(root, ['--format', 'json']);
      const { line } = assertFileError(run, 'unknown.playtest.json');
      assert.equal(line, lineOf(text, `"${key}"`), `${key}: the error is at the expectation's line`);
      assert.match(run.stdout + run.stderr, /lockpicking-wizard/);
      assertNothingRan(root);
    });
  }
});

test('usage errors exit 2 and nothing runs', async () => {
  // The same file runs without the bad argument (so the exit 2 below is about the argument).
  await inStory(async (root) => {
    const file = writePlaytest(root, 'good.playtest.json', passingRoll('Good'));
    const run = await narratoria(['test', file, '--root', root], root);
    assert.equal(run.code, 0, show(run));
  });
  await inStory(async (root) => {
    const file = writePlaytest(root, 'good.playtest.json', passingRoll('Good'));
    const usages: string[][] = [
      [file, '--no-such-option'],
      [file, '--format', 'yaml'],
      [file, '--narrator', 'oracle'],
      [path.join(root, 'missing.playtest.json')],
    ];
    for (const args of usages) {
      const run = await narratoria(['test', ...args, '--root', root], root);
      assert.equal(run.code, 2, `${args.join(' ')}\n${show(run)}`);
      assertNothingRan(root);
    }
  });
});

// 4. The JSON report

test('--format json: the report matches its schema; summary, selection and runIds are right', async () => {
  await inStory(async (root) => {
    // a: both turns pass; only turn 1 has expect.skills (turn 2 rolls dice-roller too, but is not counted).
    const a = {
      seed: 5,
      turns: [
        { input: rollInput, expect: { skills: ['dice-roller'], events: [{ type: 'ui_event', event: 'dice_roll' }] } },
        { input: 'I roll to climb the wall', expect: { state: ['dice.lastRoll.total >= 1'] } },
      ],
    };
    // b: its one turn fails on expect.skills (nothing is rolled when looking around).
    const bText = [
      '{',
      '  "name": "Looking",',
      '  "turns": [',
      '    {',
      '      "input": "I look around",',
      '      "expect": {',
      '        "skills": ["dice-roller"]',
      '      }',
      '    }',
      '  ]',
      '}',
      '',
    ].join('\n');
    assertValidPlaytest(a);
    assertValidPlaytest(JSON.parse(bText));
    writePlaytest(root, 'a-lock.playtest.json', a);
    write(root, 'b-look.playtest.json', bText);
    const run = await playtest(root, ['--format', 'json']);
    assert.equal(run.code, 1, show(run));
    const report = parseReport(run);
    assertValidReport(report);

    assert.equal(report.playtests.length, 2);
    const pa = byFile(report, 'a-lock.playtest.json');
    const pb = byFile(report, 'b-look.playtest.json');
    assert.equal(pa.status, 'passed');
    assert.ok(pa.name.includes('a-lock'), `the name defaults to the file name: ${pa.name}`);
    assert.equal(pb.status, 'failed');
    assert.equal(pb.name, 'Looking');
    assert.equal(pa.turns.length, 2);
    assert.equal(pb.turns.length, 1);
    assert.deepEqual(
      pa.turns.map((turn) => turn.status),
      ['passed', 'passed'],
    );
    assert.equal(pa.turns[0]!.input, rollInput);
    assert.ok(pa.turns[0]!.index < pa.turns[1]!.index, 'turn indexes follow the file');
    assert.equal(pa.turns[0]!.skills[0], 'dice-roller');
    assert.deepEqual(pa.turns[0]!.failures, []);

    const failed = pb.turns[0]!;
    assert.equal(failed.status, 'failed');
    assert.ok(!failed.skills.includes('dice-roller'));
    assert.equal(failed.failures.length, 1, JSON.stringify(failed.failures));
    const failure = failed.failures[0]!;
    assert.match(failure.expectation, /skills/);
    assert.ok(failure.message.length > 0);
    assert.equal(failure.line, lineOf(bText, '"skills"'), 'the failure is located at the expectation');
    assert.ok(failure.column >= 1 && failure.column <= bText.split('\n')[failure.line - 1]!.length + 1, 'the column is on that line');
    assert.ok(JSON.stringify(failure.expected).includes('dice-roller'), `expected: ${JSON.stringify(failure.expected)}`);
    assert.ok(JSON.stringify(failure.actual).includes('storyteller'), `actual: ${JSON.stringify(failure.actual)}`);

    assert.equal(report.summary.passed, 1, 'summary counts playtests');
    assert.equal(report.summary.failed, 1);
    assert.equal(report.summary.errors, 0);
    // selection counts only the two turns with expect.skills: a#1 (right) and b#1 (wrong).
    assert.equal(report.summary.selection.turns, 2);
    assert.equal(report.summary.selection.right, 1);
    assert.deepEqual(report.summary.selection.bySkill['dice-roller'], { expected: 2, chosen: 1, right: 1 });

    // Every turn links its last attempt's recorded run.
    const turns = [...pa.turns, ...pb.turns];
    for (const turn of turns) assert.ok(typeof turn.runId === 'string' && turn.runId.length > 0, `turn ${turn.index} has a runId`);
    assert.equal(new Set(turns.map((turn) => turn.runId)).size, turns.length, 'runIds are distinct');
    for (const turn of turns) {
      const shown = await narratoria(['runs', 'show', turn.runId!, '--root', root], root);
      assert.equal(shown.code, 0, `runs show ${turn.runId}\n${show(shown)}`);
    }
  });
});

// 5. JUnit

test('--format junit: well-formed XML, one testsuite per file, one testcase per turn, a failure with expected and actual', async () => {
  await inStory(async (root) => {
    const special = '<never> & "never"';
    writePlaytest(root, 'one.playtest.json', { ...passingRoll('Lock & key <"scene">') });
    writePlaytest(root, 'two.playtest.json', {
      name: 'Two turns',
      seed: 2,
      turns: [
        { input: 'I look around', expect: { notSkills: ['dice-roller'] } },
        { input: rollInput, expect: { narration: { contains: [special] } } },
      ],
    });
    const run = await playtest(root, ['--format', 'junit']);
    assert.equal(run.code, 1, show(run));
    const xml = parseXml(run.stdout.trim());
    const suites = descendants(xml, 'testsuite');
    assert.equal(suites.length, 2, 'one testsuite per file');
    const cases = descendants(xml, 'testcase');
    assert.equal(cases.length, 3, 'one testcase per turn');
    for (const suite of suites) assert.ok(descendants(suite, 'testcase').length >= 1);
    const failing = cases.filter((testcase) => descendants(testcase, 'failure').length > 0);
    assert.equal(failing.length, 1, 'only the failing turn carries a failure');
    const failureText = descendants(failing[0]!, 'failure').map(allText).join('\n');
    assert.ok(failureText.includes(special), `the failure carries the expected value, escaped in the XML: ${failureText}`);
    assert.ok(failureText.trim().length > special.length, 'the failure carries a message and what happened');
  });
});

// 6. --out

test('--out FILE writes the report to the file', async () => {
  await inStory(async (root) => {
    const file = writePlaytest(root, 'lock.playtest.json', passingRoll('Out'));
    const out = path.join(root, 'reports', 'report.json');
    mkdirSync(path.dirname(out), { recursive: true });
    const run = await playtest(root, [file, '--format', 'json', '--out', out]);
    assert.equal(run.code, 0, show(run));
    assert.ok(existsSync(out), 'the report file is written');
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    assertValidReport(report);
    assert.equal(report.playtests.length, 1);
    assert.equal(report.summary.passed, 1);

    const xmlOut = path.join(root, 'reports', 'junit.xml');
    const junit = await playtest(root, [file, '--format', 'junit', '--out', xmlOut]);
    assert.equal(junit.code, 0, show(junit));
    assert.equal(descendants(parseXml(readFileSync(xmlOut, 'utf8').trim()), 'testcase').length, 1);
  });
});

// 7. Discovery

test('with no FILE, every **/*.playtest.json under the root runs, skipping node_modules and .narratoria', async () => {
  await inStory(async (root) => {
    writePlaytest(root, 'top.playtest.json', passingRoll('Top'));
    writePlaytest(root, path.join('chapters', 'one', 'deep', 'nested.playtest.json'), passingRoll('Nested'));
    // Not playtests, or in skipped folders: they would break the run (invalid) if they were picked up.
    write(root, 'notes.json', '{ not json');
    write(root, 'chapters/draft.playtest.json.bak', '{ not json');
    write(root, 'node_modules/some-package/broken.playtest.json', '{ not json');
    write(root, 'chapters/node_modules/other/broken.playtest.json', '{ not json');
    write(root, '.narratoria/copies/broken.playtest.json', '{ not json');
    const run = await playtest(root, ['--format', 'json']);
    assert.equal(run.code, 0, show(run));
    const report = parseReport(run);
    assertValidReport(report);
    assert.deepEqual(report.playtests.map((entry) => path.basename(entry.file)).sort(), ['nested.playtest.json', 'top.playtest.json']);
    byFile(report, 'chapters/one/deep/nested.playtest.json');
    assert.equal(report.summary.passed, 2);
  });
});

test('a DIR argument runs the playtests under that folder only', async () => {
  await inStory(async (root) => {
    writePlaytest(root, 'elsewhere.playtest.json', passingRoll('Elsewhere'));
    writePlaytest(root, path.join('suite', 'a.playtest.json'), passingRoll('A'));
    writePlaytest(root, path.join('suite', 'inner', 'b.playtest.json'), passingRoll('B'));
    const run = await playtest(root, [path.join(root, 'suite'), '--format', 'json']);
    assert.equal(run.code, 0, show(run));
    const report = parseReport(run);
    assert.deepEqual(report.playtests.map((entry) => path.basename(entry.file)).sort(), ['a.playtest.json', 'b.playtest.json']);
  });
});

// 8. --filter

test('--filter TEXT runs only the playtests whose name or file contains TEXT', async () => {
  await inStory(async (root) => {
    writePlaytest(root, 'lock.playtest.json', passingRoll('Lock scene'));
    writePlaytest(root, 'tavern.playtest.json', { name: 'Tavern talk', turns: [{ input: 'I look around', expect: { notSkills: ['dice-roller'] } }] });
    writePlaytest(root, 'cellar.playtest.json', { name: 'Dark room', turns: [{ input: 'I look around' }] });

    const byName = await playtest(root, ['--filter', 'Tavern', '--format', 'json']);
    assert.equal(byName.code, 0, show(byName));
    const named = parseReport(byName);
    assert.deepEqual(
      named.playtests.map((entry) => entry.name),
      ['Tavern talk'],
    );
    assert.equal(named.summary.passed, 1);

    const byFileName = await playtest(root, ['--filter', 'cellar', '--format', 'json']);
    assert.equal(byFileName.code, 0, show(byFileName));
    const filed = parseReport(byFileName);
    assert.equal(filed.playtests.length, 1);
    byFile(filed, 'cellar.playtest.json');
  });
});

// 9. choice: N

test('a "choice" turn plays the Nth choice the previous turn offered', async () => {
  await inStory(async (root) => {
    const value = {
      name: 'Choices',
      seed: 4,
      turns: [
        { input: 'What are my options?', expect: { skills: ['player-choices'], events: [{ type: 'ui_event', event: 'narrative_choice' }] } },
        { choice: 1, expect: { notSkills: ['player-choices'], outcome: 'success' } },
      ],
    };
    assertValidPlaytest(value);
    const file = writePlaytest(root, 'choices.playtest.json', value);
    const run = await playtest(root, [file, '--format', 'json']);
    assert.equal(run.code, 0, show(run));
    const report = parseReport(run);
    assertValidReport(report);
    const entry = byFile(report, 'choices.playtest.json');
    assert.deepEqual(
      entry.turns.map((turn) => turn.status),
      ['passed', 'passed'],
    );
  });
});

test('a "choice" turn after a turn that offered no choices (or out of range) does not pass', async () => {
  for (const [name, first, choice] of [
    ['no-choices', 'I look around', 1],
    ['out-of-range', 'What are my options?', 9],
  ] as const) {
    await inStory(async (root) => {
      const file = writePlaytest(root, `${name}.playtest.json`, { seed: 4, turns: [{ input: first }, { choice }] });
      const run = await playtest(root, [file, '--format', 'json']);
      assert.ok(run.code === 1 || run.code === 2, `${name}: exit 1 or 2\n${show(run)}`);
      if (run.code === 2) assertFileError(run, `${name}.playtest.json`);
      else {
        const report = parseReport(run);
        assert.notEqual(byFile(report, `${name}.playtest.json`).status, 'passed');
      }
    });
  }
});

// 10. Determinism

/** Drops what may differ between two runs of the same playtest: durations, timestamps, run and plan ids. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === 'string') {
    return value
      .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, '<time>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (/Ms$/.test(key) || /runid/i.test(key) || /(?:time|timestamp|date|At)$/.test(key)) continue;
      out[key] = normalize(inner);
    }
    return out;
  }
  return value;
}

test('the same playtest with the same seed plays the same turns (reports equal apart from timings and ids)', async () => {
  await inStory(async (root) => {
    // A story copy of dice-roller on its seeded generator, so the rolls follow NARRATORIA_SEED whatever the bundled default.
    cpSync(path.join(projectRoot, 'skills', 'dice-roller'), path.join(root, 'skills', 'dice-roller'), { recursive: true });
    writeFileSync(path.join(root, 'skills', 'dice-roller', 'config.json'), JSON.stringify({ randomSource: 'pseudo' }));
    // Expectations that fail on purpose so the report carries what happened (the narration, the rolled total).
    const value = (seed: number) => ({
      name: 'Dice story',
      seed,
      turns: [
        { input: rollInput, expect: { state: ['dice.lastRoll.total > 1000'], narration: { matches: '^never-this$' } } },
        { input: 'I roll to climb the wall', expect: { state: ['dice.lastRoll.total < 0'], narration: { contains: ['never-this'] } } },
        { input: 'What are my options?', expect: { skills: ['dice-roller'], skillsMatch: 'strict' } },
      ],
    });
    const file = writePlaytest(root, 'dice.playtest.json', value(7));
    const first = await playtest(root, [file, '--format', 'json']);
    const second = await playtest(root, [file, '--format', 'json']);
    assert.equal(first.code, 1, show(first));
    assert.equal(second.code, 1, show(second));
    const a = parseReport(first);
    const b = parseReport(second);
    assertValidReport(a);
    assert.equal(byFile(a, 'dice.playtest.json').turns.length, 3);
    assert.ok(byFile(a, 'dice.playtest.json').turns.every((turn) => turn.failures.length > 0));
    assert.deepEqual(normalize(b), normalize(a));

    // Another seed plays too (its dice may differ; nothing more is asserted).
    writePlaytest(root, 'dice.playtest.json', value(8));
    const other = await playtest(root, [file, '--format', 'json']);
    assert.equal(other.code, 1, show(other));
    assertValidReport(parseReport(other));
  });
});

// 11. --update

test('--update rewrites failing expect.skills (strict) and expect.outcome only; leaves unparsable files alone', async () => {
  await inStory(async (root) => {
    const original = {
      name: 'Update me',
      seed: 3,
      state: { flags: { door: 'locked' } },
      turns: [
        {
          input: rollInput,
          expect: {
            skills: ['memory'],
            skillsMatch: 'superset',
            outcome: 'fallback',
            notSkills: ['reputation'],
            state: ['dice.lastRoll.total >= 1'],
            narration: { notContains: ['The story listens'] },
            events: [{ type: 'ui_event', event: 'dice_roll' }],
            maxAttempts: 1,
          },
        },
        { input: 'I look around', expect: { notSkills: ['dice-roller'], outcome: 'success' } },
      ],
    };
    const file = writePlaytest(root, 'update.playtest.json', original);
    const brokenText = '{\n  "turns": [\n    { "input": "I look around" }\n  ]\n  oops\n}\n';
    const broken = write(root, 'broken.playtest.json', brokenText);

    // What happened, before any update.
    const before = await playtest(root, [file, '--format', 'json']);
    assert.equal(before.code, 1, show(before));
    const happened = byFile(parseReport(before), 'update.playtest.json').turns[0]!.skills;
    assert.equal(happened[0], 'dice-roller');

    // With an unparsable file in the selection nothing runs, so nothing is written.
    const originalBytes = readFileSync(file);
    const refused = await playtest(root, [file, broken, '--update']);
    assert.equal(refused.code, 2, show(refused));
    assert.deepEqual(readFileSync(broken), Buffer.from(brokenText), 'the unparsable file is byte-identical');
    assert.deepEqual(readFileSync(file), originalBytes, 'nothing ran, nothing was updated');

    const updating = await playtest(root, [file, '--update']);
    assert.notEqual(updating.code, 2, show(updating));
    const updated = JSON.parse(readFileSync(file, 'utf8')) as typeof original;
    const expect = updated.turns[0]!.expect as Record<string, unknown>;
    assert.deepEqual(expect['skills'], happened, "expect.skills now holds the first attempt's skills");
    assert.equal(expect['skillsMatch'], 'strict');
    assert.equal(expect['outcome'], 'success');
    // Everything else is untouched.
    const strip = (value: typeof original) => {
      const copy = structuredClone(value) as unknown as { turns: { expect: Record<string, unknown> }[] };
      for (const key of ['skills', 'skillsMatch', 'outcome']) delete copy.turns[0]!.expect[key];
      return copy;
    };
    assert.deepEqual(strip(updated), strip(original));
    assert.deepEqual(updated.turns[1], original.turns[1]);

    const rerun = await playtest(root, [file, '--format', 'json']);
    assert.equal(rerun.code, 0, show(rerun));

    // An unparsable file on its own: an error, and never touched.
    const alone = await playtest(root, [broken, '--update']);
    assert.equal(alone.code, 2, show(alone));
    assert.deepEqual(readFileSync(broken), Buffer.from(brokenText));
  });
});

test('--update leaves a turn that failed on other expectations alone', async () => {
  await inStory(async (root) => {
    const original = {
      seed: 3,
      turns: [{ input: rollInput, expect: { skills: ['dice-roller'], outcome: 'success', narration: { contains: ['xylophone-quokka'] } } }],
    };
    const file = writePlaytest(root, 'other.playtest.json', original);
    const run = await playtest(root, [file, '--update']);
    assert.notEqual(run.code, 2, show(run));
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), original, 'nothing to update: skills and outcome held');
    const rerun = await playtest(root, [file]);
    assert.equal(rerun.code, 1, show(rerun));
  });
});

// 12. --jobs

test('--jobs 2 with three files passes and reports all three', async () => {
  await inStory(async (root) => {
    const files = ['one', 'two', 'three'].map((name, index) => writePlaytest(root, `${name}.playtest.json`, passingRoll(`Job ${name}`, index + 1)));
    const run = await playtest(root, [...files, '--jobs', '2', '--format', 'json']);
    assert.equal(run.code, 0, show(run));
    const report = parseReport(run);
    assertValidReport(report);
    assert.equal(report.playtests.length, 3);
    for (const name of ['one', 'two', 'three']) assert.equal(byFile(report, `${name}.playtest.json`).status, 'passed');
    assert.deepEqual([report.summary.passed, report.summary.failed, report.summary.errors], [3, 0, 0]);

    const text = await playtest(root, [...files, '--jobs', '2', '--format', 'text']);
    assert.equal(text.code, 0, show(text));
    assert.deepEqual(countsLine(text), { passed: 3, failed: 0 });
  });
});
