// Contract validators compiled ahead of time: none when run from sources; esbuild.mjs swaps this module for Ajv standalone code in the bundles.
import type { ValidateFunction } from 'ajv';

/** Validators by `contract name + fragment` (see standaloneValidators.ts), or undefined when schemas compile at run time. */
export const precompiledValidators: ReadonlyMap<string, ValidateFunction> | undefined = undefined;
