// Data breakpoints on state paths (JSON pointers such as /dice/lastRoll): which of them a state_patch changes.
import { deepMerge, isPlainObject, type JsonObject } from '../state/deepMerge.js';

/** A data breakpoint request (DAP DataBreakpoint): `dataId` is a JSON pointer into the session state. */
export interface DataBreakpointRequest {
  readonly dataId: string;
}

export interface DataBreakpointStatus {
  readonly id: number;
  readonly verified: boolean;
  readonly message?: string | undefined;
}

interface ArmedDataBreakpoint {
  readonly id: number;
  readonly pointer: string;
  readonly segments: readonly string[];
}

/** Parses an RFC 6901 JSON pointer ("" is the whole state); undefined when it is not one. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The JSON pointer of a path of keys. */
export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The value at a path (own properties and array indexes only); undefined when absent. */
export function valueAtPath(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isPlainObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** True when applying `patch` to `before` changes the value at `segments`. */
export function patchChanges(before: JsonObject, patch: JsonObject, segments: readonly string[]): boolean {
  // A patch that does not reach the path's top key cannot change it.
  if (segments.length > 0 && !Object.hasOwn(patch, segments[0]!)) return false;
  const after = deepMerge(before, patch);
  return !sameJson(valueAtPath(before, segments), valueAtPath(after, segments));
}

function sameJson(left: unknown, right: unknown): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}

/** One session's data breakpoints. */
export class DataBreakpointSet {
  private nextId = 1;
  private armed: ArmedDataBreakpoint[] = [];

  get size(): number {
    return this.armed.length;
  }

  /** Replaces every data breakpoint (DAP setDataBreakpoints). */
  set(requests: readonly DataBreakpointRequest[]): DataBreakpointStatus[] {
    this.armed = [];
    return requests.map((request) => {
      const id = this.nextId++;
      const segments = parsePointer(request.dataId);
      if (!segments) return { id, verified: false, message: `"${request.dataId}" is not a JSON pointer into the state (for example /dice/lastRoll)` };
      this.armed.push({ id, pointer: request.dataId, segments });
      return { id, verified: true };
    });
  }

  /** The breakpoints a state_patch changes, with the pointers it changes. */
  changedBy(before: JsonObject, patch: JsonObject): { readonly ids: number[]; readonly pointers: string[] } {
    const ids: number[] = [];
    const pointers: string[] = [];
    for (const breakpoint of this.armed) {
      if (!patchChanges(before, patch, breakpoint.segments)) continue;
      ids.push(breakpoint.id);
      pointers.push(breakpoint.pointer);
    }
    return { ids, pointers };
  }
}
