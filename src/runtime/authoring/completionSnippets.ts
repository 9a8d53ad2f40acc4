// Snippet texts of plan completion: values shaped by a JSON schema, and the "New tool" and "New plan" templates with fresh ids. Pure.
import { randomUUID } from 'node:crypto';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import { completionItem, leadingComma, trailingComma, type CompletionRequest, type PlanCompletionItem } from './completionSupport.js';
import { isRecord } from './scriptSummary.js';

/** Escapes text for a snippet placeholder or plain snippet text (`$`, `}` and `\`). */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (character) => `\\${character}`);
}

/** Escapes one option of a choice placeholder `${1|a,b|}` (also `,` and `|`). */
export function escapeChoice(text: string): string {
  return text.replace(/[\\$}|,]/g, (character) => `\\${character}`);
}

/** Numbers the tab stops of one snippet. */
export class TabStops {
  private next = 1;

  take(): number {
    return this.next++;
  }
}

/** Resolves a local `$ref` of the schema the value belongs to (identity when there is none). */
export type SchemaResolver = (schema: Record<string, unknown>) => Record<string, unknown>;

const noReferences: SchemaResolver = (schema) => schema;

/**
 * A snippet for a value of `schema`: a string → `"${1:default}"`, a number → `${1:default}`, a boolean or an enum
 * → a choice (default first), an array → `[$1]`, an object → its required and defaulted properties or `{$1}`.
 */
export function valueSnippet(schema: Record<string, unknown>, stops = new TabStops(), resolve: SchemaResolver = noReferences): string {
  const resolved = resolve(schema);
  const fallback = resolved['default'] ?? (Array.isArray(resolved['examples']) ? resolved['examples'][0] : undefined);
  const choices = Array.isArray(resolved['enum']) ? orderedChoices(resolved['enum'], resolved['default']) : undefined;
  if (choices && choices.length > 0) {
    if (choices.every((choice) => typeof choice === 'string'))
      return `"\${${stops.take()}|${choices.map((choice) => escapeChoice(choice as string)).join(',')}|}"`;
    return `\${${stops.take()}|${choices.map((choice) => escapeChoice(JSON.stringify(choice))).join(',')}|}`;
  }
  if (resolved['const'] !== undefined) return escapeSnippet(JSON.stringify(resolved['const']));
  const type = Array.isArray(resolved['type']) ? resolved['type'].find((name) => name !== 'null') : resolved['type'];
  switch (type) {
    case 'string':
      return typeof fallback === 'string' ? `"\${${stops.take()}:${escapeSnippet(escapeJsonContent(fallback))}}"` : `"$${stops.take()}"`;
    case 'integer':
    case 'number': {
      const minimum = typeof resolved['minimum'] === 'number' ? resolved['minimum'] : undefined;
      const number = typeof fallback === 'number' ? fallback : minimum !== undefined && minimum > 0 ? minimum : 0;
      return `\${${stops.take()}:${number}}`;
    }
    case 'boolean':
      return `\${${stops.take()}|${orderedChoices([true, false], resolved['default']).join(',')}|}`;
    case 'array':
      return `[$${stops.take()}]`;
    case 'object':
      return objectSnippet(resolved, stops, resolve);
    case 'null':
      return 'null';
    default:
      return fallback !== undefined ? `\${${stops.take()}:${escapeSnippet(JSON.stringify(fallback))}}` : `$${stops.take()}`;
  }
}

function objectSnippet(schema: Record<string, unknown>, stops: TabStops, resolve: SchemaResolver): string {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const shown = Object.entries(properties).filter(
    (entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && (required.has(entry[0]) || resolve(entry[1])['default'] !== undefined),
  );
  if (shown.length === 0) return `{$${stops.take()}}`;
  return `{ ${shown.map(([name, property]) => `"${escapeSnippet(name)}": ${valueSnippet(property, stops, resolve)}`).join(', ')} }`;
}

function orderedChoices(values: readonly unknown[], preferred: unknown): unknown[] {
  const index = values.findIndex((value) => JSON.stringify(value) === JSON.stringify(preferred));
  return index <= 0 ? [...values] : [values[index], ...values.slice(0, index), ...values.slice(index + 1)];
}

/** The inside of a JSON string literal holding `text`. */
export function escapeJsonContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A toolId no tool uses yet: `tool<n>`, n counting on from the number of tools. */
export function freshToolId(taken: readonly string[], toolCount: number): string {
  const used = new Set(taken);
  let number = toolCount + 1;
  while (used.has(`tool${number}`)) number++;
  return `tool${number}`;
}

/** The toolPath placeholder: a choice among the catalog's scripts (usable ones first), or a sample path. */
function toolPathPlaceholder(catalog: SkillCatalog, stop: number): string {
  const usable = catalog.skills.filter((skill) => skill.enabled && skill.health !== 'permanentFailure');
  const paths = [...usable, ...catalog.skills.filter((skill) => !usable.includes(skill))].flatMap((skill) => skill.scripts.map((script) => script.toolPath));
  if (paths.length === 0) return `\${${stop}:skills/my-skill/scripts/run.js}`;
  return `\${${stop}|${[...new Set(paths)].map(escapeChoice).join(',')}|}`;
}

/** The body of one tool object (tabs indent; VS Code adapts them to the editor's settings). */
function toolSnippet(toolId: string, catalog: SkillCatalog, stops: TabStops, indent: string): string {
  return [
    '{',
    `${indent}\t"toolId": "\${${stops.take()}:${escapeSnippet(toolId)}}",`,
    `${indent}\t"toolPath": "${toolPathPlaceholder(catalog, stops.take())}",`,
    `${indent}\t"dependencies": [$${stops.take()}],`,
    `${indent}\t"input": {$${stops.take()}}`,
    `${indent}}`,
  ].join('\n');
}

/** "New tool": a tool object with a fresh toolId, between the tools of the `tools` array. */
export function newToolItem(request: CompletionRequest): PlanCompletionItem {
  const { document, lastWellFormed, cursor } = request;
  const taken = [...document.toolIds(), ...(lastWellFormed?.toolIds() ?? [])];
  const toolId = freshToolId(taken, Math.max(document.tools.length, lastWellFormed?.tools.length ?? 0));
  const body = toolSnippet(toolId, request.catalog, new TabStops(), '');
  return completionItem(cursor, {
    label: 'New tool',
    kind: 'snippet',
    detail: `a tool invocation with the toolId "${toolId}"`,
    documentation: 'Adds a tool invocation: a fresh `toolId`, a `toolPath` chosen among the discovered scripts, its `dependencies` and its `input`.',
    insertText: `${leadingComma(cursor)}${body}${trailingComma(cursor)}$0`,
    isSnippet: true,
    filterWord: 'New tool',
    sortText: '0_new_tool',
    preselect: true,
  });
}

/** "New plan": a whole plan (or, inside an empty object, its properties) with a fresh requestId. */
export function newPlanItem(request: CompletionRequest, insideObject: boolean): PlanCompletionItem {
  const requestId = request.newRequestId();
  const stops = new TabStops();
  const properties = [
    `\t"requestId": "${escapeSnippet(requestId)}",`,
    `\t"narrative": "\${${stops.take()}:What the player sees while the tools run.}",`,
    '\t"tools": [',
    `\t\t${toolSnippet('tool1', request.catalog, stops, '\t\t')}`,
    '\t]',
  ].join('\n');
  const insertText = insideObject ? `\n${properties}\n` : `{\n${properties}\n}\n`;
  return completionItem(request.cursor, {
    label: 'New plan',
    kind: 'snippet',
    detail: `a plan with the requestId ${requestId}`,
    documentation: 'A Plan JSON skeleton: a fresh `requestId` (UUID), a `narrative` and a `tools` array with one tool.',
    insertText: `${insertText}$0`,
    isSnippet: true,
    filterWord: 'New plan',
    sortText: '0_new_plan',
    preselect: true,
  });
}

/** The default requestId maker. */
export function randomRequestId(): string {
  return randomUUID();
}
