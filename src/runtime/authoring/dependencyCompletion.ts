// Dependency completion: the toolIds a tool may depend on — not itself, not those already listed, not those that would close a cycle. Pure.
import type { PlanDocument, PlanTool } from './planDocument.js';
import { completionItem, leadingComma, sortKey, toolField, trailingComma, type CompletionRequest, type PlanCompletionItem } from './completionSupport.js';
import { code } from './scriptSummary.js';

/** A tool as the completion knows it: from the current text or, when that lost it, from the last well-formed one. */
interface KnownTool {
  readonly tool: PlanTool;
  readonly document: PlanDocument;
  readonly dependencies: readonly string[];
}

/**
 * Every toolId of the plan with its tool, in plan order. When the current text is broken, tools that only
 * the last well-formed version still has are added after the current ones.
 */
function knownTools(request: CompletionRequest): Map<string, KnownTool> {
  const known = new Map<string, KnownTool>();
  const add = (document: PlanDocument) => {
    for (const tool of document.tools) {
      const id = tool.toolId?.value;
      if (id === undefined || known.has(id)) continue;
      const dependencies = (tool.dependencies?.entries ?? []).flatMap((entry) => (entry.value === undefined ? [] : [entry.value]));
      known.set(id, { tool, document, dependencies });
    }
  };
  add(request.document);
  if (!request.document.isWellFormed && request.lastWellFormed) add(request.lastWellFormed);
  return known;
}

/** The toolIds that depend on `toolId`, directly or transitively (depending on the tool, they would close a cycle). */
function transitiveDependents(known: ReadonlyMap<string, KnownTool>, toolId: string): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const [id, { dependencies }] of known) {
    for (const dependency of dependencies) {
      const list = dependents.get(dependency);
      if (list) list.push(id);
      else dependents.set(dependency, [id]);
    }
  }
  const found = new Set<string>();
  const pending = [toolId];
  while (pending.length > 0) {
    for (const dependent of dependents.get(pending.pop()!) ?? []) {
      if (found.has(dependent)) continue;
      found.add(dependent);
      pending.push(dependent);
    }
  }
  return found;
}

/**
 * The toolIds the tool at `toolIndex` may add to its dependencies. `asArray` is true right after
 * `"dependencies":` with no array yet: each item then inserts a whole array.
 */
export function dependencyItems(request: CompletionRequest, toolIndex: number, asArray: boolean): PlanCompletionItem[] {
  const { cursor } = request;
  const known = knownTools(request);
  const selfId = toolField(request, toolIndex, (tool) => tool.toolId?.value);
  const current = request.document.tools.find((tool) => tool.index === toolIndex);
  const listed = new Set(
    (current?.dependencies?.entries ?? [])
      .filter((entry) => entry.span.offset !== cursor.token?.span.offset)
      .flatMap((entry) => (entry.value === undefined ? [] : [entry.value])),
  );
  const cycles = selfId === undefined ? new Set<string>() : transitiveDependents(known, selfId);
  const replacing = cursor.token?.terminated === true;
  const before = replacing || asArray ? '' : leadingComma(cursor);
  const after = replacing ? '' : trailingComma(cursor);
  const items: PlanCompletionItem[] = [];
  let position = 0;
  for (const [id, { tool, document }] of known) {
    position++;
    if (id === selfId || listed.has(id) || cycles.has(id)) continue;
    const literal = JSON.stringify(id);
    items.push(
      completionItem(cursor, {
        label: id,
        kind: 'toolId',
        detail: tool.toolPath?.value ?? '(no toolPath)',
        documentation: toolDocumentation(tool, document),
        insertText: `${before}${asArray ? `[${literal}]` : literal}${after}`,
        filterWord: id,
        sortText: sortKey(0, position),
      }),
    );
  }
  return items;
}

function toolDocumentation(tool: PlanTool, document: PlanDocument): string {
  const parts = [`Tool ${code(tool.toolId?.value ?? '')} · tools/${tool.index} · line ${document.lineOfTool(tool)}`];
  if (tool.toolPath) parts.push(`Runs ${code(tool.toolPath.value)}.`);
  if (tool.description) parts.push(tool.description.value);
  return parts.join('\n\n');
}
