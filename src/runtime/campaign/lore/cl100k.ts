// The cl100k_base token counter (gpt-tokenizer): the one module that loads the encoding, bundled apart as dist/loreTokenizer.cjs and loaded on first use.
import { countTokens as countWithOptions } from 'gpt-tokenizer/encoding/cl100k_base';

/** Special-token markers such as `<|endoftext|>` in lore are plain text: counted as the characters they are, never refused. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The number of cl100k_base tokens of `text`, as OpenAI's tiktoken counts them. */
export function countTokens(text: string): number {
  return countWithOptions(text, PLAIN_TEXT);
}
