// Security tests of the tool-path policy with real temp directories and symlinks: confinement to the skill directories.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isPathInside as isInside } from '../../../src/runtime/common/pathContainment.js';
import { resolveToolPath, skillNameOfPath, type ToolPathResolution } from '../../../src/runtime/validation/toolPathPolicy.js';
import { createStoryFixture, type StoryFixture } from './storyFixture.js';

function assertFailure(resolution: ToolPathResolution, code: string): string {
  assert.equal(resolution.ok, false, `expected ${code}, got ${JSON.stringify(resolution)}`);
  if (resolution.ok) throw new Error('unreachable');
  assert.equal(resolution.code, code, resolution.message);
  return resolution.message;
}

describe('resolveToolPath', () => {
  let story: StoryFixture;
  before(() => {
    story = createStoryFixture();
  });
  after(() => story.remove());

  test('a script under <root>/skills resolves, with its real path and skill', async () => {
    const resolution = await resolveToolPath('skills/torch-lighter/scripts/light.js', { root: story.root });
    assert.deepEqual(resolution, {
      ok: true,
      absolutePath: path.join(story.root, 'skills/torch-lighter/scripts/light.js'),
      realPath: fs.realpathSync(path.join(story.root, 'skills/torch-lighter/scripts/light.js')),
      skill: 'torch-lighter',
    });
  });

  test('an absolute path inside skills/ and a harmless ".." inside skills/ are accepted', async () => {
    const absolute = await resolveToolPath(path.join(story.root, 'skills/door-examiner/scripts/examine.js'), { root: story.root });
    assert.equal(absolute.ok && absolute.skill, 'door-examiner');
    const dotted = await resolveToolPath('skills/torch-lighter/../door-examiner/scripts/examine.js', { root: story.root });
    assert.equal(dotted.ok && dotted.skill, 'door-examiner');
  });

  test('"../outside.js" is rejected, with a message naming the policy, its reason, the allowed directory and the ways out', async () => {
    const message = assertFailure(await resolveToolPath('../outside.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    assert.ok(message.includes(path.join(story.root, 'skills')), message);
    assert.match(message, /tool-path policy: a plan is untrusted input \(a model writes it\)/);
    assert.match(message, /narratoria\.allowedToolRoots/);
    assert.match(message, /--allow-tool-root DIR/);
    assert.match(message, /allowOutsideSkills/);
    assert.match(message, /--allow-outside-skills/);
  });

  test('".." segments that climb out of skills/ are rejected', async () => {
    assertFailure(await resolveToolPath('skills/torch-lighter/../../../outside.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    assertFailure(await resolveToolPath('skills/../skills-evil/x.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('an absolute path such as /etc/passwd is rejected', async () => {
    assertFailure(await resolveToolPath('/etc/passwd', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('a sibling directory sharing the prefix ("skills-evil/") is not inside skills/', async () => {
    assertFailure(await resolveToolPath('skills-evil/x.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('a symlink inside skills/ that points outside is rejected', async () => {
    const message = assertFailure(await resolveToolPath('skills/linked/scripts/escape.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    assert.match(message, /symbolic link/);
    assert.ok(message.includes(fs.realpathSync(story.outsideScript)), message);
  });

  test('a script reached through a symlinked directory that points outside is rejected', async () => {
    assertFailure(await resolveToolPath('skills/dir-link/payload.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('the skills root itself and a directory are not scripts', async () => {
    assertFailure(await resolveToolPath('skills', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    const message = assertFailure(await resolveToolPath('skills/torch-lighter/scripts', { root: story.root }), 'TOOL_PATH_NOT_A_FILE');
    assert.match(message, /is a directory/);
  });

  test('a missing script and a broken symlink are not found', async () => {
    const missing = assertFailure(await resolveToolPath('skills/torch-lighter/scripts/nope.js', { root: story.root }), 'TOOL_PATH_NOT_FOUND');
    assert.match(missing, /does not exist/);
    const broken = assertFailure(await resolveToolPath('skills/linked/scripts/broken.js', { root: story.root }), 'TOOL_PATH_NOT_FOUND');
    assert.match(broken, /broken symbolic link/);
    assertFailure(await resolveToolPath('skills/torch-lighter/scripts/light.js/x.js', { root: story.root }), 'TOOL_PATH_NOT_FOUND');
    assertFailure(await resolveToolPath('skills/x\0.js', { root: story.root }), 'TOOL_PATH_NOT_FOUND');
  });

  test('nothing outside is looked at: a missing file outside is "outside", not "not found"', async () => {
    assertFailure(await resolveToolPath('../no-such-file.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('allowOutsideSkills relaxes confinement but still requires an existing file', async () => {
    const policy = { root: story.root, allowOutsideSkills: true };
    const outside = await resolveToolPath('../outside.js', policy);
    assert.deepEqual(outside, { ok: true, absolutePath: story.outsideScript, realPath: fs.realpathSync(story.outsideScript), skill: null });
    const linked = await resolveToolPath('skills/linked/scripts/escape.js', policy);
    assert.equal(linked.ok && linked.realPath, fs.realpathSync(story.outsideScript));
    assert.equal((await resolveToolPath('skills-evil/x.js', policy)).ok, true);
    assertFailure(await resolveToolPath('../no-such-file.js', policy), 'TOOL_PATH_NOT_FOUND');
    assertFailure(await resolveToolPath('skills-evil', policy), 'TOOL_PATH_NOT_A_FILE');
  });

  test('extraSkillRoots are accepted, directly or through a symlink under skills/', async () => {
    const policy = { root: story.root, extraSkillRoots: [story.bundled] };
    const direct = await resolveToolPath(path.join(story.bundled, 'dice-roller/scripts/roll.js'), policy);
    assert.equal(direct.ok && direct.skill, 'dice-roller');
    const viaLink = await resolveToolPath('skills/bundled-link/dice-roller/scripts/roll.js', policy);
    assert.equal(viaLink.ok && viaLink.skill, 'dice-roller');
    // Without the extra root both are outside.
    assertFailure(await resolveToolPath(path.join(story.bundled, 'dice-roller/scripts/roll.js'), { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    assertFailure(await resolveToolPath('skills/bundled-link/dice-roller/scripts/roll.js', { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
    // A relative extra root resolves against the story root.
    const relative = await resolveToolPath(path.join(story.bundled, 'dice-roller/scripts/roll.js'), { root: story.root, extraSkillRoots: ['../bundled'] });
    assert.equal(relative.ok, true);
  });

  test('allowedToolRoots: scripts in an allowed folder run (belonging to no skill); nothing else outside does', async () => {
    const outsideDir = path.join(story.base, 'outside-dir');
    const policy = { root: story.root, allowedToolRoots: [outsideDir] };
    const allowed = await resolveToolPath(path.join(outsideDir, 'payload.js'), policy);
    assert.deepEqual(allowed, {
      ok: true,
      absolutePath: path.join(outsideDir, 'payload.js'),
      realPath: fs.realpathSync(path.join(outsideDir, 'payload.js')),
      skill: null,
    });
    // A relative allowed folder resolves against the story root, as a relative toolPath does.
    assert.equal((await resolveToolPath('../outside-dir/payload.js', { root: story.root, allowedToolRoots: ['../outside-dir'] })).ok, true);
    // The symlinked directory under skills/ that points into the allowed folder now reaches an allowed script.
    assert.equal((await resolveToolPath('skills/dir-link/payload.js', policy)).ok, true);
    // Everything else outside stays refused, and the message names the allowed folder.
    const message = assertFailure(await resolveToolPath('../outside.js', policy), 'TOOL_PATH_OUTSIDE_SKILLS');
    assert.ok(message.includes(outsideDir), message);
    assertFailure(await resolveToolPath('skills/linked/scripts/escape.js', policy), 'TOOL_PATH_OUTSIDE_SKILLS');
    // Scripts under skills/ keep their skill.
    const inSkills = await resolveToolPath('skills/torch-lighter/scripts/light.js', policy);
    assert.equal(inSkills.ok && inSkills.skill, 'torch-lighter');
    // Without the setting, the allowed folder's script is outside, as before.
    assertFailure(await resolveToolPath(path.join(outsideDir, 'payload.js'), { root: story.root }), 'TOOL_PATH_OUTSIDE_SKILLS');
  });

  test('allowedToolRoots: a symbolic link inside an allowed folder that points elsewhere is refused', async () => {
    const allowedDir = path.join(story.base, 'allowed-tools');
    fs.mkdirSync(allowedDir, { recursive: true });
    fs.writeFileSync(path.join(allowedDir, 'torch.js'), '#!/usr/bin/env node\n');
    fs.symlinkSync(story.outsideScript, path.join(allowedDir, 'escape.js'));
    fs.symlinkSync(path.join(story.base, 'outside-dir'), path.join(allowedDir, 'escape-dir'));
    const policy = { root: story.root, allowedToolRoots: [allowedDir] };
    assert.equal((await resolveToolPath(path.join(allowedDir, 'torch.js'), policy)).ok, true);
    const message = assertFailure(await resolveToolPath(path.join(allowedDir, 'escape.js'), policy), 'TOOL_PATH_OUTSIDE_SKILLS');
    assert.match(message, /symbolic link/);
    assertFailure(await resolveToolPath(path.join(allowedDir, 'escape-dir', 'payload.js'), policy), 'TOOL_PATH_OUTSIDE_SKILLS');
    // A folder allowed through a symbolic link holds what its real folder holds.
    const linkedAllowed = path.join(story.base, 'allowed-link');
    fs.symlinkSync(allowedDir, linkedAllowed);
    assert.equal((await resolveToolPath(path.join(allowedDir, 'torch.js'), { root: story.root, allowedToolRoots: [linkedAllowed] })).ok, true);
  });

  test('a story root reached through a symlink, and a symlinked skills directory, still work', async () => {
    const linkedRoot = path.join(story.base, 'story-link');
    fs.symlinkSync(story.root, linkedRoot);
    const throughRoot = await resolveToolPath('skills/torch-lighter/scripts/light.js', { root: linkedRoot });
    assert.equal(throughRoot.ok && throughRoot.skill, 'torch-lighter');

    const otherRoot = path.join(story.base, 'story2');
    fs.mkdirSync(otherRoot);
    fs.symlinkSync(story.bundled, path.join(otherRoot, 'skills'));
    const throughSkills = await resolveToolPath('skills/dice-roller/scripts/roll.js', { root: otherRoot });
    assert.equal(throughSkills.ok && throughSkills.skill, 'dice-roller');
  });

  test('a script lying directly in the skills root belongs to no skill', async () => {
    const loose = await resolveToolPath('skills/loose.js', { root: story.root });
    assert.equal(loose.ok, true);
    assert.equal(loose.ok && loose.skill, null);
  });
});

test('skillNameOfPath finds <name> in skills/<name>/…', () => {
  assert.equal(skillNameOfPath('skills/dice-roller/scripts/roll.js'), 'dice-roller');
  assert.equal(skillNameOfPath('./skills/dice-roller/roll.js'), 'dice-roller');
  assert.equal(skillNameOfPath('C:\\story\\skills\\dice-roller\\roll.js'), 'dice-roller');
  assert.equal(skillNameOfPath('/home/me/story/skills/torch-lighter/scripts/light.js'), 'torch-lighter');
  assert.equal(skillNameOfPath('skills/a/../b/x.js'), 'b');
  assert.equal(skillNameOfPath('skills/roll.js'), null);
  assert.equal(skillNameOfPath('tools/torch-lighter'), null);
  assert.equal(skillNameOfPath('my-skills/a/b.js'), null);
  assert.equal(skillNameOfPath('skills/../a/b.js'), null);
});

test('isInside is a whole-segment prefix check', () => {
  const base = path.resolve('/story/skills');
  assert.equal(isInside(path.join(base, 'a', 'b.js'), base), true);
  assert.equal(isInside(base, base), false);
  assert.equal(isInside(path.resolve('/story/skills-evil/x.js'), base), false);
  assert.equal(isInside(path.resolve('/story/x.js'), base), false);
  assert.equal(isInside(path.resolve('/story/skills/..evil'), base), true); // a file named "..evil" inside skills
});
