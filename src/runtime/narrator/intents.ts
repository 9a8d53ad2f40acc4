// Recognises what a player's words ask for (a check, looking, memory, reputation, talk…) with ordered, deterministic rules.

export type IntentKind = 'check' | 'memory' | 'reputation' | 'perception' | 'portrait' | 'talk' | 'look';

export interface Intent {
  readonly kind: IntentKind;
  /** What the action is about (the lock, the guild, Mira…), when it can be told. */
  readonly subject?: string;
  /** An explicit dice formula in the input (e.g. "2d6+1"). */
  readonly formula?: string;
  /** An explicit difficulty ("DC 15"). */
  readonly difficulty?: number;
}

interface Rule {
  readonly kind: IntentKind;
  readonly pattern: RegExp;
  readonly subject: (input: string, match: RegExpExecArray) => string | undefined;
}

const pronoun = /^(?:i|we|you)\s+(?:will\s+|try\s+to\s+|want\s+to\s+|attempt\s+to\s+)?/i;

/** Rules in priority order: the first match is the primary intent. */
const rules: readonly Rule[] = [
  {
    kind: 'check',
    pattern:
      /\b(?:roll(?:s|ing)?|\d*d(?:\d+|%)|attack(?:s|ing)?|fight|strike|hit|swing|shoot|stab|pick(?:ing)?\s+(?:the\s+|a\s+|this\s+)?lock|lockpick\w*|climb|jump|leap|sneak|hide|persuade|convince|intimidate|deceive|bluff|dodge|disarm|steal|balance|swim|force\s+(?:open|the)|break\s+(?:down|open|the)|check|saving\s+throw)\b/i,
    subject: (input) => {
      const afterRoll = /\broll(?:s|ing)?\s+(?:\d*d(?:\d+|%)(?:[+-]\d+)?\s+)?(?:to|for)\s+(.+)$/i.exec(input);
      return clean(afterRoll?.[1] ?? input.replace(pronoun, ''));
    },
  },
  {
    kind: 'memory',
    pattern: /\b(?:remember|recall|what\s+happened|earlier|previously|so\s+far|remind\s+me|memor(?:y|ies))\b/i,
    subject: (input) => clean(input.replace(pronoun, '').replace(/^(?:remember|recall)\s+/i, '')),
  },
  {
    kind: 'reputation',
    pattern: /\b(?:reputation|standing|renown|faction|favou?r\s+with)\b/i,
    subject: (input) => clean(/\b(?:with|among|in|of)\s+(?:the\s+)?([^?.!,]+)/i.exec(input)?.[1]),
  },
  {
    kind: 'perception',
    pattern: /\b(?:trusts?|opinion\s+of|attitude|how\s+does\s+\w+\s+(?:feel|think|see)|what\s+does\s+\w+\s+think)\b/i,
    subject: (input) =>
      clean(/\bhow\s+does\s+(\w+)/i.exec(input)?.[1] ?? /\bwhat\s+does\s+(\w+)/i.exec(input)?.[1] ?? /\b(?:of|does)\s+([A-Z]\w+)/.exec(input)?.[1]),
  },
  {
    kind: 'portrait',
    pattern: /\b(?:portrait|picture|sketch|draw|what\s+does\s+.+?\s+look\s+like)\b/i,
    subject: (input) => clean(/\bwhat\s+does\s+(.+?)\s+look\s+like/i.exec(input)?.[1] ?? /\b(?:of|draw)\s+(?:the\s+)?([^?.!,]+)/i.exec(input)?.[1]),
  },
  {
    kind: 'talk',
    pattern: /\b(?:talk|ask|speak|say|tell|greet|negotiate|bargain|chat|reply|answer|choose|decide|what\s+(?:should|can)\s+i\s+do)\b/i,
    subject: (input) => clean(/\b(?:to|with)\s+(?:the\s+)?([^?.!,]+?)(?:\s+(?:about|for)\b|[?.!,]|$)/i.exec(input)?.[1]),
  },
  {
    kind: 'look',
    pattern: /\b(?:look(?:s|ing)?|examine|inspect|search|observe|study|describe|peer|gaze|glance|survey|explore|listen|smell|watch)\b/i,
    subject: (input) => clean(/\b(?:at|around|into|under|behind|inside|the)\s+(.+)$/i.exec(input)?.[0]),
  },
];

/** Intents found in `input`, primary first; empty when nothing is recognised. */
export function detectIntents(input: string): Intent[] {
  const text = input.trim();
  const intents: Intent[] = [];
  for (const rule of rules) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const subject = rule.subject(text, match);
    const intent: { -readonly [K in keyof Intent]: Intent[K] } = { kind: rule.kind };
    if (subject) intent.subject = subject;
    if (rule.kind === 'check') {
      const formula = /\b(\d*)d(\d+|%)\s*([+-]\s*\d+)?\b/i.exec(text);
      if (formula) intent.formula = `${formula[1] || '1'}d${formula[2]}${(formula[3] ?? '').replace(/\s+/g, '')}`;
      const difficulty = /\bdc\s*(\d{1,2})\b/i.exec(text);
      if (difficulty) intent.difficulty = Number(difficulty[1]);
    }
    intents.push(intent);
  }
  return intents;
}

function clean(text: string | undefined): string | undefined {
  const trimmed = text?.trim().replace(/[?.!]+$/, '').trim();
  if (!trimmed) return undefined;
  return trimmed.length > 120 ? trimmed.slice(0, 120) : trimmed;
}
