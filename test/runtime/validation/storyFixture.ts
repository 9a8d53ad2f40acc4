// Test helper: builds a real temporary story root (skills, a bundled skill root, escaping symlinks) and locates text positions.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Paths of a temporary story laid out for validation tests; call `remove()` when done. */
export interface StoryFixture {
  /** Temporary directory holding everything below. */
  readonly base: string;
  /** The story root: has skills/torch-lighter, skills/door-examiner and some hostile entries. */
  readonly root: string;
  /** An extra skill root (like the extension's bundled skills) with dice-roller/scripts/roll.js. */
  readonly bundled: string;
  /** A script outside every skill root: <base>/outside.js. */
  readonly outsideScript: string;
  remove(): void;
}

/**
 * Layout (under a fresh mkdtemp directory):
 *   outside.js, outside-dir/payload.js, bundled/dice-roller/scripts/roll.js,
 *   story/skills/torch-lighter/scripts/light.js, story/skills/door-examiner/scripts/examine.js,
 *   story/skills/linked/scripts/escape.js -> ../../../../outside.js (symlink to a file outside),
 *   story/skills/linked/scripts/broken.js -> missing target, story/skills/dir-link -> ../../outside-dir,
 *   story/skills/bundled-link -> ../../bundled, story/skills/loose.js, story/skills-evil/x.js.
 */
export function createStoryFixture(): StoryFixture {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'narratoria-validation-'));
  const root = path.join(base, 'story');
  const bundled = path.join(base, 'bundled');
  const write = (file: string, content = '#!/usr/bin/env node\n'): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  write(path.join(base, 'outside.js'));
  write(path.join(base, 'outside-dir', 'payload.js'));
  write(path.join(bundled, 'dice-roller', 'scripts', 'roll.js'));
  write(path.join(root, 'skills', 'torch-lighter', 'scripts', 'light.js'));
  write(path.join(root, 'skills', 'door-examiner', 'scripts', 'examine.js'));
  write(path.join(root, 'skills', 'loose.js'));
  write(path.join(root, 'skills-evil', 'x.js'));
  const linkedScripts = path.join(root, 'skills', 'linked', 'scripts');
  fs.mkdirSync(linkedScripts, { recursive: true });
  fs.symlinkSync(path.join('..', '..', '..', '..', 'outside.js'), path.join(linkedScripts, 'escape.js'));
  fs.symlinkSync(path.join(base, 'does-not-exist.js'), path.join(linkedScripts, 'broken.js'));
  fs.symlinkSync(path.join('..', '..', 'outside-dir'), path.join(root, 'skills', 'dir-link'));
  fs.symlinkSync(path.join('..', '..', 'bundled'), path.join(root, 'skills', 'bundled-link'));
  return {
    base,
    root,
    bundled,
    outsideScript: path.join(base, 'outside.js'),
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** 1-based line and column of the `occurrence`-th (0-based) match of `needle` in `text`; throws when absent. */
export function positionOf(text: string, needle: string, occurrence = 0): { line: number; column: number } {
  let offset = -1;
  for (let found = 0; found <= occurrence; found++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${JSON.stringify(needle)} (occurrence ${occurrence}) not in the text`);
  }
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}
