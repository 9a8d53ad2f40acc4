// Test helper for campaign authoring: the complete starter campaign loaded (optionally with unsaved texts over the disk), offsets of needles, and edits applied to real files.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyTextEdits } from '../../../../src/runtime/authoring/textSpan.js';
import type { CampaignFileRename, CampaignTextEdit } from '../../../../src/runtime/campaign/authoring/index.js';
import { loadCampaign, type Campaign } from '../../../../src/runtime/campaign/index.js';
import { CampaignEditor, writeStarterCampaign } from '../campaignFixture.js';

export const BEATS = 'plot/beats.json';

/** A starter campaign on disk, with a mistake or change seeded by `seed`. */
export function campaignFolder(seed: (editor: CampaignEditor) => void = () => {}): string {
  const folder = writeStarterCampaign('complete');
  seed(new CampaignEditor(folder));
  return folder;
}

/** Loads the campaign of `folder`; `unsaved` gives texts (by campaign-relative path) that replace the disk's, as an editor's open documents do. */
export async function load(folder: string, unsaved: Readonly<Record<string, string>> = {}): Promise<Campaign> {
  const readText = async (file: string): Promise<string> => {
    const relative = path.relative(folder, file).split(path.sep).join('/');
    return unsaved[relative] ?? readFileSync(file, 'utf8');
  };
  const campaign = await loadCampaign(folder, undefined, { readText });
  if (!campaign) throw new Error(`${folder} holds no campaign`);
  return campaign;
}

/** The text of a campaign file as loaded. */
export function textOf(campaign: Campaign, file: string): string {
  const document = campaign.documents.get(file);
  if (!document) throw new Error(`${file} was not read`);
  return document.text;
}

/** The offset of the `occurrence`-th (from 1) `needle` in a file of the campaign, plus `shift`. */
export function offsetOf(campaign: Campaign, file: string, needle: string, occurrence = 1, shift = 0): number {
  const text = textOf(campaign, file);
  let offset = -1;
  for (let found = 0; found < occurrence; found++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${file} has no occurrence ${occurrence} of ${JSON.stringify(needle)}`);
  }
  return offset + shift;
}

/** `file:line:column` of a 1-based range's start. */
export function startOf(target: { readonly file: string; readonly range: { readonly start: { readonly line: number; readonly column: number } } }): string {
  return `${target.file}:${target.range.start.line}:${target.range.start.column}`;
}

/** `file:line:column` where a needle starts in the loaded text (`shift` characters in). */
export function placeOf(campaign: Campaign, file: string, needle: string, occurrence = 1, shift = 0): string {
  const text = textOf(campaign, file);
  const offset = offsetOf(campaign, file, needle, occurrence, shift);
  const before = text.slice(0, offset).split('\n');
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

/** Applies a rename's text edits to the files, then moves its folders, as VS Code applies the WorkspaceEdit. */
export function applyRename(folder: string, edits: readonly CampaignTextEdit[], renames: readonly CampaignFileRename[]): void {
  const byFile = new Map<string, CampaignTextEdit[]>();
  for (const edit of edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  for (const [file, fileEdits] of byFile) {
    const absolute = path.join(folder, ...file.split('/'));
    writeFileSync(
      absolute,
      applyTextEdits(
        readFileSync(absolute, 'utf8'),
        fileEdits.map((edit) => ({ ...edit.span, newText: edit.newText })),
      ),
    );
  }
  for (const rename of renames) {
    const to = path.join(folder, ...rename.to.split('/'));
    mkdirSync(path.dirname(to), { recursive: true });
    renameSync(path.join(folder, ...rename.from.split('/')), to);
  }
}
