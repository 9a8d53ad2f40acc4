// One tool of a plan document with the span of each part: toolId, toolPath, dependencies, input properties, retryPolicy, condition. Pure.
import type { Node } from 'jsonc-parser';
import { pointerFromPath } from '../validation/jsonLocator.js';
import { spanOfNode, type TextSpan } from './textSpan.js';

/** A string property: its value and the spans of the literal (with quotes) and of the key. */
export interface StringField {
  readonly value: string;
  readonly span: TextSpan;
  readonly keySpan: TextSpan;
}

/** A property whose value should be a number: `value` is undefined when it is something else. */
export interface NumberField {
  readonly value: number | undefined;
  readonly span: TextSpan;
  readonly keySpan: TextSpan;
}

/** One entry of a tool's `dependencies` array. */
export interface DependencyEntry {
  /** Position in the array. */
  readonly index: number;
  /** The toolId it names; undefined when the entry is not a string. */
  readonly value: string | undefined;
  readonly span: TextSpan;
  readonly pointer: string;
}

/** One property of a tool's `input` object. */
export interface InputProperty {
  readonly name: string;
  readonly keySpan: TextSpan;
  /** The value's span; undefined while it is being typed (`"formula": ` with nothing after). */
  readonly valueSpan: TextSpan | undefined;
  /** The value (JSON semantics); undefined when missing. */
  readonly value: unknown;
  readonly pointer: string;
}

/** A tool's `retryPolicy` object. */
export interface RetryPolicyField {
  readonly span: TextSpan;
  readonly keySpan: TextSpan;
  readonly maxRetries: NumberField | undefined;
  readonly backoffMs: NumberField | undefined;
}

/** One tool object of the `tools` array, with spans. */
export interface PlanTool {
  /** Position in the plan's `tools` array. */
  readonly index: number;
  /** `/tools/<index>`. */
  readonly pointer: string;
  /** The whole tool object. */
  readonly span: TextSpan;
  readonly toolId: StringField | undefined;
  readonly toolPath: StringField | undefined;
  readonly description: StringField | undefined;
  readonly condition: StringField | undefined;
  readonly subPlan: StringField | undefined;
  readonly rollbackToolPath: StringField | undefined;
  readonly dependencies: { readonly span: TextSpan; readonly keySpan: TextSpan; readonly entries: readonly DependencyEntry[] } | undefined;
  readonly input: { readonly span: TextSpan; readonly keySpan: TextSpan; readonly properties: readonly InputProperty[] } | undefined;
  readonly retryPolicy: RetryPolicyField | undefined;
  readonly timeoutMs: NumberField | undefined;
  /** Every property name the tool object has, in order. */
  readonly keys: readonly string[];
}

/** Reads one tool object of the tree. Later duplicate keys win, as in JSON.parse. */
export function readTool(node: Node, index: number): PlanTool {
  const pointer = pointerFromPath(['tools', index]);
  const keys: string[] = [];
  const tool: { -readonly [K in keyof PlanTool]: PlanTool[K] } = {
    index,
    pointer,
    span: spanOfNode(node),
    toolId: undefined,
    toolPath: undefined,
    description: undefined,
    condition: undefined,
    subPlan: undefined,
    rollbackToolPath: undefined,
    dependencies: undefined,
    input: undefined,
    retryPolicy: undefined,
    timeoutMs: undefined,
    keys,
  };
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key) continue;
    const name = String(key.value);
    keys.push(name);
    if (!value) continue;
    const keySpan = spanOfNode(key);
    switch (name) {
      case 'toolId':
      case 'toolPath':
      case 'description':
      case 'condition':
      case 'subPlan':
        tool[name] = value.type === 'string' ? { value: String(value.value), span: spanOfNode(value), keySpan } : undefined;
        break;
      case 'timeoutMs':
        tool.timeoutMs = numberField(value, keySpan);
        break;
      case 'dependencies':
        tool.dependencies = value.type === 'array' ? { span: spanOfNode(value), keySpan, entries: readDependencies(value, index) } : undefined;
        break;
      case 'input':
        tool.input = value.type === 'object' ? { span: spanOfNode(value), keySpan, properties: readInput(value, index) } : undefined;
        break;
      case 'retryPolicy':
        tool.retryPolicy = value.type === 'object' ? readRetryPolicy(value, keySpan) : undefined;
        break;
      case 'rollback':
        tool.rollbackToolPath = value.type === 'object' ? stringProperty(value, 'toolPath') : undefined;
        break;
    }
  }
  return tool;
}

function readDependencies(array: Node, toolIndex: number): DependencyEntry[] {
  return (array.children ?? []).map((item, position) => ({
    index: position,
    value: item.type === 'string' ? String(item.value) : undefined,
    span: spanOfNode(item),
    pointer: pointerFromPath(['tools', toolIndex, 'dependencies', position]),
  }));
}

function readInput(object: Node, toolIndex: number): InputProperty[] {
  const properties: InputProperty[] = [];
  for (const property of object.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key) continue;
    const name = String(key.value);
    properties.push({
      name,
      keySpan: spanOfNode(key),
      valueSpan: value ? spanOfNode(value) : undefined,
      value: value ? nodeValue(value) : undefined,
      pointer: pointerFromPath(['tools', toolIndex, 'input', name]),
    });
  }
  return properties;
}

function readRetryPolicy(object: Node, keySpan: TextSpan): RetryPolicyField {
  let maxRetries: NumberField | undefined;
  let backoffMs: NumberField | undefined;
  for (const property of object.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key || !value) continue;
    if (key.value === 'maxRetries') maxRetries = numberField(value, spanOfNode(key));
    if (key.value === 'backoffMs') backoffMs = numberField(value, spanOfNode(key));
  }
  return { span: spanOfNode(object), keySpan, maxRetries, backoffMs };
}

function stringProperty(object: Node, name: string): StringField | undefined {
  let found: StringField | undefined;
  for (const property of object.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key?.value === name && value)
      found = value.type === 'string' ? { value: String(value.value), span: spanOfNode(value), keySpan: spanOfNode(key) } : undefined;
  }
  return found;
}

function numberField(value: Node, keySpan: TextSpan): NumberField {
  return { value: value.type === 'number' ? Number(value.value) : undefined, span: spanOfNode(value), keySpan };
}

/** The value of a subtree (objects get own properties only; last duplicate key wins). */
export function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) Object.defineProperty(result, String(key.value), { value: nodeValue(value), enumerable: true, writable: true, configurable: true });
      }
      return result;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value as unknown;
  }
}
