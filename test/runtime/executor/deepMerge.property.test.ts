// deepMerge (docs/plan-json-and-protocol.md#deep-merge): the four documented examples, then properties over random JSON targets and patches.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { deepMerge, diffPatch, isPlainObject, type JsonObject } from '../../../src/runtime/state/deepMerge.js';
import { seedPropertyTests } from '../../support/propertySeed.js';

// Deterministic: a fixed fast-check seed (test/support/propertySeed.ts), so every run checks the same cases.
seedPropertyTests();

const NUM_RUNS = 300;

// ---------------------------------------------------------------------------------------------
// The examples of docs/plan-json-and-protocol.md#deep-merge.

test('§6.1 example 1: nested objects merge', () => {
  assert.deepEqual(deepMerge({ a: { b: 1, c: 2 } }, { a: { c: 3, d: 4 } }), { a: { b: 1, c: 3, d: 4 } });
});

test('§6.1 example 2: arrays are replaced', () => {
  assert.deepEqual(deepMerge({ items: [1, 2, 3] }, { items: [4, 5] }), { items: [4, 5] });
});

test('§6.1 example 3: null deletes a key', () => {
  const result = deepMerge({ a: 1, b: 2 }, { b: null });
  assert.deepEqual(result, { a: 1 });
  assert.equal(Object.hasOwn(result, 'b'), false);
});

test('§6.1 example 4: new keys are added', () => {
  assert.deepEqual(deepMerge({ a: 1 }, { b: 2 }), { a: 1, b: 2 });
});

// ---------------------------------------------------------------------------------------------
// Generators. Keys come from a small pool (so target and patch collide) that includes keys with a
// special meaning on Object.prototype. Objects are built with defineProperty, so a "__proto__" key
// is an own data property, exactly as JSON.parse produces it.

const KEYS = ['a', 'b', 'c', 'd', '__proto__', 'constructor', 'prototype', 'toString'] as const;

function objectFrom(entries: readonly (readonly [string, unknown])[]): JsonObject {
  const object: JsonObject = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const { object: objectArb } = fc.letrec<{ json: unknown; object: JsonObject }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom('', 'x', 'polluted'),
    fc.array(tie('json'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie('json')), { maxLength: 4, selector: ([key]) => key }).map(objectFrom),
}));

/** Targets are states: they never hold nulls directly under an object key (a null patch deletes). */
const stateArb: fc.Arbitrary<JsonObject> = objectArb.map((object) => stripNulls(object));
const patchArb = objectArb;

/** The patch with every null-valued object key removed, recursively (arrays are kept as they are); `__proto__` keys dropped. */
function stripNulls(value: JsonObject): JsonObject {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(value)) {
    if (key === '__proto__') continue;
    const item = value[key];
    if (item === null) continue;
    entries.push([key, isPlainObject(item) ? stripNulls(item) : item]);
  }
  return objectFrom(entries);
}

/** Every [path, value] of an object tree, descending into plain objects only. */
function* leaves(value: JsonObject, path: string[] = []): Generator<[string[], unknown, JsonObject]> {
  for (const key of Object.keys(value)) {
    const item = value[key];
    yield [[...path, key], item, value];
    if (isPlainObject(item) && key !== '__proto__') yield* leaves(item, [...path, key]);
  }
}

/** The own value at `path`, or a marker when some segment is missing. */
const MISSING = Symbol('missing');
function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return MISSING;
    current = current[key];
  }
  return current;
}

/** True when every plain object in the tree has Object.prototype as its prototype. */
function prototypesIntact(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(prototypesIntact);
  if (!isPlainObject(value)) return true;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.keys(value).every((key) => prototypesIntact(value[key]));
}

// ---------------------------------------------------------------------------------------------
// Properties.

test('merging {} is the identity (both ways, up to nulls)', () => {
  fc.assert(
    fc.property(stateArb, (state) => {
      assert.deepEqual(deepMerge(state, {}), state);
      assert.deepEqual(deepMerge({}, state), state);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('the result never has a key whose patch value is null (at any depth)', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const result = deepMerge(state, patch);
      for (const [path, value] of leaves(patch)) {
        if (value !== null || path.includes('__proto__')) continue;
        assert.equal(at(result, path), MISSING, `result still has ${path.join('.')}`);
      }
    }),
    { numRuns: NUM_RUNS },
  );
});

test('arrays and primitives in the patch replace whatever was there', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const result = deepMerge(state, patch);
      for (const [path, value] of leaves(patch)) {
        if (value === null || isPlainObject(value) || path.includes('__proto__')) continue;
        assert.deepEqual(at(result, path), value, `at ${path.join('.')}`);
      }
    }),
    { numRuns: NUM_RUNS },
  );
});

test('keys absent from the patch keep the target value; objects under both merge recursively', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const result = deepMerge(state, patch);
      for (const key of Object.keys(state)) {
        if (Object.hasOwn(patch, key) && key !== '__proto__') continue;
        assert.deepEqual(result[key], state[key]);
      }
      for (const key of Object.keys(patch)) {
        const value = patch[key];
        if (key === '__proto__' || !isPlainObject(value)) continue;
        const before = state[key];
        assert.deepEqual(result[key], deepMerge(isPlainObject(before) ? before : {}, value));
      }
    }),
    { numRuns: NUM_RUNS },
  );
});

test('inputs are not mutated', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const stateCopy = structuredClone(state);
      const patchCopy = structuredClone(patch);
      deepMerge(state, patch);
      assert.deepEqual(state, stateCopy);
      assert.deepEqual(patch, patchCopy);
    }),
    { numRuns: NUM_RUNS },
  );
});

// Idempotence holds for EVERY JSON patch with this implementation — including nulls (deleting a
// missing key is a no-op), arrays (replacing by the same array), type changes (object over
// primitive and back) and "__proto__" keys (always ignored) — because each branch sets the target
// to a fixpoint of the same branch and nothing is mutated in place. (An in-place merge's pseudo
// code is not idempotent-safe: it aliases patch objects into the target.) What does NOT hold is
// commutativity: merging p then q differs from q then p whenever they set the same key differently.
test('merging the same patch twice equals merging it once (any JSON patch)', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const once = deepMerge(state, patch);
      assert.deepEqual(deepMerge(once, patch), once);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('merging is not commutative (sanity check of the generators)', () => {
  assert.notDeepEqual(deepMerge(deepMerge({}, { a: 1 }), { a: 2 }), deepMerge(deepMerge({}, { a: 2 }), { a: 1 }));
});

test('"__proto__" keys never change prototypes nor pollute Object.prototype', () => {
  fc.assert(
    fc.property(stateArb, patchArb, (state, patch) => {
      const result = deepMerge(state, patch);
      assert.ok(prototypesIntact(result), 'a merged object has a foreign prototype');
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
      assert.equal(Object.prototype.toString, Object.prototype.toString);
    }),
    { numRuns: NUM_RUNS },
  );
  const attack = JSON.parse(
    '{"__proto__": {"polluted": true}, "a": {"__proto__": {"polluted": true}}, "constructor": {"prototype": {"polluted": true}}}',
  ) as JsonObject;
  const result = deepMerge({ a: {} }, attack);
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.equal(Object.getPrototypeOf(result['a']), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(Object.hasOwn(result, '__proto__'), false);
  assert.deepEqual(result['constructor'], { prototype: { polluted: true } });
});

test('a patch applied to {} deep-equals the patch minus nulls', () => {
  fc.assert(
    fc.property(patchArb, (patch) => {
      assert.deepEqual(deepMerge({}, patch), stripNulls(patch));
    }),
    { numRuns: NUM_RUNS },
  );
});

// diffPatch (used to bring a sub-plan's state back): its doc promises
// deepMerge(before, diffPatch(before, after)) deep-equals `after` when `after` holds no nulls.
test('diffPatch: merging the diff of two states into the first gives the second', () => {
  fc.assert(
    fc.property(stateArb, stateArb, (before, after) => {
      assert.deepEqual(deepMerge(before, diffPatch(before, after)), after);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('diffPatch of a state with itself is empty', () => {
  fc.assert(
    fc.property(stateArb, (state) => {
      assert.deepEqual(diffPatch(state, structuredClone(state)), {});
    }),
    { numRuns: NUM_RUNS },
  );
});
