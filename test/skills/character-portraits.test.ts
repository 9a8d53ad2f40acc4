// Tests of the character-portraits skill: manifest and schemas, and the portrait script run for real (SVG file at an absolute path, features from the description, determinism, palettes, placeholder).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAjv } from '../../src/runtime/contracts/schemas.js';
import type { AssetEvent } from '../../src/runtime/contractTypes/toolEvent.js';
import {
  assertProtocol,
  assertScripts,
  assertValidConfigSchema,
  eventsOfType,
  loadValidManifest,
  mapLimit,
  readJson,
  runScript,
  skillsRoot,
  type RunOptions,
} from './skillTestKit.js';

const skillDir = path.join(skillsRoot, 'character-portraits');
const portrait = path.join(skillDir, 'scripts', 'portrait.js');
const parallel = Math.max(2, Math.min(8, os.availableParallelism()));

interface PortraitOutput {
  assetId: string;
  path: string;
  name: string;
  slug: string;
  placeholder: boolean;
  palette: string;
  features: Record<string, unknown>;
}

async function withDataDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'narratoria-portraits-'));
  try {
    return await body(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function options(dir: string, config?: Record<string, unknown>): RunOptions {
  return { env: { NARRATORIA_SKILL_SHARED: dir }, ...(config ? { config } : {}) };
}

/**
 * A strict enough well-formedness check for the generated SVG: an XML declaration, one <svg> root,
 * balanced tags with quoted attributes, and text without a raw '<' or a bare '&'.
 */
function assertWellFormedSvg(svg: string): void {
  assert.ok(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg '), 'XML declaration then the svg root');
  assert.ok(svg.trimEnd().endsWith('</svg>'), 'ends with </svg>');
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos|#\d+);[^"<&]*)*")*)\s*(\/?)>/g;
  const body = svg.slice(svg.indexOf('?>') + 2);
  const stack: string[] = [];
  let roots = 0;
  let last = 0;
  for (const match of body.matchAll(tag)) {
    const text = body.slice(last, match.index);
    assert.doesNotMatch(text, /</, `stray markup before ${match[0]}`);
    assert.doesNotMatch(text, /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/, `bare & in ${JSON.stringify(text)}`);
    last = match.index + match[0].length;
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      assert.equal(stack.pop(), name, `</${name}> closes the open element`);
    } else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name!);
    } else if (stack.length === 0) {
      assert.fail(`element <${name}/> outside the root`);
    }
  }
  assert.equal(body.slice(last).trim(), '', 'nothing after the root');
  assert.deepEqual(stack, [], 'every element is closed');
  assert.equal(roots, 1, 'one root element');
}

async function draw(
  dir: string,
  input: unknown,
  config?: Record<string, unknown>,
): Promise<{ output: PortraitOutput; asset: AssetEvent; svg: string; patch: Record<string, unknown>; logs: { level: string; message: string }[] }> {
  const run = await runScript(portrait, { requestId: 'p1', tool: 'portrait1', input, dependencies: {}, state: {} }, options(dir, config));
  const { events, done } = assertProtocol(run);
  assert.equal(done.ok, true, run.stdout);
  const output = done.output as unknown as PortraitOutput;
  const assets = eventsOfType(events, 'asset');
  assert.equal(assets.length, 1);
  const asset = assets[0]!;
  assert.equal(asset.assetId, `portrait-${output.slug}`);
  assert.equal(asset.kind, 'image');
  assert.equal(asset.mediaType, 'image/svg+xml');
  assert.ok(path.isAbsolute(asset.path), `absolute path: ${asset.path}`);
  assert.equal(asset.path, output.path);
  assert.equal(path.dirname(asset.path), path.join(path.resolve(dir), 'portraits'));
  assert.equal(path.basename(asset.path), `portrait-${output.slug}.svg`);
  assert.equal(asset.metadata?.['name'], output.name);
  assert.deepEqual(asset.metadata?.['features'], output.features);
  assert.equal(asset.metadata?.['placeholder'], output.placeholder);
  const patches = eventsOfType(events, 'state_patch');
  assert.deepEqual(
    patches.map((event) => event.patch),
    [{ portraits: { [output.slug]: output.path } }],
  );
  const svg = await fs.readFile(asset.path, 'utf8');
  assertWellFormedSvg(svg);
  return { output, asset, svg, patch: patches[0]!.patch, logs: eventsOfType(events, 'log').map((event) => ({ level: event.level, message: event.message })) };
}

const mira = {
  name: 'Mira Vell',
  description: 'A young half-elf smuggler with long red hair, green eyes, freckled pale skin, a scar across her cheek and a hooded green cloak, smiling',
};

test('character-portraits: skill.json, config schema, input schema and prompt are valid', async () => {
  const manifest = await loadValidManifest(skillDir);
  assert.equal(manifest.name, 'character-portraits');
  assert.deepEqual(manifest.capabilities, ['portrait', 'image', 'character']);
  assert.deepEqual(
    manifest.scripts?.map((script) => [script.name, script.path]),
    [['portrait', 'scripts/portrait.js']],
  );
  await assertScripts(skillDir, manifest);
  assert.deepEqual(await assertValidConfigSchema(skillDir), { palette: 'natural', size: 256, showName: true });
  const prompt = await fs.readFile(path.join(skillDir, 'prompt.md'), 'utf8');
  assert.ok(prompt.length > 1000 && prompt.includes('placeholder') && prompt.includes('description'), 'prompt.md is a real prompt');

  const validateInput = createAjv().compile((await readJson(path.join(skillDir, 'scripts', 'portrait.input.schema.json'))) as object);
  assert.ok(validateInput(mira));
  assert.ok(validateInput({ name: 'Grak', palette: 'noir' }));
  assert.ok(!validateInput({ description: 'no name' }));
  assert.ok(!validateInput({ name: 'Grak', palette: 'neon' }));
});

test('character-portraits: draws a valid SVG with the name at an absolute path in the shared data directory (a portrait library is shared by every session)', async () => {
  await withDataDir(async (dir) => {
    const { output, asset, svg, logs } = await draw(dir, mira);
    assert.equal(output.name, 'Mira Vell');
    assert.equal(output.slug, 'mira-vell');
    assert.equal(output.assetId, 'portrait-mira-vell');
    assert.equal(output.path, path.join(path.resolve(dir), 'portraits', 'portrait-mira-vell.svg'));
    assert.equal(output.placeholder, false);
    assert.equal(output.palette, 'natural');
    assert.match(svg, /<title id="title">Portrait of Mira Vell<\/title>/);
    assert.match(svg, />Mira Vell<\/text>/, 'name plate');
    assert.match(svg, /<desc>A young half-elf smuggler/);
    assert.match(svg, /width="256" height="256" viewBox="0 0 256 256"/);
    assert.deepEqual(
      {
        hairColor: output.features['hairColor'],
        hairStyle: output.features['hairStyle'],
        eyeColor: output.features['eyeColor'],
        skinTone: output.features['skinTone'],
        ears: output.features['ears'],
        scar: output.features['scar'],
        freckles: output.features['freckles'],
        headwear: output.features['headwear'],
        expression: output.features['expression'],
        age: output.features['age'],
        clothing: output.features['clothing'],
        garment: output.features['garment'],
      },
      {
        hairColor: 'red',
        hairStyle: 'long',
        eyeColor: 'green',
        skinTone: 'pale',
        ears: 'pointed',
        scar: true,
        freckles: true,
        headwear: 'hood',
        expression: 'smile',
        age: 'young',
        clothing: 'green',
        garment: 'cloak',
      },
    );
    const recognized = asset.metadata?.['recognized'] as string[];
    for (const feature of ['hairColor', 'eyeColor', 'skinTone', 'ears', 'scar', 'headwear']) assert.ok(recognized.includes(feature), feature);
    assert.ok(svg.includes('#3f9b4f'), 'green irises are drawn');
    assert.ok(logs.some((entry) => entry.level === 'info'));
    assert.deepEqual(await fs.readdir(path.join(dir, 'portraits')), ['portrait-mira-vell.svg'], 'no temporary file is left behind');
  });
});

test('character-portraits: reads many kinds of features from descriptions', async () => {
  const cases: [string, Record<string, unknown>][] = [
    [
      'an old dwarf with a braided grey beard, stern, in plate armour with a helmet and an eye patch',
      { age: 'old', facialHair: 'beard', beardColor: 'grey', expression: 'stern', armor: true, garment: 'armor', headwear: 'helmet', eyepatch: true },
    ],
    ['orc warrior, bald, tusks, golden earrings, amber eyes', { skinTone: 'green', tusks: true, hairStyle: 'bald', earring: true, eyeColor: 'amber' }],
    [
      'tiefling sorceress with violet eyes, black curly hair, a wizard hat and spectacles',
      { horns: true, skinTone: 'red', eyeColor: 'violet', hairColor: 'black', hairStyle: 'curly', headwear: 'wizard-hat', glasses: true, garment: 'robe' },
    ],
    [
      'a blond young king with blue eyes, a moustache and a golden crown',
      { hairColor: 'blond', eyeColor: 'blue', facialHair: 'moustache', headwear: 'crown', age: 'young' },
    ],
    ['drow assassin', { ears: 'pointed', hairColor: 'white', eyeColor: 'red', skinTone: 'purple' }],
    [
      'dark-skinned ranger with silver hair in braids, grey-eyed, wearing a wide hat and a brown cloak',
      { skinTone: 'dark', hairColor: 'silver', hairStyle: 'braided', eyeColor: 'grey', headwear: 'hat', clothing: 'brown', garment: 'cloak' },
    ],
    ['clean-shaven dwarf with a circlet', { facialHair: 'none', headwear: 'circlet' }],
    ['stubbled sailor with a tricorn', { facialHair: 'stubble', headwear: 'hat' }],
  ];
  await withDataDir(async (dir) => {
    await mapLimit(cases, parallel, async ([description, expected], index) => {
      const { output, svg } = await draw(dir, { name: `Character ${index}`, description });
      for (const [key, value] of Object.entries(expected)) assert.equal(output.features[key], value, `${description}: ${key}`);
      assert.equal(output.placeholder, false);
      assert.match(svg, new RegExp(`Portrait of Character ${index}<`));
    });
  });
});

test('character-portraits: the same input gives the same file; other inputs give other pictures', async () => {
  await withDataDir(async (a) => {
    await withDataDir(async (b) => {
      const [first, second] = await mapLimit([a, b], parallel, (dir) => draw(dir, mira));
      assert.equal(first!.svg, second!.svg);
      assert.deepEqual(first!.output.features, second!.output.features);
      const [plain, bearded] = await mapLimit(
        [
          { name: 'Mira Vell', description: 'a mysterious traveller' },
          { name: 'Mira Vell', description: 'a mysterious traveller with a beard' },
        ],
        parallel,
        (input, index) => draw(index === 0 ? a : b, input),
      );
      assert.notEqual(plain!.svg, bearded!.svg);
      assert.notEqual(plain!.svg, first!.svg);
      // Drawing the same character again replaced the earlier file.
      assert.equal(plain!.output.path, first!.output.path);
      assert.equal(await fs.readFile(first!.output.path, 'utf8'), plain!.svg);
    });
  });
});

test('character-portraits: palettes recolour the portrait; noir is pure grey', async () => {
  await withDataDir(async (dir) => {
    const noir = await draw(dir, { ...mira, palette: 'noir' });
    assert.equal(noir.output.palette, 'noir');
    const colours = [...noir.svg.matchAll(/#([0-9a-f]{6})\b/g)].map((match) => match[1]!);
    assert.ok(colours.length > 10);
    for (const colour of colours) assert.equal(colour.slice(0, 2).repeat(3), colour, `#${colour} is grey`);
    const sepia = await draw(dir, { ...mira, name: 'Mira Sepia' }, { palette: 'sepia', size: 512 });
    assert.equal(sepia.output.palette, 'sepia');
    assert.match(sepia.svg, /width="512" height="512"/);
    const unknown = await draw(dir, { ...mira, name: 'Mira Neon', palette: 'neon' });
    assert.equal(unknown.output.palette, 'natural');
    assert.ok(unknown.logs.some((entry) => entry.level === 'warn' && /neon/.test(entry.message)));
    const noPlate = await draw(dir, { ...mira, name: 'Mira Bare' }, { showName: false });
    assert.doesNotMatch(noPlate.svg, /<text/);
    assert.match(noPlate.svg, /<title id="title">Portrait of Mira Bare<\/title>/);
  });
});

test('character-portraits: no usable description gives a placeholder silhouette, never a failure', async () => {
  await withDataDir(async (dir) => {
    const cases: [string, unknown, string][] = [
      ['Nobody', undefined, 'no description'],
      ['Blank', '   ', 'empty description'],
      ['Numbers', 42, 'unusable description'],
      ['Listy', ['red hair'], 'unusable description'],
    ];
    await mapLimit(cases, parallel, async ([name, description, reason]) => {
      const { output, asset, svg, logs } = await draw(dir, description === undefined ? { name } : { name, description });
      assert.equal(output.placeholder, true);
      assert.equal(asset.metadata?.['placeholder'], true);
      assert.equal(asset.metadata?.['reason'], reason);
      assert.deepEqual(output.features, {});
      assert.match(svg, />\?<\/text>/, 'the silhouette has a question mark');
      assert.match(svg, new RegExp(`<title id="title">Portrait of ${name}</title>`));
      if (typeof description !== 'string' && description !== undefined) assert.ok(logs.some((entry) => entry.level === 'warn'));
    });
  });
});

test('character-portraits: names are escaped in the SVG and slugged safely', async () => {
  await withDataDir(async (dir) => {
    const tricky = await draw(dir, { name: 'Tom & <Jerry> "the" Bold', description: 'a grinning rogue with a "lucky" scar & a hat' });
    assert.equal(tricky.output.slug, 'tom-jerry-the-bold');
    assert.match(tricky.svg, /Portrait of Tom &amp; &lt;Jerry&gt; &quot;the&quot; Bold</);
    assert.match(tricky.svg, /&quot;lucky&quot; scar &amp; a hat/);
    const accented = await draw(dir, { name: 'Élodie Brûlé', description: 'curly brown hair' });
    assert.equal(accented.output.slug, 'elodie-brule');
    assert.match(accented.svg, /Portrait of Élodie Brûlé</);
    const unicode = await draw(dir, { name: '李白', description: 'a poet with a long black beard' });
    assert.match(unicode.output.slug, /^character-[0-9a-f]+$/);
    assert.match(unicode.svg, /Portrait of 李白</);
    const long = await draw(dir, { name: 'A'.repeat(300), description: 'tall' });
    assert.equal(long.output.name.length, 100);
    assert.ok(long.output.slug.length <= 60);
  });
});

test('character-portraits: a relative NARRATORIA_SKILL_SHARED still gives an absolute path; unset falls back to <skill dir>/shared', async () => {
  await withDataDir(async (dir) => {
    const relative = path.relative(process.cwd(), dir);
    const run = assertProtocol(await runScript(portrait, { input: mira }, { env: { NARRATORIA_SKILL_SHARED: relative } }));
    const asset = eventsOfType(run.events, 'asset')[0]!;
    assert.ok(path.isAbsolute(asset.path));
    assert.equal(asset.path, path.join(path.resolve(dir), 'portraits', 'portrait-mira-vell.svg'));
    await fs.access(asset.path);

    const skillCopy = path.join(dir, 'skill');
    await fs.mkdir(skillCopy);
    await fs.copyFile(path.join(skillDir, 'config-schema.json'), path.join(skillCopy, 'config-schema.json'));
    await fs.writeFile(path.join(skillCopy, 'config.json'), JSON.stringify({ palette: 'noir' }));
    const fallback = assertProtocol(
      await runScript(portrait, { input: mira }, { env: { NARRATORIA_SKILL_DIR: skillCopy, NARRATORIA_SKILL_SHARED: undefined } }),
    );
    const fallbackAsset = eventsOfType(fallback.events, 'asset')[0]!;
    assert.equal(fallbackAsset.path, path.join(skillCopy, 'shared', 'portraits', 'portrait-mira-vell.svg'));
    assert.equal(fallbackAsset.metadata?.['palette'], 'noir', 'config.json is read');
    await fs.access(fallbackAsset.path);
  });
});

test('character-portraits: an unwritable shared data directory fails with ASSET_WRITE_FAILED', async () => {
  await withDataDir(async (dir) => {
    const file = path.join(dir, 'not-a-directory');
    await fs.writeFile(file, 'x');
    const run = await runScript(portrait, { input: mira }, { env: { NARRATORIA_SKILL_SHARED: file } });
    const { events, done } = assertProtocol(run);
    assert.equal(done.ok, false);
    assert.equal(eventsOfType(events, 'error')[0]?.errorCode, 'ASSET_WRITE_FAILED');
    assert.equal(eventsOfType(events, 'asset').length, 0);
  });
});

for (const [label, stdin] of [
  ['empty stdin', ''],
  ['invalid JSON', '{"input"'],
  ['a JSON string', '"Mira"'],
  ['a non-object input', '{"input":["Mira"]}'],
  ['a missing name', '{"input":{"description":"red hair"}}'],
  ['a blank name', '{"input":{"name":"   "}}'],
  ['a non-string name', '{"input":{"name":7}}'],
] as const) {
  test(`character-portraits: ${label} gives an error event and done ok:false, never a stack trace`, async () => {
    await withDataDir(async (dir) => {
      const run = await runScript(portrait, stdin, options(dir));
      const { events, done } = assertProtocol(run);
      assert.equal(done.ok, false);
      assert.equal(eventsOfType(events, 'error').length, 1);
      assert.equal(eventsOfType(events, 'asset').length, 0);
      assert.doesNotMatch(run.stdout, /\n\s+at /);
    });
  });
}
