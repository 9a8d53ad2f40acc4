// The fast path of parsing strict JSON: JSON.parse for the value, a nesting check, and the syntax tree built only when needed.
import { parseTree, type Node } from 'jsonc-parser';

/** Deeper nesting is rejected as a syntax problem: the recursive parser would overflow the stack on hostile input. */
export const MAX_NESTING_DEPTH = 512;

/** The value of a strict JSON text (JSON.parse), or undefined when JSON.parse rejects it. */
export function strictValue(source: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(source) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * True when objects and arrays nest deeper than `limit` in a parsed value. JSON.parse copes with any
 * depth, but JSON.stringify and recursive walks do not, so such a text is refused as the tolerant
 * parse refuses it. Visits only objects and arrays, so it costs little beside JSON.parse.
 */
export function deeperThan(value: unknown, limit: number): boolean {
  // A recursive for-in walk is about twice as fast as collecting Object.values on a stack, but for-in
  // also visits enumerable properties inherited from a polluted Object.prototype, and recursion must
  // stay shallow: in either case the iterative walk over own values is used.
  if (limit <= MAX_NESTING_DEPTH && !hasEnumerableInherited()) return exceeds(value, limit);
  return deeperThanIterative(value, limit);
}

/** True when objects or arrays nest deeper than `remaining` levels in a JSON.parse value, whose prototype chain is clean (see deeperThan). */
function exceeds(value: unknown, remaining: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (remaining === 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      if (child !== null && typeof child === 'object' && exceeds(child, remaining - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && exceeds(child, remaining - 1)) return true;
  }
  return false;
}

/** True when Object.prototype has an enumerable property, which for-in would visit on every parsed object. */
function hasEnumerableInherited(): boolean {
  for (const _key in Object.prototype) return true;
  return false;
}

/** {@link deeperThan} with an explicit stack over own values: any depth, any prototype. */
function deeperThanIterative(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const current = pending.pop() as object;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * The tree of a strict JSON text, built on first use. A duplicate key can hide a deep value from
 * JSON.parse's result, so the text's own nesting is checked first: the recursive parser must not overflow.
 */
export function lazyTree(source: string): Node | undefined {
  if (nestingTooDeepAt(source) !== undefined) return undefined;
  return parseTree(source, [], { allowTrailingComma: true, disallowComments: false });
}

/** Offset of the first '[' or '{' nested deeper than `MAX_NESTING_DEPTH` in a strict JSON text, or undefined. */
function nestingTooDeepAt(source: string): number | undefined {
  let depth = 0;
  const length = source.length;
  for (let index = 0; index < length; index++) {
    const code = source.charCodeAt(index);
    if (code === 34 /* " */) {
      // Skip the string: strict JSON, so it is terminated and escapes are well formed.
      for (index++; index < length; index++) {
        const inner = source.charCodeAt(index);
        if (inner === 92 /* \ */) index++;
        else if (inner === 34) break;
      }
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > MAX_NESTING_DEPTH) return index;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      depth--;
    }
  }
  return undefined;
}
