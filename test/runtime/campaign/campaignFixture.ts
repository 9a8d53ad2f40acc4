// Test helper: writes a starter campaign into a real temporary folder, seeds a mistake in it, validates it, and finds where a text sits in a file.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateCampaign, type CampaignDiagnostic, type CampaignValidation } from '../../../src/runtime/campaign/index.js';
import { starterCampaignFiles, type StarterCampaign } from '../../../src/runtime/campaign/starterCampaigns.js';

const folders: string[] = [];

/** Removes every folder the fixtures made (call in `after`). */
export function removeCampaignFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A fresh folder holding the starter campaign `kind`. */
export function writeStarterCampaign(kind: StarterCampaign): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), `narratoria-campaign-${kind}-`));
  folders.push(folder);
  for (const file of starterCampaignFiles(kind)) write(folder, file.path, file.bytes ?? file.text ?? '');
  return folder;
}

/** Edits of a campaign folder, for seeding one mistake. */
export class CampaignEditor {
  constructor(readonly folder: string) {}

  read(file: string): string {
    return readFileSync(path.join(this.folder, ...file.split('/')), 'utf8');
  }

  write(file: string, text: string | Uint8Array): this {
    write(this.folder, file, text);
    return this;
  }

  /** Replaces the first `from` in `file` (which must be there). */
  replace(file: string, from: string, to: string): this {
    const text = this.read(file);
    if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
    return this.write(file, text.replace(from, to));
  }

  /** Sets the value at `segments` of a JSON file (undefined deletes it), written back pretty-printed. */
  set(file: string, segments: readonly (string | number)[], value: unknown): this {
    const root = JSON.parse(this.read(file)) as unknown;
    let node = root as Record<string | number, unknown>;
    for (const segment of segments.slice(0, -1)) {
      node[segment] ??= {};
      node = node[segment] as Record<string | number, unknown>;
    }
    const last = segments.at(-1)!;
    if (value === undefined) {
      if (Array.isArray(node)) node.splice(Number(last), 1);
      else delete node[last];
    } else node[last] = value;
    return this.write(file, `${JSON.stringify(root, null, 2)}\n`);
  }

  remove(file: string): this {
    rmSync(path.join(this.folder, ...file.split('/')), { recursive: true });
    return this;
  }

  move(from: string, to: string): this {
    renameSync(path.join(this.folder, ...from.split('/')), path.join(this.folder, ...to.split('/')));
    return this;
  }

  link(file: string, target: string): this {
    symlinkSync(target, path.join(this.folder, ...file.split('/')));
    return this;
  }
}

/** The complete (or minimal) starter campaign with a mistake seeded by `seed`, validated. */
export async function seeded(seed: (editor: CampaignEditor) => void, kind: StarterCampaign = 'complete'): Promise<CampaignValidation & { folder: string }> {
  const folder = writeStarterCampaign(kind);
  const editor = new CampaignEditor(folder);
  seed(editor);
  const validation = await validateCampaign(folder);
  if (!validation) throw new Error(`${folder} holds no campaign`);
  return { ...validation, folder };
}

/** The 1-based line and column where the `occurrence`-th (from 1) `needle` starts in `file` of `folder`. */
export function positionOf(folder: string, file: string, needle: string, occurrence = 1): { line: number; column: number } {
  const text = readFileSync(path.join(folder, ...file.split('/')), 'utf8');
  let offset = -1;
  for (let found = 0; found < occurrence; found++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${file} has no occurrence ${occurrence} of ${JSON.stringify(needle)}`);
  }
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The diagnostics of one code. */
export function withCode(diagnostics: readonly CampaignDiagnostic[], code: string): CampaignDiagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.code === code);
}

/** `file:line:column` of a diagnostic (`file` alone for a folder's). */
export function where(diagnostic: CampaignDiagnostic): string {
  return diagnostic.range ? `${diagnostic.file}:${diagnostic.range.start.line}:${diagnostic.range.start.column}` : diagnostic.file;
}

/** `file:line:column` of a needle (`shift` characters into it: the value after `"key": `). */
export function at(folder: string, file: string, needle: string, occurrence = 1, shift = 0): string {
  const { line, column } = positionOf(folder, file, needle, occurrence);
  return `${file}:${line}:${column + shift}`;
}

function write(folder: string, file: string, text: string | Uint8Array): void {
  const target = path.join(folder, ...file.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
}
