// The plan-document model: a Plan JSON(C) text parsed once with offsets, every tool part mapped to its span, and the queries editors, the graph and the debugger ask.
import type { Node } from 'jsonc-parser';
import type { JsonSyntaxProblem } from '../validation/jsonLocator.js';
import { parseJsonDocument, pointerFromPath } from '../validation/jsonLocator.js';
import { LineIndex, spanOfNode, spanTouches, type TextSpan } from './textSpan.js';
import { readTool, type DependencyEntry, type InputProperty, type PlanTool, type StringField } from './planTool.js';

export type { DependencyEntry, InputProperty, NumberField, PlanTool, RetryPolicyField, StringField } from './planTool.js';

/** What lies at an offset of a plan document, from the most specific part outwards. */
export type PlanElement =
  | { readonly kind: 'toolId'; readonly tool: PlanTool }
  | { readonly kind: 'toolPath'; readonly tool: PlanTool; readonly rollback: boolean }
  | { readonly kind: 'dependency'; readonly tool: PlanTool; readonly entry: DependencyEntry }
  | { readonly kind: 'dependencies'; readonly tool: PlanTool }
  | { readonly kind: 'inputKey'; readonly tool: PlanTool; readonly property: InputProperty }
  | { readonly kind: 'inputValue'; readonly tool: PlanTool; readonly property: InputProperty }
  | { readonly kind: 'input'; readonly tool: PlanTool }
  | { readonly kind: 'retryPolicy'; readonly tool: PlanTool }
  | { readonly kind: 'condition'; readonly tool: PlanTool }
  | { readonly kind: 'tool'; readonly tool: PlanTool }
  | { readonly kind: 'tools' }
  | { readonly kind: 'plan' }
  | { readonly kind: 'none' };

/** A reference to a toolId: the tool's own toolId, or a dependency entry that names it. */
export interface ToolReference {
  /** The tool whose toolId field, or whose dependency entry, this is. */
  readonly tool: PlanTool;
  /** The string literal (with its quotes). */
  readonly span: TextSpan;
  readonly kind: 'definition' | 'dependency';
}

/** A Plan JSON text with offsets. Built by {@link PlanDocument.parse}; immutable. */
export class PlanDocument {
  /** Every tool of the `tools` array that is an object, in order (`index` is its position in the array). */
  readonly tools: readonly PlanTool[];
  /** The `tools` array, when present. */
  readonly toolsArray: { readonly span: TextSpan; readonly keySpan: TextSpan } | undefined;
  /** The plan's `requestId`, when it is a string. */
  readonly requestId: StringField | undefined;
  /** The top-level object, when the text is one. */
  readonly rootSpan: TextSpan | undefined;
  /** The syntax problems of the text; the other fields come from the tolerant parse when there are some. */
  readonly syntaxProblems: readonly JsonSyntaxProblem[];
  /** The value of the text (JSON.parse semantics), undefined when it has syntax problems. */
  readonly value: unknown;
  readonly lines: LineIndex;
  /** The parse tree (jsonc-parser), for position-based queries. */
  readonly tree: Node | undefined;
  private readonly byId = new Map<string, PlanTool[]>();

  private constructor(readonly text: string) {
    const json = parseJsonDocument(text);
    this.tree = json.root;
    this.syntaxProblems = json.syntaxProblems;
    this.value = json.value;
    this.lines = new LineIndex(text);
    const root = json.root?.type === 'object' ? json.root : undefined;
    this.rootSpan = root ? spanOfNode(root) : undefined;
    const tools: PlanTool[] = [];
    let toolsArray: PlanDocument['toolsArray'];
    let requestId: StringField | undefined;
    for (const property of root?.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || !value) continue;
      if (key.value === 'tools' && value.type === 'array') {
        toolsArray = { span: spanOfNode(value), keySpan: spanOfNode(key) };
        tools.length = 0;
        (value.children ?? []).forEach((item, index) => {
          if (item.type === 'object') tools.push(readTool(item, index));
        });
      } else if (key.value === 'requestId' && value.type === 'string') {
        requestId = { value: String(value.value), span: spanOfNode(value), keySpan: spanOfNode(key) };
      }
    }
    this.tools = tools;
    this.toolsArray = toolsArray;
    this.requestId = requestId;
    for (const tool of tools) {
      const id = tool.toolId?.value;
      if (id === undefined) continue;
      const list = this.byId.get(id);
      if (list) list.push(tool);
      else this.byId.set(id, [tool]);
    }
  }

  /** Parses a plan text. Never throws: a text with syntax problems gets the model its tolerant parse allows. */
  static parse(text: string): PlanDocument {
    return new PlanDocument(text);
  }

  /** True when the text is valid JSON (comments and trailing commas allowed). */
  get isWellFormed(): boolean {
    return this.syntaxProblems.length === 0;
  }

  /** The distinct toolIds, in plan order. */
  toolIds(): string[] {
    return [...this.byId.keys()];
  }

  /** The first tool with this toolId (the one dependencies resolve to). */
  toolById(toolId: string): PlanTool | undefined {
    return this.byId.get(toolId)?.[0];
  }

  /** The tools that list `toolId` in their dependencies, with the entry that names it. */
  dependentsOf(toolId: string): { tool: PlanTool; entry: DependencyEntry }[] {
    const found: { tool: PlanTool; entry: DependencyEntry }[] = [];
    for (const tool of this.tools) {
      for (const entry of tool.dependencies?.entries ?? []) if (entry.value === toolId) found.push({ tool, entry });
    }
    return found;
  }

  /** Every place that names `toolId`: the toolId field of each tool carrying it, then each dependency entry. */
  referencesOf(toolId: string): ToolReference[] {
    const definitions = (this.byId.get(toolId) ?? []).map((tool): ToolReference => ({ tool, span: tool.toolId!.span, kind: 'definition' }));
    const uses = this.dependentsOf(toolId).map(({ tool, entry }): ToolReference => ({ tool, span: entry.span, kind: 'dependency' }));
    return [...definitions, ...uses];
  }

  /** The innermost tool whose object contains the offset. */
  toolAt(offset: number): PlanTool | undefined {
    // Tools are ordered and disjoint: binary search on their start offsets.
    let low = 0;
    let high = this.tools.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const tool = this.tools[middle]!;
      if (offset < tool.span.offset) high = middle - 1;
      else if (offset > tool.span.offset + tool.span.length) low = middle + 1;
      else return tool;
    }
    return undefined;
  }

  /** The tool a 1-based line belongs to (for breakpoints and the graph): the tool whose object covers the line's text. */
  toolAtLine(line: number): PlanTool | undefined {
    const span = this.lines.lineSpan(line);
    const indent = /^\s*/.exec(this.text.slice(span.offset, span.offset + span.length))![0].length;
    return this.toolAt(span.offset + indent) ?? this.toolAt(span.offset + span.length);
  }

  /** The 1-based line where a tool starts (its opening brace). */
  lineOfTool(tool: PlanTool): number {
    return this.lines.positionAt(tool.span.offset).line;
  }

  /** What lies at the offset (a cursor just after a token still counts as on it). */
  elementAt(offset: number): PlanElement {
    const tool = this.toolAt(offset);
    if (!tool) {
      if (this.toolsArray && spanTouches(this.toolsArray.span, offset) && offset > this.toolsArray.span.offset) return { kind: 'tools' };
      return this.rootSpan && spanTouches(this.rootSpan, offset) ? { kind: 'plan' } : { kind: 'none' };
    }
    if (tool.toolId && spanTouches(tool.toolId.span, offset)) return { kind: 'toolId', tool };
    if (tool.toolPath && spanTouches(tool.toolPath.span, offset)) return { kind: 'toolPath', tool, rollback: false };
    if (tool.rollbackToolPath && spanTouches(tool.rollbackToolPath.span, offset)) return { kind: 'toolPath', tool, rollback: true };
    if (tool.condition && spanTouches(tool.condition.span, offset)) return { kind: 'condition', tool };
    if (tool.dependencies && spanTouches(tool.dependencies.span, offset)) {
      const entry = tool.dependencies.entries.find((candidate) => spanTouches(candidate.span, offset));
      return entry ? { kind: 'dependency', tool, entry } : { kind: 'dependencies', tool };
    }
    if (tool.input && spanTouches(tool.input.span, offset)) {
      for (const property of tool.input.properties) {
        if (spanTouches(property.keySpan, offset)) return { kind: 'inputKey', tool, property };
        if (property.valueSpan && spanTouches(property.valueSpan, offset)) return { kind: 'inputValue', tool, property };
      }
      return { kind: 'input', tool };
    }
    if (tool.retryPolicy && (spanTouches(tool.retryPolicy.span, offset) || spanTouches(tool.retryPolicy.keySpan, offset))) {
      return { kind: 'retryPolicy', tool };
    }
    return { kind: 'tool', tool };
  }

  /** JSON pointer of a tool (e.g. `/tools/3`). */
  static pointerOf(tool: PlanTool): string {
    return pointerFromPath(['tools', tool.index]);
  }
}
