// Numbers the distinct strings of a plan's repeated fields (toolPaths, conditions) in order of first appearance.

/** Distinct strings found by `===` before a numbering switches to a Map. */
const LINEAR_LIMIT = 8;

/**
 * Gives each distinct string a number (0, 1, …, in order of first appearance), so work per distinct
 * value is done once and kept in arrays by number. Why not only a Map: JSON.parse gives every tool its
 * own copy of a long string such as a toolPath, and a Map hashes each copy on its first lookup, which
 * costs several times more than comparing it with `===` to the few distinct values a plan usually
 * has. Past {@link LINEAR_LIMIT} distinct strings a Map takes over, so many distinct values stay linear.
 */
export interface StringNumbering {
  /** The distinct strings, by number. */
  readonly strings: string[];
  /** Numbers by string, once there are more than {@link LINEAR_LIMIT}. */
  byString: Map<string, number> | undefined;
}

/**
 * A new, empty numbering. A plain object and functions rather than a class: V8 drops the object
 * shapes of class instances that died at a garbage collection, and with them the optimized code of
 * {@link findString}, recompiled after every collection; an object literal's shape stays alive.
 */
export function stringNumbering(): StringNumbering {
  return { strings: [], byString: undefined };
}

/** The number of `value`, or -1 when it has none. */
export function findString(numbering: StringNumbering, value: string): number {
  if (numbering.byString !== undefined) return numbering.byString.get(value) ?? -1;
  const strings = numbering.strings;
  for (let index = 0; index < strings.length; index++) {
    if (strings[index] === value) return index;
  }
  return -1;
}

/** Numbers `value`, which {@link findString} did not find; returns its number. */
export function addString(numbering: StringNumbering, value: string): number {
  const { strings } = numbering;
  const number = strings.length;
  strings.push(value);
  if (numbering.byString !== undefined) numbering.byString.set(value, number);
  else if (strings.length > LINEAR_LIMIT) numbering.byString = new Map(strings.map((known, index) => [known, index] as const));
  return number;
}
