// Where skill data lives: the session folders, the default session taking in a story's older skills/<skill>/data once (copied, never moved), a bundled skill's folder never read, isolated scopes with the story's shared data copied in.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_SESSION_ID, isolatedScope, prepareSkillData, sessionScope, skillFolders } from '../../../src/runtime/skills/skillDataScope.js';

function withStory(run: (root: string, scratch: string) => Promise<void>): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'narratoria-scope-'));
  const root = path.join(scratch, 'story');
  mkdirSync(path.join(root, 'skills', 'memory', 'data'), { recursive: true });
  writeFileSync(path.join(root, 'skills', 'memory', 'data', 'memories.jsonl'), '{"text":"Mira gave you a silver key"}\n');
  return run(root, scratch).finally(() => rmSync(scratch, { recursive: true, force: true }));
}

test("a session keeps each skill's data in .narratoria/sessions/<id>/data/<skill>, shared data in .narratoria/shared/<skill>", () => {
  const scope = sessionScope('/stories/harbour', 'evening-1');
  assert.deepEqual(skillFolders(scope, 'memory'), {
    data: path.join('/stories/harbour', '.narratoria', 'sessions', 'evening-1', 'data', 'memory'),
    shared: path.join('/stories/harbour', '.narratoria', 'shared', 'memory'),
  });
  assert.equal(scope.sessionId, 'evening-1');
});

test("the default session takes in a story's older skills/<skill>/data once, as a copy; other sessions start empty", () =>
  withStory(async (root) => {
    const skill = path.join(root, 'skills', 'memory');
    const data = await prepareSkillData(sessionScope(root, DEFAULT_SESSION_ID), 'memory', skill);
    assert.equal(readFileSync(path.join(data, 'memories.jsonl'), 'utf8'), '{"text":"Mira gave you a silver key"}\n');
    assert.ok(existsSync(path.join(skill, 'data', 'memories.jsonl')), 'the original stays where it was');
    // Once only: what the session wrote since is kept.
    writeFileSync(path.join(data, 'memories.jsonl'), 'newer\n');
    await prepareSkillData(sessionScope(root, DEFAULT_SESSION_ID), 'memory', skill);
    assert.equal(readFileSync(path.join(data, 'memories.jsonl'), 'utf8'), 'newer\n');
    const other = await prepareSkillData(sessionScope(root, 'evening-1'), 'memory', skill);
    assert.ok(!existsSync(path.join(other, 'memories.jsonl')), 'a new session starts empty');
  }));

test("a bundled skill's folder (outside the story) is never read into the story", () =>
  withStory(async (root, scratch) => {
    const bundled = path.join(scratch, 'install', 'skills', 'memory');
    mkdirSync(path.join(bundled, 'data'), { recursive: true });
    writeFileSync(path.join(bundled, 'data', 'memories.jsonl'), 'another story\n');
    rmSync(path.join(root, 'skills'), { recursive: true });
    const data = await prepareSkillData(sessionScope(root, DEFAULT_SESSION_ID), 'memory', bundled);
    assert.ok(!existsSync(path.join(data, 'memories.jsonl')));
  }));

test("an isolated scope starts empty in its own folder, with a copy of the story's shared data", () =>
  withStory(async (root, scratch) => {
    mkdirSync(path.join(root, '.narratoria', 'shared', 'character-portraits'), { recursive: true });
    writeFileSync(path.join(root, '.narratoria', 'shared', 'character-portraits', 'mira.svg'), '<svg/>');
    const folder = path.join(scratch, 'playtest-1');
    const scope = await isolatedScope(root, 'playtest-1', folder);
    const { data, shared } = skillFolders(scope, 'character-portraits');
    assert.ok(data.startsWith(folder) && shared.startsWith(folder));
    assert.equal(readFileSync(path.join(shared, 'mira.svg'), 'utf8'), '<svg/>');
    writeFileSync(path.join(shared, 'mira.svg'), 'changed');
    assert.equal(readFileSync(path.join(root, '.narratoria', 'shared', 'character-portraits', 'mira.svg'), 'utf8'), '<svg/>', "the story's copy is untouched");
    // Without shared data in the story, the scope has none either (no error).
    const empty = await isolatedScope(path.join(scratch, 'no-story'), 'playtest-2', path.join(scratch, 'playtest-2'));
    assert.equal(empty.sessionId, 'playtest-2');
  }));
