// A story whose skill.json is broken (a JSON syntax error, or a schema violation), seen by play --once, test, explore, run, validate and skills as real processes: each reports file:line:column, explore exits 1, test names the broken skill.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateAgainst } from '../../src/runtime/contracts/schemas.js';
import { narratoria } from './cliHarness.js';

/** A script that speaks the protocol: reads stdin, then reports done. */
const CROSS_SCRIPT = `#!/usr/bin/env node
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true, summary: 'You cross.' }) + '\\n'));
`;

/** The comma after "path" is missing: the error is at "description", line 10, column 7. */
const SYNTAX_ERROR_MANIFEST = `{
  "name": "ferryman",
  "version": "1.0.0",
  "description": "Takes the player across the river for a coin.",
  "keywords": ["ferry", "ferryman", "river", "boat", "cross"],
  "scripts": [
    {
      "name": "cross",
      "path": "scripts/cross.js"
      "description": "Crosses the river."
    }
  ]
}
`;

/** "version" is a number (line 3, column 14) and the script has no "path" (its object, line 7, column 5). */
const SCHEMA_ERROR_MANIFEST = `{
  "name": "ferryman",
  "version": 1,
  "description": "Takes the player across the river for a coin.",
  "keywords": ["ferry", "ferryman", "river", "boat", "cross"],
  "scripts": [
    {
      "name": "cross",
      "description": "Crosses the river."
    }
  ]
}
`;

const PLAN_USING = {
  requestId: '7c9e6679-7425-40de-944b-e07dc4f0be15',
  narrative: 'You cross the river.',
  tools: [{ toolId: 'cross', toolPath: 'skills/ferryman/scripts/cross.js' }],
};
const PLAN_NOT_USING = { requestId: '7c9e6679-7425-40de-944b-e07dc4f0be16', narrative: 'You wait on the bank.', tools: [] };
const PLAYTEST = { name: 'crossing', seed: 1, turns: [{ input: 'I pay the ferryman to cross the river', expect: { skills: ['ferryman'] } }] };

interface BrokenCase {
  readonly name: string;
  readonly manifest: string;
  readonly code: 'MANIFEST_JSON_INVALID' | 'MANIFEST_INVALID';
  /** The first problem's 1-based line and column. */
  readonly line: number;
  readonly column: number;
  /** Every problem's [line, column], in order. */
  readonly positions: readonly (readonly [number, number])[];
}

const CASES: readonly BrokenCase[] = [
  { name: 'a JSON syntax error', manifest: SYNTAX_ERROR_MANIFEST, code: 'MANIFEST_JSON_INVALID', line: 10, column: 7, positions: [[10, 7]] },
  {
    name: 'a schema violation',
    manifest: SCHEMA_ERROR_MANIFEST,
    code: 'MANIFEST_INVALID',
    line: 3,
    column: 14,
    positions: [
      [3, 14],
      [7, 5],
    ],
  },
];

/** Writes a story with the broken ferryman skill, two plans and a playtest expecting the skill. */
function writeStory(manifest: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-cli-broken-'));
  const write = (relative: string, content: string, mode?: number) => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content, mode !== undefined ? { mode } : {});
  };
  write('package.json', JSON.stringify({ type: 'commonjs' }));
  write('skills/ferryman/skill.json', manifest);
  write('skills/ferryman/scripts/cross.js', CROSS_SCRIPT, 0o755);
  write('plans/cross.plan.json', JSON.stringify(PLAN_USING, null, 2));
  write('plans/wait.plan.json', JSON.stringify(PLAN_NOT_USING, null, 2));
  write('tests/crossing.playtest.json', JSON.stringify(PLAYTEST, null, 2));
  return root;
}

for (const broken of CASES) {
  describe(`a skill.json with ${broken.name}`, () => {
    let root: string;
    /** `skills/ferryman/skill.json:L:C: error CODE: the skill "ferryman" is unusable: …` as a pattern. */
    const located = (severity = 'error') =>
      new RegExp(`^skills/ferryman/skill\\.json:${broken.line}:${broken.column}: ${severity} ${broken.code}: the skill "ferryman" is unusable: `, 'm');
    before(() => {
      root = writeStory(broken.manifest);
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    test('skills: the skill is listed as unusable (never "healthy unusable"), with file:line:column; JSON carries line and column', async () => {
      const text = await narratoria(['skills', '--root', root, '--no-bundled-skills'], root);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^ferryman unusable \(its skill\.json does not load\)/m);
      assert.doesNotMatch(text.stdout, /healthy unusable/);
      assert.match(text.stdout, new RegExp(`^  skills/ferryman/skill\\.json:${broken.line}:${broken.column}: error ${broken.code}: `, 'm'));
      const json = await narratoria(['skills', '--root', root, '--no-bundled-skills', '--format', 'json'], root);
      const report = JSON.parse(json.stdout) as {
        skills: unknown[];
        brokenSkills: { name: string; health: string; usable: boolean; problems: { code: string; line: number; column: number; file: string }[] }[];
      };
      assert.deepEqual(report.skills, []);
      assert.equal(report.brokenSkills.length, 1);
      const [entry] = report.brokenSkills;
      assert.deepEqual([entry!.name, entry!.health, entry!.usable], ['ferryman', 'unusable', false]);
      assert.deepEqual(
        entry!.problems.map((problem) => [problem.line, problem.column]),
        broken.positions,
      );
      assert.ok(entry!.problems.every((problem) => problem.code === broken.code && problem.file === path.join(root, 'skills/ferryman/skill.json')));
    });

    test('play --once: the problem on stderr before the turn, and the turn still plays', async () => {
      const run = await narratoria(['play', '--root', root, '--no-bundled-skills', '--once', 'I cross the river'], root);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, located());
      const json = await narratoria(['play', '--root', root, '--no-bundled-skills', '--once', 'I cross the river', '--format', 'json'], root);
      assert.equal(json.code, 0, json.stderr);
      assert.match(json.stderr, located(), 'also with --format json, on stderr');
      assert.doesNotThrow(() => JSON.parse(json.stdout), 'stdout stays the TurnResult alone');
    });

    test('test: a playtest expecting the skill names it as broken, with where, and nothing runs (exit 2)', async () => {
      const run = await narratoria(['test', '--root', root], root);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, located());
      assert.match(
        run.stderr,
        new RegExp(
          `tests/crossing\\.playtest\\.json:\\d+:\\d+: error SKILL_BROKEN: the story's skill "ferryman" is broken: skills/ferryman/skill\\.json:${broken.line}:${broken.column}: ${broken.code}: its skill\\.json `,
        ),
      );
      assert.doesNotMatch(run.stderr, /the story has no skill "ferryman"/);
    });

    test('explore: the broken skill is a problem (exit 1), listed in the text and the JSON report', async () => {
      const text = await narratoria(['explore', '--root', root, '--runs', '1', '--turns', '1', '--out', path.join(root, 'explore-text')], root);
      assert.equal(text.code, 1, text.stdout + text.stderr);
      assert.doesNotMatch(text.stdout, /no problem found/);
      assert.match(text.stdout, /^ {2}broken skill: 1$/m);
      assert.match(text.stdout, new RegExp(`^ {4}skills/ferryman/skill\\.json:${broken.line}:${broken.column}: error ${broken.code}: `, 'm'));
      const json = await narratoria(
        ['explore', '--root', root, '--runs', '1', '--turns', '1', '--format', 'json', '--out', path.join(root, 'explore-json')],
        root,
      );
      assert.equal(json.code, 1, json.stderr);
      const report = JSON.parse(json.stdout) as {
        problems: {
          total: number;
          byKind: { broken_skill: number };
          brokenSkills: { skill: string; file: string; problems: { code: string; line: number; column: number }[] }[];
        };
      };
      assert.deepEqual(validateAgainst('explore-report.schema.json', report), [], 'the report matches contracts/explore-report.schema.json');
      assert.equal(report.problems.byKind.broken_skill, 1);
      assert.ok(report.problems.total >= 1);
      assert.deepEqual(
        report.problems.brokenSkills.map((entry) => [entry.skill, entry.file, entry.problems.map((problem) => [problem.code, problem.line, problem.column])]),
        [['ferryman', 'skills/ferryman/skill.json', broken.positions.map(([line, column]) => [broken.code, line, column])]],
      );
    });

    test('run: a plan using the skill is refused with SKILL_BROKEN and where (exit 2); another plan runs, with a warning line', async () => {
      const using = await narratoria(['run', 'plans/cross.plan.json', '--root', root, '--no-save'], root);
      assert.equal(using.code, 2, using.stdout + using.stderr);
      assert.match(
        using.stderr,
        new RegExp(
          `^plans/cross\\.plan\\.json:\\d+:\\d+: error SKILL_BROKEN: "cross" uses the skill "ferryman", which is unusable: skills/ferryman/skill\\.json:${broken.line}:${broken.column}: ${broken.code}: `,
          'm',
        ),
      );
      assert.match(using.stderr, /The plan is invalid; nothing ran\./);
      const other = await narratoria(['run', 'plans/wait.plan.json', '--root', root, '--no-save'], root);
      assert.equal(other.code, 0, other.stdout + other.stderr);
      assert.match(other.stderr, located('warning'));
    });

    test('validate: an error for the plan using the skill, a warning naming it for the other; JSON carries file, line and column', async () => {
      const text = await narratoria(['validate', 'plans/cross.plan.json', 'plans/wait.plan.json', '--root', root], root);
      assert.equal(text.code, 1, text.stdout + text.stderr);
      assert.match(text.stdout, /^plans\/cross\.plan\.json:\d+:\d+: error SKILL_BROKEN: "cross" uses the skill "ferryman"/m);
      assert.match(text.stdout, located('warning'));
      assert.match(text.stdout, /✔ plans\/wait\.plan\.json is valid/);
      const json = await narratoria(['validate', 'plans/cross.plan.json', 'plans/wait.plan.json', '--root', root, '--format', 'json'], root);
      assert.equal(json.code, 1, json.stderr);
      const report = JSON.parse(json.stdout) as {
        file: string;
        valid: boolean;
        diagnostics: { severity: string; code: string; file?: string; line: number | null; column: number | null }[];
      }[];
      assert.deepEqual(validateAgainst('validate-report.schema.json', report), []);
      assert.deepEqual(
        report.map((entry) => entry.valid),
        [false, true],
      );
      assert.ok(report[0]!.diagnostics.some((diagnostic) => diagnostic.severity === 'error' && diagnostic.code === 'SKILL_BROKEN'));
      assert.deepEqual(
        report[1]!.diagnostics
          .filter((diagnostic) => diagnostic.file !== undefined)
          .map((diagnostic) => [diagnostic.severity, diagnostic.code, diagnostic.file, diagnostic.line, diagnostic.column]),
        broken.positions.map(([line, column]) => ['warning', broken.code, 'skills/ferryman/skill.json', line, column]),
      );
    });
  });
}
