// Hints where a skill.json gives the pattern narrator little to match a player's words against (a short description, no capabilities, undescribed scripts), and keywords to add.
import { lexicon } from '../narrator/selection/relatedness/lexicon.js';
import { termOf, wordsOf } from '../narrator/selection/textTerms.js';
import type { TextEdit } from '../authoring/textSpan.js';
import type { SourceRange } from '../validation/diagnostic.js';
import { parseJsonDocument } from '../validation/jsonLocator.js';
import { plural } from '../common/humanText.js';

/** The stable codes of manifest hints (documented in docs/diagnostics.md). */
export type ManifestHintCode = 'SKILL_DESCRIPTION_SHORT' | 'SKILL_NO_CAPABILITIES' | 'SKILL_SCRIPT_UNDESCRIBED';

/** One hint: always information, never an error (the skill works; the narrator may just not find it). */
export interface ManifestHint {
  readonly code: ManifestHintCode;
  readonly message: string;
  /** RFC 6901 pointer of what the hint is about. */
  readonly pointer: string;
  /** Where it is in the text (from manifestHintsOfText). */
  readonly range?: SourceRange;
}

/** A description with fewer distinct words that carry meaning than this gives the narrator little to go on. */
export const MIN_DESCRIPTION_WORDS = 8;
/** Keywords suggested, at most. */
const MAX_KEYWORDS = 8;
/** Words of manifests that say how a skill works, not what a player asks for. */
const GENERIC = new Set(
  [
    'lets let decides decide tells tell gives give takes take keeps keep handles handle makes make uses use shows show returns',
    'story player players character characters current change changes changed name names whether each every when goes go new based given',
  ]
    .join(' ')
    .split(' '),
);

type Manifest = Record<string, unknown>;

/** The hints of a parsed manifest. A manifest with keywords needs no description or capability hints: the keywords give the narrator its words. */
export function manifestHints(manifest: unknown): ManifestHint[] {
  if (!isObject(manifest)) return [];
  const hints: ManifestHint[] = [];
  const hasKeywords = Array.isArray(manifest['keywords']) && manifest['keywords'].some((keyword) => typeof keyword === 'string' && keyword.trim() !== '');
  const description = typeof manifest['description'] === 'string' ? manifest['description'] : '';
  const count = contentWords(description).size;
  if (!hasKeywords && count < MIN_DESCRIPTION_WORDS) {
    hints.push({
      code: 'SKILL_DESCRIPTION_SHORT',
      pointer: '/description',
      message:
        `The description gives the narrator ${plural(count, 'word')} to match a player's words against. ` +
        'Say what the skill does and what a player would ask it, in a sentence or two, or add "keywords".',
    });
  }
  const capabilities = Array.isArray(manifest['capabilities'])
    ? manifest['capabilities'].filter((capability) => typeof capability === 'string' && capability.trim() !== '')
    : [];
  if (!hasKeywords && capabilities.length === 0) {
    hints.push({
      code: 'SKILL_NO_CAPABILITIES',
      pointer: Array.isArray(manifest['capabilities']) ? '/capabilities' : '/name',
      message:
        'The skill lists no capabilities. The narrator weighs them like its name: add two or three words for what it does (e.g. "weather", "forecast"), or add "keywords".',
    });
  }
  const scripts = Array.isArray(manifest['scripts']) ? manifest['scripts'] : [];
  scripts.forEach((script, index) => {
    if (!isObject(script)) return;
    const text = typeof script['description'] === 'string' ? script['description'].trim() : '';
    if (text !== '') return;
    const name = typeof script['name'] === 'string' ? script['name'] : `#${index + 1}`;
    hints.push({
      code: 'SKILL_SCRIPT_UNDESCRIBED',
      pointer: `/scripts/${index}`,
      message: `Script "${name}" has no description. The narrator chooses among a skill's scripts by their descriptions: say what it does and what input it takes.`,
    });
  });
  return hints;
}

/** The hints of a skill.json's text, each with its range (the key of the property it is about). Nothing for text that does not parse. */
export function manifestHintsOfText(text: string): ManifestHint[] {
  const document = parseJsonDocument(text);
  if (document.syntaxProblems.length > 0 || !isObject(document.value)) return [];
  return manifestHints(document.value).map((hint) => {
    const range = document.rangeOfPointer(hint.pointer, 'key') ?? document.rangeOfPointer('', 'value');
    return range ? { ...hint, range } : hint;
  });
}

/**
 * Keywords a player might use for the skill: the words of its name and capabilities, the lexicon's synonyms of
 * them, then the description's words; none the manifest already says in its name or capabilities. Reads the bundled
 * lexicon once.
 */
export function suggestedKeywords(manifest: unknown): string[] {
  if (!isObject(manifest)) return [];
  const identity = [
    typeof manifest['name'] === 'string' ? manifest['name'].replace(/-/g, ' ') : '',
    typeof manifest['displayName'] === 'string' ? manifest['displayName'] : '',
    ...(Array.isArray(manifest['capabilities']) ? manifest['capabilities'].filter((item): item is string => typeof item === 'string') : []),
  ].join(' ');
  const said = new Set([...contentWords(identity).keys()]);
  const keywords = new Map<string, string>();
  const offer = (word: string) => {
    const term = termOf(word);
    if (term === undefined || said.has(term) || keywords.has(term) || word.length < 3 || GENERIC.has(word)) return;
    keywords.set(term, word);
  };
  for (const word of contentWords(identity).values())
    for (const related of lexicon()
      ?.relatedTo(word)
      .filter((each) => each.steps === 0 && !each.minorSense)
      .slice(0, 3) ?? [])
      offer(related.word);
  const scripts = Array.isArray(manifest['scripts']) ? manifest['scripts'].filter(isObject) : [];
  const texts = [
    typeof manifest['description'] === 'string' ? manifest['description'] : '',
    ...scripts.map((script) => (typeof script['description'] === 'string' ? script['description'] : '')),
  ];
  for (const text of texts) for (const word of contentWords(text).values()) offer(word);
  return [...keywords.values()].slice(0, MAX_KEYWORDS);
}

/** The edit that adds `"keywords": [...]` after the manifest's capabilities (else its description, else first), or undefined when it has keywords or does not parse. */
export function addKeywordsEdit(text: string, keywords: readonly string[]): TextEdit | undefined {
  const document = parseJsonDocument(text);
  const root = document.root;
  if (document.syntaxProblems.length > 0 || !root || root.type !== 'object' || !isObject(document.value) || 'keywords' in document.value) return undefined;
  const properties = root.children ?? [];
  const anchor =
    properties.find((property) => property.children?.[0]?.value === 'capabilities') ??
    properties.find((property) => property.children?.[0]?.value === 'description');
  const indent = indentOf(text, anchor?.offset ?? properties[0]?.offset ?? root.offset + 1);
  const value = `"keywords": [${keywords.map((keyword) => JSON.stringify(keyword)).join(', ')}]`;
  if (anchor) return { offset: anchor.offset + anchor.length, length: 0, newText: `,\n${indent}${value}` };
  if (properties.length === 0) return { offset: root.offset + 1, length: 0, newText: `\n  ${value}\n` };
  return { offset: properties[0]!.offset, length: 0, newText: `${value},\n${indent}` };
}

/** The words of a text that carry meaning (stop words and manifest jargon dropped), by term, first spelling kept. */
function contentWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const word of wordsOf(text)) {
    const term = termOf(word);
    if (term !== undefined && !/^\d+$/.test(word) && !words.has(term)) words.set(term, word);
  }
  return words;
}

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

function isObject(value: unknown): value is Manifest {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
