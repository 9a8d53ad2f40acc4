// Fills a script's `input` from its inputSchema and the player's words, valid against the schema or not at all, saying which words each field came from.
import { inputValidator } from '../../validation/inputChecks.js';
import type { Amount } from './amounts.js';
import type { Entities } from './entities.js';
import { enumValue } from './enumValues.js';
import { fieldPhrase, profileOf, type NamedPhrase } from './fieldPhrases.js';
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
  /** The numbers the words give, with their words ("down to 20"). */
  readonly amounts?: readonly Amount[];
  /** The things and places the words name in lower case, with the word before them ("to the old mill"). */
  readonly phrases?: readonly NamedPhrase[];
  /** The terms of the chosen skill's own words (its name, description and scripts'), to recognise its things. */
  readonly skillTerms?: ReadonlySet<string> | undefined;
}

/** A filled input, and the words each field came from. */
export interface FilledInput {
  readonly input: Record<string, unknown>;
  readonly sources: Readonly<Record<string, string>>;
}

/** Words that make an action harder or easier. */
const HARDER =
  /\b(?:hard|heavy|slick|steep|sheer|locked|barred|guarded|armou?red|huge|giant|dragon|ogre|captain|knight|stubborn|suspicious|fast|raging|icy|crumbling|impossible|desperate)\b/i;
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
/** A way to fill a field by its name. */
interface ByName {
  readonly names: RegExp;
  readonly kind: FieldKind;
  readonly fill: Filler;
}

const BY_NAME: readonly ByName[] = [
  { names: /^(?:formula|dice|notation|roll)$/, kind: 'entity', fill: (context) => context.entities.formula },
  {
    names: /^(?:dc|difficulty|difficultyclass|target?number)$/,
    kind: 'entity',
    fill: (context) => context.entities.dc ?? (context.risky && !context.entities.formula ? difficultyOf(context.words ?? context.entities.action) : undefined),
  },
  { names: /^(?:reason|action|intent|situation|summary|attempt|why|text|prompt|message)$/, kind: 'text', fill: (context) => context.entities.action },
  { names: /^(?:query|question|topic|subject|about|search|keywords?)$/, kind: 'text', fill: (context) => subject(context) ?? context.entities.action },
  { names: /^(?:npc|character|person|who|name|speaker|companion)$/, kind: 'entity', fill: person },
  { names: /^(?:merchant|vendor|shopkeeper|seller|trader)$/, kind: 'entity', fill: namedPerson },
  { names: /^(?:faction|group|guild|organi[sz]ation|side)$/, kind: 'entity', fill: group },
  { names: /^(?:destination|to|goal|where|target?place)$/, kind: 'entity', fill: (context) => context.entities.destination },
  {
    names: /^(?:location|place|area|region|town|city)$/,
    kind: 'entity',
    fill: (context) => context.entities.destination ?? context.entities.origin ?? namedPerson(context),
  },
  { names: /^(?:from|origin|start|departure)$/, kind: 'entity', fill: (context) => context.entities.origin },
  { names: /^(?:item|object|thing|goods|ware|product)$/, kind: 'entity', fill: (context) => context.entities.item },
  { names: /^(?:target)$/, kind: 'entity', fill: subject },
  {
    names: /^(?:delta|change|amount|shift|adjustment)$/,
    kind: 'amount',
    fill: (context) => (context.deedPolarity === 0 ? undefined : context.deedPolarity * 10),
  },
];

/**
 * The input for a script with `schema` (undefined schema: `{ action }`). Fills what the words give, then required
 * fields from their defaults; drops optional fields the schema refuses. Undefined when no valid input can be made.
 */
export function fillInput(schema: Schema | undefined, context: FillContext, guess = false): Record<string, unknown> | undefined {
  const filled = fillScriptInput(schema, context, guess);
  return 'input' in filled ? filled.input : undefined;
}

/**
 * The input and where each field came from; or the required fields the words did not give (`missing`, empty when
 * the schema refused what could be made). Required fields are filled first, so an amount goes where it is needed.
 */
export function fillScriptInput(schema: Schema | undefined, context: FillContext, guess = false): FilledInput | { readonly missing: readonly string[] } {
  if (!schema) return { input: { action: context.entities.action }, sources: { action: context.entities.action } };
  const plan = schemaPlanOf(schema);
  const input: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const used = new Set<Amount>();
  const missing: string[] = [];
  for (const field of plan.fields) {
    const property = field.property;
    let found = valueFor(field, context, used, plan.numericFields);
    if (found === undefined && field.required) {
      // A required name, place, item or amount the words do not give: no guess (the tool is left out), unless the
      // schema has a default. Free text (a reason, a query) falls back to the action.
      // A required choice among values (an enum) the words do not name is not guessed either.
      const value = field.named && property['default'] === undefined ? (guess ? guessFor(property, context) : undefined) : fallbackFor(property, context);
      if (value === undefined) {
        missing.push(field.name);
        continue;
      }
      found = {
        value,
        words: property['default'] !== undefined && value === property['default'] ? '(its default)' : typeof value === 'string' ? value : String(value),
      };
    }
    if (found !== undefined) {
      input[field.name] = found.value;
      sources[field.name] = found.words;
    }
  }
  if (missing.length > 0) return { missing };
  const validate = inputValidator(schema);
  if (!validate) return { input, sources };
  // Drop optional fields the schema refuses, one at a time, until the input validates.
  for (let attempt = 0; attempt <= Object.keys(input).length; attempt++) {
    if (validate(input) === true) return { input, sources };
    const failing = (validate.errors ?? [])
      .map((error) => /^\/([^/]+)/.exec(error.instancePath)?.[1])
      .find((name) => name !== undefined && !plan.required.has(name));
    if (failing === undefined) return { missing: [] };
    delete input[failing];
    delete sources[failing];
  }
  return validate(input) === true ? { input, sources } : { missing: [] };
}

/** What filling needs to know of one field, read from its name and schema once. */
interface FieldPlan {
  readonly name: string;
  readonly property: Schema;
  readonly required: boolean;
  readonly enumValues: readonly unknown[] | undefined;
  /** An amount the words give may fill it: a number field, not a formula, difficulty, seed or id. */
  readonly takesAmount: boolean;
  /** A lower-case thing the words name may fill it: not a number, formula, free text, person, group or mood. */
  readonly takesPhrase: boolean;
  /** About someone: a name the words give comes before a thing. */
  readonly personLike: boolean;
  /** The fillers its name matches, in order. */
  readonly fillers: readonly ByName[];
  /** A required title, spell, item or place: a name the words give (not the one spoken to) fills it. */
  readonly takesName: boolean;
  /** It names something (a person, a place, an amount, one of its values): never guessed when the words do not give it. */
  readonly named: boolean;
}

/** A schema's fields, required ones first, and what filling needs of them. */
interface SchemaPlan {
  readonly fields: readonly FieldPlan[];
  readonly required: ReadonlySet<string>;
  /** How many of its fields are numbers (the only amount goes to the only number field). */
  readonly numericFields: number;
}

const schemaPlans = new WeakMap<Schema, SchemaPlan>();

/** The fill plan of a schema, worked out once per schema object. */
function schemaPlanOf(schema: Schema): SchemaPlan {
  let plan = schemaPlans.get(schema);
  if (plan) return plan;
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const order = Object.keys(properties).sort((left, right) => Number(required.has(right)) - Number(required.has(left)));
  const fields = order.map((name): FieldPlan => {
    const property = properties[name]!;
    const key = name.toLowerCase().replace(/[^a-z]/g, '');
    const numeric = isNumeric(property);
    const takesPhrase = !numeric && !NOT_PHRASE_FIELDS.test(key);
    return {
      name,
      property,
      required: required.has(name),
      enumValues: Array.isArray(property['enum']) ? (property['enum'] as unknown[]) : undefined,
      takesAmount: numeric && !NOT_AMOUNT_FIELDS.test(key),
      takesPhrase,
      personLike: takesPhrase && profileOf(name, property).personLike,
      fillers: BY_NAME.filter((field) => field.names.test(key)),
      takesName: !numeric && required.has(name) && !isTextField(name) && takesPhrase && NAMED_FIELDS.test(key),
      named: isEntityField(name, property) || Array.isArray(property['enum']) || !isTextField(name),
    };
  });
  plan = { fields, required, numericFields: Object.values(properties).filter((property) => isNumeric(property)).length };
  schemaPlans.set(schema, plan);
  return plan;
}

function isNumeric(property: Schema): boolean {
  const type = property['type'];
  return type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
}

/** Fields that hold free text (a reason, a query, a message): the player's words fit them; any other string field names something. */
const TEXT_FIELDS = new RegExp(
  String.raw`^(?:reason|action|intent|situation|summary|attempt|why|text|prompt|message|query|question|topic|subject|about|search|keywords?|` +
    String.raw`description|note|notes|memo|details|request|words|speech|line|say|says|ask|input|command|order|plan|goal|what|content|body|story|` +
    String.raw`event|events|context|instruction|instructions)$`,
  '',
);
/** Number fields an amount never fills (dice formulas and difficulty classes are read apart). */
const NOT_AMOUNT_FIELDS = /^(?:formula|dice|notation|roll|dc|difficulty|difficultyclass|targetnumber|seed|id|version|timeout)$/;
/** Fields a name the words give may fill when required ("Can I take Folding Distance out?"). */
const NAMED_FIELDS = /^(?:title|book|spell|song|recipe|name|item|target|object|thing|destination|place|location)$/;

function isTextField(name: string): boolean {
  return TEXT_FIELDS.test(name.toLowerCase().replace(/[^a-z]/g, ''));
}

/** True for fields that name something (a person, group, place, item, formula, amount) rather than free text. */
function isEntityField(name: string, property: Schema): boolean {
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  const numeric = property['type'] === 'integer' || property['type'] === 'number';
  return BY_NAME.some((field) => field.names.test(key) && (field.kind === 'entity' || (field.kind === 'amount' && numeric)));
}

/** A value for one field and the words it came from: an enum value, an amount, a thing the schema names, then by the field's name. */
function valueFor(field: FieldPlan, context: FillContext, used: Set<Amount>, numericFields: number): { value: unknown; words: string } | undefined {
  const { name, property } = field;
  if (field.enumValues) {
    const value = enumValue(field.enumValues, context.terms);
    return value === undefined ? undefined : { value, words: String(value) };
  }
  const type = property['type'];
  // Dice formulas and difficulty classes first (never taken for an amount), then the amounts the words give.
  if (field.takesAmount) {
    const amount = amountFor(name, property, context, used, numericFields);
    if (amount) {
      used.add(amount);
      return { value: amount.value, words: amount.words };
    }
  }
  const phrase = field.takesPhrase ? fieldPhrase(name, property, context.phrases ?? [], context.skillTerms, field.required) : undefined;
  // A thing the schema itself names ("the mill, the village or the old tower") beats the field's name's guess.
  if (phrase && phrase.confident) return { value: phrase.value, words: phrase.words };
  // A field about someone ("Which spirit to call", "Who to ask about") takes a name the words give before a thing.
  if (field.personLike) {
    const named = namedOther(context);
    if (named !== undefined) return { value: named, words: named };
  }
  for (const filler of field.fillers) {
    const value = filler.fill(context);
    if (value === undefined) continue;
    if (typeof value === 'number' && (type === 'integer' || type === 'number' || (Array.isArray(type) && type.includes('integer'))))
      return { value, words: filler.kind === 'amount' ? 'the deed' : String(value) };
    if (typeof value === 'string' && (type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'))))
      return { value, words: filler.kind === 'text' ? "the player's words" : value };
  }
  if (phrase) return { value: phrase.value, words: phrase.words };
  // A title or a spell the words give as a name ("Can I take Folding Distance out?"), never the one spoken to.
  if (field.takesName) {
    const named = namedOther(context);
    if (named !== undefined) return { value: named, words: named };
  }
  return undefined;
}

/** True for the name the words are said to ("…, Pell?", "Marta, …", "Here's ten bucks, Sal. Talk."). */
function spokenTo(name: string, words: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:,\\s*${escaped}\\s*(?:[.!?,]|$))|(?:(?:^|[.!?]\\s+)${escaped}\\s*,)`).test(words.trim());
}

/** A name the words give that is not a group and not the one spoken to. */
function namedOther(context: FillContext): string | undefined {
  return context.entities.names.find((each) => !context.entities.groups.includes(each) && !spokenTo(each, context.words ?? ''));
}

/** Fields a lower-case thing never fills: a formula, a difficulty, free text, a person or a group, a mood. */
const NOT_PHRASE_FIELDS = new RegExp(
  String.raw`^(?:formula|dice|notation|roll|dc|difficulty|difficultyclass|targetnumber|reason|action|intent|situation|summary|attempt|why|text|` +
    String.raw`prompt|message|npc|character|person|who|name|speaker|companion|faction|group|guild|organi[sz]ation|side|mood|style|tone)$`,
  '',
);

/** Terms of money and of counting, in fields' names and descriptions and in the words after a number. */
const MONEY = new Set(
  termsOf(
    'price offer cost coins coin gold silver copper credits credit dollars bid pay payment sum fare bribe wager bet stake fee toll money cash crowns marks pieces',
  ),
);
const COUNT = new Set(termsOf('count quantity number many qty how units'));
const MONEY_LEADS =
  /^(?:down to|up to|no more than|at most|at least|for|offer|offering|pay|paying|give|bid|bet|wager|deposit|withdraw|transfer|spend|at|only|just|about|around)$/;

/**
 * The amount that fits a number field: its unit is the field's word ("3 arrows" for `arrows`), money for a money
 * field ("down to 20" for `offer`), a counted thing for a count; the only amount for the only number field. Within
 * the field's minimum and maximum, each amount used once.
 */
function amountFor(name: string, property: Schema, context: FillContext, used: ReadonlySet<Amount>, numericFields: number): Amount | undefined {
  const amounts = (context.amounts ?? []).filter((amount) => !used.has(amount) && withinBounds(amount.value, property));
  if (amounts.length === 0) return undefined;
  const fieldTerms = profileOf(name, property).nameTerms;
  const money = [...fieldTerms].some((term) => MONEY.has(term));
  const count = [...fieldTerms].some((term) => COUNT.has(term));
  let best: { amount: Amount; fit: number } | undefined;
  for (const amount of amounts) {
    const unit = amount.unit ? termsOf(amount.unit)[0] : undefined;
    let fit = 0;
    if (unit !== undefined && fieldTerms.has(unit)) fit = 3;
    else if (money && ((unit !== undefined && MONEY.has(unit)) || (amount.lead !== undefined && MONEY_LEADS.test(amount.lead)))) fit = 2;
    else if (count && unit !== undefined && !MONEY.has(unit)) fit = 2;
    else if (numericFields === 1 && amounts.length === 1 && (property['type'] === 'integer' ? Number.isInteger(amount.value) : true)) fit = 1;
    if (property['type'] === 'integer' && !Number.isInteger(amount.value)) fit = 0;
    if (fit > 0 && (!best || fit > best.fit)) best = { amount, fit };
  }
  return best?.amount;
}

function withinBounds(value: number, property: Schema): boolean {
  const minimum = property['minimum'];
  const maximum = property['maximum'];
  const exclusiveMinimum = property['exclusiveMinimum'];
  return (
    (typeof minimum !== 'number' || value >= minimum) &&
    (typeof maximum !== 'number' || value <= maximum) &&
    (typeof exclusiveMinimum !== 'number' || value > exclusiveMinimum)
  );
}

/**
 * A best guess for a required name, place or item the words do not mark as such (a skill the words plainly ask for,
 * with a schema the filler does not know): the first name, else the last thing named ("a loaf of bread"); never an enum.
 */
function guessFor(property: Schema, context: FillContext): unknown {
  const type = Array.isArray(property['type']) ? property['type'][0] : property['type'];
  if ((type !== undefined && type !== 'string') || Array.isArray(property['enum'])) return undefined;
  // A name or a thing the words name; the player's words themselves only as the last resort.
  return context.entities.names[0] ?? context.phrases?.at(-1)?.value ?? context.entities.nounPhrases.at(-1) ?? context.entities.action;
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
