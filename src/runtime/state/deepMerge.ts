// Deep merge of state patches (docs/plan-json-and-protocol.md#deep-merge): objects merge recursively, arrays and primitives replace, null deletes.

export type JsonObject = Record<string, unknown>;

/** True for plain JSON objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns `target` with `patch` merged in, without mutating either (unchanged branches are shared).
 * Keys named `__proto__` are ignored so a patch can never change an object's prototype.
 */
export function deepMerge(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const key of Object.keys(patch)) {
    if (key === '__proto__') continue;
    const value = patch[key];
    if (value === null) {
      delete result[key];
    } else if (isPlainObject(value)) {
      const current = result[key];
      result[key] = deepMerge(isPlainObject(current) ? current : {}, value);
    } else if (value !== undefined) {
      result[key] = value;
    }
  }
  return result;
}

/** Top-level keys whose values differ between two states (by JSON identity), sorted. */
export function changedKeys(before: JsonObject, after: JsonObject): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => before[key] !== after[key] && JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}

/**
 * The patch that turns `before` into `after` under deepMerge: changed values, recursive object diffs,
 * and null for removed keys. deepMerge(before, diffPatch(before, after)) deep-equals `after` when
 * `after` holds no null values (state never does: null deletes).
 */
export function diffPatch(before: JsonObject, after: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const key of Object.keys(before)) {
    if (key !== '__proto__' && !Object.hasOwn(after, key)) patch[key] = null;
  }
  for (const key of Object.keys(after)) {
    if (key === '__proto__') continue;
    const previous = Object.hasOwn(before, key) ? before[key] : undefined;
    const next = after[key];
    if (isPlainObject(previous) && isPlainObject(next)) {
      const nested = diffPatch(previous, next);
      if (Object.keys(nested).length > 0) patch[key] = nested;
    } else if (JSON.stringify(previous) !== JSON.stringify(next)) {
      patch[key] = next;
    }
  }
  return patch;
}
