// Validation of the Configure Skill form's values, keyed by field, and the `${VAR}`/plain-secret tests the form and save share. Pure (no file system); no message shows a sensitive value.
import { validateConfigValues, type ConfigField, type ConfigSchema } from './skillConfig.js';
import { SkillProblemCode } from './skillProblems.js';
import type { ConfigFormProblem, ConfigFormProblems, ConfigFormValues } from './configFormModel.js';

/** Codes of problems only the form reports (the others are SkillProblemCode values). */
export const ConfigFormProblemCode = {
  /** A json control holds text that is not the JSON the field needs. */
  JSON_TEXT: 'CONFIG_FORM_JSON_TEXT',
} as const;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Context of {@link validateConfigForm}. */
export interface ConfigFormValidationContext {
  /** Sensitive fields with a stored secret. */
  readonly secretsPresent?: ReadonlySet<string> | undefined;
  /** Sensitive fields whose stored secret is to be deleted. */
  readonly clearSecrets?: readonly string[] | undefined;
  /** config.json as written, to recognise plain-text secrets and fields it sets that the schema lacks. */
  readonly written?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Validates the form's values (see {@link ConfigFormValues}) with the runtime's checks
 * (`validateConfigValues`), keyed by field. Values with `${VAR}` references are checked when the
 * skill loads, not here. A sensitive value is checked only when a new one is typed, and no message
 * ever shows it. A missing required value is an error, or a warning when an `x-env-var` may supply it.
 */
export function validateConfigForm(schema: ConfigSchema, values: ConfigFormValues, context: ConfigFormValidationContext = {}): ConfigFormProblems {
  const fields: Record<string, ConfigFormProblem[]> = {};
  const add = (key: string, problem: ConfigFormProblem) => (fields[key] ??= []).push(problem);
  const written = context.written ?? {};
  const required = new Set(schema.required ?? []);
  const checked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    const value = Object.hasOwn(values, key) ? values[key] : undefined;
    let present = value !== undefined || field.default !== undefined;
    if (field['x-sensitive'] === true) {
      const typed = typeof value === 'string' && value !== '' ? value : undefined;
      const cleared = context.clearSecrets?.includes(key) === true && typed === undefined;
      const plain = isPlainSecret(written[key]);
      if (value !== undefined && typeof value !== 'string') add(key, error(SkillProblemCode.CONFIG_TYPE, 'Must be text.'));
      else if (typed !== undefined && !hasReference(typed)) checked[key] = typed;
      present =
        typed !== undefined || field.default !== undefined || hasReference(written[key]) || (!cleared && (plain || context.secretsPresent?.has(key) === true));
      if (plain && typed === undefined && !cleared) {
        add(
          key,
          warning(
            SkillProblemCode.CONFIG_SECRET_IN_FILE,
            'config.json holds this value in plain text. Saving moves it to VS Code Secret Storage and removes it from config.json.',
          ),
        );
      }
    } else if (value !== undefined && !hasReference(value)) {
      if (field.type === 'array' && typeof value === 'string')
        add(key, error(ConfigFormProblemCode.JSON_TEXT, 'Enter a JSON array, for example ["first", "second"].'));
      else checked[key] = value;
    }
    if (required.has(key) && !present) add(key, requiredProblem(field));
  }
  for (const problem of validateConfigValues(checked, { ...schema, required: [] })) {
    const key = keyOfPointer(problem.pointer);
    if (key !== undefined) add(key, { severity: problem.severity, code: problem.code, message: fieldMessage(problem.message, key) });
  }
  const general: ConfigFormProblem[] = [];
  const unknown = Object.fromEntries(Object.entries(written).filter(([key]) => !Object.hasOwn(schema.properties, key)));
  for (const problem of validateConfigValues(unknown, { ...schema, required: [] })) {
    // The form lists the schema's fields already: keep a did-you-mean, drop the full list.
    const message = problem.message.replace(/^config\.json: /, 'config.json sets ').replace(/; the fields are .*$/, '');
    const consequence = schema.additionalProperties === false ? 'remove it from config.json: the skill reports it as an error' : 'the form keeps it as it is';
    const sentence = message.endsWith('?') ? `${message} ${consequence.charAt(0).toUpperCase()}${consequence.slice(1)}.` : `${message}; ${consequence}.`;
    general.push({ severity: 'warning', code: problem.code, message: sentence });
  }
  return { fields, general };
}

/** The names of the `${VAR}` references in `text`, each once, in order of first appearance. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1]!))];
}

/** Whether `value` is a string with a `${VAR}` reference. */
export function hasReference(value: unknown): boolean {
  return typeof value === 'string' && referencedVariables(value).length > 0;
}

/** A sensitive value written in config.json in clear (not empty, not a `${VAR}` reference). */
export function isPlainSecret(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !hasReference(value);
}

// ---------------------------------------------------------------------------------------------

function requiredProblem(field: ConfigField): ConfigFormProblem {
  const variable = field['x-env-var'];
  if (variable !== undefined) {
    return warning(SkillProblemCode.CONFIG_REQUIRED, `Required: with no value here, the environment variable ${variable} must be set when the skill loads.`);
  }
  return error(
    SkillProblemCode.CONFIG_REQUIRED,
    field['x-sensitive'] === true ? 'Required: enter a value (it is kept in VS Code Secret Storage).' : 'Required: enter a value.',
  );
}

/** Turns `config.json: "key" item 2 must be …` into `Item 3 must be …` (the field is shown beside it). */
function fieldMessage(message: string, key: string): string {
  let rest = message.startsWith(`config.json: ${JSON.stringify(key)} `) ? message.slice(`config.json: ${JSON.stringify(key)} `.length) : message;
  rest = rest.replace(/^item (\d+) /, (_, index: string) => `item ${Number(index) + 1} `);
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.?!]$/.test(sentence) ? sentence : `${sentence}.`;
}

function keyOfPointer(pointer: string | undefined): string | undefined {
  const first = pointer?.split('/')[1];
  return first === undefined ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}

function error(code: string, message: string): ConfigFormProblem {
  return { severity: 'error', code, message };
}

function warning(code: string, message: string): ConfigFormProblem {
  return { severity: 'warning', code, message };
}
