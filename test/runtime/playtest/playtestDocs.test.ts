// Keeps docs/playtests.md and contracts/playtest.schema.json from drifting: every JSON example on the page is valid against the schema (a whole playtest, a turn or an expect object, as its fence says) and reads without problems; every field of the schema has a section with its type, whether it is required, its default and an example that uses it; the page's first playtest passes when played.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { contractSchemas, contractValidator } from '../../../src/runtime/contracts/schemas.js';
import { parsePlaytest } from '../../../src/runtime/playtest/playtestDocument.js';
import { runPlaytestSuite } from '../../../src/runtime/playtest/playtestSuite.js';
import { parseJsonDocument } from '../../../src/runtime/validation/jsonLocator.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const page = readFileSync(path.join(repo, 'docs', 'playtests.md'), 'utf8');
const sampleSkills = path.join(repo, 'skills');
const sampleSkillNames = new Set(readdirSync(sampleSkills).filter((name) => existsSync(path.join(sampleSkills, name, 'skill.json'))));

/** What an example is, from its fence (```json playtest), and the part of the schema it must be valid against. */
const FRAGMENTS = { playtest: '', turn: '#/$defs/Turn', expect: '#/$defs/Expect' } as const;
type Kind = keyof typeof FRAGMENTS;

interface Example {
  readonly kind: Kind;
  readonly value: unknown;
  /** The example's first line in the page (1-based), for messages. */
  readonly line: number;
  /** The `### ` and `#### ` headings it sits under ('' before any). */
  readonly section: string;
  readonly field: string;
}

interface FieldSection {
  readonly section: string;
  readonly field: string;
  /** The first line after the heading: type, required or optional, default. */
  readonly summary: string;
}

/** The page's fenced blocks with a JSON language, and its `#### ` field sections. */
function readPage(markdown: string): { examples: Example[]; fields: FieldSection[]; untagged: number[] } {
  const examples: Example[] = [];
  const fields: FieldSection[] = [];
  const untagged: number[] = [];
  const lines = markdown.split('\n');
  let section = '';
  let field = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^```(\S*)\s*(\S*)\s*$/.exec(line);
    if (fence) {
      const start = index;
      const body: string[] = [];
      while (++index < lines.length && !lines[index]!.startsWith('```')) body.push(lines[index]!);
      if (fence[1] !== 'json' && fence[1] !== 'jsonc') continue;
      const kind = fence[2] ?? '';
      if (!(kind in FRAGMENTS)) {
        untagged.push(start + 1);
        continue;
      }
      const document = parseJsonDocument(body.join('\n'));
      assert.deepEqual(document.syntaxProblems, [], `the example at docs/playtests.md:${start + 1} is JSON (with comments)`);
      examples.push({ kind: kind as Kind, value: document.value, line: start + 1, section, field });
      continue;
    }
    const heading = /^(#{2,4}) (.*)$/.exec(line);
    if (!heading) continue;
    if (heading[1] === '####') {
      field = /^`([^`]+)`$/.exec(heading[2]!)?.[1] ?? heading[2]!;
      const summary = lines.slice(index + 1).find((next) => next.trim() !== '') ?? '';
      fields.push({ section, field, summary });
    } else {
      section = heading[1] === '###' ? heading[2]! : '';
      field = '';
    }
  }
  return { examples, fields, untagged };
}

const { examples, fields, untagged } = readPage(page);

type FieldSchema = {
  type?: string;
  $ref?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  minLength?: number;
  items?: FieldSchema & { $ref?: string };
  properties?: Record<string, FieldSchema>;
};
type ObjectSchema = { properties: Record<string, FieldSchema>; required?: string[]; oneOf?: { required: string[] }[] };

const schema = contractSchemas['playtest.schema.json'] as unknown as ObjectSchema & { $defs: { Turn: ObjectSchema; Expect: ObjectSchema } };
const narration = schema.$defs.Expect.properties['narration'] as unknown as ObjectSchema;
const beats = schema.$defs.Expect.properties['beats'] as unknown as ObjectSchema;

/** The page's `### ` section for each object of the schema, its fields (narration's as `narration.<field>`) and where an example holds them. */
const SCOPES = [
  { section: 'The playtest', object: schema, prefix: '', kind: 'playtest' },
  { section: 'A turn', object: schema.$defs.Turn, prefix: '', kind: 'turn' },
  { section: 'Expectations: `expect`', object: schema.$defs.Expect, prefix: '', kind: 'expect' },
  { section: 'Expectations: `expect`', object: narration, prefix: 'narration.', kind: 'expect' },
  { section: 'Expectations: `expect`', object: beats, prefix: 'beats.', kind: 'expect' },
] as const;

/** The type of a `#/$defs/<name>` the schema refers to. */
function typeOfReference(reference: string | undefined): string | undefined {
  const name = /^#\/\$defs\/(\w+)$/.exec(reference ?? '')?.[1];
  return name ? (schema.$defs as unknown as Record<string, { type?: string }>)[name]?.type : undefined;
}

function required(object: ObjectSchema, name: string): boolean {
  return (object.required ?? []).includes(name) || (object.oneOf ?? []).some((choice) => choice.required.includes(name));
}

/** The value an example gives the field (`narration.contains` inside `narration`), or undefined. */
function fieldOf(value: unknown, dotted: string): unknown {
  let found: unknown = value;
  for (const key of dotted.split('.')) found = found !== null && typeof found === 'object' ? (found as Record<string, unknown>)[key] : undefined;
  return found;
}

test('every JSON example on the page says what it is: a playtest, a turn or an expect object', () => {
  assert.deepEqual(untagged, [], 'lines of docs/playtests.md with a ```json fence that is not "json playtest", "json turn" or "json expect"');
  assert.ok(examples.length > 0, 'examples found');
});

test('every example is valid against contracts/playtest.schema.json', () => {
  for (const example of examples) {
    const validate = contractValidator('playtest.schema.json', FRAGMENTS[example.kind]);
    assert.ok(validate(example.value), `docs/playtests.md:${example.line} (${example.kind}): ${JSON.stringify(validate.errors)}`);
  }
});

test('every example reads without problems for the sample skills, as narratoria test reads it (skills, conditions, patterns, a choice after a turn)', () => {
  for (const example of examples) {
    const playtest =
      example.kind === 'playtest'
        ? example.value
        : example.kind === 'turn'
          ? { turns: [{ input: 'What are my options?' }, example.value] }
          : { turns: [{ input: 'I roll to pick the lock', expect: example.value }] };
    const { problems } = parsePlaytest('docs-example.playtest.json', JSON.stringify(playtest), sampleSkillNames);
    assert.deepEqual(problems, [], `docs/playtests.md:${example.line}`);
  }
});

test('every field of the schema has a section that states its type, whether it is required and its default, with an example that uses it', () => {
  for (const scope of SCOPES) {
    const documented = fields.filter(
      (field) => field.section === scope.section && field.field.startsWith(scope.prefix) && (scope.prefix !== '' || !field.field.includes('.')),
    );
    const names = Object.keys(scope.object.properties).map((name) => scope.prefix + name);
    assert.deepEqual(documented.map((field) => field.field).sort(), [...names].sort(), `the #### fields of "### ${scope.section}"`);
    for (const name of names) {
      const property = scope.object.properties[name.slice(scope.prefix.length)]!;
      const { summary } = documented.find((field) => field.field === name)!;
      const where = `"#### \`${name}\`" in "### ${scope.section}": ${summary}`;
      if (required(scope.object, name.slice(scope.prefix.length))) assert.match(summary, /\*\*Required\b/, where);
      else assert.match(summary, /\*\*Optional\*\*/, where);
      if ('default' in property)
        assert.ok(summary.includes(`**Default:** \`${JSON.stringify(property.default)}\``), `${where}: the default ${JSON.stringify(property.default)}`);
      if (property.enum) for (const value of property.enum) assert.ok(summary.includes(`\`${JSON.stringify(value)}\``), `${where}: ${JSON.stringify(value)}`);
      else {
        const type = property.type ?? typeOfReference(property.$ref);
        assert.ok(type && summary.includes(type), `${where}: the type ${type}`);
      }
      if (property.items?.type) assert.ok(summary.includes(`of ${property.items.type}s`), `${where}: items ${property.items.type}`);
      for (const bound of [property.minimum, property.maximum, property.minItems])
        if (bound !== undefined) assert.match(summary, new RegExp(`\\b${bound}\\b`), `${where}: ${bound}`);
      if (property.minLength === 1 || property.items?.minLength === 1) assert.match(summary, /non-empty/, `${where}: non-empty`);
      const own = examples.filter((example) => example.section === scope.section && example.field === name);
      assert.ok(
        own.some((example) => example.kind === scope.kind && fieldOf(example.value, name) !== undefined),
        `${where}: an example (${scope.kind}) that uses it`,
      );
    }
  }
});

test('the first playtest of the page passes when played in an empty story with the sample skills', async () => {
  const first = examples[0]!;
  assert.equal(first.kind, 'playtest');
  const story = mkdtempSync(path.join(os.tmpdir(), 'narratoria-playtest-docs-'));
  try {
    const { playtest, problems } = parsePlaytest(path.join(story, 'playtests', 'lock.playtest.json'), JSON.stringify(first.value), sampleSkillNames);
    assert.deepEqual(problems, []);
    const report = await runPlaytestSuite([playtest!], { root: story, extraSkillRoots: [sampleSkills], jobs: 1 });
    assert.equal(report.summary.passed, 1, JSON.stringify(report.playtests[0]?.turns.map((turn) => turn.failures)));
  } finally {
    rmSync(story, { recursive: true, force: true });
  }
});
