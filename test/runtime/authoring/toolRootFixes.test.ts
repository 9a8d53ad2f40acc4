// Quick fixes of TOOL_PATH_OUTSIDE_SKILLS on real validator diagnostics over a real temporary story: "Use skills/…" edits and "Allow <folder>" setting changes.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlanDocument } from '../../../src/runtime/authoring/planDocument.js';
import { planQuickFixes } from '../../../src/runtime/authoring/planQuickFixes.js';
import { applyTextEdits } from '../../../src/runtime/authoring/textSpan.js';
import { allowToolRootFixes, settingEntry, withAllowedToolRoot } from '../../../src/runtime/authoring/toolRootFixes.js';
import { createSkillCatalog, type SkillCatalog } from '../../../src/runtime/skills/skillCatalog.js';
import { discoverSkills } from '../../../src/runtime/skills/skillDiscovery.js';
import type { Diagnostic } from '../../../src/runtime/validation/diagnostic.js';
import { validatePlanText } from '../../../src/runtime/validation/validatePlan.js';

let workspace: string;
let root: string;
let catalog: SkillCatalog;

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function skill(name: string, scripts: readonly string[]): void {
  const manifest = {
    name,
    displayName: name,
    version: '1.0.0',
    description: `Test skill ${name}.`,
    scripts: scripts.map((script) => ({ name: script.replace(/\.[^.]*$/, ''), path: `scripts/${script}`, description: `${script} of ${name}` })),
  };
  write(path.join(root, 'skills', name, 'skill.json'), JSON.stringify(manifest, null, 2));
  for (const script of scripts) write(path.join(root, 'skills', name, 'scripts', script), '#!/usr/bin/env node\n');
}

before(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'narratoria-tool-root-fixes-'));
  root = path.join(workspace, 'story');
  skill('torch', ['torch-lighter.js']);
  skill('dice-roller', ['roll-dice.js']);
  skill('fancy-dice', ['roll-dice.js']);
  skill('torch-shell', ['torch-lighter.sh']);
  write(path.join(root, 'tools', 'torch-lighter.js'), '#!/usr/bin/env node\n');
  write(path.join(workspace, 'outside.js'), '#!/usr/bin/env node\n');
  mkdirSync(path.join(root, 'skills', 'torch', 'links'), { recursive: true });
  symlinkSync(path.join(workspace, 'outside.js'), path.join(root, 'skills', 'torch', 'links', 'escape.js'));
  catalog = createSkillCatalog((await discoverSkills({ root })).skills);
});
after(() => rmSync(workspace, { recursive: true, force: true }));

function planOf(...toolPaths: string[]): string {
  const tools = toolPaths.map((toolPath, index) => `    { "toolId": "t${index}", "toolPath": ${JSON.stringify(toolPath)} }`);
  return `{\n  "requestId": "11111111-2222-4333-8444-555555555555",\n  "tools": [\n${tools.join(',\n')}\n  ]\n}`;
}

async function outsideDiagnostics(text: string, allowedToolRoots: readonly string[] = []): Promise<Diagnostic[]> {
  const result = await validatePlanText(text, { root, skills: catalog, allowedToolRoots });
  return result.diagnostics.filter((diagnostic) => diagnostic.code === 'TOOL_PATH_OUTSIDE_SKILLS');
}

test('"Use skills/…": the one script of the same file name under skills/ is the preferred fix, and the fixed plan validates', async () => {
  const text = planOf('tools/torch-lighter.js');
  const diagnostics = await outsideDiagnostics(text);
  assert.equal(diagnostics.length, 1);
  const fixes = planQuickFixes(PlanDocument.parse(text), diagnostics, catalog);
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred]),
    [['Use skills/torch/scripts/torch-lighter.js', true]],
  );
  const fixed = applyTextEdits(text, fixes[0]!.edits);
  assert.equal(fixed, planOf('skills/torch/scripts/torch-lighter.js'));
  assert.equal((await validatePlanText(fixed, { root, skills: catalog })).valid, true);
});

test('"Use skills/…": one fix per script when several skills have the file, none preferred; none when no script matches', async () => {
  const text = planOf('./tools/roll-dice.js', '../elsewhere/narrate.js');
  const diagnostics = await outsideDiagnostics(text);
  assert.equal(diagnostics.length, 2);
  const fixes = planQuickFixes(PlanDocument.parse(text), diagnostics, catalog);
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred ?? false, fix.diagnostic.pointer]),
    [
      ['Use skills/dice-roller/scripts/roll-dice.js', false, '/tools/0/toolPath'],
      ['Use skills/fancy-dice/scripts/roll-dice.js', false, '/tools/0/toolPath'],
    ],
  );
});

test('"Use skills/…": a name without an extension, as other runtimes write it (tools/torch-lighter), finds the script of that name', async () => {
  const text = planOf('tools/torch-lighter');
  const diagnostics = await outsideDiagnostics(text);
  const fixes = planQuickFixes(PlanDocument.parse(text), diagnostics, catalog);
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.isPreferred ?? false]),
    [
      ['Use skills/torch-shell/scripts/torch-lighter.sh', false],
      ['Use skills/torch/scripts/torch-lighter.js', false],
    ],
  );
  // The exact file name wins over a name that only shares the stem.
  const exact = planOf('tools/torch-lighter.js');
  assert.deepEqual(
    planQuickFixes(PlanDocument.parse(exact), await outsideDiagnostics(exact), catalog).map((fix) => fix.title),
    ['Use skills/torch/scripts/torch-lighter.js'],
  );
});

test('"Allow <folder>": the script\'s folder, relative to the workspace folder, added to the setting; the plan then validates', async () => {
  const text = planOf('tools/torch-lighter.js');
  const diagnostics = await outsideDiagnostics(text);
  const fixes = allowToolRootFixes(PlanDocument.parse(text), diagnostics, { root, workspaceFolder: workspace, trusted: true, allowed: ['other'] });
  assert.deepEqual(
    fixes.map((fix) => [fix.title, fix.entry, fix.folder, fix.value, fix.setting]),
    [['Allow story/tools in narratoria.allowedToolRoots', 'story/tools', path.join(root, 'tools'), ['other', 'story/tools'], 'narratoria.allowedToolRoots']],
  );
  // What the extension does with the new value: relative entries resolve against the workspace folder.
  const allowed = fixes[0]!.value.map((entry) => path.resolve(workspace, entry));
  assert.deepEqual(await outsideDiagnostics(text, allowed), []);
  assert.equal((await validatePlanText(text, { root, skills: catalog, allowedToolRoots: allowed })).valid, true);
});

test('"Allow <folder>" is not offered in an untrusted workspace, for a folder already allowed, for the story folder or above it, or for a link out of skills/', async () => {
  const document = (text: string): PlanDocument => PlanDocument.parse(text);
  const tools = planOf('tools/torch-lighter.js');
  const toolsDiagnostics = await outsideDiagnostics(tools);
  assert.deepEqual(allowToolRootFixes(document(tools), toolsDiagnostics, { root, workspaceFolder: workspace, trusted: false, allowed: [] }), []);
  assert.deepEqual(allowToolRootFixes(document(tools), toolsDiagnostics, { root, workspaceFolder: workspace, trusted: true, allowed: ['story/tools/'] }), []);
  const broad = planOf('../outside.js', 'run.js');
  const broadDiagnostics = await outsideDiagnostics(broad);
  assert.equal(broadDiagnostics.length, 2);
  assert.deepEqual(allowToolRootFixes(document(broad), broadDiagnostics, { root, workspaceFolder: workspace, trusted: true, allowed: [] }), []);
  const link = planOf('skills/torch/links/escape.js');
  const linkDiagnostics = await outsideDiagnostics(link);
  assert.equal(linkDiagnostics.length, 1);
  assert.deepEqual(allowToolRootFixes(document(link), linkDiagnostics, { root, workspaceFolder: workspace, trusted: true, allowed: [] }), []);
});

test('a folder outside the workspace folder is written absolute; entries are not repeated', () => {
  assert.equal(settingEntry(path.join(workspace, 'story', 'tools'), workspace), 'story/tools');
  assert.equal(settingEntry('/opt/narratoria/tools', workspace), '/opt/narratoria/tools');
  assert.equal(settingEntry('/opt/narratoria/tools', undefined), '/opt/narratoria/tools');
  assert.deepEqual(withAllowedToolRoot(['tools/'], 'tools'), ['tools/']);
  assert.deepEqual(withAllowedToolRoot(['tools'], 'more'), ['tools', 'more']);
});
