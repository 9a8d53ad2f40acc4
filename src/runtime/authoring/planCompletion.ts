// Plan JSON completion: from the cursor's place in a (possibly broken) plan text to the items to propose — scripts, toolIds, keys, values, snippets. Pure.
import type { JSONPath } from 'jsonc-parser';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import { dependencyItems } from './dependencyCompletion.js';
import { freshToolId, newPlanItem, newToolItem, randomRequestId, type TabStops } from './completionSnippets.js';
import {
  completionCursor,
  completionItem,
  isInComment,
  keysAt,
  toolField,
  trailingComma,
  type CompletionRequest,
  type PlanCompletionItem,
  type PlanCompletionOptions,
} from './completionSupport.js';
import { inputKeyItems, inputValueItems } from './inputCompletion.js';
import type { PlanDocument } from './planDocument.js';
import { booleanValueItems, planPropertySchema, propertyKeyItems, type PlanObjectKind } from './propertyCompletion.js';
import { toolPathItems } from './scriptCompletion.js';

export type { PlanCompletionItem, PlanCompletionOptions } from './completionSupport.js';

/**
 * The completion items at `offset` of a plan document. Works on text being typed: the place comes from
 * jsonc-parser's location (path, key position, token), and `options.lastWellFormed` supplies the tools
 * a broken text has lost. Returns [] where nothing is known to fit.
 */
export function completePlan(document: PlanDocument, offset: number, catalog: SkillCatalog, options: PlanCompletionOptions = {}): PlanCompletionItem[] {
  const text = document.text;
  if (offset < 0 || offset > text.length || isInComment(text, offset)) return [];
  const cursor = completionCursor(text, offset);
  const request: CompletionRequest = {
    document,
    lastWellFormed: options.lastWellFormed,
    catalog,
    cursor,
    newRequestId: options.newRequestId ?? randomRequestId,
  };
  const path = cursor.path;
  if (path.length === 0) {
    // An empty document, or one holding only the word being typed.
    const typed = text.slice(cursor.replaceSpan.offset, cursor.replaceSpan.offset + cursor.replaceSpan.length);
    return text.trim() === typed ? [newPlanItem(request, false)] : [];
  }
  if (path.length === 1) return planLevelItems(request, String(path[0]));
  if (path[0] !== 'tools' || typeof path[1] !== 'number') return [];
  if (path.length === 2) return !cursor.atKey && cursor.token === undefined ? [newToolItem(request)] : [];
  return toolLevelItems(request, path[1], path.slice(2));
}

/** Keys and values of the plan object itself. */
function planLevelItems(request: CompletionRequest, name: string): PlanCompletionItem[] {
  const { cursor, document } = request;
  if (cursor.atKey) {
    const present = keysAt(document, [], cursor.token?.span.offset);
    const items = propertyKeyItems(cursor, 'plan', present, { requestId: () => `"${request.newRequestId()}"` });
    const empty = document.tree?.type === 'object' && keysAt(document, []).length === 0;
    return empty ? [newPlanItem(request, true), ...items] : items;
  }
  if (name === 'requestId') {
    const requestId = request.newRequestId();
    return [
      completionItem(cursor, {
        label: requestId,
        kind: 'value',
        detail: 'a new requestId (UUID)',
        insertText: `${JSON.stringify(requestId)}${cursor.token?.terminated ? '' : trailingComma(cursor)}`,
        preselect: true,
      }),
    ];
  }
  const property = planPropertySchema('plan', name);
  return property ? booleanValueItems(cursor, property) : [];
}

/** What fits inside the tool object at `toolIndex`; `rest` is the path below the tool (e.g. `['input', 'fo']`). */
function toolLevelItems(request: CompletionRequest, toolIndex: number, rest: JSONPath): PlanCompletionItem[] {
  const { cursor, document } = request;
  const toolPath: JSONPath = ['tools', toolIndex];
  const [name, inner] = rest;
  if (rest.length === 1) {
    if (cursor.atKey) return toolKeyItems(request, toolIndex);
    switch (name) {
      case 'toolPath':
        return toolPathItems(
          request,
          toolField(request, toolIndex, (tool) => tool.toolPath?.value),
        );
      case 'dependencies':
        return cursor.token === undefined ? dependencyItems(request, toolIndex, true) : [];
      case 'toolId':
        return freshToolIdItems(request);
      default: {
        const property = planPropertySchema('tool', String(name));
        return property ? booleanValueItems(cursor, property) : [];
      }
    }
  }
  if (rest.length !== 2) return [];
  switch (name) {
    case 'dependencies':
      return typeof inner === 'number' && !cursor.atKey && (cursor.token === undefined || cursor.token.type === 'string')
        ? dependencyItems(request, toolIndex, false)
        : [];
    case 'input':
      return cursor.atKey ? inputKeyItems(request, toolIndex) : inputValueItems(request, toolIndex, String(inner));
    case 'retryPolicy':
    case 'rollback': {
      const kind: PlanObjectKind = name;
      if (cursor.atKey) return propertyKeyItems(cursor, kind, keysAt(document, [...toolPath, name], cursor.token?.span.offset));
      return kind === 'rollback' && inner === 'toolPath' ? toolPathItems(request, undefined) : [];
    }
    default:
      return [];
  }
}

/** The keys a tool object does not have yet; toolId comes with a fresh id and timeoutMs with the script's timeout. */
function toolKeyItems(request: CompletionRequest, toolIndex: number): PlanCompletionItem[] {
  const { cursor, document, catalog } = request;
  const present = keysAt(document, ['tools', toolIndex], cursor.token?.span.offset);
  const scriptPath = toolField(request, toolIndex, (tool) => tool.toolPath?.value);
  const timeoutMs = scriptPath === undefined ? undefined : catalog.scriptByToolPath(scriptPath)?.script.timeoutMs;
  return propertyKeyItems(cursor, 'tool', present, {
    toolId: (stops) => `"\${${stops.take()}:${newToolId(request)}}"`,
    ...(timeoutMs !== undefined ? { timeoutMs: (stops: TabStops) => `\${${stops.take()}:${timeoutMs}}` } : {}),
  });
}

/** A fresh toolId for a toolId value being typed. */
function freshToolIdItems(request: CompletionRequest): PlanCompletionItem[] {
  const { cursor } = request;
  if (cursor.token !== undefined && cursor.token.type !== 'string') return [];
  const toolId = newToolId(request);
  return [
    completionItem(cursor, {
      label: toolId,
      kind: 'toolId',
      detail: 'a toolId no other tool uses',
      insertText: `${JSON.stringify(toolId)}${cursor.token?.terminated ? '' : trailingComma(cursor)}`,
      filterWord: toolId,
    }),
  ];
}

function newToolId(request: CompletionRequest): string {
  const { document, lastWellFormed } = request;
  return freshToolId([...document.toolIds(), ...(lastWellFormed?.toolIds() ?? [])], Math.max(document.tools.length, lastWellFormed?.tools.length ?? 0));
}
