// What the editor shows of a campaign's diagnostics (jsonValidation's globs kept equal to package.json's, schema and syntax codes left to VS Code while a file is open) and which folders are campaigns.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  campaignFolderOf,
  campaignRelative,
  EDITOR_SCHEMA_FILES,
  editorSchemaOf,
  looksLikeCampaign,
  MANIFEST_GLOB,
  shownByEditor,
  type EditorState,
} from '../../../../src/runtime/campaign/authoring/index.js';
import { globPattern } from '../../../../src/runtime/campaign/authoring/campaignEditorDiagnostics.js';
import { contractSchemas } from '../../../../src/runtime/contracts/schemas.js';
import type { CampaignDiagnostic } from '../../../../src/runtime/campaign/index.js';
import { removeCampaignFolders, seeded, writeStarterCampaign } from '../campaignFixture.js';

const scratch: string[] = [];
after(() => {
  removeCampaignFolders();
  for (const folder of scratch.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');

test("package.json's jsonValidation gives VS Code exactly the campaign globs the collection leaves schema problems to", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { jsonValidation: { fileMatch: string | string[]; url: string }[] };
  };
  const campaign = manifest.contributes.jsonValidation.filter((entry) => entry.url.startsWith('./dist/schemas/campaign/'));
  assert.deepEqual(
    campaign.map((entry) => ({ schema: entry.url.replace('./dist/schemas/campaign/', ''), fileMatch: [entry.fileMatch].flat() })),
    EDITOR_SCHEMA_FILES.map((entry) => ({ schema: entry.schema, fileMatch: [...entry.fileMatch] })),
  );
  for (const entry of EDITOR_SCHEMA_FILES) assert.ok(`campaign/${entry.schema}` in contractSchemas, `${entry.schema} is a contract`);
  // No glob of any jsonValidation entry catches a manifest.json, a plan or a skill's files.
  const every = manifest.contributes.jsonValidation.filter((entry) => entry.url.includes('/campaign/')).flatMap((entry) => [entry.fileMatch].flat());
  for (const file of ['/w/story/manifest.json', '/w/story/plans/turn.plan.json', '/w/story/skills/dice/skill.json', '/w/web/public/manifest.json']) {
    assert.ok(!every.some((glob) => globPattern(glob).test(file)), file);
  }
});

test('the editor schema of a path follows the globs, on / and \\ paths, at any depth', () => {
  assert.equal(editorSchemaOf('/home/a/salt/plot/beats.json'), 'beats.schema.json');
  assert.equal(editorSchemaOf('C:\\stories\\salt\\characters\\npcs\\odile\\profile.json'), 'npc-profile.schema.json');
  assert.equal(editorSchemaOf('/s/characters/player/template.json'), 'player-template.schema.json');
  assert.equal(editorSchemaOf('/s/art/locations/tower.png.meta.json'), 'asset-sidecar.schema.json');
  assert.equal(editorSchemaOf('/s/characters/npcs/alder/portrait.png.meta.json'), 'asset-sidecar.schema.json');
  // Generated stand-ins and lone profiles are checked by Narratoria only.
  assert.equal(editorSchemaOf('/s/characters/npcs/odile/profile_generated.json'), undefined);
  assert.equal(editorSchemaOf('/s/characters/npcs/odile.json'), undefined);
  assert.equal(editorSchemaOf('/s/plot/beats.json.bak'), undefined);
  assert.equal(editorSchemaOf('/s/manifest.json'), undefined);
});

test("while a JSON file is open, its syntax and (with an editor schema) schema problems are VS Code's; closed, they are all Narratoria's", async () => {
  const result = await seeded((campaign) => {
    campaign.set('plot/beats.json', ['beats', 0, 'priority'], 'urgent');
    campaign.set('plot/beats.json', ['beats', 1, 'conditions', 'requires_beat'], 'beat_010');
    campaign.set('manifest.json', ['version'], 'one');
    campaign.write('characters/npcs/tamsin/profile.json', '{ "name": "Tamsin Reed", // a comment\n "role": "Ally", "personality": { "traits": ["quick"] } }\n');
  });
  const open = (languages: Record<string, string>, jsonValidation = true): EditorState => ({ languageOf: (file) => languages[file], jsonValidation });
  const shown = (editor: EditorState) =>
    result.diagnostics
      .filter((diagnostic: CampaignDiagnostic) => !shownByEditor(diagnostic, path.join(result.folder, diagnostic.file), editor))
      .map((diagnostic) => `${diagnostic.file} ${diagnostic.code}`)
      .filter((line) => !line.includes('RECOMMENDED'));
  const everything = [
    'characters/npcs/tamsin/profile.json JSON_COMMENT',
    'manifest.json SCHEMA_VIOLATION',
    'plot/beats.json SCHEMA_VIOLATION',
    'plot/beats.json CAMPAIGN_UNKNOWN_BEAT',
  ];
  assert.deepEqual(shown(open({})).sort(), everything.sort());
  const opened = open({ 'plot/beats.json': 'json', 'manifest.json': 'json', 'characters/npcs/tamsin/profile.json': 'json' });
  assert.deepEqual(
    shown(opened).sort(),
    ['manifest.json SCHEMA_VIOLATION', 'plot/beats.json CAMPAIGN_UNKNOWN_BEAT'],
    "the manifest has no jsonValidation: its schema problems stay Narratoria's",
  );
  assert.deepEqual(
    shown(open({ 'characters/npcs/tamsin/profile.json': 'jsonc' })).includes('characters/npcs/tamsin/profile.json JSON_COMMENT'),
    true,
    'jsonc allows comments',
  );
  assert.deepEqual(shown(open({ 'plot/beats.json': 'json' }, false)).sort(), everything.sort(), 'json.validate.enable off: Narratoria shows all');
  assert.deepEqual(shown(open({ 'plot/beats.json': 'plaintext' })).sort(), everything.sort(), 'open as plain text: VS Code checks nothing');
});

test('a campaign is a manifest folder with campaign folders or a titled manifest; web and extension manifests are not', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'narratoria-discovery-'));
  scratch.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write('web/public/manifest.json', '{ "name": "App", "short_name": "App", "icons": [] }');
  write('extension/manifest.json', '{ "manifest_version": 3, "title": "x", "name": "Ext", "version": "1.0" }');
  write('new-story/manifest.json', '{ "title": "A story begun", "version": "0.1.0" }');
  write('bare/manifest.json', '{}');
  write('bare/plot/premise.md', 'It begins.');
  write('broken/manifest.json', '{ "title": "Half typed", ');
  assert.equal(await looksLikeCampaign(writeStarterCampaign('minimal')), true);
  assert.equal(await looksLikeCampaign(path.join(root, 'web/public')), false);
  assert.equal(await looksLikeCampaign(path.join(root, 'extension')), false);
  assert.equal(await looksLikeCampaign(path.join(root, 'new-story')), true);
  assert.equal(await looksLikeCampaign(path.join(root, 'bare')), true, 'plot/ beside an empty manifest');
  assert.equal(await looksLikeCampaign(path.join(root, 'broken')), true, 'a manifest being typed still has its title');
  assert.equal(await looksLikeCampaign(path.join(root, 'nothing-here')), false);
  assert.equal(MANIFEST_GLOB, '{manifest.json,*/manifest.json,*/*/manifest.json}');
});

test('a file belongs to the deepest campaign holding it; paths are campaign-relative with /', () => {
  const base = path.join(os.tmpdir(), 'w');
  const folders = [path.join(base, 'a'), path.join(base, 'a', 'nested'), path.join(base, 'b')];
  assert.equal(campaignFolderOf(folders, path.join(base, 'a', 'plot', 'beats.json')), folders[0]);
  assert.equal(campaignFolderOf(folders, path.join(base, 'a', 'nested', 'manifest.json')), folders[1]);
  assert.equal(campaignFolderOf(folders, path.join(base, 'ab', 'manifest.json')), undefined, 'a sibling with a common prefix');
  assert.equal(campaignFolderOf(folders, folders[2]!), folders[2]);
  assert.equal(campaignRelative(folders[0]!, path.join(folders[0]!, 'characters', 'npcs', 'odile', 'profile.json')), 'characters/npcs/odile/profile.json');
  assert.equal(campaignRelative(folders[0]!, folders[0]!), '');
});
