// Builds the narrator a setting asks for: auto (LLM when a verified model is present), pattern, or llm.
import { PatternNarrator } from './patternNarrator.js';
import type { Narrator } from './index.js';

export type NarratorMode = 'auto' | 'pattern' | 'llm';

export interface NarratorChoice {
  readonly narrator: Narrator;
  /** Why the choice was made (shown to the author), e.g. "no verified model: pattern narrator". */
  readonly reason: string;
}

export interface NarratorFactoryOptions {
  readonly mode: NarratorMode;
  readonly root: string;
  /** An explicit model file; otherwise the model cache is used. */
  readonly modelPath?: string | undefined;
}

/** Creates the narrator for `mode`. The LLM narrator is wired in by the model integration (llamaNarrator.ts). */
export async function createNarrator(options: NarratorFactoryOptions): Promise<NarratorChoice> {
  const pattern = new PatternNarrator();
  if (options.mode === 'pattern') return { narrator: pattern, reason: 'pattern narrator (requested)' };
  return { narrator: pattern, reason: 'pattern narrator: the local model narrator is not available in this build' };
}
