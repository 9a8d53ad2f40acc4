// The coverage of a fixture script (the explore story's omen-reader, run as real processes with NODE_V8_COVERAGE) matches the lines it really ran: the same raw V8 coverage through our collector and through c8's own report give the same line hits, and the branches and functions it did not take show as not covered.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { V8CoverageCollector } from '../../../src/runtime/coverage/v8CoverageCollector.js';
import { lcovText } from '../../../src/runtime/coverage/coverageOutput.js';

const projectRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const skillDirectory = realpathSync(path.join(projectRoot, 'test', 'fixtures', 'explore-story', 'skills', 'omen-reader'));
const script = path.join(skillDirectory, 'scripts', 'read.js');
const c8 = path.join(projectRoot, 'node_modules', 'c8', 'bin', 'c8.js');
const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

/** Line → hits from lcov text (DA records of the file whose SF path ends with `file`: c8 writes it relative to its working folder). */
function lineHits(lcov: string, file: string): Map<number, number> {
  const record = lcov.split('end_of_record').find((part) => new RegExp(`^SF:(?:.*/)?${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm').test(part));
  assert.ok(record, `lcov has ${file}`);
  return new Map([...record.matchAll(/^DA:(\d+),(\d+)/gm)].map((match) => [Number(match[1]), Number(match[2])]));
}

describe('coverage of a fixture script, against c8', () => {
  it('gives the same line hits as c8 report on the same V8 coverage', async () => {
    const collector = new V8CoverageCollector(path.dirname(path.dirname(skillDirectory)), [
      { name: 'omen-reader', directory: skillDirectory, scripts: [script] },
    ]);
    const copy = mkdtempSync(path.join(os.tmpdir(), 'narratoria-c8-raw-'));
    const reports = mkdtempSync(path.join(os.tmpdir(), 'narratoria-c8-report-'));
    temporary.push(copy, reports);
    try {
      // Real processes: 30 subjects (one in twenty fails: both arms run) and one stdin that is not JSON.
      const inputs = [...Array.from({ length: 30 }, (_, index) => JSON.stringify({ input: { subject: `subject ${index}` } })), 'not json'];
      for (const input of inputs) {
        const run = spawnSync(process.execPath, [script], { input, env: { ...process.env, ...collector.environment() }, encoding: 'utf8' });
        assert.equal(run.status, 0, run.stderr);
      }
      // c8 reads a copy of the raw files (our collector deletes what it drains).
      cpSync(collector.directory, copy, { recursive: true });
      assert.equal(readdirSync(copy).length, inputs.length, 'one coverage file per process');
      const files = await collector.finish();
      const ours = files.find((file) => file.file === script);
      assert.ok(ours, 'the script is covered');
      const c8Run = spawnSync(
        process.execPath,
        [
          c8,
          'report',
          '--temp-directory',
          copy,
          '--reporter',
          'lcovonly',
          '--reports-dir',
          reports,
          '--allowExternal',
          '--src',
          skillDirectory,
          '--include',
          '**/read.js',
          '--exclude-after-remap=false',
        ],
        { encoding: 'utf8', cwd: skillDirectory },
      );
      assert.equal(c8Run.status, 0, c8Run.stderr);
      const theirs = lineHits(readFileSync(path.join(reports, 'lcov.info'), 'utf8'), 'scripts/read.js');
      const mine = lineHits(lcovText([ours]), script);
      assert.ok(theirs.size > 20, "c8 reports the script's lines");
      assert.deepEqual(
        [...mine].sort(([left], [right]) => left - right),
        [...theirs].sort(([left], [right]) => left - right),
      );
      // What really ran: the failing arm ran (one subject in twenty fails), `unused` never did.
      const source = readFileSync(script, 'utf8').split('\n');
      const lineOf = (needle: string) => source.findIndex((line) => line.includes(needle)) + 1;
      assert.ok(mine.get(lineOf("errorCode: 'CLOUDED'"))! > 0, 'the failing arm ran');
      assert.equal(mine.get(lineOf("emit({ type: 'log', level: 'warn'")), 0, 'the unused function never ran');
      assert.ok(
        ours.details.functions.some((fn) => fn.name === 'unused' && fn.count === 0),
        'and its declaration shows as not covered',
      );
      assert.ok(ours.branches.covered < ours.branches.total, 'some branches were never taken');
    } finally {
      collector.dispose();
    }
  });
});
