// Skills in draft-07 (as other Narratoria runtimes allowed): config-schema.json with date, time and date-time checked, and script input schemas.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkConfigSchema, validateConfigValues, type ConfigSchema } from '../../../src/runtime/skills/skillConfig.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import { createTempStory, DONE_SCRIPT } from './skillFixture.js';

/** Our own fixture: a draft-07 config schema with a date and a time. */
const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  title: 'Calendar settings',
  properties: {
    startDate: { type: 'string', format: 'date', default: '2026-03-01', description: 'First day of the campaign.' },
    dawn: { type: 'string', format: 'time', default: '06:00:00Z' },
    lastSaved: { type: 'string', format: 'date-time' },
  },
  required: ['startDate'],
};

test('checkConfigSchema accepts draft-07 and draft 2020-12, and nothing else', () => {
  assert.deepEqual(checkConfigSchema(draft07).problems, []);
  assert.deepEqual(checkConfigSchema({ ...draft07, $schema: 'http://json-schema.org/draft-07/schema' }).problems, []);
  assert.deepEqual(checkConfigSchema({ ...draft07, $schema: 'https://json-schema.org/draft/2020-12/schema' }).problems, []);
  const old = checkConfigSchema({ ...draft07, $schema: 'http://json-schema.org/draft-04/schema#' });
  assert.equal(old.schema, undefined);
  assert.deepEqual(
    old.problems.map((problem) => [problem.code, problem.pointer]),
    [['CONFIG_SCHEMA_INVALID', '/$schema']],
  );
});

test('date, time and date-time values are checked (RFC 3339), valid ones pass', () => {
  const schema = draft07 as unknown as ConfigSchema;
  assert.deepEqual(validateConfigValues({ startDate: '2026-02-28', dawn: '06:30:00+01:00', lastSaved: '2026-02-28T06:30:00Z' }, schema), []);
  const problems = validateConfigValues({ startDate: '2026-02-30', dawn: '6 am', lastSaved: '2026-02-28' }, schema);
  assert.deepEqual(
    problems.map((problem) => [problem.code, problem.pointer, problem.message]),
    [
      ['CONFIG_FORMAT', '/startDate', 'config.json: "startDate" must be a date (RFC 3339 full-date, e.g. 2026-03-01), but is "2026-02-30"'],
      ['CONFIG_FORMAT', '/dawn', 'config.json: "dawn" must be a time with its offset (RFC 3339 full-time, e.g. 12:30:00Z or 12:30:00+01:00), but is "6 am"'],
      ['CONFIG_FORMAT', '/lastSaved', 'config.json: "lastSaved" must be a date-time (RFC 3339, e.g. 2026-03-01T12:30:00Z), but is "2026-02-28"'],
    ],
  );
});

test('a skill whose config-schema.json is draft-07 is discovered without CONFIG_SCHEMA_INVALID, and its config.json is checked', async () => {
  const story = createTempStory();
  try {
    story.skill(
      'calendar',
      { configSchema: 'config-schema.json', scripts: [{ name: 'tick', path: 'scripts/tick.js' }] },
      {
        'config-schema.json': draft07,
        'config.json': { startDate: '2026-13-01' },
        'scripts/tick.js': DONE_SCRIPT,
      },
    );
    const found = await discoverSkills({ root: story.root });
    const codes = found.problems.map((problem) => problem.code);
    assert.equal(codes.includes('CONFIG_SCHEMA_INVALID'), false, JSON.stringify(found.problems));
    assert.ok(
      found.problems.some((problem) => problem.code === 'CONFIG_FORMAT' && problem.message.includes('"startDate"')),
      JSON.stringify(found.problems),
    );
    assert.equal(found.skills.length, 1);
  } finally {
    story.remove();
  }
});

test('a script inputSchema declaring draft-07 (definitions, tuple items) compiles, and plan inputs are checked against it', async () => {
  const { createSkillCatalog } = await import('../../../src/runtime/skills/skillCatalog.js');
  const { validatePlanValue } = await import('../../../src/runtime/validation/index.js');
  const story = createTempStory();
  try {
    story.skill(
      'compass',
      { scripts: [{ name: 'point', path: 'scripts/point.js', inputSchema: 'scripts/point.schema.json' }] },
      {
        'scripts/point.js': DONE_SCRIPT,
        'scripts/point.schema.json': {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          definitions: { heading: { enum: ['north', 'south', 'east', 'west'] } },
          properties: {
            heading: { $ref: '#/definitions/heading' },
            at: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false },
          },
          required: ['heading'],
        },
      },
    );
    const found = await discoverSkills({ root: story.root });
    assert.deepEqual(
      found.problems.filter((problem) => problem.severity === 'error'),
      [],
    );
    const catalog = createSkillCatalog(found.skills);
    const plan = (input: unknown) => ({
      requestId: '2d4f6a8c-0e1b-4d3f-9a5c-7e9b1d3f5a70',
      tools: [{ toolId: 'p', toolPath: 'skills/compass/scripts/point.js', input }],
    });
    const good = await validatePlanValue(plan({ heading: 'north', at: [1, 2] }), { root: story.root, skills: catalog });
    assert.deepEqual(good.diagnostics, []);
    const bad = await validatePlanValue(plan({ heading: 'up', at: [1, 'x'] }), { root: story.root, skills: catalog });
    assert.deepEqual(
      bad.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      [
        ['INPUT_NOT_IN_ENUM', '/tools/0/input/heading'],
        ['INPUT_TYPE_MISMATCH', '/tools/0/input/at/1'],
      ],
    );
  } finally {
    story.remove();
  }
});
