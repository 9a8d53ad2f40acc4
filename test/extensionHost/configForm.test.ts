// Extension-host tests of skill configuration: the Configure form opens for a skill, and secrets in SecretStorage reach the skill (redacted).
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, test } from 'mocha';
import * as vscode from 'vscode';
import type { NarratoriaApi } from '../../src/extension/main.js';
import { createSkillSecretStore } from '../../src/extension/skills/skillSecrets.js';
import { REDACTED_VALUE } from '../../src/runtime/skills/skillConfig.js';
import { narratoriaApi, waitFor } from './api.js';
import { storyFolder } from './support.js';

suite('Skill configuration', () => {
  let api: NarratoriaApi;

  suiteSetup(async () => {
    api = await narratoriaApi();
    await api.context.skills.ready();
  });

  test('Configure Skill opens a form for the skill', async () => {
    const node = (await api.context.tree.getChildren()).find((candidate) => candidate.kind === 'skill' && candidate.skill.name === 'storyteller');
    assert.ok(node);
    await vscode.commands.executeCommand('narratoria.configureSkill', node);
    await waitFor(
      () => vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => /Configure Storyteller/.test(tab.label))),
      'the Configure Storyteller tab',
    );
  });

  test('a sensitive value stored in SecretStorage reaches the skill, redacted in what the UI sees', async () => {
    const secrets = createSkillSecretStore(api.context.extension.secrets, storyFolder().fsPath);
    await secrets.store('storyteller', 'apiKey', 'sk-extension-host-test');
    try {
      await api.context.skills.refresh();
      const storyteller = api.context.skills.skills.find((skill) => skill.name === 'storyteller');
      assert.equal(storyteller?.config?.['apiKey'], REDACTED_VALUE);
    } finally {
      await secrets.delete('storyteller', 'apiKey');
      await api.context.skills.refresh();
    }
    const storyteller = api.context.skills.skills.find((skill) => skill.name === 'storyteller');
    assert.notEqual(storyteller?.config?.['apiKey'], REDACTED_VALUE);
  });
});
