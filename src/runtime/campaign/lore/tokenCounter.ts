// Loads the cl100k_base token counter on first use (about 0.3 s and 1 MB of data), so no command or activation pays for it until lore is chunked.

/** Counts the tokens of a text; chunking takes one, so tests may pass a simpler one. */
export type TokenCounter = (text: string) => number;

/** The name of the tokenizer lore is counted with (spec 007, FR-022). */
export const LORE_TOKENIZER = 'cl100k_base';

let loading: Promise<TokenCounter> | undefined;

/**
 * The cl100k_base counter. In sources it imports `cl100k.ts`; in the Node bundles esbuild.mjs turns that import into a
 * `require` of `dist/loreTokenizer.cjs`, so the encoding's megabyte stays out of the CLI and extension bundles.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('./cl100k.js').then(
    (module) => module.countTokens,
    (error: unknown) => {
      // The next call tries again (a bundle copied without dist/loreTokenizer.cjs, then repaired).
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
