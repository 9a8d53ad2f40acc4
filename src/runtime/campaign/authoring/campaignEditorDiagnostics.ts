// Which campaign diagnostics an editor shows itself: the schemas it checks through jsonValidation, the JSON syntax of open files; the rest is Narratoria's to publish. Pure.
import type { CampaignDiagnostic } from '../campaignDiagnostic.js';

/**
 * The campaign files VS Code checks against a schema as they are typed: package.json's `contributes.jsonValidation`
 * lists the same globs with `./dist/schemas/campaign/<schema>` (a test keeps the two equal). manifest.json is left
 * out on purpose: the name is common (web app and browser extension manifests), and no glob can tell a campaign's
 * apart; Narratoria checks a campaign's manifest itself, in folders it recognises as campaigns.
 */
export const EDITOR_SCHEMA_FILES: readonly { readonly schema: string; readonly fileMatch: readonly string[] }[] = [
  { schema: 'npc-profile.schema.json', fileMatch: ['**/characters/npcs/*/profile.json'] },
  { schema: 'player-template.schema.json', fileMatch: ['**/characters/player/template.json'] },
  { schema: 'beats.schema.json', fileMatch: ['**/plot/beats.json'] },
  {
    schema: 'asset-sidecar.schema.json',
    fileMatch: ['**/art/**/*.meta.json', '**/music/**/*.meta.json', '**/characters/**/*.meta.json', '**/lore/**/*.meta.json'],
  },
];

/** How the editor has a campaign file open and what it checks there. */
export interface EditorState {
  /** The language of the file's open document ('json', 'jsonc'...), undefined when it is not open. */
  languageOf(file: string): string | undefined;
  /** The editor's JSON validation is on (VS Code: `json.validate.enable` and its JSON language features). */
  readonly jsonValidation: boolean;
}

/** The globs as regular expressions over a path with / separators. */
const MATCHERS = EDITOR_SCHEMA_FILES.map((entry) => ({ schema: entry.schema, patterns: entry.fileMatch.map(globPattern) }));

/** The editor schema VS Code checks a file against (absolute path, any separators), or undefined. */
export function editorSchemaOf(absolutePath: string): string | undefined {
  const slashed = absolutePath.replace(/\\/g, '/');
  return MATCHERS.find((matcher) => matcher.patterns.some((pattern) => pattern.test(slashed)))?.schema;
}

/** A glob of jsonValidation (`**`, `*`, literal characters) as a regular expression. */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    if (glob.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (glob.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (glob[index] === '*') {
      source += '[^/]*';
    } else {
      source += glob[index]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether the editor already shows a diagnostic, so Narratoria's collection leaves it out: while a JSON file is open,
 * VS Code reports its syntax errors (and, in `json`, its comments and trailing commas), and its schema problems when
 * jsonValidation gives it a schema. A closed file shows none of those in VS Code: Narratoria reports them all.
 */
export function shownByEditor(diagnostic: CampaignDiagnostic, absolutePath: string, editor: EditorState): boolean {
  if (!editor.jsonValidation) return false;
  const language = editor.languageOf(diagnostic.file);
  if (language !== 'json' && language !== 'jsonc') return false;
  if (diagnostic.code === 'JSON_SYNTAX') return true;
  if (diagnostic.code === 'JSON_COMMENT') return language === 'json';
  return diagnostic.code.startsWith('SCHEMA_') && editorSchemaOf(absolutePath) !== undefined;
}
