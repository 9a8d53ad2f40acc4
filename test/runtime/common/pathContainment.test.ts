// Tests of the one path-containment check: whole segments, the folder itself, and a symlink that escapes the allowed folder.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import {
  FolderGate,
  isFileInsideFolders,
  isPathInside,
  isResolvedPathInside,
  pathFromRoot,
  relativeInside,
} from '../../../src/runtime/common/pathContainment.js';

const base = mkdtempSync(path.join(tmpdir(), 'narratoria-containment-'));
after(() => rmSync(base, { recursive: true, force: true }));

test('isPathInside compares whole segments and counts the folder itself only when asked', () => {
  const folder = path.join(base, 'story');
  assert.equal(isPathInside(path.join(folder, 'a', 'b.png'), folder), true);
  assert.equal(isPathInside(folder, folder), false);
  assert.equal(isPathInside(folder, folder, { allowSame: true }), true);
  assert.equal(isPathInside(`${folder}-evil${path.sep}x.png`, folder), false);
  assert.equal(isPathInside(path.join(folder, '..', 'x.png'), folder), false);
  assert.equal(isPathInside(path.join(folder, '..evil'), folder), true, 'a file named "..evil" is inside');
  assert.equal(isResolvedPathInside(path.join(folder, 'a'), folder), true);
  assert.equal(isResolvedPathInside(`${folder}-evil`, folder), false);
});

test('relativeInside and pathFromRoot', () => {
  const root = path.join(base, 'root');
  assert.equal(relativeInside(path.join(root, 'skills', 'x.js'), root), path.join('skills', 'x.js'));
  assert.equal(relativeInside(root, root), '');
  assert.equal(relativeInside(path.join(base, 'other'), root), undefined);
  assert.equal(pathFromRoot(path.join(root, 'skills', 'dice', 'roll.js'), root), 'skills/dice/roll.js');
  assert.equal(pathFromRoot(path.join(base, 'elsewhere.js'), root), path.join(base, 'elsewhere.js'));
});

test('the gate follows symlinks: a link inside the allowed folder to a file outside it is refused', {
  skip: process.platform === 'win32' && 'symlinks need privileges on Windows',
}, () => {
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  mkdirSync(allowed, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(allowed, 'inside.png'), 'x');
  writeFileSync(path.join(outside, 'secret.png'), 'x');
  symlinkSync(path.join(outside, 'secret.png'), path.join(allowed, 'escape.png'));
  symlinkSync(path.join(allowed, 'inside.png'), path.join(outside, 'back.png'));

  const gate = new FolderGate([allowed]);
  assert.equal(gate.allows(path.join(allowed, 'inside.png')), true);
  assert.equal(gate.allows(path.join(allowed, 'escape.png')), false, 'the link escapes');
  assert.equal(gate.allows(path.join(outside, 'back.png')), false, 'asked for by a path outside, even though it lands inside');
  assert.equal(gate.allows(path.join(allowed, 'missing.png')), false, 'a missing file is not let through');
  assert.equal(isFileInsideFolders(path.join(outside, 'secret.png'), [allowed]), false);
  assert.equal(isFileInsideFolders(path.join(outside, 'secret.png'), [allowed, outside]), true);
});

test('an allowed folder reached through a symlink still admits its files', {
  skip: process.platform === 'win32' && 'symlinks need privileges on Windows',
}, () => {
  const real = path.join(base, 'real-folder');
  mkdirSync(real, { recursive: true });
  writeFileSync(path.join(real, 'a.png'), 'x');
  const linked = path.join(base, 'linked-folder');
  symlinkSync(real, linked);
  assert.equal(isFileInsideFolders(path.join(linked, 'a.png'), [linked]), true);
});
