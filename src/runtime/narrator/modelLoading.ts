// How the model worker holds the weights and the KV cache: the default, and the other ways NARRATORIA_MODEL_LOADING selects for measurement (docs/benchmarks.md); pure.

/**
 * How the weights get into memory. `read`: read from the file into llama.cpp's buffers. `map`: the file is mapped,
 * and weights llama.cpp uses in place stay file-backed. `direct`: read with direct I/O, past the page cache.
 */
export type WeightsLoading = 'read' | 'map' | 'direct';

/** The KV cache's element types node-llama-cpp 3.21.1 lets a context use on a CPU (a quantized value type needs flash attention). */
export const KV_CACHE_TYPES = ['f16', 'q8_0', 'q4_0'] as const;
export type KvCacheType = (typeof KV_CACHE_TYPES)[number];

/** The worker's way of holding the model. */
export interface ModelLoading {
  readonly weights: WeightsLoading;
  /** llama.cpp's lazy reading of the tensors an architecture marks (per-layer embeddings); with `map` only. */
  readonly lazy: boolean | 'auto';
  readonly kvCacheKey: KvCacheType;
  readonly kvCacheValue: KvCacheType;
}

/**
 * The default, measured on Phi-3.5-mini's Q4_K_M shape (docs/benchmarks.md, "Model memory"). On a CPU with AVX2
 * llama.cpp copies the weights into buffers of its own layout (AMX or repacked), so mapping the file only adds its
 * pages to the peak; reading keeps one copy. The KV cache's keys in 8 bits: 158 MiB less for the decision's
 * context, the same plans, no slower; its values stay f16 (quantized values need flash attention, slower on a CPU).
 */
export const DEFAULT_MODEL_LOADING: ModelLoading = { weights: 'read', lazy: false, kvCacheKey: 'q8_0', kvCacheValue: 'f16' };

/** Values per block of the quantized KV cache types: a head's size must be a whole number of blocks. */
const KV_BLOCK_VALUES: Record<KvCacheType, number> = { f16: 1, q8_0: 32, q4_0: 32 };

/**
 * The KV cache types a model can take: a quantized type whose blocks do not divide the model's key (or value) head
 * size falls back to f16 (a test model's heads of 16 values, for instance). Unknown head sizes keep the types.
 */
export function kvCacheTypesFor(
  loading: ModelLoading,
  heads: { readonly keySize?: number | undefined; readonly valueSize?: number | undefined },
): { readonly key: KvCacheType; readonly value: KvCacheType } {
  const fits = (type: KvCacheType, size: number | undefined): KvCacheType => (size === undefined || size % KV_BLOCK_VALUES[type] === 0 ? type : 'f16');
  return { key: fits(loading.kvCacheKey, heads.keySize), value: fits(loading.kvCacheValue, heads.valueSize) };
}

/** The environment variable that overrides the default, for measurement. */
export const MODEL_LOADING_VARIABLE = 'NARRATORIA_MODEL_LOADING';

/** A parsed setting: the loading, and the words that were not understood. */
export interface ParsedModelLoading {
  readonly loading: ModelLoading;
  readonly problems: readonly string[];
}

/**
 * Reads words separated by spaces or commas: `read`, `map` or `direct`; `lazy` (`lazy=auto`, `lazy=off`);
 * `kv=TYPE` for both halves of the KV cache, `kv-key=TYPE`, `kv-value=TYPE` (TYPE one of KV_CACHE_TYPES).
 * Words not understood are reported and left out.
 */
export function parseModelLoading(text: string | undefined, base: ModelLoading = DEFAULT_MODEL_LOADING): ParsedModelLoading {
  let loading = { ...base };
  const problems: string[] = [];
  for (const word of (text ?? '').split(/[\s,]+/).filter((each) => each !== '')) {
    const [name, value] = word.split('=', 2) as [string, string | undefined];
    if ((name === 'read' || name === 'map' || name === 'direct') && value === undefined) loading = { ...loading, weights: name };
    else if (name === 'lazy' && (value === undefined || value === 'on')) loading = { ...loading, lazy: true };
    else if (name === 'lazy' && (value === 'auto' || value === 'off')) loading = { ...loading, lazy: value === 'auto' ? 'auto' : false };
    else if ((name === 'kv' || name === 'kv-key' || name === 'kv-value') && isKvCacheType(value)) {
      if (name !== 'kv-value') loading = { ...loading, kvCacheKey: value };
      if (name !== 'kv-key') loading = { ...loading, kvCacheValue: value };
    } else problems.push(word);
  }
  return { loading, problems };
}

/** The loading `env` asks for (the default when it asks for nothing). */
export function modelLoadingFromEnvironment(env: NodeJS.ProcessEnv = process.env): ParsedModelLoading {
  return parseModelLoading(env[MODEL_LOADING_VARIABLE]);
}

/** The loading in the words parseModelLoading reads (every part but lazy reading when off). */
export function describeModelLoading(loading: ModelLoading): string {
  const words: string[] = [loading.weights];
  if (loading.lazy !== false) words.push(loading.lazy === true ? 'lazy' : 'lazy=auto');
  if (loading.kvCacheKey === loading.kvCacheValue) words.push(`kv=${loading.kvCacheKey}`);
  else words.push(`kv-key=${loading.kvCacheKey}`, `kv-value=${loading.kvCacheValue}`);
  return words.join(' ');
}

function isKvCacheType(value: string | undefined): value is KvCacheType {
  return (KV_CACHE_TYPES as readonly string[]).includes(value ?? '');
}
