// A campaign file's text with ranges: JSON files parsed with offsets and checked against their contract (syntax, comments, schema), other texts by line.
import { contractSchemas, contractValidator, type ContractName } from '../contracts/schemas.js';
import { DiagnosticCode, type SourceRange } from '../validation/diagnostic.js';
import { parseJsonDocument, type PointerTarget } from '../validation/jsonLocator.js';
import { schemaProblems } from '../validation/schemaErrors.js';
import type { CampaignDiagnosticDraft } from './campaignDiagnostic.js';
import type { CampaignDocument } from './campaignModel.js';

/** Most syntax errors reported for one file (one per line). */
const MAX_SYNTAX_DIAGNOSTICS = 20;

/** Patterns of the campaign contracts, said in words instead of as a regular expression. */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  '^beat_[0-9]{3,}$': 'is not a beat id: beat_ and at least three digits, e.g. beat_001',
  '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$':
    'is not a semantic version such as 1.0.0',
  '^(?![/\\\\])(?![A-Za-z]:)(?!.*(^|[/\\\\])\\.\\.([/\\\\]|$)).+$':
    'is not a path inside the campaign: write it relative to the campaign folder, without a leading / or a .. segment',
};

/** A text file's document: only its first line has a range (pointer ''). */
export function textDocument(file: string, text: string): CampaignDocument {
  return {
    file,
    text,
    rangeOf: (pointer) => (pointer === '' ? firstLineRange(text) : undefined),
  };
}

/** The range of a text's first line (an empty first line gives a one-column range at 1:1). */
export function firstLineRange(text: string): SourceRange {
  const end = /\r|\n/.exec(text)?.index ?? text.length;
  return { start: { line: 1, column: 1 }, end: { line: 1, column: end + 1 } };
}

export interface ReadJson {
  readonly document: CampaignDocument;
  /** The parsed value; undefined when the text has syntax errors. */
  readonly value: unknown;
  /** The value parsed and passed its contract (true when there is no contract). */
  readonly valid: boolean;
  readonly drafts: readonly CampaignDiagnosticDraft[];
}

/** Parses a campaign JSON file and checks it against `contract` (none: syntax only). */
export function readJsonFile(file: string, text: string, contract: ContractName | undefined): ReadJson {
  const json = parseJsonDocument(text);
  const document: CampaignDocument = {
    file,
    text,
    rangeOf: (pointer: string, target?: PointerTarget) =>
      pointer === '' && json.root === undefined ? firstLineRange(text) : json.rangeOfPointer(pointer, target),
  };
  const drafts: CampaignDiagnosticDraft[] = [];
  if (json.syntaxProblems.length > 0) {
    const lines = new Set<number>();
    for (const problem of json.syntaxProblems) {
      const range = json.rangeAt(problem.offset, problem.length);
      if (lines.has(range.start.line) || lines.size >= MAX_SYNTAX_DIAGNOSTICS) continue;
      lines.add(range.start.line);
      drafts.push({ severity: 'error', code: DiagnosticCode.JSON_SYNTAX, message: `invalid JSON: ${problem.message}`, file, pointer: problem.pointer, range });
    }
    return { document, value: undefined, valid: false, drafts };
  }
  for (const extension of json.extensions) {
    const what = extension.kind === 'trailingComma' ? "trailing comma before '}' or ']'" : 'comment';
    const message = `${what}: campaign files are JSON, which has none; Narratoria reads it, other tools may not`;
    drafts.push({
      severity: 'warning',
      code: DiagnosticCode.JSON_COMMENT,
      message,
      file,
      pointer: '',
      range: json.rangeAt(extension.offset, extension.length),
    });
  }
  if (contract === undefined) return { document, value: json.value, valid: true, drafts };
  const validate = contractValidator(contract);
  if (validate(json.value) === true) return { document, value: json.value, valid: true, drafts };
  for (const problem of schemaProblems([...(validate.errors ?? [])], json.value, contractSchemas[contract])) {
    drafts.push({ severity: 'error', code: problem.code, message: friendlier(problem.message), file, pointer: problem.pointer, target: problem.target });
  }
  return { document, value: json.value, valid: false, drafts };
}

function friendlier(message: string): string {
  const match = / does not match the pattern (.+)$/.exec(message);
  const words = match ? PATTERN_WORDS[match[1]!] : undefined;
  return words === undefined ? message : `${message.slice(0, match!.index)} ${words}`;
}
