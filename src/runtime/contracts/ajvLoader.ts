// Loads Ajv (draft 2020-12, draft-07) and ajv-formats on first use: a command that compiles no schema at run time (a `run` of skills without schemas) never initialises them.
import { createRequire } from 'node:module';
import type Ajv2020 from 'ajv/dist/2020.js';
import type AjvDraft07 from 'ajv';
import type addFormats from 'ajv-formats';

/** The classes and the formats plugin, as their CommonJS modules export them. */
export interface AjvModules {
  readonly Ajv2020: typeof Ajv2020;
  readonly AjvDraft07: typeof AjvDraft07;
  readonly addFormats: typeof addFormats;
}

let loaded: AjvModules | undefined;

/**
 * Ajv's modules, required the first time they are asked for (~2 ms of module set-up and a larger code cache for every
 * `narratoria run`, bench b2). In the bundles `require` is esbuild's, which runs a bundled module when first called;
 * from sources (ESM, tests) Node's, made for this file.
 */
export function ajvModules(): AjvModules {
  if (loaded) return loaded;
  const load = typeof require === 'function' ? undefined : createRequire(import.meta.url);
  const ajv2020 = (load ? load('ajv/dist/2020.js') : require('ajv/dist/2020.js')) as { default: typeof Ajv2020 };
  const ajvDraft07 = (load ? load('ajv') : require('ajv')) as { default: typeof AjvDraft07 };
  const formats = (load ? load('ajv-formats') : require('ajv-formats')) as { default: typeof addFormats };
  loaded = { Ajv2020: ajv2020.default, AjvDraft07: ajvDraft07.default, addFormats: formats.default };
  return loaded;
}
