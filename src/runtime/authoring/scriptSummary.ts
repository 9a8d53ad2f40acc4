// What the editor says about a skill and one of its scripts (health, description, input schema in short, timeout), shared by completion and hover. Pure.
import type { CatalogScript, CatalogSkill } from '../skills/skillCatalog.js';
import { formatDuration } from '../common/humanText.js';
import { healthLabelOf } from '../skills/skillHealthLabel.js';
import type { SkillHealthLabel } from '../skills/skillTypes.js';

/** One property of a script's input schema, read for people. */
export interface InputSchemaProperty {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** e.g. `string`, `integer | string`. */
  readonly type: string;
  readonly description: string | undefined;
  readonly required: boolean;
}

/** The health of a skill as one short label, in the vocabulary of every view: "healthy", "⚠ degraded", "✖ unusable", "✖ disabled". */
export function healthLabel(skill: CatalogSkill): string {
  const label = healthLabelOf({
    enabled: skill.enabled,
    usable: skill.usable,
    health: { state: skill.health },
    missingInterpreters: skill.missingInterpreters,
  });
  return HEALTH_MARKS[label] + label;
}

const HEALTH_MARKS: Readonly<Record<SkillHealthLabel, string>> = { healthy: '', degraded: '⚠ ', unusable: '✖ ', disabled: '✖ ' };

/** True when plans should not use the skill now: disabled by the user or in permanentFailure. */
export function isSkillUnavailable(skill: CatalogSkill): boolean {
  return !skill.enabled || skill.health === 'permanentFailure';
}

/** Why the skill is unavailable, or undefined when it is usable. */
export function unavailableReason(skill: CatalogSkill): string | undefined {
  if (!skill.enabled)
    return `The skill "${skill.name}" is disabled in this session: the narrator does not choose it and a plan using it gets a warning. Enable the skill or use another script.`;
  if (skill.health === 'permanentFailure') {
    return `The skill "${skill.name}" is unusable: its scripts kept failing this session (health permanentFailure), so it stays unavailable until the session restarts.`;
  }
  return undefined;
}

/** One line: display name · version · health, e.g. "Dice Roller · v1.0.0 · healthy". */
export function skillDetail(skill: CatalogSkill): string {
  return `${skill.displayName} · ${versionText(skill)} · ${healthLabel(skill)}`;
}

/** The skill's version with a leading "v". */
export function versionText(skill: CatalogSkill): string {
  return /^v/i.test(skill.version) ? skill.version : `v${skill.version}`;
}

/** The properties of an input schema's top-level `properties`, in schema order. */
export function inputSchemaProperties(schema: Record<string, unknown> | undefined): InputSchemaProperty[] {
  const properties = schema?.['properties'];
  if (!isRecord(properties)) return [];
  const required = new Set(
    Array.isArray(schema?.['required']) ? (schema['required'] as unknown[]).filter((name): name is string => typeof name === 'string') : [],
  );
  return Object.entries(properties)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
    .map(([name, property]) => ({
      name,
      schema: property,
      type: schemaTypeText(property),
      description: typeof property['description'] === 'string' ? property['description'] : undefined,
      required: required.has(name),
    }));
}

/** The type of a schema for people: its `type` (unions joined with |), or what its enum holds. */
export function schemaTypeText(schema: Record<string, unknown>): string {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.map(String).join(' | ');
  if (Array.isArray(schema['enum'])) return 'enum';
  if (schema['const'] !== undefined) return 'const';
  return 'any';
}

/** The description of an input property, whether it is required, its default, examples, allowed values and bounds. */
export function inputPropertyDocumentation(property: InputSchemaProperty): string {
  const schema = property.schema;
  const parts: string[] = [];
  if (property.description) parts.push(property.description);
  const facts: string[] = [];
  if (property.required) facts.push('**Required.**');
  if (schema['default'] !== undefined) facts.push(`Default: ${code(JSON.stringify(schema['default']))}`);
  if (Array.isArray(schema['enum'])) facts.push(`One of: ${schema['enum'].map((value) => code(JSON.stringify(value))).join(', ')}`);
  if (Array.isArray(schema['examples'])) facts.push(`Examples: ${schema['examples'].map((value) => code(JSON.stringify(value))).join(', ')}`);
  if (typeof schema['minimum'] === 'number' || typeof schema['maximum'] === 'number')
    facts.push(`Range: ${schema['minimum'] ?? '…'} to ${schema['maximum'] ?? '…'}`);
  if (typeof schema['maxLength'] === 'number') facts.push(`At most ${schema['maxLength']} characters`);
  if (typeof schema['format'] === 'string') facts.push(`Format: ${schema['format']}`);
  if (facts.length > 0) parts.push(facts.join('  \n'));
  return parts.join('\n\n');
}

/** The input schema in short, one markdown bullet per property: "- `name` (required): type — first sentence". */
export function inputSummaryMarkdown(schema: Record<string, unknown> | undefined): string {
  const properties = inputSchemaProperties(schema);
  if (schema === undefined) return '_No input schema: the script accepts any input._';
  if (properties.length === 0) return '_The input schema lists no properties._';
  return properties
    .map((property) => {
      const required = property.required ? ' (required)' : '';
      const description = property.description ? ` — ${firstSentence(property.description)}` : '';
      return `- ${code(property.name)}${required}: ${property.type}${description}`;
    })
    .join('\n');
}

/**
 * Markdown about a script: the skill (name, version, health, description), the script's description,
 * its input in short and its timeout; `unavailableReason` first when plans should not use it.
 */
export function scriptMarkdown(skill: CatalogSkill, script: CatalogScript): string {
  const parts: string[] = [];
  const reason = unavailableReason(skill);
  if (reason) parts.push(`**${reason}**`);
  parts.push(`**${skill.displayName}** · ${versionText(skill)} · ${healthLabel(skill)}`);
  if (skill.description) parts.push(skill.description);
  parts.push(`**${script.name}**${script.description ? ` — ${script.description}` : ''}`);
  if (script.aliases.length > 0) parts.push(`Also answers to ${script.aliases.map(code).join(', ')} (its aliases in skill.json): a toolPath may name it so.`);
  if (script.missingInterpreter !== undefined) parts.push(`**This script cannot run here:** it ${script.missingInterpreter}.`);
  if (!script.declared) parts.push(`_${code(script.toolPath)} is not declared in the skill's skill.json: its description and input schema are unknown._`);
  parts.push(`**Input**\n\n${inputSummaryMarkdown(script.inputSchema)}`);
  parts.push(`**Timeout:** ${formatDuration(script.timeoutMs)} (${script.timeoutMs} ms, from the skill manifest)`);
  return parts.join('\n\n');
}

/** The first sentence of a text (at most `limit` characters, with an ellipsis when cut). */
export function firstSentence(text: string, limit = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // A sentence ends at . ! or ? before a capital letter or the end, not after an abbreviation such as "e.g.".
  const end = [...flat.matchAll(/[.!?](?=\s+[A-Z]|\s*$)/g)].find((match) => !/\b(e\.g|i\.e|etc|vs)$/i.test(flat.slice(0, match.index)));
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  return sentence.length <= limit ? sentence : `${sentence.slice(0, limit - 1).trimEnd()}…`;
}

/** Inline markdown code that survives backticks in the text. */
export function code(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const padding = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${text}${padding}${fence}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
