// Contract validators compiled ahead of time: none when run from sources; esbuild.mjs swaps this module for Ajv standalone code in the bundles.
import type { ValidateFunction } from 'ajv';

/** The bundles' validators: each made on first `get` (see standaloneValidators.ts). */
export interface PrecompiledValidators {
  /** The validator of `contract name + fragment`, or undefined when it is not precompiled. */
  get(key: string): ValidateFunction | undefined;
  has(key: string): boolean;
  keys(): IterableIterator<string>;
}

/** Validators by `contract name + fragment`, or undefined when schemas compile at run time. */
export const precompiledValidators: PrecompiledValidators | undefined = undefined;
