// Scaffolds a new skill from a template (manifest, prompt, config schema, a Node script written with the skill SDK and its copy in lib/, an input sample); never overwrites.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SKILL_SDK_DECLARATIONS, SKILL_SDK_SOURCE } from './skillSdkSource.js';

/** What the author chose for the new skill. */
export interface SkillTemplateOptions {
  /** The story's skills folder (created when missing). */
  readonly skillsDirectory: string;
  /** Directory and manifest name: lowercase letters, digits and dashes. */
  readonly name: string;
  readonly displayName?: string;
  readonly description?: string;
}

/** Outcome of {@link scaffoldSkill}: the files written, or why nothing was written. */
export type SkillTemplateResult =
  | { readonly ok: true; readonly directory: string; readonly files: readonly string[]; readonly manifest: string; readonly script: string }
  | { readonly ok: false; readonly message: string };

/** Checks a skill name as the manifest schema does; returns a message for the author, or undefined when valid. */
export function checkSkillName(name: string): string | undefined {
  if (name.length === 0) return 'Give the skill a name.';
  if (name.length > 64) return 'A skill name has at most 64 characters.';
  if (!/^[a-z0-9-]+$/.test(name)) return 'Use lowercase letters, digits and dashes only (e.g. "weather-report").';
  return undefined;
}

/** Turns "weather-report" into "Weather Report". */
export function displayNameOf(name: string): string {
  return name
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Writes `<skillsDirectory>/<name>/` with skill.json, prompt.md, config-schema.json, package.json,
 * scripts/run.js, the skill SDK (lib/narratoria-skill-sdk.js and .d.ts) and samples/input.json. Refuses when the directory already exists, so an author's
 * work is never overwritten; on a write failure, removes only what it created.
 */
export async function scaffoldSkill(options: SkillTemplateOptions): Promise<SkillTemplateResult> {
  const problem = checkSkillName(options.name);
  if (problem) return { ok: false, message: problem };
  const directory = path.join(options.skillsDirectory, options.name);
  const displayName = options.displayName?.trim() || displayNameOf(options.name);
  const description = options.description?.trim() || `${displayName}: describe what this skill does for the story.`;
  const files = templateFiles(options.name, displayName, description);
  await fs.mkdir(options.skillsDirectory, { recursive: true });
  try {
    await fs.mkdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { ok: false, message: `A folder named "${options.name}" already exists in ${options.skillsDirectory}.` };
    return { ok: false, message: `Cannot create ${directory}: ${(error as Error).message}` };
  }
  const written: string[] = [];
  try {
    for (const [relative, content] of Object.entries(files)) {
      const file = path.join(directory, relative);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content, { flag: 'wx' });
      written.push(file);
    }
  } catch (error) {
    await fs.rm(directory, { recursive: true, force: true });
    return { ok: false, message: `Cannot write the skill files: ${(error as Error).message}` };
  }
  return { ok: true, directory, files: written, manifest: path.join(directory, 'skill.json'), script: path.join(directory, 'scripts', 'run.js') };
}

function templateFiles(name: string, displayName: string, description: string): Record<string, string> {
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'skill.json': json({
      name,
      displayName,
      version: '0.1.0',
      description,
      prompt: 'prompt.md',
      configSchema: 'config-schema.json',
      capabilities: [name],
      // Words and example inputs that make the pattern narrator choose this skill (used without the local model).
      keywords: displayName
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => word.length > 2),
      priority: 50,
      scripts: [
        {
          name: 'run',
          path: 'scripts/run.js',
          description: `Runs ${displayName}: reads { "subject": string } and records it in the session state.`,
          timeout: 5000,
          examples: [`Tell me about the ${displayName.toLowerCase()} of the old lighthouse.`, `I use my ${displayName.toLowerCase()} on the old lighthouse.`],
        },
      ],
    }),
    'prompt.md': [
      `# ${displayName}`,
      '',
      'Tell the narrator when to use this skill and what its script needs. The pattern narrator (used until the local model is downloaded) ' +
        "reads this file too, with the manifest's `description`, `capabilities`, `keywords` and each script's `examples`: use the words players will use.",
      '',
      '## When to use',
      '',
      `- Use \`scripts/run.js\` when the player's words are about ${displayName.toLowerCase()}.`,
      '- Input: `{ "subject": "what the player mentioned" }`.',
      `- Output: a summary for the narration; the session state gets \`${camelCase(name)}.lastSubject\`.`,
      '',
    ].join('\n'),
    'config-schema.json': json({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: `${displayName} settings`,
      properties: {
        tone: { type: 'string', title: 'Tone', description: 'How the summary sounds.', enum: ['plain', 'dramatic'], default: 'plain' },
      },
      additionalProperties: false,
    }),
    'package.json': json({ private: true, type: 'commonjs' }),
    'samples/input.json': json({ subject: 'the old lighthouse' }),
    'scripts/run.js': scriptTemplate(name, displayName),
    // The skill SDK (packages/skill-sdk, embedded by the build): the folder works on its own, wherever it is copied.
    'lib/narratoria-skill-sdk.js': SKILL_SDK_SOURCE,
    'lib/narratoria-skill-sdk.d.ts': SKILL_SDK_DECLARATIONS,
  };
}

function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function scriptTemplate(name: string, displayName: string): string {
  const stateKey = camelCase(name);
  return `// ${name}/scripts/run.js: ${displayName} — a skill script speaking the Narratoria NDJSON protocol (version "0") through the skill SDK in ../lib.
'use strict';

const { InputError, emitLog, emitStatePatch, readConfig, runTool } = require('../lib/narratoria-skill-sdk.js');

// stdin: { requestId, tool, input, dependencies, state }; the SDK reads it, and reports a bad one.
runTool({ name: '${name}', example: '{"input":{"subject":"the old lighthouse"}}' }, ({ input }) => {
  if (typeof input.subject !== 'string' || input.subject.trim() === '') {
    // A thrown InputError becomes an INVALID_INPUT error event and done ok:false.
    throw new InputError('input.subject must be a non-empty string');
  }
  // NARRATORIA_SKILL_CONFIG (set by the runtime), else config.json, over config-schema.json's defaults.
  const config = readConfig({ tone: 'plain' });
  emitLog('info', \`${displayName} looks at \${input.subject}\`);
  emitStatePatch({ ${stateKey}: { lastSubject: input.subject } });
  const summary = config.tone === 'dramatic' ? \`All eyes turn to \${input.subject}!\` : \`You consider \${input.subject}.\`;
  // Becomes the done event: { ok: true, summary, output }.
  return { summary, output: { subject: input.subject } };
});
`;
}
