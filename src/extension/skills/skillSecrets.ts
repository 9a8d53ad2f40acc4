// Skill secrets in VS Code's SecretStorage: the runtime's SecretLookup and SkillSecretStore ports over vscode.SecretStorage. Never logs a value.
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { SecretLookup } from '../../runtime/skills/skillConfig.js';
import type { SkillSecretStore } from '../../runtime/skills/skillConfigSave.js';

/**
 * The SecretStorage key of a skill's sensitive config field in one story, e.g.
 * `narratoria.skill.3f2a…/storyteller.apiKey`. SecretStorage is shared by every window, so the key
 * carries the story folder: another story (or a cloned repository) with a skill of the same name never
 * receives this story's secret.
 */
export function skillSecretKey(storyRoot: string, skill: string, key: string): string {
  const story = createHash('sha256').update(storyRoot).digest('hex').slice(0, 16);
  return `narratoria.skill.${story}/${skill}.${key}`;
}

/** The SecretLookup the SkillRegistry of the story at `storyRoot` resolves `x-sensitive` fields with. */
export function createSecretLookup(storage: vscode.SecretStorage, storyRoot: string): SecretLookup {
  return async (skill, key) => await storage.get(skillSecretKey(storyRoot, skill, key));
}

/** The SkillSecretStore the Configure Skill form of the story at `storyRoot` saves sensitive values into. */
export function createSkillSecretStore(storage: vscode.SecretStorage, storyRoot: string): SkillSecretStore {
  return {
    get: async (skill, key) => await storage.get(skillSecretKey(storyRoot, skill, key)),
    store: async (skill, key, value) => await storage.store(skillSecretKey(storyRoot, skill, key), value),
    delete: async (skill, key) => await storage.delete(skillSecretKey(storyRoot, skill, key)),
  };
}
