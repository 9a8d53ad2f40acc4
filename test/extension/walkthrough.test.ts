// The Get Started walkthrough in package.json: every button and completion event names a command the extension contributes, and every picture and page ships in the VSIX.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');

interface Step {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly media: { readonly image?: string; readonly altText?: string; readonly markdown?: string };
  readonly completionEvents: readonly string[];
  readonly when?: string;
}
interface Manifest {
  readonly contributes: {
    readonly commands: readonly { readonly command: string }[];
    readonly configuration: { readonly properties: Record<string, unknown> };
    readonly walkthroughs: readonly { readonly id: string; readonly title: string; readonly steps: readonly Step[] }[];
  };
}

const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as Manifest;
const contributed = new Set(manifest.contributes.commands.map((command) => command.command));
/** VS Code's own commands a step may link to. */
const builtIn = new Set(['workbench.action.openSettings', 'vscode.openFolder']);
const [walkthrough] = manifest.contributes.walkthroughs;

test('one walkthrough, whose steps each have a title, a text with a button, media and a way to complete', () => {
  assert.equal(manifest.contributes.walkthroughs.length, 1);
  assert.equal(walkthrough!.id, 'narratoria.gettingStarted');
  assert.ok(walkthrough!.steps.length >= 5);
  assert.equal(new Set(walkthrough!.steps.map((step) => step.id)).size, walkthrough!.steps.length, 'step ids are unique');
  for (const step of walkthrough!.steps) {
    assert.ok(step.title.length > 0 && step.title.length <= 40, `${step.id}: a short title`);
    // A line holding only a command link is drawn as a button.
    assert.match(step.description, /\n\[[^\]]+\]\(command:[^)]+\)/, `${step.id}: a button`);
    assert.ok(step.completionEvents.length > 0, `${step.id}: completion events`);
  }
});

test('every command a step links to or completes on is one the extension contributes (or VS Code’s own)', () => {
  for (const step of walkthrough!.steps) {
    for (const [, command] of step.description.matchAll(/\(command:([\w.]+)/g)) {
      assert.ok(contributed.has(command!) || builtIn.has(command!), `${step.id} links to ${command}`);
    }
    for (const event of step.completionEvents) {
      const [kind, name] = event.split(':');
      if (kind === 'onCommand') assert.ok(contributed.has(name!) || builtIn.has(name!), `${step.id} completes on ${name}`);
      else if (kind === 'onSettingChanged')
        assert.ok(
          Object.keys(manifest.contributes.configuration.properties).some((key) => key.startsWith(`${name}.`)),
          `${step.id}: setting ${name}`,
        );
      else assert.fail(`${step.id}: unexpected completion event ${event}`);
    }
  }
});

test('the step that opens a folder shows only without one; every other step needs a folder and shows with one', () => {
  const [first, ...rest] = walkthrough!.steps;
  assert.equal(first!.id, 'openFolder');
  assert.equal(first!.when, 'workbenchState == empty');
  for (const step of rest) assert.equal(step.when, undefined, `${step.id} is always listed`);
});

test('every picture and page exists, is not empty, and sits where the VSIX includes it (docs/)', () => {
  for (const step of walkthrough!.steps) {
    const file = step.media.image ?? step.media.markdown;
    assert.ok(file, `${step.id}: media`);
    assert.ok(file.startsWith('docs/'), `${step.id}: ${file} is under docs/, which .vscodeignore ships`);
    assert.ok(existsSync(path.join(projectRoot, file)) && statSync(path.join(projectRoot, file)).size > 0, `${step.id}: ${file} exists`);
    if (step.media.image) assert.ok((step.media.altText ?? '').length > 20, `${step.id}: the image has alt text`);
  }
  assert.match(readFileSync(path.join(projectRoot, '.vscodeignore'), 'utf8'), /^!docs\/\*\*$/m);
});
