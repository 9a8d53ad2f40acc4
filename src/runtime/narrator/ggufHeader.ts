// Reads and sanity-checks a GGUF file's header, metadata and tensor table without loading the model. Never hands the file to native code.
import { open, type FileHandle } from 'node:fs/promises';

/** What the header says about a model (only what the narrator needs to decide whether to load it). */
export interface GgufSummary {
  readonly version: number;
  readonly tensorCount: number;
  readonly metadataCount: number;
  readonly architecture: string;
  readonly contextLength: number;
  readonly tokenizerModel: string;
  readonly vocabularySize: number;
  readonly name: string | undefined;
  /** Where tensor data ends (bytes); undefined when a tensor type is unknown to this reader. */
  readonly dataEnd: number | undefined;
  readonly fileSize: number;
}

/** Result of {@link readGgufHeader}: a summary, or why the file is not a loadable GGUF. */
export type GgufCheck =
  | { readonly ok: true; readonly summary: GgufSummary }
  | {
      readonly ok: false;
      readonly code: 'unreadable' | 'not_gguf' | 'unsupported_version' | 'corrupt' | 'missing_metadata' | 'truncated';
      readonly message: string;
    };

const MAX_TENSORS = 100_000;
const MAX_METADATA_ENTRIES = 100_000;
const MAX_STRING_BYTES = 16 * 1024 * 1024;
const MAX_ARRAY_LENGTH = 50_000_000;
const CHUNK_BYTES = 1024 * 1024;

/** GGUF metadata value types. */
const Value = { U8: 0, I8: 1, U16: 2, I16: 3, U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9, U64: 10, I64: 11, F64: 12 } as const;
const SCALAR_BYTES: Readonly<Record<number, number>> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** ggml tensor types: [elements per block, bytes per block] (ggml.h / ggml.c type traits). */
const TENSOR_TYPES: Readonly<Record<number, readonly [number, number]>> = {
  0: [1, 4],
  1: [1, 2],
  2: [32, 18],
  3: [32, 20],
  6: [32, 22],
  7: [32, 24],
  8: [32, 34],
  9: [32, 36],
  10: [256, 84],
  11: [256, 110],
  12: [256, 144],
  13: [256, 176],
  14: [256, 210],
  15: [256, 292],
  16: [256, 66],
  17: [256, 74],
  18: [256, 98],
  19: [256, 50],
  20: [32, 18],
  21: [256, 110],
  22: [256, 82],
  23: [256, 136],
  24: [1, 1],
  25: [1, 2],
  26: [1, 4],
  27: [1, 8],
  28: [1, 8],
  29: [256, 56],
  30: [1, 2],
  34: [256, 54],
  35: [256, 66],
  39: [32, 17],
};

class CorruptGguf extends Error {}

/** Buffered little-endian reader over a file handle. */
class FileReader {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  position = 0;

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  private async ensure(length: number): Promise<void> {
    const end = this.position + length;
    if (end > this.size) throw new CorruptGguf(`unexpected end of file at byte ${this.position} (file has ${this.size} bytes)`);
    if (this.position >= this.bufferStart && end <= this.bufferStart + this.buffer.length) return;
    const readLength = Math.min(Math.max(length, CHUNK_BYTES), this.size - this.position);
    const chunk = Buffer.alloc(readLength);
    const { bytesRead } = await this.file.read(chunk, 0, readLength, this.position);
    if (bytesRead < length) throw new CorruptGguf(`short read at byte ${this.position}`);
    this.buffer = chunk.subarray(0, bytesRead);
    this.bufferStart = this.position;
  }

  async bytes(length: number): Promise<Buffer> {
    await this.ensure(length);
    const offset = this.position - this.bufferStart;
    this.position += length;
    return this.buffer.subarray(offset, offset + length);
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<number> {
    const value = (await this.bytes(8)).readBigUInt64LE(0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new CorruptGguf(`64-bit value ${value} out of range at byte ${this.position - 8}`);
    return Number(value);
  }

  async string(): Promise<string> {
    const length = await this.u64();
    if (length > MAX_STRING_BYTES) throw new CorruptGguf(`string of ${length} bytes at byte ${this.position - 8}`);
    return (await this.bytes(length)).toString('utf8');
  }

  skip(length: number): void {
    if (this.position + length > this.size) throw new CorruptGguf(`unexpected end of file at byte ${this.position} (file has ${this.size} bytes)`);
    this.position += length;
  }
}

type MetadataValue = number | bigint | boolean | string | { readonly arrayOf: number; readonly length: number };

async function readScalar(reader: FileReader, type: number): Promise<MetadataValue> {
  if (type === Value.STRING) return reader.string();
  const size = SCALAR_BYTES[type];
  if (size === undefined) throw new CorruptGguf(`unknown metadata value type ${type} at byte ${reader.position - 4}`);
  const bytes = await reader.bytes(size);
  switch (type) {
    case Value.U8:
      return bytes.readUInt8(0);
    case Value.I8:
      return bytes.readInt8(0);
    case Value.U16:
      return bytes.readUInt16LE(0);
    case Value.I16:
      return bytes.readInt16LE(0);
    case Value.U32:
      return bytes.readUInt32LE(0);
    case Value.I32:
      return bytes.readInt32LE(0);
    case Value.F32:
      return bytes.readFloatLE(0);
    case Value.BOOL:
      return bytes.readUInt8(0) !== 0;
    case Value.U64:
      return bytes.readBigUInt64LE(0);
    case Value.I64:
      return bytes.readBigInt64LE(0);
    default:
      return bytes.readDoubleLE(0);
  }
}

async function readValue(reader: FileReader, type: number, depth = 0): Promise<MetadataValue> {
  if (type !== Value.ARRAY) return readScalar(reader, type);
  const elementType = await reader.u32();
  const length = await reader.u64();
  if (length > MAX_ARRAY_LENGTH || depth > 2) throw new CorruptGguf(`implausible array (${length} elements) at byte ${reader.position - 12}`);
  const fixed = SCALAR_BYTES[elementType];
  if (fixed !== undefined) reader.skip(fixed * length);
  else for (let index = 0; index < length; index++) await readValue(reader, elementType, depth + 1);
  return { arrayOf: elementType, length };
}

function asCount(value: MetadataValue | undefined): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'bigint' && value > 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  return undefined;
}

/**
 * Checks that `path` is a GGUF v2/v3 file with sane counts, the metadata a llama.cpp model needs
 * (architecture, context length, embedding length, block count, tokenizer model and tokens) and tensor data
 * that fits in the file. Reads only the header (a few MB even for multi-GB models). Never throws.
 */
export async function readGgufHeader(path: string): Promise<GgufCheck> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    return { ok: false, code: 'unreadable', message: `cannot open ${path}: ${(error as Error).message}` };
  }
  try {
    const reader = new FileReader(file, (await file.stat()).size);
    return await readHeader(reader);
  } catch (error) {
    if (error instanceof CorruptGguf) return { ok: false, code: 'corrupt', message: `corrupt GGUF: ${error.message}` };
    return { ok: false, code: 'unreadable', message: `cannot read ${path}: ${(error as Error).message}` };
  } finally {
    await file.close();
  }
}

async function readHeader(reader: FileReader): Promise<GgufCheck> {
  if (reader.size < 24 || (await reader.bytes(4)).toString('latin1') !== 'GGUF') {
    return { ok: false, code: 'not_gguf', message: 'not a GGUF file (no GGUF magic)' };
  }
  const version = await reader.u32();
  if (version !== 2 && version !== 3) return { ok: false, code: 'unsupported_version', message: `unsupported GGUF version ${version} (expected 2 or 3)` };
  const tensorCount = await reader.u64();
  const metadataCount = await reader.u64();
  if (tensorCount === 0 || tensorCount > MAX_TENSORS || metadataCount > MAX_METADATA_ENTRIES) {
    return { ok: false, code: 'corrupt', message: `corrupt GGUF: implausible counts (${tensorCount} tensors, ${metadataCount} metadata entries)` };
  }
  const metadata = new Map<string, MetadataValue>();
  for (let index = 0; index < metadataCount; index++) {
    const key = await reader.string();
    metadata.set(key, await readValue(reader, await reader.u32()));
  }
  const architecture = metadata.get('general.architecture');
  const tokens = metadata.get('tokenizer.ggml.tokens');
  const tokenizerModel = metadata.get('tokenizer.ggml.model');
  const missing: string[] = [];
  if (typeof architecture !== 'string' || architecture === '') missing.push('general.architecture');
  const arch = typeof architecture === 'string' ? architecture : '<architecture>';
  const contextLength = asCount(metadata.get(`${arch}.context_length`));
  for (const key of [`${arch}.context_length`, `${arch}.embedding_length`, `${arch}.block_count`]) {
    if (asCount(metadata.get(key)) === undefined) missing.push(key);
  }
  if (typeof tokenizerModel !== 'string' || tokenizerModel === '') missing.push('tokenizer.ggml.model');
  const vocabularySize = typeof tokens === 'object' && tokens.arrayOf === Value.STRING ? tokens.length : 0;
  if (vocabularySize === 0) missing.push('tokenizer.ggml.tokens');
  if (missing.length > 0) return { ok: false, code: 'missing_metadata', message: `GGUF metadata missing or invalid: ${missing.join(', ')}` };

  const alignment = asCount(metadata.get('general.alignment')) ?? 32;
  let dataExtent: number | undefined = 0;
  for (let index = 0; index < tensorCount; index++) {
    const name = await reader.string();
    const dimensionCount = await reader.u32();
    if (dimensionCount === 0 || dimensionCount > 4) throw new CorruptGguf(`tensor ${name} has ${dimensionCount} dimensions`);
    const dimensions: number[] = [];
    for (let dimension = 0; dimension < dimensionCount; dimension++) dimensions.push(await reader.u64());
    const type = await reader.u32();
    const offset = await reader.u64();
    const traits = TENSOR_TYPES[type];
    if (traits === undefined || dataExtent === undefined) {
      dataExtent = undefined;
      continue;
    }
    const [blockElements, blockBytes] = traits;
    const rowElements = dimensions[0] ?? 0;
    if (rowElements % blockElements !== 0) throw new CorruptGguf(`tensor ${name}: row of ${rowElements} elements is not a whole number of blocks`);
    const bytes = (rowElements / blockElements) * blockBytes * dimensions.slice(1).reduce((product, value) => product * value, 1);
    dataExtent = Math.max(dataExtent, offset + bytes);
  }
  const dataStart = Math.ceil(reader.position / alignment) * alignment;
  const dataEnd = dataExtent === undefined ? undefined : dataStart + dataExtent;
  if (dataEnd !== undefined && dataEnd > reader.size) {
    return { ok: false, code: 'truncated', message: `truncated GGUF: tensor data ends at byte ${dataEnd} but the file has ${reader.size} bytes` };
  }
  const name = metadata.get('general.name');
  return {
    ok: true,
    summary: {
      version,
      tensorCount,
      metadataCount,
      architecture: arch,
      contextLength: contextLength ?? 0,
      tokenizerModel: String(tokenizerModel),
      vocabularySize,
      name: typeof name === 'string' ? name : undefined,
      dataEnd,
      fileSize: reader.size,
    },
  };
}
