// Tests of the validator's fast paths: fresh disk reads on every call, lazy resolvedToolPaths, many distinct strings, id order, prototype pollution.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deeperThan } from '../../../src/runtime/validation/strictJson.js';
import { DiagnosticCode, MAX_NESTING_DEPTH, validatePlanText, validatePlanValue } from '../../../src/runtime/validation/index.js';
import { EXAMINE, LIGHT, only, planText, REQUEST_ID } from './planHelpers.js';
import { createStoryFixture, type StoryFixture } from './storyFixture.js';

describe('validatePlanText: fast paths keep the answers', () => {
  let story: StoryFixture;
  before(() => {
    story = createStoryFixture();
  });
  after(() => story.remove());

  test('a script created or deleted between two validations is seen by the second (nothing is cached across calls)', async () => {
    const created = 'skills/torch-lighter/scripts/later.js';
    const file = path.join(story.root, created);
    const text = planText([`{"toolId": "a", "toolPath": "${created}"}`]);
    only(await validatePlanText(text, { root: story.root }), DiagnosticCode.TOOL_PATH_NOT_FOUND);
    fs.writeFileSync(file, '#!/usr/bin/env node\n');
    assert.deepEqual((await validatePlanText(text, { root: story.root })).diagnostics, []);
    fs.rmSync(file);
    only(await validatePlanText(text, { root: story.root }), DiagnosticCode.TOOL_PATH_NOT_FOUND);
  });

  test('resolvedToolPaths are those of the validation, even when read after the disk changed', async () => {
    const moved = 'skills/door-examiner/scripts/moved.js';
    const file = path.join(story.root, moved);
    fs.writeFileSync(file, '#!/usr/bin/env node\n');
    const result = await validatePlanText(planText([`{"toolId": "a", "toolPath": "${moved}"}`, `{"toolId": "b", "toolPath": "${LIGHT}"}`]), {
      root: story.root,
    });
    fs.rmSync(file);
    assert.deepEqual(
      [...result.resolvedToolPaths],
      [
        ['a', path.join(fs.realpathSync(path.join(story.root, 'skills/door-examiner/scripts')), 'moved.js')],
        ['b', fs.realpathSync(path.join(story.root, LIGHT))],
      ],
    );
    assert.equal(result.resolvedToolPaths, result.resolvedToolPaths, 'built once');
  });

  test('resolvedToolPaths keep the first tool of a repeated toolId, and are empty without tool path checks', async () => {
    const tools = [
      { toolId: 'a', toolPath: LIGHT },
      { toolId: 'a', toolPath: EXAMINE },
      { toolId: 'b', toolPath: EXAMINE },
    ];
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools }, { root: story.root });
    assert.deepEqual([...result.resolvedToolPaths.keys()], ['a', 'b']);
    assert.equal(result.resolvedToolPaths.get('a'), fs.realpathSync(path.join(story.root, LIGHT)));
    assert.equal((await validatePlanValue({ requestId: REQUEST_ID, tools }, { root: story.root, checkToolPaths: false })).resolvedToolPaths.size, 0);
  });

  test('a story whose skills directory is a symbolic link: scripts resolve in it, with their skill', async () => {
    const linked = path.join(story.base, 'linked-story');
    fs.mkdirSync(linked, { recursive: true });
    fs.symlinkSync(path.join(story.root, 'skills'), path.join(linked, 'skills'));
    const result = await validatePlanValue(
      { requestId: REQUEST_ID, tools: [{ toolId: 'a', toolPath: LIGHT }], disabledSkills: ['torch-lighter'] },
      { root: linked },
    );
    assert.equal(result.resolvedToolPaths.get('a'), fs.realpathSync(path.join(story.root, LIGHT)));
    only(result, DiagnosticCode.TOOL_IN_DISABLED_SKILL);
  });

  test('more distinct toolPaths and conditions than the short lists hold: every tool gets its own answer', async () => {
    const tools = Array.from({ length: 40 }, (_, index) => ({
      toolId: `t${index}`,
      toolPath: index % 4 === 0 ? LIGHT : `skills/missing${index % 13}/scripts/x.js`,
      condition: index % 3 === 0 ? `state.n == ${index % 11}` : `state.n == (${index % 11}`,
    }));
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools }, { root: story.root });
    const pointers = (code: string): string[] => result.diagnostics.filter((diagnostic) => diagnostic.code === code).map((diagnostic) => diagnostic.pointer);
    assert.deepEqual(
      pointers(DiagnosticCode.TOOL_PATH_NOT_FOUND),
      tools.flatMap((tool, index) => (tool.toolPath === LIGHT ? [] : [`/tools/${index}/toolPath`])),
    );
    assert.deepEqual(
      pointers(DiagnosticCode.CONDITION_SYNTAX),
      tools.flatMap((tool, index) => (index % 3 === 0 ? [] : [`/tools/${index}/condition`])),
    );
    // The parse results remembered across validations give the same diagnostics again.
    assert.deepEqual((await validatePlanValue({ requestId: REQUEST_ID, tools }, { root: story.root })).diagnostics, result.diagnostics);
  });
});

describe('validatePlanValue: toolId order', () => {
  const options = { root: '/tmp', checkToolPaths: false };

  test('duplicates are reported in plan order, each related to the first use', async () => {
    const tools = ['x', 'y', 'x', 'y', 'x'].map((toolId) => ({ toolId, toolPath: LIGHT }));
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools }, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.pointer, diagnostic.related?.[0]?.pointer]),
      [
        ['/tools/2/toolId', '/tools/0/toolId'],
        ['/tools/3/toolId', '/tools/1/toolId'],
        ['/tools/4/toolId', '/tools/0/toolId'],
      ],
    );
  });

  test('"did you mean" prefers the toolId listed first among equally close ones, repeated ids included', async () => {
    const tools = [
      { toolId: 'a2', toolPath: LIGHT },
      { toolId: 'b2', toolPath: LIGHT },
      { toolId: 'b2', toolPath: LIGHT },
      { toolId: 'c', toolPath: LIGHT, dependencies: ['x2', 'b1'] },
    ];
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools }, options);
    const unknown = result.diagnostics.filter((diagnostic) => diagnostic.code === DiagnosticCode.UNKNOWN_DEPENDENCY);
    assert.deepEqual(
      unknown.map((diagnostic) => diagnostic.message.replace(/.*did you mean /, '')),
      ['"a2"?', '"b2"?'],
    );
  });

  test('a dependency on the tool before, on a later tool and on a repeated id resolve as before', async () => {
    const tools = [
      { toolId: 'a', toolPath: LIGHT, dependencies: ['c'] },
      { toolId: 'b', toolPath: LIGHT, dependencies: ['a'] },
      { toolId: 'a', toolPath: LIGHT, dependencies: ['b'] },
      { toolId: 'c', toolPath: LIGHT, dependencies: ['a'] },
    ];
    const result = await validatePlanValue({ requestId: REQUEST_ID, tools }, options);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      [
        [DiagnosticCode.DEPENDENCY_CYCLE, '/tools/0/dependencies/0'],
        [DiagnosticCode.DUPLICATE_TOOL_ID, '/tools/2/toolId'],
      ],
    );
    assert.match(result.diagnostics[0]!.message, /^dependency cycle: a -> c -> a /);
  });
});

describe('deeperThan', () => {
  test('an enumerable property on Object.prototype does not change the answer', () => {
    const deep = JSON.parse('['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH)) as unknown;
    const shallow = JSON.parse('{"a": {"b": [1, {"c": 2}]}}') as unknown;
    const prototype = Object.prototype as Record<string, unknown>;
    try {
      prototype['polluted'] = { nested: { deeper: {} } };
      assert.equal(deeperThan(shallow, 4), false);
      assert.equal(deeperThan(shallow, 3), true);
      assert.equal(deeperThan(deep, MAX_NESTING_DEPTH), false);
      assert.equal(deeperThan([deep], MAX_NESTING_DEPTH), true);
    } finally {
      delete prototype['polluted'];
    }
    assert.equal(deeperThan(shallow, 4), false);
    assert.equal(deeperThan([deep], MAX_NESTING_DEPTH), true);
  });
});
