// Loads the JSON Schemas of contracts/ into one Ajv (draft 2020-12) instance and exposes compiled validators.
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type AjvDraft07 from 'ajv';
import { ajvModules } from './ajvLoader.js';
import planSchema from '../../../contracts/plan-json.schema.json';
import toolEventSchema from '../../../contracts/tool-event.schema.json';
import executionResultSchema from '../../../contracts/execution-result.schema.json';
import skillManifestSchema from '../../../contracts/skill-manifest.schema.json';
import configMetaSchema from '../../../contracts/config-schema-meta.schema.json';
import validateReportSchema from '../../../contracts/validate-report.schema.json';
import inspectReportSchema from '../../../contracts/inspect-report.schema.json';
import turnResultSchema from '../../../contracts/turn-result.schema.json';
import sessionSchema from '../../../contracts/session.schema.json';
import planGraphSchema from '../../../contracts/plan-graph.schema.json';
import recordingSchema from '../../../contracts/recording.schema.json';
import playtestSchema from '../../../contracts/playtest.schema.json';
import playtestReportSchema from '../../../contracts/playtest-report.schema.json';
import exploreReportSchema from '../../../contracts/explore-report.schema.json';
import campaignManifestSchema from '../../../contracts/campaign/manifest.schema.json';
import npcProfileSchema from '../../../contracts/campaign/npc-profile.schema.json';
import playerTemplateSchema from '../../../contracts/campaign/player-template.schema.json';
import beatsSchema from '../../../contracts/campaign/beats.schema.json';
import assetMetadataSchema from '../../../contracts/campaign/asset-metadata.schema.json';
import assetSidecarSchema from '../../../contracts/campaign/asset-sidecar.schema.json';
import loreQueriesSchema from '../../../contracts/campaign/lore-queries.schema.json';
import lorePrecisionReportSchema from '../../../contracts/lore-precision-report.schema.json';
import { precompiledValidators } from './precompiledValidators.js';

/** The contract schemas by file name (relative to contracts/). */
export const contractSchemas = {
  'plan-json.schema.json': planSchema,
  'tool-event.schema.json': toolEventSchema,
  'execution-result.schema.json': executionResultSchema,
  'skill-manifest.schema.json': skillManifestSchema,
  'config-schema-meta.schema.json': configMetaSchema,
  'validate-report.schema.json': validateReportSchema,
  'inspect-report.schema.json': inspectReportSchema,
  'turn-result.schema.json': turnResultSchema,
  'session.schema.json': sessionSchema,
  'plan-graph.schema.json': planGraphSchema,
  'recording.schema.json': recordingSchema,
  'playtest.schema.json': playtestSchema,
  'playtest-report.schema.json': playtestReportSchema,
  'explore-report.schema.json': exploreReportSchema,
  'campaign/manifest.schema.json': campaignManifestSchema,
  'campaign/npc-profile.schema.json': npcProfileSchema,
  'campaign/player-template.schema.json': playerTemplateSchema,
  'campaign/beats.schema.json': beatsSchema,
  'campaign/asset-metadata.schema.json': assetMetadataSchema,
  'campaign/asset-sidecar.schema.json': assetSidecarSchema,
  'campaign/lore-queries.schema.json': loreQueriesSchema,
  'lore-precision-report.schema.json': lorePrecisionReportSchema,
} as const;

export type ContractName = keyof typeof contractSchemas;

let sharedAjv: Ajv2020 | undefined;

/** Creates a draft 2020-12 Ajv with formats; `allErrors` gives authors every problem at once. `source` keeps the generated code (for standaloneValidators.ts). */
export function createAjv(options: { readonly source?: boolean } = {}): Ajv2020 {
  const { Ajv2020, addFormats } = ajvModules();
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, ...(options.source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  return ajv;
}

/** Draft-07 as `$schema` declares it (other Narratoria runtimes' skills may use it), with or without the final '#'. */
const DRAFT_07_URI = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** True when `schema` declares JSON Schema draft-07 in its `$schema`. */
export function declaresDraft07(schema: Readonly<Record<string, unknown>>): boolean {
  return typeof schema['$schema'] === 'string' && DRAFT_07_URI.test(schema['$schema']);
}

/** Like {@link createAjv}, for schemas that declare draft-07 (the draft-2020-12 Ajv does not know its meta-schema). */
export function createDraft07Ajv(): AjvDraft07 {
  const { AjvDraft07, addFormats } = ajvModules();
  const ajv = new AjvDraft07({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

/** The one Ajv holding every contract (schemas reference each other by relative $id). */
export function contractsAjv(): Ajv2020 {
  if (!sharedAjv) {
    sharedAjv = createAjv();
    for (const schema of Object.values(contractSchemas)) sharedAjv.addSchema(schema as object);
  }
  return sharedAjv;
}

const validators = new Map<string, ValidateFunction>();

/** Compiled validator for a contract, or for a `$defs` entry of it (`fragment` like `#/$defs/log`): precompiled in the bundles, compiled once on first use from sources. */
export function contractValidator(name: ContractName, fragment = ''): ValidateFunction {
  const key = name + fragment;
  let validate = validators.get(key) ?? precompiledValidators?.get(key);
  if (!validate) {
    const id = (contractSchemas[name] as { $id: string }).$id + fragment;
    const found = contractsAjv().getSchema(id);
    if (!found) throw new Error(`No schema ${id}`);
    validate = found;
    validators.set(key, validate);
  }
  return validate;
}

/** Validates `value` against a contract; returns Ajv's errors (empty when valid). */
export function validateAgainst(name: ContractName, value: unknown): ErrorObject[] {
  const validate = contractValidator(name);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

export type { ErrorObject };
