// Build script: bundles the CLI, the extension host code and the webview with esbuild (type-checking is `npm run typecheck`).
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';
import { staleCopies, syncCopies } from './packages/skill-sdk/syncCopies.mjs';

const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/**
 * Swaps src/runtime/contracts/precompiledValidators.ts for Ajv standalone code generated from contracts/, so the
 * bundles validate without compiling schemas at start-up (about 45 ms of every `narratoria` command).
 */
let generatedValidators;
async function standaloneValidators() {
  const { standaloneValidatorSource } = await tsImport('./src/runtime/contracts/standaloneValidators.ts', import.meta.url);
  return standaloneValidatorSource();
}

const precompiledValidatorsPlugin = {
  name: 'precompiled-validators',
  setup(build) {
    build.onResolve({ filter: /^\.\/precompiledValidators\.js$/ }, (args) =>
      /[\\/]src[\\/]runtime[\\/]contracts$/.test(args.resolveDir) ? { path: 'precompiledValidators.cjs', namespace: 'narratoria-generated' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'narratoria-generated' }, async () => {
      // Generated once for the four Node bundles of a build; again on each change when watching.
      const contents = await (watch ? standaloneValidators() : (generatedValidators ??= standaloneValidators()));
      return { contents, loader: 'js', resolveDir: process.cwd(), watchDirs: ['contracts'] };
    });
  },
};

/**
 * jsonc-parser declares no `sideEffects`, so esbuild keeps all its modules, and its formatter builds whitespace tables
 * at load: ~0.9 ms of every command, in bundles that never format. Its modules do nothing else at load, so they are
 * marked free of side effects and a bundle keeps only those it uses.
 */
const jsoncParserPurePlugin = {
  name: 'jsonc-parser-pure',
  setup(build) {
    build.onResolve({ filter: /^(jsonc-parser|\.\/impl\/[\w-]+)$/ }, async (args) => {
      if (args.pluginData?.resolvingJsonc) return undefined;
      if (args.path !== 'jsonc-parser' && !/[\\/]node_modules[\\/]jsonc-parser[\\/]/.test(args.importer)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolvingJsonc: true },
      });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/**
 * The cl100k_base encoding is ~1 MB of data: in the CLI bundle every command would read it, and the extension would
 * hold it from activation. So src/runtime/campaign/lore/cl100k.ts is bundled on its own (dist/loreTokenizer.cjs), and
 * the lore code's `import('./cl100k.js')` becomes a require of that file, beside the bundle, when lore is first chunked.
 */
const loreTokenizerPlugin = {
  name: 'lore-tokenizer',
  setup(build) {
    build.onResolve({ filter: /^\.\/cl100k\.js$/ }, (args) =>
      /[\\/]src[\\/]runtime[\\/]campaign[\\/]lore$/.test(args.resolveDir) ? { path: 'loreTokenizer.cjs', namespace: 'narratoria-lore-tokenizer' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'narratoria-lore-tokenizer' }, () => ({
      contents: "module.exports = require(require('node:path').join(__dirname, 'loreTokenizer.cjs'));",
      loader: 'js',
    }));
  },
};

/** The CLI bundle's first line: the launcher (src/cli/codeCache.ts) compiles the file as one function expression. */
const { BUNDLE_HEAD } = await tsImport('./src/cli/codeCache.ts', import.meta.url);

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer ESM entry points: jsonc-parser's UMD build hides its requires from the bundler.
  mainFields: ['module', 'main'],
  // llamaModel.ts reads import.meta.url only when run from sources (ESM); in a bundle it takes its __dirname branch.
  logOverride: { 'empty-import-meta': 'silent' },
  plugins: [precompiledValidatorsPlugin, jsoncParserPurePlugin, loreTokenizerPlugin],
};

const builds = [
  {
    ...common,
    // The CLI program; dist/cli.cjs below is the small launcher that loads it through the compile cache. The file is
    // one function expression (BUNDLE_HEAD), so V8 compiles it as read, without a copy.
    // cliRun is `run` alone (src/cli/codeCache.ts's programBundle): it starts without the other commands' code.
    entryPoints: { cliMain: 'src/cli/bin.ts', cliRun: 'src/cli/runBin.ts' },
    // Always without comments and spaces (names stay readable outside production): every command holds the whole
    // text in memory, and a smaller, ASCII-only text (esbuild escapes the rest) is a one-byte string that is cheaper
    // to read and to fork (bench b2). cliBundle.test.ts checks both.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    define: { NARRATORIA_VERSION: JSON.stringify(packageJson.version) },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: BUNDLE_HEAD },
    footer: { js: '})' },
  },
  {
    ...common,
    entryPoints: { cli: 'src/cli/launcher.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { extension: 'src/extension/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'node-llama-cpp'],
  },
  {
    // The model worker process (src/runtime/narrator/modelWorker.ts): node-llama-cpp is ESM with top-level
    // await, so it stays external and the worker loads it with import().
    ...common,
    entryPoints: { modelWorker: 'src/runtime/narrator/modelWorker.ts', graphLayoutWorker: 'src/runtime/graph/layoutWorker.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['node-llama-cpp'],
  },
  {
    // The cl100k_base token counter of lore chunking, loaded by the CLI and the extension on first use (see loreTokenizerPlugin).
    ...common,
    entryPoints: { loreTokenizer: 'src/runtime/campaign/lore/cl100k.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
  },
  {
    // Webview bundles (browser, no Node): each entry imports its own CSS, which esbuild writes beside it.
    ...common,
    entryPoints: {
      play: 'src/webview/play/main.ts',
      configForm: 'src/webview/configForm/main.ts',
      graph: 'src/webview/graph/main.ts',
      inspector: 'src/webview/inspector/main.ts',
      explore: 'src/webview/explore/main.ts',
    },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/** Static files: codicons ship inside the VSIX (webviews never fetch from a CDN), the activity-bar icon, the Marketplace icon and the narrator's lexicon, word vectors and topics. */
function copyStaticFiles() {
  mkdirSync('dist/webview', { recursive: true });
  mkdirSync('dist/media', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/${file}`);
  copyFileSync('src/extension/media/narratoria.svg', 'dist/media/narratoria.svg');
  // The Marketplace icon (rendered from icon.svg; the galleries need a PNG of at least 128 px).
  copyFileSync('src/extension/media/icon.png', 'dist/media/icon.png');
  // The pattern narrator's lexicon (WordNet relations, built by buildLexicon.mjs), word vectors (GloVe, trimmed by
  // buildVectors.mjs) and topics (written for the project), read beside the bundles.
  mkdirSync('dist/data', { recursive: true });
  for (const file of ['lexicon.txt', 'WORDNET-LICENSE', 'vectors.bin', 'VECTORS-LICENSE', 'topics.txt'])
    copyFileSync(`src/runtime/narrator/selection/relatedness/${file}`, `dist/data/${file}`);
}

/**
 * The editor's plan schema reads plans as the validator does (src/runtime/validation/tolerantPlanReading.ts):
 * unknown keys of the plan, a tool or a retry policy, unusual toolIds and retry values above the caps are the
 * validator's warnings, so VS Code's own JSON validation must not also refuse them. contracts/ stays strict.
 */
function tolerateInEditor(schema) {
  const tool = schema.$defs.ToolInvocation;
  const retry = schema.$defs.RetryPolicy;
  for (const node of [schema, tool, retry]) delete node.additionalProperties;
  delete tool.properties.toolId.pattern;
  delete retry.properties.maxRetries.maximum;
  delete retry.properties.backoffMs.maximum;
}

/**
 * Editor schemas for `contributes.jsonValidation`: VS Code resolves a cross-file `$ref` against the schema's
 * `$id` (an https URL it will not fetch), so references to other contracts are inlined into `$defs`.
 */
function writeEditorSchemas() {
  mkdirSync('dist/schemas', { recursive: true });
  const read = (file) => JSON.parse(readFileSync(`contracts/${file}`, 'utf8'));
  // The campaign schemas VS Code checks as authors type (src/runtime/campaign/authoring/campaignEditorDiagnostics.ts lists their globs).
  const campaign = ['npc-profile', 'player-template', 'beats', 'asset-sidecar'].map((name) => `campaign/${name}.schema.json`);
  mkdirSync('dist/schemas/campaign', { recursive: true });
  for (const file of ['plan-json.schema.json', 'skill-manifest.schema.json', 'config-schema-meta.schema.json', 'playtest.schema.json', ...campaign]) {
    const schema = read(file);
    const inlined = {};
    const visit = (node) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      const match = typeof node.$ref === 'string' ? /^([\w.-]+\.schema\.json)#\/\$defs\/(\w+)$/.exec(node.$ref) : null;
      if (match) {
        const [, other, name] = match;
        const key = `${other.replace('.schema.json', '')}.${name}`;
        inlined[key] = read(other).$defs[name];
        node.$ref = `#/$defs/${key}`;
      }
      Object.values(node).forEach(visit);
    };
    visit(schema);
    schema.$defs = { ...schema.$defs, ...inlined };
    if (file === 'plan-json.schema.json') tolerateInEditor(schema);
    writeFileSync(`dist/schemas/${file}`, `${JSON.stringify(schema, null, 2)}\n`);
  }
}

// The skill SDK's copies (sample skills' lib/ and New Skill's embedded text) and the shared skill libraries' copies, before bundling, which embeds the SDK's text.
// In CI the committed copies must already match packages/skill-sdk/: a stale one fails the build instead of being rewritten.
if (process.env.CI) {
  const stale = staleCopies();
  if (stale.length > 0) {
    console.error(
      `esbuild.mjs: copies differ from their originals (packages/skill-sdk/, shared skill libraries; run npm run build and commit them): ${stale.map((copy) => `${copy.file} (from ${copy.original})`).join(', ')}`,
    );
    process.exit(1);
  }
} else {
  for (const file of syncCopies()) console.log(`esbuild.mjs: copied to ${file} from its original (commit it)`);
}
mkdirSync('dist', { recursive: true });
copyStaticFiles();
writeEditorSchemas();
if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching for changes…');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  chmodSync('dist/cli.cjs', 0o755);
}
