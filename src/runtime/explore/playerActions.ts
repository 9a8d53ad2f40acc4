// The actions a simulated player can take: from the skills' manifests (script examples and descriptions, capabilities, keywords), a built-in vocabulary, and entities seen in play.
import { extractEntities } from '../narrator/selection/entities.js';
import type { NarratorSkill } from '../skills/skillTypes.js';

/** Common player actions; {person} and {thing} are filled from the session's entities (or a stranger and a lantern). */
export const BUILT_IN_VOCABULARY = [
  'I look around',
  'I go north',
  'I take the {thing}',
  'I talk to {person}',
  'I ask {person} about the {thing}',
  'I attack {person}',
  'I flee',
] as const;

/** Actions that name an entity: used when the state or the narration named one. */
const ENTITY_ACTIONS = [
  'I talk to {person}',
  'I ask {person} about the {thing}',
  'I look at the {thing}',
  'I follow {person}',
  'I attack {person}',
  'I take the {thing}',
] as const;

/** A description's first clause as something a player says: "Roll a dice formula, optionally…" → "I roll a dice formula". */
export function actionFromDescription(description: string): string | undefined {
  const clause = description
    .replace(/\{[^}]*\}|\([^)]*\)|\[[^\]]*\]/g, ' ')
    .split(/[.;:,]/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  if (clause.length < 4 || !/^[A-Za-z]/.test(clause)) return undefined;
  return `I ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
}

/** Every action the manifests suggest, in a stable order without repeats. */
export function manifestActions(skills: readonly NarratorSkill[]): string[] {
  const actions = new Set<string>();
  for (const skill of [...skills].sort((left, right) => left.name.localeCompare(right.name))) {
    for (const script of skill.scripts) {
      for (const example of script.examples ?? []) actions.add(example);
      const described = script.description ? actionFromDescription(script.description) : undefined;
      if (described) actions.add(described);
    }
    for (const capability of skill.capabilities) actions.add(`I try some ${capability}`);
    for (const keyword of skill.keywords ?? []) actions.add(`What about the ${keyword}?`);
  }
  return [...actions];
}

/** Names and things a session has seen, kept in order of first sight and bounded. */
export class SeenEntities {
  private static readonly LIMIT = 24;
  readonly people: string[] = [];
  readonly things: string[] = [];

  private add(list: string[], value: string): void {
    const clean = value.replace(/\s+/g, ' ').trim();
    if (clean.length < 2 || clean.length > 40 || list.includes(clean)) return;
    list.push(clean);
    if (list.length > SeenEntities.LIMIT) list.shift();
  }

  /** The capitalised names and noun phrases of a text (a narration). */
  addText(text: string): void {
    const entities = extractEntities(text.slice(0, 2000));
    for (const name of entities.names) this.add(this.people, name);
    for (const phrase of entities.nounPhrases) this.add(this.things, phrase);
  }

  /** Names in the state: capitalised keys and short capitalised string values, a few levels deep. */
  addState(state: unknown, depth = 0): void {
    if (depth > 3 || state === null || typeof state !== 'object') return;
    for (const [key, value] of Object.entries(state as Record<string, unknown>)) {
      if (/^[A-Z][a-z]+(?: [A-Z][a-z]+)*$/.test(key)) this.add(this.people, key);
      if (typeof value === 'string' && /^[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}$/.test(value)) this.add(this.people, value);
      else if (typeof value === 'object') this.addState(value, depth + 1);
    }
  }

  get any(): boolean {
    return this.people.length > 0 || this.things.length > 0;
  }
}

/** A template with {person} and {thing} filled by `pick`. */
export function fillTemplate(template: string, entities: SeenEntities, pick: <T>(items: readonly T[]) => T): string {
  return template
    .replace('{person}', () => (entities.people.length > 0 ? pick(entities.people) : 'the stranger'))
    .replace('{thing}', () => (entities.things.length > 0 ? pick(entities.things) : 'lantern').replace(/^the /i, ''));
}

export { ENTITY_ACTIONS };
