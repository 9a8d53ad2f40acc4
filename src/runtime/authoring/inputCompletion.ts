// Completion inside a tool's `input`: the script's input-schema properties not yet written, and enum, default and example values. Pure.
import type { CatalogScript } from '../skills/skillCatalog.js';
import {
  completionItem,
  keyHasColon,
  leadingComma,
  sortKey,
  toolField,
  trailingComma,
  type CompletionRequest,
  type PlanCompletionItem,
} from './completionSupport.js';
import { escapeSnippet, TabStops, valueSnippet } from './completionSnippets.js';
import { inputPropertyDocumentation, inputSchemaProperties } from './scriptSummary.js';

/** The catalog script the tool at `toolIndex` names, if any. */
function scriptOfTool(request: CompletionRequest, toolIndex: number): CatalogScript | undefined {
  const toolPath = toolField(request, toolIndex, (tool) => tool.toolPath?.value);
  return toolPath === undefined ? undefined : request.catalog.scriptByToolPath(toolPath)?.script;
}

/** The input properties of the script's schema that the tool's input does not have yet, as `"name": value` snippets. */
export function inputKeyItems(request: CompletionRequest, toolIndex: number): PlanCompletionItem[] {
  const { cursor } = request;
  const script = scriptOfTool(request, toolIndex);
  if (!script) return [];
  const current = request.document.tools.find((tool) => tool.index === toolIndex);
  const present = new Set(
    (current?.input?.properties ?? []).filter((property) => property.keySpan.offset !== cursor.token?.span.offset).map((property) => property.name),
  );
  const keyOnly = keyHasColon(cursor);
  const before = keyOnly ? '' : leadingComma(cursor);
  const after = keyOnly ? '' : trailingComma(cursor);
  return inputSchemaProperties(script.inputSchema)
    .filter((property) => !present.has(property.name))
    .map((property, position) => {
      const key = `"${escapeSnippet(property.name)}"`;
      return completionItem(cursor, {
        label: property.name,
        kind: 'property',
        detail: property.required ? `${property.type} · required` : property.type,
        documentation: inputPropertyDocumentation(property),
        insertText: keyOnly ? key : `${before}${key}: ${valueSnippet(property.schema, new TabStops())}${after}`,
        isSnippet: true,
        filterWord: property.name,
        sortText: sortKey(property.required ? 0 : 1, position),
      });
    });
}

/** Values for the input property `name`: its enum values, its default and its examples, as JSON literals. */
export function inputValueItems(request: CompletionRequest, toolIndex: number, name: string): PlanCompletionItem[] {
  const { cursor } = request;
  const property = inputSchemaProperties(scriptOfTool(request, toolIndex)?.inputSchema).find((candidate) => candidate.name === name);
  if (!property) return [];
  const schema = property.schema;
  const candidates: { value: unknown; detail: string }[] = [];
  if (Array.isArray(schema['enum'])) for (const value of schema['enum']) candidates.push({ value, detail: 'allowed value' });
  if (schema['default'] !== undefined) candidates.push({ value: schema['default'], detail: 'default' });
  if (Array.isArray(schema['examples'])) for (const value of schema['examples']) candidates.push({ value, detail: 'example' });
  if (schema['type'] === 'boolean' && candidates.length === 0) candidates.push({ value: true, detail: 'boolean' }, { value: false, detail: 'boolean' });
  const after = cursor.token?.terminated ? '' : trailingComma(cursor);
  const seen = new Map<string, { value: unknown; details: string[] }>();
  for (const candidate of candidates) {
    const literal = JSON.stringify(candidate.value);
    const entry = seen.get(literal);
    if (entry) {
      if (!entry.details.includes(candidate.detail)) entry.details.push(candidate.detail);
    } else seen.set(literal, { value: candidate.value, details: [candidate.detail] });
  }
  return [...seen].map(([literal, { value, details }], position) =>
    completionItem(cursor, {
      label: literal,
      kind: 'value',
      detail: details.join(' · '),
      documentation: property.description,
      insertText: `${literal}${after}`,
      filterWord: typeof value === 'string' ? value : literal,
      sortText: sortKey(details.includes('default') ? 0 : 1, position),
      preselect: details.includes('default'),
    }),
  );
}
