// Typed messages of the Configure Skill panel (docs/design-rules.md#typed-webview-messages); the form model they carry is the runtime's (configFormModel.ts). Never carries a secret value.

import type { ConfigFormModel, ConfigFormProblems, ConfigFormValues } from '../runtime/skills/configFormModel.js';

// The form model's types, for the webview to import from its protocol.
export type {
  JsonValue,
  ConfigControlKind,
  ConfigFormOption,
  ConfigListItems,
  ConfigSecretState,
  ConfigFormField,
  ConfigFormCategory,
  ConfigFormProblem,
  ConfigFormProblems,
  ConfigFormFile,
  ConfigFormModel,
  ConfigFormValues,
} from '../runtime/skills/configFormModel.js';

/** Extension → webview. */
export type ToConfigForm =
  | { readonly type: 'init'; readonly model: ConfigFormModel }
  /** Answer to `validate` with the same `requestId` (older answers are dropped by the webview). */
  | { readonly type: 'validation'; readonly requestId: number; readonly problems: ConfigFormProblems }
  /** The save succeeded; `model` is re-read from disk and `notices` say what else happened (e.g. a secret moved out of config.json). */
  | { readonly type: 'saved'; readonly model: ConfigFormModel; readonly notices: readonly string[] }
  | { readonly type: 'saveFailed'; readonly message: string; readonly problems?: ConfigFormProblems };

/** Webview → extension. */
export type FromConfigForm =
  | { readonly type: 'ready' }
  | { readonly type: 'validate'; readonly requestId: number; readonly values: ConfigFormValues; readonly clearSecrets: readonly string[] }
  /** `clearSecrets`: sensitive fields whose stored secret is to be deleted. */
  | { readonly type: 'save'; readonly values: ConfigFormValues; readonly clearSecrets: readonly string[] }
  | { readonly type: 'cancel' }
  | { readonly type: 'openFile'; readonly which: 'schema' | 'config' };

/** Stable `data-testid` names of the form's DOM, shared by the webview and the tests. Use as `[data-testid="<value>"]`. */
export const ConfigFormTestId = {
  /** The whole form. */
  form: 'config-form',
  /** One field row (has data-key, data-control and data-modified="true" when config.json sets it). */
  field: 'config-field',
  /** The inline problem box under a field (has data-key). */
  error: 'config-error',
  /** The control of a field (input, select, textarea or list; has data-key). */
  control: 'config-control',
  /** Reset to default of a field (has data-key). */
  reset: 'config-reset',
  /** Clear of a sensitive field's stored secret (has data-key). */
  clearSecret: 'config-clear-secret',
  save: 'config-save',
  cancel: 'config-cancel',
  /** The status line (saving, saved, save failed). */
  status: 'config-status',
} as const;

/** Exhaustiveness helper for `switch` over message unions. */
export function assertNeverConfigMessage(value: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(value)}`);
}
