// Skill secrets in VS Code's SecretStorage: the runtime's SecretLookup and SkillSecretStore ports over vscode.SecretStorage. Never logs a value.
import type * as vscode from 'vscode';
import type { SecretLookup } from '../../runtime/skills/skillConfig.js';
import type { SkillSecretStore } from '../../runtime/skills/skillConfigForm.js';

/** The SecretStorage key of a skill's sensitive config field, e.g. `narratoria.skill.storyteller.apiKey`. */
export function skillSecretKey(skill: string, key: string): string {
  return `narratoria.skill.${skill}.${key}`;
}

/** The SecretLookup the SkillRegistry resolves `x-sensitive` fields with. */
export function createSecretLookup(storage: vscode.SecretStorage): SecretLookup {
  return async (skill, key) => await storage.get(skillSecretKey(skill, key));
}

/** The SkillSecretStore the Configure Skill form saves sensitive values into. */
export function createSkillSecretStore(storage: vscode.SecretStorage): SkillSecretStore {
  return {
    get: async (skill, key) => await storage.get(skillSecretKey(skill, key)),
    store: async (skill, key, value) => await storage.store(skillSecretKey(skill, key), value),
    delete: async (skill, key) => await storage.delete(skillSecretKey(skill, key)),
  };
}
