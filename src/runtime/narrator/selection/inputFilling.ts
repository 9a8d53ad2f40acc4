// Fills a script's `input` from its inputSchema and the player's words (the NPC's or faction's name, the item, the destination, the dice formula, the reason), valid against the schema or not at all.
import { inputValidator } from '../../validation/inputChecks.js';
import type { Entities } from './entities.js';
import { termsOf } from './textTerms.js';

/** What the filler knows besides the entities. */
export interface FillContext {
  readonly entities: Entities;
  /** The terms of the player's words, synonyms folded (to pick enum values). */
  readonly terms: ReadonlySet<string>;
  /** +1 kind deed, -1 harmful deed, 0 neither (for integer `delta`-like fields). */
  readonly deedPolarity: -1 | 0 | 1;
  readonly question: boolean;
  /** A risky action (the chance cue): a roll for it gets a difficulty class, as a game master would set one. */
  readonly risky?: boolean;
  /** The player's words, for the difficulty. */
  readonly words?: string;
}

/** Words that make an action harder or easier. */
const HARDER = /\b(?:hard|heavy|slick|steep|sheer|locked|barred|guarded|armou?red|huge|giant|dragon|ogre|captain|knight|stubborn|suspicious|fast|raging|icy|crumbling|impossible|desperate)\b/i;
const EASIER = /\b(?:easy|simple|small|weak|drunk|sleeping|asleep|distracted|loose|rotten|old|friendly|tired|wounded)\b/i;

/** The difficulty class a game master would set: 12 for an ordinary risk, 15 for a hard one, 9 for an easy one. */
export function difficultyOf(words: string): number {
  const harder = HARDER.test(words);
  const easier = EASIER.test(words);
  return harder && !easier ? 15 : easier && !harder ? 9 : 12;
}

type Schema = Record<string, unknown>;
type Filler = (context: FillContext) => unknown;

/** The first capitalised name that is not a group ("Captain Vey", "Brannock"). */
const namedPerson = (context: FillContext): string | undefined => context.entities.names.find((name) => !context.entities.groups.includes(name));
const person = (context: FillContext): string | undefined =>
  namedPerson(context) ?? context.entities.nounPhrases.find((phrase) => !/\b(?:door|gate|lock|wall|chest|way|road|path|sword|map|key)\b/.test(phrase));
const group = (context: FillContext): string | undefined => context.entities.groups[0] ?? context.entities.names[0];
const subject = (context: FillContext): string | undefined => context.entities.names[0] ?? context.entities.nounPhrases[0];

/**
 * What a field is: free `text` (may fall back to the action when required), an `entity` it names (a person, group,
 * place, item, formula: never guessed), or an `amount` (an entity only for a number field).
 */
type FieldKind = 'text' | 'entity' | 'amount';

/** Property names (lowercase, no separators) → how to fill them. Checked in order; the first that gives a value wins. */
const BY_NAME: readonly { readonly names: RegExp; readonly kind: FieldKind; readonly fill: Filler }[] = [
  { names: /^(?:formula|dice|notation|roll)$/, kind: 'entity', fill: (context) => context.entities.formula },
  { names: /^(?:dc|difficulty|difficultyclass|target?number)$/, kind: 'entity', fill: (context) => context.entities.dc ?? (context.risky && !context.entities.formula ? difficultyOf(context.words ?? context.entities.action) : undefined) },
  { names: /^(?:reason|action|intent|situation|summary|attempt|why|text|prompt|message)$/, kind: 'text', fill: (context) => context.entities.action },
  { names: /^(?:query|question|topic|subject|about|search|keywords?)$/, kind: 'text', fill: (context) => subject(context) ?? context.entities.action },
  { names: /^(?:npc|character|person|who|name|speaker|companion)$/, kind: 'entity', fill: person },
  { names: /^(?:merchant|vendor|shopkeeper|seller|trader)$/, kind: 'entity', fill: namedPerson },
  { names: /^(?:faction|group|guild|organi[sz]ation|side)$/, kind: 'entity', fill: group },
  { names: /^(?:destination|to|goal|where|target?place)$/, kind: 'entity', fill: (context) => context.entities.destination },
  { names: /^(?:location|place|area|region|town|city)$/, kind: 'entity', fill: (context) => context.entities.destination ?? context.entities.origin ?? namedPerson(context) },
  { names: /^(?:from|origin|start|departure)$/, kind: 'entity', fill: (context) => context.entities.origin },
  { names: /^(?:item|object|thing|goods|ware|product)$/, kind: 'entity', fill: (context) => context.entities.item },
  { names: /^(?:target)$/, kind: 'entity', fill: subject },
  { names: /^(?:delta|change|amount|shift|adjustment)$/, kind: 'amount', fill: (context) => (context.deedPolarity === 0 ? undefined : context.deedPolarity * 10) },
];

/**
 * The input for a script with `schema` (undefined schema: `{ action }`). Fills what the words give, then required
 * fields from their defaults; drops optional fields the schema refuses. Undefined when no valid input can be made.
 */
export function fillInput(schema: Schema | undefined, context: FillContext, guess = false): Record<string, unknown> | undefined {
  if (!schema) return { action: context.entities.action };
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const input: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    let value = valueFor(name, property, context);
    if (value === undefined && required.has(name)) {
      // A required name, place, item or amount the words do not give: no guess (the tool is left out), unless the
      // schema has a default. Free text (a reason, a query) falls back to the action.
      value = isEntityField(name, property) && property['default'] === undefined ? (guess ? guessFor(property, context) : undefined) : fallbackFor(property, context);
      if (value === undefined) return undefined;
    }
    if (value !== undefined) input[name] = value;
  }
  const validate = inputValidator(schema);
  if (!validate) return input;
  // Drop optional fields the schema refuses, one at a time, until the input validates.
  for (let attempt = 0; attempt <= Object.keys(input).length; attempt++) {
    if (validate(input) === true) return input;
    const failing = (validate.errors ?? []).map((error) => /^\/([^/]+)/.exec(error.instancePath)?.[1]).find((name) => name !== undefined && !required.has(name));
    if (failing === undefined) return undefined;
    delete input[failing];
  }
  return validate(input) === true ? input : undefined;
}

/** True for fields that name something (a person, group, place, item, formula, amount) rather than free text. */
function isEntityField(name: string, property: Schema): boolean {
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  const numeric = property['type'] === 'integer' || property['type'] === 'number';
  return BY_NAME.some((field) => field.names.test(key) && (field.kind === 'entity' || (field.kind === 'amount' && numeric)));
}

function valueFor(name: string, property: Schema, context: FillContext): unknown {
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  if (Array.isArray(property['enum'])) return enumValue(property['enum'] as unknown[], context);
  const type = property['type'];
  for (const field of BY_NAME) {
    if (!field.names.test(key)) continue;
    const value = field.fill(context);
    if (value === undefined) continue;
    if (typeof value === 'number' && (type === 'integer' || type === 'number' || (Array.isArray(type) && type.includes('integer')))) return value;
    if (typeof value === 'string' && (type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string')))) return value;
  }
  return undefined;
}

/** The enum value the words name (by stem, synonyms folded: "thunderstorm" names "storm"), else undefined. */
function enumValue(values: readonly unknown[], context: FillContext): unknown {
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const terms = termsOf(value);
    if (terms.length > 0 && terms.every((term) => context.terms.has(term))) return value;
  }
  return undefined;
}

/**
 * A best guess for a required name, place or item the words do not mark as such (a skill the words plainly ask for,
 * with a schema the filler does not know): the first name, else the last thing named ("a loaf of bread"), else the action.
 */
function guessFor(property: Schema, context: FillContext): unknown {
  const type = Array.isArray(property['type']) ? property['type'][0] : property['type'];
  if (type !== undefined && type !== 'string') return undefined;
  return context.entities.names[0] ?? context.entities.nounPhrases.at(-1) ?? context.entities.action;
}

/** A value for a required field the words do not give: its default, its first enum value, or the action. */
function fallbackFor(property: Schema, context: FillContext): unknown {
  if (property['default'] !== undefined) return property['default'];
  if (Array.isArray(property['enum']) && property['enum'].length > 0) return property['enum'][0];
  const type = Array.isArray(property['type']) ? property['type'][0] : property['type'];
  switch (type) {
    case 'string':
      return context.entities.action;
    case 'integer':
    case 'number':
      return typeof property['minimum'] === 'number' ? property['minimum'] : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return context.entities.action;
  }
}
