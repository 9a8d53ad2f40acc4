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
 * The generated module's container: validators by key, each made by its factory when first asked for. A command
 * compiles and builds only the validators it uses (a `run`: the plan's and the tool events'), not the ~0.9 MB of
 * all contracts with their schema objects; that was ~3 ms of every start and a larger code cache (bench b2).
 */
const LAZY_VALIDATORS_SOURCE = `class LazyValidators {
  constructor(factories) { this.factories = new Map(factories); this.made = new Map(); }
  get(key) {
    let validate = this.made.get(key);
    if (validate === undefined && this.factories.has(key)) {
      const made = {};
      this.factories.get(key)(made);
      validate = made.validator;
      this.made.set(key, validate);
    }
    return validate;
  }
  has(key) { return this.factories.has(key); }
  keys() { return this.factories.keys(); }
}`;

/**
 * A CommonJS module exporting `precompiledValidators`, whose `get(name + fragment)` gives the validator (the shape
 * precompiledValidators.ts declares). Each key's standalone code sits in a factory of its own, so the parts of
 * schemas that several contracts share are repeated (~10% more text). Its requires (Ajv's runtime helpers,
 * ajv-formats) resolve from node_modules.
 */
export function standaloneValidatorSource(): string {
  const ajv = createAjv({ source: true });
  for (const schema of Object.values(contractSchemas)) ajv.addSchema(schema as object);
  const factories = precompiledValidatorKeys().map(({ name, fragment }) => {
    const code = standaloneCode(ajv, { validator: (contractSchemas[name] as { $id: string }).$id + fragment });
    return `[${JSON.stringify(name + fragment)}, (exports) => {${code}\n}]`;
  });
  return `${LAZY_VALIDATORS_SOURCE}\nexports.precompiledValidators = new LazyValidators([\n${factories.join(',\n')}\n]);\n`;
}
