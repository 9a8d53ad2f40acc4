// Finds the skill a script belongs to and what its manifest says about it (timeout, directories, config).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { relativeInside } from '../common/pathContainment.js';

/** What the executor needs to know about the skill behind one script. */
export interface SkillContext {
  /** Skill name (the directory under a skills root), or null for scripts outside any skill. */
  readonly skill: string | null;
  readonly skillDirectory?: string | undefined;
  /** The manifest's `scripts[].timeout` for this script, in ms. */
  readonly manifestTimeoutMs?: number | undefined;
  /** Effective configuration as JSON (NARRATORIA_SKILL_CONFIG), when the skill has one. */
  readonly configJson?: string | undefined;
  /** Extra environment variables for this skill's scripts. */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** Port: the skills framework supplies a richer one; this file has the manifest-only default. */
export interface SkillContextProvider {
  contextFor(scriptRealPath: string): Promise<SkillContext>;
}

interface ManifestScript {
  readonly path?: unknown;
  readonly timeout?: unknown;
}

/**
 * Reads `<skills root>/<skill>/skill.json` (cached per run) to find the script's manifest timeout.
 * `skillsRoots` must be real paths (symlinks resolved).
 */
export class ManifestSkillContextProvider implements SkillContextProvider {
  private readonly manifests = new Map<string, Promise<{ scripts?: readonly ManifestScript[] } | undefined>>();
  private readonly contexts = new Map<string, Promise<SkillContext>>();

  constructor(private readonly skillsRoots: readonly string[]) {}

  /** Cached per script for the provider's lifetime (one plan run), so manifests and configs are read once. */
  contextFor(scriptRealPath: string): Promise<SkillContext> {
    let context = this.contexts.get(scriptRealPath);
    if (!context) this.contexts.set(scriptRealPath, (context = this.lookUp(scriptRealPath)));
    return context;
  }

  private async lookUp(scriptRealPath: string): Promise<SkillContext> {
    for (const root of this.skillsRoots) {
      const relative = relativeInside(scriptRealPath, root);
      if (relative === undefined) continue;
      const skill = relative.split(path.sep)[0];
      if (!skill || skill === relative) continue;
      const skillDirectory = path.join(root, skill);
      const manifest = await this.manifest(skillDirectory);
      let manifestTimeoutMs: number | undefined;
      for (const script of manifest?.scripts ?? []) {
        if (typeof script.path === 'string' && path.resolve(skillDirectory, script.path) === scriptRealPath && typeof script.timeout === 'number') {
          manifestTimeoutMs = script.timeout;
        }
      }
      const configJson = await readOptional(path.join(skillDirectory, 'config.json'));
      return { skill, skillDirectory, manifestTimeoutMs, configJson };
    }
    return { skill: null };
  }

  private manifest(skillDirectory: string) {
    let cached = this.manifests.get(skillDirectory);
    if (!cached) {
      cached = readOptional(path.join(skillDirectory, 'skill.json')).then((text) => {
        if (text === undefined) return undefined;
        try {
          return JSON.parse(text) as { scripts?: readonly ManifestScript[] };
        } catch {
          return undefined;
        }
      });
      this.manifests.set(skillDirectory, cached);
    }
    return cached;
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
