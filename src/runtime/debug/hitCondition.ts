// Hit conditions and logpoint messages of the plan debugger's breakpoints: parsing "== 3", ">= 2", "% 2", and interpolating {state.path}.
import { isPlainObject } from '../state/deepMerge.js';

/** A parsed hit condition: the breakpoint stops on hit `count` when `matches(count)`. */
export interface HitCondition {
  readonly text: string;
  matches(count: number): boolean;
}

export type HitConditionParse = { readonly ok: true; readonly condition: HitCondition } | { readonly ok: false; readonly message: string };

/**
 * Parses a hit condition: `N` or `== N` (exactly the N-th hit), `> N`, `>= N`, `< N`, `<= N`, or `% N` (every N-th
 * hit). N is a positive integer; spaces are optional.
 */
export function parseHitCondition(text: string): HitConditionParse {
  const match = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!match) return { ok: false, message: `hit condition "${text}" is not N, == N, > N, >= N, < N, <= N or % N` };
  const operator = match[1] ?? '==';
  const value = Number(match[2]);
  if (!Number.isSafeInteger(value) || (operator === '%' && value === 0)) return { ok: false, message: `hit condition "${text}" needs a positive number` };
  const test: (count: number) => boolean =
    operator === '=='
      ? (count) => count === value
      : operator === '>'
        ? (count) => count > value
        : operator === '>='
          ? (count) => count >= value
          : operator === '<'
            ? (count) => count < value
            : operator === '<='
              ? (count) => count <= value
              : (count) => count % value === 0;
  return { ok: true, condition: { text, matches: test } };
}

/** What a logpoint message can read. */
export interface LogScope {
  readonly state: Record<string, unknown>;
  readonly dependencies?: Record<string, unknown>;
  readonly input?: Record<string, unknown>;
}

/**
 * A logpoint's text with each `{path}` replaced by its value: `state.a.b`, `state.list[0]`, `dependencies.roll.result`,
 * `input.formula`. Strings print as they are, other values as JSON, a missing path as `undefined`. `{{` and `}}`
 * print single braces.
 */
export function interpolateLogMessage(message: string, scope: LogScope): string {
  return message.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, path: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = readPath(path!.trim(), scope);
    if (value === undefined) return 'undefined';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** Reads `state.a[0].b`-style paths from the scope (own properties only). */
export function readPath(path: string, scope: LogScope): unknown {
  const segments = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const [root, ...rest] = segments;
  let value: unknown = root === 'state' ? scope.state : root === 'dependencies' ? scope.dependencies : root === 'input' ? scope.input : undefined;
  for (const raw of rest) {
    const key = raw.startsWith('[') ? Number(raw.slice(1, -1)) : raw.replace(/^["']|["']$/g, '');
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (isPlainObject(value) && Object.hasOwn(value, String(key))) value = value[String(key)];
    else return undefined;
  }
  return value;
}
