// Generates the contract validators as JavaScript (Ajv standalone) at build time, so a bundle starts without compiling any schema.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { contractSchemas, createAjv, type ContractName } from './schemas.js';

/** What the bundles precompile: every contract, and each `$defs` entry of the tool events (the decoder validates one event type at a time). */
export function precompiledValidatorKeys(): { readonly name: ContractName; readonly fragment: string }[] {
  const keys: { name: ContractName; fragment: string }[] = [];
  for (const name of Object.keys(contractSchemas) as ContractName[]) keys.push({ name, fragment: '' });
  for (const definition of Object.keys(contractSchemas['tool-event.schema.json'].$defs)) {
    keys.push({ name: 'tool-event.schema.json', fragment: `#/$defs/${definition}` });
  }
  return keys;
}

/**
 * A CommonJS module exporting `precompiledValidators`, a Map from `name + fragment` to the validator — the same
 * shape as precompiledValidators.ts. Its requires (Ajv's runtime helpers, ajv-formats) resolve from node_modules.
 */
export function standaloneValidatorSource(): string {
  const ajv = createAjv({ source: true });
  for (const schema of Object.values(contractSchemas)) ajv.addSchema(schema as object);
  const keys = precompiledValidatorKeys();
  const exportsByName: Record<string, string> = {};
  keys.forEach(({ name, fragment }, index) => {
    exportsByName[`validator${index}`] = (contractSchemas[name] as { $id: string }).$id + fragment;
  });
  const entries = keys.map(({ name, fragment }, index) => `[${JSON.stringify(name + fragment)}, exports.validator${index}]`);
  return `${standaloneCode(ajv, exportsByName)}\nexports.precompiledValidators = new Map([${entries.join(', ')}]);\n`;
}
