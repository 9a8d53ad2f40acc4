// Test helper: builds real temporary stories with skills (manifests, scripts, configs) and removes them afterwards.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A temporary directory holding a story root (`<base>/story`) and room for extra skills roots. */
export interface TempStory {
  readonly base: string;
  /** The story root; its skills live in `<root>/skills`. */
  readonly root: string;
  /** Writes `content` (JSON-encoded unless a string) to `<base>/<relative>`; returns the absolute path. */
  write(relative: string, content: unknown, mode?: number): string;
  /** Writes `<skillsRoot>/<directory>/skill.json` (name and version filled in) and the given files inside the skill (files starting with #! get mode 755). */
  skill(directory: string, manifest?: Record<string, unknown>, files?: Readonly<Record<string, unknown>>, skillsRoot?: string): string;
  remove(): void;
}

/** A minimal NDJSON script: reads stdin and reports done with `output`. */
export const DONE_SCRIPT = `#!/usr/bin/env node
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  process.stdout.write(JSON.stringify({ version: '0', type: 'done', ok: true, output: {} }) + '\\n');
});
`;

/** Creates a fresh story under os.tmpdir(). Scripts there are CommonJS (a package.json says so). */
export function createTempStory(prefix = 'narratoria-skills-'): TempStory {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const root = path.join(base, 'story');
  fs.mkdirSync(path.join(root, 'skills'), { recursive: true });
  const write = (relative: string, content: unknown, mode?: number): string => {
    const file = path.join(base, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    if (mode !== undefined) fs.chmodSync(file, mode);
    return file;
  };
  write('package.json', { type: 'commonjs' });
  return {
    base,
    root,
    write,
    skill(directory, manifest = {}, files = {}, skillsRoot = 'story/skills') {
      const skillDirectory = path.join(skillsRoot, directory);
      write(path.join(skillDirectory, 'skill.json'), { name: directory, version: '1.0.0', description: `The ${directory} skill.`, ...manifest });
      for (const [relative, content] of Object.entries(files)) {
        write(path.join(skillDirectory, relative), content, typeof content === 'string' && content.startsWith('#!') ? 0o755 : undefined);
      }
      return path.join(base, skillDirectory);
    },
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** A config-schema.json document with the given properties. */
export function configSchema(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties, ...extra };
}
