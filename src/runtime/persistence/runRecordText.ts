// A run record's file bytes, exactly JSON.stringify(record, null, 2) and a newline, reusing the plan's and each finished tool's bytes from earlier saves.
import type { RunRecord } from './runStore.js';

/** JSON.stringify's indentation step for the record files (two spaces). */
const STEP = '  ';

/** An object's bytes at one depth (the depth fixes the indentation of its inner lines). */
interface Piece {
  readonly depth: number;
  readonly bytes: Buffer;
}

/** A finished tool's entry under `tools` (`,` newline `"id": { "result": ..., "patches": ... }`), kept with what it was made from. */
interface ToolEntry {
  readonly key: string;
  readonly patches: unknown;
  readonly bytes: Buffer;
}

/** Collects a text as pieces: small strings are gathered and encoded together; kept pieces go in as they are. */
class Chunks {
  readonly list: Buffer[] = [];
  private pending = '';

  text(text: string): void {
    this.pending += text;
  }

  bytes(bytes: Buffer): void {
    if (this.pending !== '') this.list.push(Buffer.from(this.pending));
    this.pending = '';
    this.list.push(bytes);
  }

  done(): Buffer[] {
    if (this.pending !== '') this.list.push(Buffer.from(this.pending));
    this.pending = '';
    return this.list;
  }
}

/**
 * Writes run records as `JSON.stringify(record, null, 2)` would, in time that grows with what changed since the last
 * save rather than with the whole record. A record is saved after every tool: a 200-tool run serialised and encoded
 * its plan and its first tool's result about fifty times (bench b2). The plan, each finished tool's result and
 * patches, and the final result's tool results are objects the executor never changes once they are in a record (it
 * replaces them: a rolled-back tool gets a new result, a re-plan a new plan), so their bytes are kept per object,
 * weakly, and a save writes the kept pieces as they are.
 */
export class RunRecordText {
  private readonly pieces = new WeakMap<object, Piece>();
  private readonly entries = new WeakMap<object, ToolEntry>();

  /** The file's bytes in pieces, in order (for a vectored write). */
  chunks(record: RunRecord): Buffer[] {
    const out = new Chunks();
    if (hasToJson(record)) out.text(`${JSON.stringify(record, null, 2)}\n`);
    else {
      this.objectText(out, record as unknown as Record<string, unknown>, 0, (key, value) => this.recordField(out, key, value));
      out.text('\n');
    }
    return out.done();
  }

  /** The file's text (for tests and tools; a save writes `chunks`). */
  text(record: RunRecord): string {
    return Buffer.concat(this.chunks(record)).toString('utf8');
  }

  private recordField(out: Chunks, key: string, value: unknown): boolean {
    switch (key) {
      case 'plan':
        return this.kept(out, value, 1);
      case 'tools':
        return this.toolsText(out, value);
      case 'result':
        return this.resultText(out, value);
      default:
        return valueText(out, value, 1);
    }
  }

  /** `tools`: each tool's entry kept whole while its result and patches stay the same objects (the StoredTool around them is new at every save). */
  private toolsText(out: Chunks, tools: unknown): boolean {
    if (!isPlainRecord(tools)) return valueText(out, tools, 1);
    const inner = STEP.repeat(2);
    let count = 0;
    for (const key of Object.keys(tools)) {
      const stored = tools[key];
      if (!hasJsonForm(stored)) continue;
      if (!isStoredTool(stored)) {
        out.text(`${count++ === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `);
        if (isPlainRecord(stored)) this.objectText(out, stored, 2, (_, value) => this.kept(out, value, 3));
        else valueText(out, stored, 2);
        continue;
      }
      let entry = this.entries.get(stored.result);
      if (entry === undefined || entry.key !== key || entry.patches !== stored.patches) {
        // Kept with the comma before it: a save adds one piece per tool. The first entry drops the comma for a brace.
        const built = new Chunks();
        built.text(`,\n${inner}${JSON.stringify(key)}: `);
        this.objectText(built, stored, 2, (_, value) => this.kept(built, value, 3));
        entry = { key, patches: stored.patches, bytes: Buffer.concat(built.done()) };
        this.entries.set(stored.result, entry);
      }
      if (count++ === 0) {
        out.text('{');
        out.bytes(entry.bytes.subarray(1));
      } else out.bytes(entry.bytes);
    }
    out.text(count === 0 ? '{}' : `\n${STEP}}`);
    return true;
  }

  /** The final result: its tool results are mostly the objects already written under `tools`, at the same depth. */
  private resultText(out: Chunks, result: unknown): boolean {
    if (!isPlainRecord(result)) return valueText(out, result, 1);
    return this.objectText(out, result, 1, (key, value) => {
      if (key !== 'toolResults' || !Array.isArray(value) || hasToJson(value)) return valueText(out, value, 2);
      if (value.length === 0) {
        out.text('[]');
        return true;
      }
      const inner = STEP.repeat(3);
      for (let index = 0; index < value.length; index++) {
        out.text(`${index === 0 ? '[\n' : ',\n'}${inner}`);
        if (!this.kept(out, value[index], 3)) out.text('null');
      }
      out.text(`\n${STEP.repeat(2)}]`);
      return true;
    });
  }

  /** Writes an object's bytes at `depth`, kept from an earlier save when it was written at that depth then. */
  private kept(out: Chunks, value: unknown, depth: number): boolean {
    if (value === null || typeof value !== 'object') return valueText(out, value, depth);
    let piece = this.pieces.get(value);
    if (piece === undefined || piece.depth !== depth) {
      const text = nestedJson(value, depth);
      if (text === undefined) return false;
      piece = { depth, bytes: Buffer.from(text) };
      this.pieces.set(value, piece);
    }
    out.bytes(piece.bytes);
    return true;
  }

  /**
   * Writes an object at `depth` as JSON.stringify lays it out: one `"key": value` per line, in the object's key order,
   * keys whose value has no JSON form (undefined, functions, symbols) left out, `{}` when none is left. `field` writes
   * a value and says whether it had one.
   */
  private objectText(out: Chunks, object: Record<string, unknown>, depth: number, field: (key: string, value: unknown) => boolean): boolean {
    const inner = STEP.repeat(depth + 1);
    let count = 0;
    for (const key of Object.keys(object)) {
      const value = object[key];
      if (!hasJsonForm(value)) continue;
      out.text(`${count++ === 0 ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `);
      field(key, value);
    }
    out.text(count === 0 ? '{}' : `\n${STEP.repeat(depth)}}`);
    return true;
  }
}

/** Writes a value nested at `depth` with JSON.stringify; false when it has no JSON form. */
function valueText(out: Chunks, value: unknown, depth: number): boolean {
  const text = nestedJson(value, depth);
  if (text === undefined) return false;
  out.text(text);
  return true;
}

/** A value's JSON nested at `depth`: JSON.stringify's own, its inner lines indented by the depth (JSON text has no other line breaks). */
function nestedJson(value: unknown, depth: number): string | undefined {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  if (text === undefined || depth === 0 || !text.includes('\n')) return text;
  return text.replaceAll('\n', `\n${STEP.repeat(depth)}`);
}

/** Whether JSON.stringify writes an object's property with this value (it leaves out undefined, functions and symbols). */
function hasJsonForm(value: unknown): boolean {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false;
  // An object whose toJSON gives undefined is left out too.
  return !hasToJson(value) || JSON.stringify(value) !== undefined;
}

/** A StoredTool exactly: `result` (an object) then `patches`, nothing else, no toJSON. */
function isStoredTool(value: unknown): value is { result: object; patches: unknown } {
  if (!isPlainRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && keys[0] === 'result' && keys[1] === 'patches' && isPlainRecord(value['result']) && hasJsonForm(value['patches']);
}

/** An object JSON.stringify writes as itself (no toJSON of its own, not an array), walked here key by key. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !hasToJson(value);
}

function hasToJson(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
