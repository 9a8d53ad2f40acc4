// Sizes the model worker's contexts to what they hold (the fixed prompt, then a turn's text and its answer), from token counts the worker measured; pure.

/** llama.cpp rounds every context up to a multiple of this many cells. */
export const CONTEXT_ALIGNMENT = 256;
/**
 * Tokens evaluated at once. A turn's text fits in one batch; the fixed prompt's first evaluation takes several. The
 * compute buffer grows with it: 512 took 157 MiB of a Phi-3.5-mini-shaped context of 1,792 cells, 256 took 79 MiB.
 */
export const MAX_BATCH_TOKENS = 256;
/**
 * What a decision turn adds after the fixed prompt: the player's text, the candidates and the state (~30 tokens
 * measured; room for ~500 characters), then the answer (decisionMaxTokens). A longer turn grows the context.
 */
export const DECISION_TURN_TOKENS = 128;
/**
 * What a retelling adds after its fixed prompt (~50 tokens): a draft (~60 tokens) and the retold text (up to 160).
 * A longer draft or answer grows the context.
 */
export const RETELLING_TURN_TOKENS = 256;
/** Tokens a chat template adds around an answer (end-of-turn marks), beyond the generated ones. */
export const TEMPLATE_MARGIN_TOKENS = 8;

/** What a context must hold: the tokens it keeps evaluated, and the most a turn adds after them. */
export interface ContextNeed {
  /** The fixed prompt's tokens (kept in the sequence from turn to turn). */
  readonly fixedTokens: number;
  /** A turn's text and its answer, at most. */
  readonly turnTokens: number;
}

/** The options of a context that holds a need. */
export interface ContextOptions {
  /** Cells (tokens) of the KV cache: a multiple of CONTEXT_ALIGNMENT. */
  readonly contextSize: number;
  /** Tokens evaluated per decode (the compute buffer's size follows it). */
  readonly batchSize: number;
}

/**
 * The smallest aligned context that holds the need (never more than the model was trained on), and its batch: a
 * turn's text in one decode, the compute buffer no larger than MAX_BATCH_TOKENS needs.
 */
export function contextOptionsFor(need: ContextNeed, trainContextSize: number): ContextOptions {
  const wanted = Math.max(1, Math.ceil(need.fixedTokens) + Math.ceil(need.turnTokens));
  const trained = trainContextSize > 0 ? Math.max(CONTEXT_ALIGNMENT, Math.floor(trainContextSize / CONTEXT_ALIGNMENT) * CONTEXT_ALIGNMENT) : Infinity;
  const contextSize = Math.min(alignUp(wanted, CONTEXT_ALIGNMENT), trained);
  return { contextSize, batchSize: Math.min(contextSize, MAX_BATCH_TOKENS) };
}

/** Whether a context of `contextSize` cells has room for `tokens` more after the `held` ones it keeps. */
export function hasRoom(contextSize: number, held: number, tokens: number): boolean {
  return held + tokens <= contextSize;
}

function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}
