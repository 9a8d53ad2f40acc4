// Makes story workspaces for the end-to-end tests: a folder with the repository's sample skills (and, on request, the always-failing broken-dice fixture and files of the test's own).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixtureStoryDir, samplePlaytestsDir, sampleSkillsDir } from './paths.js';

/** What goes into a story workspace. */
export interface StoryWorkspaceOptions {
  /**
   * Also add `skills/broken-dice` (a `dice` skill with priority 90, above dice-roller's 60, whose
   * script always fails) and the `lib/` it requires: the pattern narrator picks it first for a
   * check, the turn fails and is re-planned without it, and the dice-roller takes over.
   */
  readonly brokenDice?: boolean;
  /** Leave out the sample skills: an empty folder, as an author starting a new story has. */
  readonly empty?: boolean;
  /** More files to write, by path relative to the story root (e.g. `plans/pick-the-lock.plan.json`, `.vscode/settings.json`); text or bytes. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Folder to create (must not exist yet); default: a new temp folder. */
  readonly dir?: string;
  /** Short name used in the temp folder name. */
  readonly label?: string;
}

/** A story workspace on disk. */
export interface StoryWorkspace {
  readonly dir: string;
  /** Where the extension saves play sessions (`<dir>/.narratoria`). */
  readonly sessionDir: string;
  /** Removes the folder. */
  dispose(): void;
}

/** Creates a story workspace: `<dir>/skills/` holds a copy of the sample skills (without their run-time data). */
export function makeStoryWorkspace(options: StoryWorkspaceOptions = {}): StoryWorkspace {
  let dir: string;
  if (options.dir) {
    dir = options.dir;
    mkdirSync(dir, { recursive: true });
  } else {
    dir = mkdtempSync(path.join(os.tmpdir(), `narratoria-e2e-${options.label ?? 'story'}-`));
  }
  try {
    if (!options.empty) {
      copySkills(sampleSkillsDir, path.join(dir, 'skills'));
      // The sample story's playtests (the Test Explorer lists them; .ci/run plays them with narratoria test).
      cpSync(samplePlaytestsDir, path.join(dir, 'playtests'), { recursive: true });
    }
    if (options.brokenDice) {
      copySkills(path.join(fixtureStoryDir, 'skills', 'broken-dice'), path.join(dir, 'skills', 'broken-dice'));
      // broken-dice's script requires ../../../lib/fixtureProtocol.js, i.e. <story>/lib.
      cpSync(path.join(fixtureStoryDir, 'lib'), path.join(dir, 'lib'), { recursive: true });
    }
    for (const [relative, content] of Object.entries(options.files ?? {})) {
      const file = path.join(dir, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  } catch (error) {
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    sessionDir: path.join(dir, '.narratoria'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Whether `dir` already looks like a story workspace (has a skills folder). */
export function isStoryWorkspace(dir: string): boolean {
  return existsSync(path.join(dir, 'skills'));
}

/** Copies a skills folder, leaving out what skills write at run time (data/, config.json, node_modules). */
function copySkills(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(from, source);
      if (relative === '') return true;
      const parts = relative.split(path.sep);
      if (parts.includes('node_modules')) return false;
      // <skill>/data/* and <skill>/config.json under a skills folder; data/* and config.json in a single skill.
      const inSkill = parts.length >= 2 && existsSync(path.join(from, parts[0]!, 'skill.json')) ? parts.slice(1) : parts;
      if (inSkill[0] === 'data' && inSkill.length > 1) return false;
      if (inSkill.length === 1 && inSkill[0] === 'config.json') return false;
      return true;
    },
  });
}
