// Property-name completion from contracts/plan-json.schema.json: keys of the plan, a tool, its retryPolicy and rollback, with their descriptions. Pure.
import planSchema from '../../../contracts/plan-json.schema.json';
import { completionItem, keyHasColon, leadingComma, sortKey, trailingComma, type CompletionCursor, type PlanCompletionItem } from './completionSupport.js';
import { escapeSnippet, TabStops, valueSnippet, type SchemaResolver } from './completionSnippets.js';
import { code, isRecord, schemaTypeText } from './scriptSummary.js';

/** The objects of a plan whose keys the schema lists. */
export type PlanObjectKind = 'plan' | 'tool' | 'retryPolicy' | 'rollback';

const schema = planSchema as unknown as Record<string, unknown>;
const definitions = (schema['$defs'] ?? {}) as Record<string, Record<string, unknown>>;

const objectSchemas: Record<PlanObjectKind, Record<string, unknown>> = {
  plan: schema,
  tool: definitions['ToolInvocation'] ?? {},
  retryPolicy: definitions['RetryPolicy'] ?? {},
  rollback: definitions['RollbackInvocation'] ?? {},
};

/** The order tool keys are offered in (the usual order of a hand-written tool). */
const TOOL_KEY_ORDER = [
  'toolId',
  'toolPath',
  'dependencies',
  'input',
  'required',
  'async',
  'retryPolicy',
  'timeoutMs',
  'condition',
  'description',
  'rollback',
  'subPlan',
];

/** Follows a local `$ref` (`#/$defs/Name`) of the plan schema, keeping the referring schema's description. */
export const resolvePlanSchema: SchemaResolver = (property) => {
  const reference = property['$ref'];
  if (typeof reference !== 'string' || !reference.startsWith('#/$defs/')) return property;
  const target = definitions[reference.slice('#/$defs/'.length)];
  return target ? { ...target, ...(property['description'] !== undefined ? { description: property['description'] } : {}) } : property;
};

/** The schema of a property of a plan object, resolved; undefined when the schema does not list it. */
export function planPropertySchema(kind: PlanObjectKind, name: string): Record<string, unknown> | undefined {
  const properties = objectSchemas[kind]['properties'];
  const property = isRecord(properties) ? properties[name] : undefined;
  return isRecord(property) ? resolvePlanSchema(property) : undefined;
}

/** Overrides of the value snippet of some keys (e.g. a fresh toolId, the script's timeout). */
export type ValueSnippetOverrides = Readonly<Record<string, (stops: TabStops) => string>>;

/**
 * The keys of a plan object that are not present yet, as snippets `"key": <value shaped by the schema>`
 * (the key alone when it already has a colon). `present` lists the keys already written.
 */
export function propertyKeyItems(
  cursor: CompletionCursor,
  kind: PlanObjectKind,
  present: readonly string[],
  overrides: ValueSnippetOverrides = {},
): PlanCompletionItem[] {
  const properties = objectSchemas[kind]['properties'];
  if (!isRecord(properties)) return [];
  const required = new Set(Array.isArray(objectSchemas[kind]['required']) ? (objectSchemas[kind]['required'] as unknown[]) : []);
  const taken = new Set(present);
  const names = Object.keys(properties).filter((name) => !taken.has(name) && name !== '$schema');
  const order = (name: string) => (kind === 'tool' ? TOOL_KEY_ORDER.indexOf(name) : Object.keys(properties).indexOf(name));
  const keyOnly = keyHasColon(cursor);
  const before = keyOnly ? '' : leadingComma(cursor);
  const after = keyOnly ? '' : trailingComma(cursor);
  return names.map((name) => {
    const property = planPropertySchema(kind, name)!;
    const stops = new TabStops();
    const value = overrides[name]?.(stops) ?? valueSnippet(property, stops, resolvePlanSchema);
    return completionItem(cursor, {
      label: name,
      kind: 'property',
      detail: `${propertyTypeText(kind, name)}${required.has(name) ? ' · required' : ''}`,
      documentation: propertyDocumentation(property),
      insertText: keyOnly ? `"${escapeSnippet(name)}"` : `${before}"${escapeSnippet(name)}": ${value}${after}`,
      isSnippet: true,
      filterWord: name,
      sortText: sortKey(required.has(name) ? 0 : 1, order(name)),
    });
  });
}

/** The type of a property for the detail line: its type, or the definition it refers to. */
function propertyTypeText(kind: PlanObjectKind, name: string): string {
  const properties = objectSchemas[kind]['properties'] as Record<string, Record<string, unknown>>;
  const reference = properties[name]?.['$ref'];
  if (typeof reference === 'string') return `object (${reference.split('/').pop()})`;
  return schemaTypeText(planPropertySchema(kind, name) ?? {});
}

/** The description of a property, its default and bounds; for an object without a description, its properties. */
export function propertyDocumentation(property: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof property['description'] === 'string') parts.push(property['description']);
  else if (isRecord(property['properties'])) {
    const lines = Object.entries(property['properties']).map(([name, inner]) => {
      const description = isRecord(inner) && typeof inner['description'] === 'string' ? ` — ${inner['description']}` : '';
      const fallback = isRecord(inner) && inner['default'] !== undefined ? ` (default ${code(JSON.stringify(inner['default']))})` : '';
      return `- ${code(name)}${description}${fallback}`;
    });
    parts.push(lines.join('\n'));
  }
  const facts: string[] = [];
  if (property['default'] !== undefined) facts.push(`Default: ${code(JSON.stringify(property['default']))}`);
  if (typeof property['minimum'] === 'number' || typeof property['maximum'] === 'number') {
    facts.push(`Range: ${property['minimum'] ?? '…'} to ${property['maximum'] ?? '…'}`);
  }
  if (typeof property['maxLength'] === 'number') facts.push(`At most ${property['maxLength']} characters`);
  if (typeof property['pattern'] === 'string') facts.push(`Pattern: ${code(property['pattern'])}`);
  if (facts.length > 0) parts.push(facts.join(' · '));
  return parts.join('\n\n');
}

/** `true` and `false` for a boolean property of a plan object (its default preselected). */
export function booleanValueItems(cursor: CompletionCursor, property: Record<string, unknown>): PlanCompletionItem[] {
  if (property['type'] !== 'boolean') return [];
  const after = trailingComma(cursor);
  return [true, false].map((value, index) =>
    completionItem(cursor, {
      label: String(value),
      kind: 'value',
      detail: property['default'] === value ? 'default' : undefined,
      insertText: `${value}${after}`,
      sortText: sortKey(property['default'] === value ? 0 : 1, index),
      preselect: property['default'] === value,
    }),
  );
}
