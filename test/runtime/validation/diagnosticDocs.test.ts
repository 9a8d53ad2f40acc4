// Checks that docs/diagnostics.md documents every DiagnosticCode and CampaignDiagnosticCode in a `## CODE` section that gives its severity.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DiagnosticCode } from '../../../src/runtime/validation/index.js';
import { CampaignDiagnosticCode } from '../../../src/runtime/campaign/index.js';

const docsFile = path.resolve(import.meta.dirname, '../../../docs/diagnostics.md');

/** Each set of stable codes, with the source whose doc comments give their severities. */
const CODE_SETS: readonly { readonly codes: readonly string[]; readonly source: string }[] = [
  { codes: Object.values(DiagnosticCode), source: 'src/runtime/validation/diagnostic.ts' },
  { codes: Object.values(CampaignDiagnosticCode), source: 'src/runtime/campaign/campaignDiagnostic.ts' },
];
const allCodes = CODE_SETS.flatMap((set) => set.codes);

/** Section bodies by heading (`## HEADING`). */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  const parts = markdown.split(/^## /m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    found.set(part.slice(0, newline).trim(), part.slice(newline + 1));
  }
  return found;
}

test('every DiagnosticCode and CampaignDiagnosticCode has a "## CODE" section in docs/diagnostics.md', () => {
  const documented = sections(readFileSync(docsFile, 'utf8'));
  const missing = allCodes.filter((code) => !documented.has(code));
  assert.deepEqual(missing, []);
  assert.equal(new Set(allCodes).size, allCodes.length, 'no code is in both sets');
});

test('each section of a code states its severity and how to fix it', () => {
  const documented = sections(readFileSync(docsFile, 'utf8'));
  for (const code of allCodes) {
    const body = documented.get(code) ?? '';
    assert.match(body, /\*\*Severity:\*\* (error|warning|info)/, `${code}: severity`);
    assert.match(body, /\*\*Fix:\*\*/, `${code}: fix`);
  }
});

test('the documented severities agree with the code comments of diagnostic.ts and campaignDiagnostic.ts', () => {
  const documented = sections(readFileSync(docsFile, 'utf8'));
  for (const { codes, source: file } of CODE_SETS) {
    const source = readFileSync(path.resolve(import.meta.dirname, '../../..', file), 'utf8');
    for (const code of codes) {
      // The doc comment right before `CODE: 'CODE'` starts with its severity.
      const comment = new RegExp(String.raw`/\*\*\s*(?:\*\s*)?(error|warning|info):(?:(?!\*/)[\s\S])*\*/\s*${code}: '${code}'`).exec(source);
      assert.ok(comment, `${code}: a doc comment starting with its severity in ${file}`);
      assert.match(documented.get(code) ?? '', new RegExp(String.raw`\*\*Severity:\*\* ${comment[1]}`), code);
    }
  }
});
