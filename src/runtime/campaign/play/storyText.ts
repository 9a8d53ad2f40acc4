// Small text helpers of campaign play: Markdown read as plain paragraphs, sentences, list items, name matching. Pure.

/** A Markdown text as plain paragraphs: headings, emphasis marks and list bullets dropped, lines of a paragraph joined. */
export function plainParagraphs(markdown: string): string[] {
  return markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((line) => !/^\s{0,3}#{1,6}\s/.test(line))
        .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
        .join(' '),
    )
    .map(plainInline)
    .filter((paragraph) => paragraph !== '');
}

/** Inline Markdown as plain text: `**bold**`, `*em*`, `_em_`, `code` and [links](url) keep their words. */
export function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_]+?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first Markdown heading's text ("# Ending: The drowned town" -> "Ending: The drowned town"). */
export function firstHeading(markdown: string): string | undefined {
  const match = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(markdown);
  return match ? plainInline(match[1]!) : undefined;
}

/** The list items of a Markdown text (numbered or bulleted), as plain text. */
export function listItems(markdown: string): string[] {
  const items: string[] = [];
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const match = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
    if (match) items.push(plainInline(match[1]!));
    else if (items.length > 0 && /^\s{2,}\S/.test(line)) items[items.length - 1] += ` ${plainInline(line)}`;
  }
  return items;
}

/** The sentences of a text (cut after . ! ? followed by a space). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** At most `max` characters, cut at a word with an ellipsis. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.lastIndexOf(' ', max - 3);
  return `${line.slice(0, cut > max / 2 ? cut : max - 3)}...`;
}

/** How names are compared: lowercase, accents and a leading "the" dropped, spaces collapsed. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the\s+/, '');
}

/** Whether `text` names `alias` as a whole word or words (case-insensitive). */
export function mentions(text: string, alias: string): boolean {
  const key = nameKey(alias);
  if (key === '') return false;
  return ` ${nameKey(text)} `.includes(` ${key} `);
}

/** "asked_tamsin_for_help" -> "Ask Tamsin for help": an id's words as an imperative, names capitalised by `isName`. */
export function idAsAct(id: string, isName: (word: string) => boolean): string {
  const words = id
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  if (words.length === 0) return id;
  words[0] = imperative(words[0]!);
  const text = words.map((word) => (isName(word) ? word.charAt(0).toUpperCase() + word.slice(1) : word)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A past-tense verb as an imperative ("asked" -> "ask", "followed" -> "follow", "stayed" -> "stay", "tried" -> "try"). */
function imperative(verb: string): string {
  const irregular: Record<string, string> = {
    went: 'go',
    lit: 'light',
    fought: 'fight',
    bought: 'buy',
    brought: 'bring',
    ran: 'run',
    took: 'take',
    gave: 'give',
    told: 'tell',
    found: 'find',
    kept: 'keep',
    left: 'leave',
    made: 'make',
    met: 'meet',
    paid: 'pay',
    said: 'say',
    saw: 'see',
    sold: 'sell',
    spoke: 'speak',
    stole: 'steal',
    chose: 'choose',
    trusted: 'trust',
    refused: 'refuse',
    investigated: 'investigate',
  };
  if (irregular[verb]) return irregular[verb]!;
  if (/ied$/.test(verb)) return verb.replace(/ied$/, 'y');
  if (/([^aeiou])\1ed$/.test(verb)) return verb.slice(0, -3);
  if (/(?:ay|ey|oy|ow|ll|rk|sk|sh|ch|st|nd|rn|lp|ed|lt|ck|wn)ed$/.test(verb)) return verb.slice(0, -2);
  if (/[^aeiou]ed$/.test(verb) && verb.length > 4) return /(?:at|ov|av|ag|ar|ur|ir|iv|lv|rg|ac|uc|iz|ys)ed$/.test(verb) ? verb.slice(0, -1) : verb.slice(0, -2);
  return verb;
}
