// The outline of a plan document: its top-level properties and a "tools (N)" symbol holding each tool with its dependencies and input properties. Pure.
import type { Node } from 'jsonc-parser';
import type { PlanDocument, PlanTool } from './planDocument.js';
import { spanEnd, spanOfNode, type TextSpan } from './textSpan.js';
import { plural } from '../common/humanText.js';

/** What a symbol stands for (the editor adapter picks an icon for each). */
export type PlanSymbolKind = 'plan' | 'tool' | 'dependencies' | 'dependency' | 'input' | 'property';

/** One symbol of the outline. `selectionSpan` lies inside `span`. */
export interface PlanSymbol {
  /** Never empty. */
  readonly name: string;
  readonly detail: string;
  readonly kind: PlanSymbolKind;
  /** Everything the symbol covers (from its key, when it has one, to the end of its value). */
  readonly span: TextSpan;
  /** What to select when the symbol is picked: its key, or a tool's toolId. */
  readonly selectionSpan: TextSpan;
  readonly children: readonly PlanSymbol[];
}

/** Longest value preview in a detail. */
const PREVIEW_LENGTH = 60;

/**
 * The outline: one symbol per top-level property in document order; the `tools` array is a
 * 'plan' symbol named "tools (N)" whose children are the tools ('tool': named by toolId, or
 * `tools/<i>`), each with its 'dependencies' (one 'dependency' per entry) and 'input' (one
 * 'property' per key).
 */
export function planOutline(document: PlanDocument): PlanSymbol[] {
  const root = document.tree?.type === 'object' ? document.tree : undefined;
  const symbols: PlanSymbol[] = [];
  for (const property of root?.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key) continue;
    const keySpan = spanOfNode(key);
    const name = String(key.value);
    // The model reads the last `tools` array (JSON.parse semantics); an earlier duplicate is a plain property.
    if (name === 'tools' && value?.type === 'array' && document.toolsArray?.keySpan.offset === keySpan.offset) {
      symbols.push(toolsSymbol(document, keySpan, spanOfNode(value)));
      continue;
    }
    symbols.push({
      name: symbolName(name),
      detail: value ? preview(value, document.text) : '',
      kind: 'property',
      span: joined(keySpan, value ? spanOfNode(value) : keySpan),
      selectionSpan: keySpan,
      children: [],
    });
  }
  return symbols;
}

function toolsSymbol(document: PlanDocument, keySpan: TextSpan, arraySpan: TextSpan): PlanSymbol {
  const count = document.tools.length;
  return {
    name: `tools (${count})`,
    detail: plural(count, 'tool'),
    kind: 'plan',
    span: joined(keySpan, arraySpan),
    selectionSpan: keySpan,
    children: document.tools.map((tool) => toolSymbol(document, tool)),
  };
}

function toolSymbol(document: PlanDocument, tool: PlanTool): PlanSymbol {
  const children: PlanSymbol[] = [];
  const dependencies = tool.dependencies;
  if (dependencies) {
    children.push({
      name: 'dependencies',
      detail: String(dependencies.entries.length),
      kind: 'dependencies',
      span: joined(dependencies.keySpan, dependencies.span),
      selectionSpan: dependencies.keySpan,
      children: dependencies.entries.map((entry): PlanSymbol => {
        const target = entry.value === undefined ? undefined : document.toolById(entry.value);
        const detail = entry.value === undefined ? 'not a toolId' : target ? (target.toolPath?.value ?? '') : 'unknown tool';
        const name = entry.value ?? document.text.slice(entry.span.offset, spanEnd(entry.span));
        return { name: symbolName(name), detail, kind: 'dependency', span: entry.span, selectionSpan: entry.span, children: [] };
      }),
    });
  }
  const input = tool.input;
  if (input) {
    children.push({
      name: 'input',
      detail: input.properties.map((property) => property.name).join(', '),
      kind: 'input',
      span: joined(input.keySpan, input.span),
      selectionSpan: input.keySpan,
      children: input.properties.map(
        (property): PlanSymbol => ({
          name: symbolName(property.name),
          detail: property.valueSpan ? truncate(document.text.slice(property.valueSpan.offset, spanEnd(property.valueSpan))) : '',
          kind: 'property',
          span: joined(property.keySpan, property.valueSpan ?? property.keySpan),
          selectionSpan: property.keySpan,
          children: [],
        }),
      ),
    });
  }
  const toolId = tool.toolId?.value;
  return {
    name: toolId ? toolId : `tools/${tool.index}`,
    detail: toolDetail(tool),
    kind: 'tool',
    span: tool.span,
    selectionSpan: tool.toolId?.span ?? { offset: tool.span.offset, length: 1 },
    children: children.sort((left, right) => left.span.offset - right.span.offset),
  };
}

/** `skills/x/scripts/y.js · after a, b` (the sub-plan instead of the script for sub-plan tools). */
function toolDetail(tool: PlanTool): string {
  const target = tool.subPlan ? `sub-plan ${tool.subPlan.value}` : (tool.toolPath?.value ?? '');
  const after = (tool.dependencies?.entries ?? []).flatMap((entry) => (entry.value === undefined ? [] : [entry.value]));
  const parts = [target, after.length > 0 ? `after ${after.join(', ')}` : ''].filter((part) => part !== '');
  return parts.join(' · ');
}

/** A short text for a top-level value: strings as they are, objects and arrays by size, others as written. */
function preview(value: Node, text: string): string {
  switch (value.type) {
    case 'string':
      return truncate(String(value.value));
    case 'object':
      return `{${value.children?.length ?? 0} properties}`;
    case 'array':
      return `[${value.children?.length ?? 0} items]`;
    default:
      return truncate(text.slice(value.offset, value.offset + value.length));
  }
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH - 1)}…` : flat;
}

/** Editors refuse empty symbol names: an empty one is shown as `""`. */
function symbolName(name: string): string {
  return name.trim() === '' ? JSON.stringify(name) : name;
}

/** The span from the start of `first` to the end of `last`. */
function joined(first: TextSpan, last: TextSpan): TextSpan {
  return { offset: first.offset, length: Math.max(spanEnd(first), spanEnd(last)) - first.offset };
}
