// The Configure Skill form's model: fields, problems and values as the runtime builds them and the panel shows them. Pure JSON-able types; never carries a secret value.

/** A JSON value as it travels through postMessage. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * How a field is edited (chosen from the field's schema by the runtime's `buildConfigForm`):
 * text / textarea / url / email: a string; password: a masked string kept in Secret Storage or
 * a masked non-sensitive string (`format: password`); number: a number input with min/max/step;
 * checkbox: a boolean; dropdown: one of `options`; list: an array of strings, numbers or enum values
 * edited item by item; json: any other array, edited as JSON text.
 */
export type ConfigControlKind = 'text' | 'textarea' | 'url' | 'email' | 'password' | 'number' | 'checkbox' | 'dropdown' | 'list' | 'json';

/** One choice of a dropdown (or of a list item dropdown). */
export interface ConfigFormOption {
  readonly value: JsonValue;
  readonly label: string;
}

/** How the items of a `list` control are edited. */
export interface ConfigListItems {
  readonly control: 'text' | 'number' | 'dropdown';
  /** For `dropdown` items. */
  readonly options?: readonly ConfigFormOption[];
  /** Item type from the schema (`string`, `number` or `integer`). */
  readonly type: 'string' | 'number' | 'integer';
}

/** Secret Storage state of an `x-sensitive` field. The value itself never reaches the webview. */
export interface ConfigSecretState {
  /** A value is kept in VS Code Secret Storage for this field. */
  readonly stored: boolean;
  /** config.json holds the value in plain text; saving moves it to Secret Storage. */
  readonly plainTextInConfig: boolean;
  /** config.json refers to a variable for this field (e.g. `${STORYTELLER_API_KEY}`): it takes precedence over Secret Storage. */
  readonly reference?: string;
}

/** One field of the form, in schema order. */
export interface ConfigFormField {
  readonly key: string;
  readonly control: ConfigControlKind;
  /** Schema type of the value. */
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  /** The schema title, or the key split into words. */
  readonly title: string;
  readonly description?: string;
  /** `x-category`, or the form's general category. */
  readonly category: string;
  readonly required: boolean;
  /** Schema default (left out for sensitive fields). */
  readonly default?: JsonValue;
  /** The value written in config.json, raw (may contain `${VAR}` references); absent when config.json does not set it. Never set for sensitive fields. */
  readonly value?: JsonValue;
  /** False when config.json holds a value the control cannot show (a `${VAR}` for a number, a string for a checkbox, …): the form then shows it as written and keeps it until replaced. */
  readonly fits: boolean;
  /** Names of the variables `value` refers to with `${NAME}` (resolved when the skill loads). */
  readonly variables?: readonly string[];
  /** `x-env-var`: the variable used when neither config.json (nor, for sensitive fields, Secret Storage) gives a value. */
  readonly envVar?: string;
  /** A sentence about `envVar` for the author, e.g. "Used when no value is set here: the environment variable FOO." */
  readonly envHint?: string;
  readonly options?: readonly ConfigFormOption[];
  readonly items?: ConfigListItems;
  readonly minimum?: number;
  readonly maximum?: number;
  /** Number step: 1 for integers, `any` otherwise. */
  readonly step?: number | 'any';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** Present only for `x-sensitive` fields. */
  readonly secret?: ConfigSecretState;
}

/** A group of fields with the same `x-category`, in order of first appearance. */
export interface ConfigFormCategory {
  readonly name: string;
  readonly fields: readonly ConfigFormField[];
}

/** One validation problem of the form. */
export interface ConfigFormProblem {
  readonly severity: 'error' | 'warning';
  /** Stable code (SkillProblemCode or CONFIG_FORM_*). */
  readonly code: string;
  /** For the author, without the field name (shown under the field) and never with a secret. */
  readonly message: string;
}

/** Problems by field key; `general` holds those of no single field (e.g. fields config.json has but the schema lacks). */
export interface ConfigFormProblems {
  readonly fields: Readonly<Record<string, readonly ConfigFormProblem[]>>;
  readonly general: readonly ConfigFormProblem[];
}

/** A file the form can open. */
export interface ConfigFormFile {
  /** Path to show (relative to the skill's parent directory, e.g. `storyteller/config.json`). */
  readonly label: string;
  readonly exists: boolean;
}

/** Everything the webview needs to draw the form (sent in `init` and after `saved`). */
export interface ConfigFormModel {
  readonly skill: string;
  readonly displayName: string;
  /** The schema's title and description. */
  readonly title?: string;
  readonly description?: string;
  readonly categories: readonly ConfigFormCategory[];
  readonly files: { readonly config: ConfigFormFile; readonly schema: ConfigFormFile };
  /** config.json cannot be used (not JSON, not an object, unreadable): the form is read-only and saving is refused. */
  readonly configError?: string;
  /** Keys config.json holds that the schema does not define; saving keeps them. */
  readonly otherKeys: readonly string[];
  /** Validation of the values as written. */
  readonly problems: ConfigFormProblems;
}

/**
 * The form's values as submitted. A field that is present is set to that value in config.json
 * (a value equal to the one the form was opened with leaves config.json as it is, so `${VAR}`
 * references survive); a field that is absent is unset (removed from config.json, so the default
 * or the environment variable applies). Sensitive fields: a non-empty string is a new secret for
 * Secret Storage (a whole `${VAR}` reference is written to config.json instead); absent or empty
 * keeps the stored secret.
 */
export type ConfigFormValues = Readonly<Record<string, JsonValue>>;
