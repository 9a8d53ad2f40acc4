// The Variables view of a paused point: scopes (State, Input, Dependencies, Event, Result, Plan; a story turn's Story), JSON values as variables, edits and watch expressions.
import { Handles, Scope } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { evaluateCondition, parseCondition } from '../../state/conditionExpression.js';
import { isPlainObject } from '../../state/deepMerge.js';
import { readPath } from '../hitCondition.js';
import { parsePointer, pointerOf, valueAtPath } from '../dataBreakpoints.js';
import type { DebugPoint } from '../debugHistory.js';

export type ScopeName = 'State' | 'Input' | 'Dependencies' | 'Event' | 'Result' | 'Plan' | 'Story';

/** A JSON value shown in the Variables view: where it lives, and whether setVariable may change it. */
interface Container {
  readonly scope: ScopeName;
  readonly value: unknown;
  /** Keys from the scope's root to this value. */
  readonly path: readonly (string | number)[];
  readonly editable: boolean;
  readonly frameId: number;
}

/** What a frame offers to the Variables view. */
export interface FrameValues {
  readonly frameId: number;
  readonly point: DebugPoint;
  /** The tool's result when it has finished. */
  readonly result?: unknown;
  /** The tool's flags, retries and timings. */
  readonly plan?: Record<string, unknown> | undefined;
  /** True when State and Input can be edited (before the tool starts). */
  readonly editable: boolean;
}

/** Variable references for one stop; reset whenever the debuggee runs again. */
export class VariableStore {
  private handles = new Handles<Container>();

  reset(): void {
    this.handles.reset();
  }

  scopes(frame: FrameValues): DebugProtocol.Scope[] {
    const point = frame.point;
    const scopes: DebugProtocol.Scope[] = [this.scope('State', point.state, frame, frame.editable, false)];
    if (point.kind !== 'replan') {
      scopes.push(this.scope('Input', point.input, frame, frame.editable, false));
      scopes.push(this.scope('Dependencies', point.dependencies, frame, false, true));
    }
    if (point.event) scopes.push(this.scope('Event', point.kind === 'event' ? point.event : {}, frame, false, false));
    if (point.kind === 'replan')
      scopes.push(this.scope('Event', { iteration: point.iteration, toolId: point.toolId, suggestion: point.suggestion ?? null }, frame, false, false));
    if (frame.result !== undefined) scopes.push(this.scope('Result', frame.result, frame, false, false));
    if (frame.plan) scopes.push(this.scope('Plan', frame.plan, frame, false, true));
    return scopes;
  }

  /** Scopes of a frame a target drew itself: read-only JSON values. */
  namedScopes(frameId: number, scopes: readonly { readonly name: ScopeName; readonly value: unknown }[]): DebugProtocol.Scope[] {
    return scopes.map((scope) => this.scopeOf(scope.name, scope.value, frameId, false, false));
  }

  variables(reference: number): DebugProtocol.Variable[] {
    const container = this.handles.get(reference);
    if (!container) return [];
    const value = container.value;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : isPlainObject(value)
        ? Object.entries(value)
        : [];
    return entries.map(([key, child]) => this.variable(container, key, child));
  }

  /** A reference for an evaluated value (read-only). */
  reference(value: unknown, frameId: number): number {
    return this.handles.create({ scope: 'Event', value, path: [], editable: false, frameId });
  }

  /** The container a reference points at. */
  containerOf(reference: number): Container | undefined {
    return this.handles.get(reference);
  }

  /** The data breakpoint a variable offers: a JSON pointer into the state, or a reason why not. */
  dataIdOf(reference: number, name: string): { dataId: string | null; description: string } {
    const container = this.handles.get(reference);
    if (!container || container.scope !== 'State') return { dataId: null, description: 'only values in the State scope can be watched for changes' };
    const pointer = pointerOf([...container.path, Array.isArray(container.value) ? Number(name) : name]);
    return { dataId: pointer, description: `state${pointer}` };
  }

  private scope(name: ScopeName, value: unknown, frame: FrameValues, editable: boolean, expensive: boolean): DebugProtocol.Scope {
    return this.scopeOf(name, value, frame.frameId, editable, expensive);
  }

  private scopeOf(name: ScopeName, value: unknown, frameId: number, editable: boolean, expensive: boolean): DebugProtocol.Scope {
    const reference = this.handles.create({ scope: name, value, path: [], editable, frameId });
    const scope = new Scope(name, reference, expensive) as DebugProtocol.Scope;
    if (name === 'State' || name === 'Input') scope.presentationHint = 'locals';
    else if (name === 'Event') scope.presentationHint = 'arguments';
    scope.namedVariables = isPlainObject(value) ? Object.keys(value).length : Array.isArray(value) ? value.length : 0;
    return scope;
  }

  private variable(container: Container, key: string | number, value: unknown): DebugProtocol.Variable {
    const path = [...container.path, key];
    const structured = isPlainObject(value) || Array.isArray(value);
    const reference = structured ? this.handles.create({ ...container, value, path }) : 0;
    const variable: DebugProtocol.Variable = {
      name: String(key),
      value: preview(value),
      type: Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value,
      variablesReference: reference,
    };
    if (container.scope === 'State') variable.evaluateName = pointerOf(path);
    else if (container.scope === 'Input' || container.scope === 'Dependencies')
      variable.evaluateName = `${container.scope.toLowerCase()}${path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`)).join('')}`;
    if (Array.isArray(value)) variable.indexedVariables = value.length;
    if (!container.editable) variable.presentationHint = { attributes: ['readOnly'] };
    return variable;
  }
}

/** A one-line preview of a JSON value. */
export function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `Array(${value.length})${value.length <= 5 ? ` ${short(value)}` : ''}`;
  if (isPlainObject(value)) return short(value);
  return JSON.stringify(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** A value typed in the Variables view or Debug Console: JSON when it parses (`7`, `"text"`, `{"a":1}`), else the text. */
export function parseEnteredValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `root` with the value at `path` replaced (copies along the path, shares the rest); null deletes a key. */
export function withValueAt(root: Record<string, unknown>, path: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const set = (current: unknown, index: number): unknown => {
    if (index === path.length) return value;
    const key = path[index]!;
    if (Array.isArray(current) && typeof key === 'number') {
      const copy = [...current];
      copy[key] = set(current[key], index + 1);
      return copy;
    }
    const object = isPlainObject(current) ? { ...current } : {};
    object[String(key)] = set(object[String(key)], index + 1);
    return object;
  };
  return set(root, 0) as Record<string, unknown>;
}

/** What an expression evaluates to at a point: a JSON pointer into the state, a `state.…`/`input.…` path, a key (hovers), or a condition. */
export function evaluateAt(expression: string, point: DebugPoint): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = expression.trim();
  if (text === '') return { ok: false, message: 'type a JSON pointer such as /dice/lastRoll/total, or a condition such as state.dice.lastRoll.total >= 15' };
  if (text.startsWith('/')) {
    const segments = parsePointer(text)!;
    const value = valueAtPath(point.state, segments);
    return value === undefined ? { ok: false, message: `no value at ${text} in the state` } : { ok: true, value };
  }
  const scope = { state: point.state, input: point.input, dependencies: point.dependencies };
  if (/^(state|input|dependencies)(\.[A-Za-z_$][\w$-]*|\[\d+\])*$/.test(text)) {
    const value = readPath(text, scope);
    return value === undefined ? { ok: false, message: `${text} is undefined here` } : { ok: true, value };
  }
  // A bare word (what a hover over the plan's JSON sends): a key of the state, the input or the dependencies.
  if (/^[A-Za-z_$][\w$-]*$/.test(text)) {
    for (const root of [point.state, point.input, point.dependencies]) {
      if (Object.hasOwn(root, text)) return { ok: true, value: root[text] };
    }
  }
  const parsed = parseCondition(text);
  if (!parsed.ok) return { ok: false, message: `${parsed.message} (at column ${parsed.offset + 1})` };
  try {
    return { ok: true, value: evaluateCondition(parsed.expression, scope) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
