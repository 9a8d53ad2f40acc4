// The form's edits (no DOM): per field written / set / unset, typed secrets and pending clears, and the values to submit. Typed secrets are never persisted.
import type { ConfigFormField, ConfigFormModel, ConfigFormValues, JsonValue } from '../../protocol/configFormMessages.js';

/** `written`: as config.json has it (untouched); `set`: edited to `value`; `unset`: reset to default (removed from config.json). */
export type FieldMode = 'written' | 'set' | 'unset';

export interface FieldEdit {
  readonly mode: FieldMode;
  readonly value?: JsonValue;
}

/** What survives a webview reload (getState/setState): non-sensitive edits and pending clears of the same model. */
export interface PersistedForm {
  readonly fingerprint: string;
  readonly edits: Readonly<Record<string, FieldEdit>>;
  readonly clears: readonly string[];
}

export class FormState {
  readonly fields: ReadonlyMap<string, ConfigFormField>;
  private readonly edits = new Map<string, FieldEdit>();
  private readonly typedSecrets = new Map<string, string>();
  private readonly clears = new Set<string>();

  constructor(readonly model: ConfigFormModel) {
    this.fields = new Map(model.categories.flatMap((category) => category.fields).map((field) => [field.key, field]));
  }

  field(key: string): ConfigFormField {
    const field = this.fields.get(key);
    if (!field) throw new Error(`unknown field ${key}`);
    return field;
  }

  edit(key: string): FieldEdit {
    return this.edits.get(key) ?? { mode: 'written' };
  }

  set(key: string, value: JsonValue): void {
    this.edits.set(key, { mode: 'set', value });
  }

  /** Reset to default: config.json will not set the field. */
  unset(key: string): void {
    if (this.field(key).value === undefined) this.edits.delete(key);
    else this.edits.set(key, { mode: 'unset' });
  }

  /** The value the control shows: the edit, else config.json's value, else the default. */
  displayed(key: string): JsonValue | undefined {
    const field = this.field(key);
    const edit = this.edit(key);
    if (edit.mode === 'set') return edit.value;
    if (edit.mode === 'written' && field.value !== undefined) return field.value;
    return field.default;
  }

  /** True while config.json will set the field (VS Code's "modified" marker). */
  isModified(key: string): boolean {
    const edit = this.edit(key);
    return edit.mode === 'set' || (edit.mode === 'written' && this.field(key).value !== undefined);
  }

  /** True when the control shows config.json's value as written because it cannot show it otherwise. */
  showsWritten(key: string): boolean {
    const field = this.field(key);
    return this.edit(key).mode === 'written' && field.value !== undefined && !field.fits;
  }

  typeSecret(key: string, text: string): void {
    if (text === '') this.typedSecrets.delete(key);
    else {
      this.typedSecrets.set(key, text);
      this.clears.delete(key);
    }
  }

  typedSecret(key: string): string {
    return this.typedSecrets.get(key) ?? '';
  }

  setCleared(key: string, cleared: boolean): void {
    if (cleared) {
      this.clears.add(key);
      this.typedSecrets.delete(key);
    } else {
      this.clears.delete(key);
    }
  }

  isCleared(key: string): boolean {
    return this.clears.has(key);
  }

  /** The values to validate or save (see ConfigFormValues). */
  values(): ConfigFormValues {
    const values: Record<string, JsonValue> = {};
    for (const [key, field] of this.fields) {
      if (field.secret) {
        const typed = this.typedSecrets.get(key);
        if (typed !== undefined) values[key] = typed;
        continue;
      }
      const edit = this.edit(key);
      if (edit.mode === 'set' && edit.value !== undefined) values[key] = edit.value;
      else if (edit.mode === 'written' && field.value !== undefined) values[key] = field.value;
    }
    return values;
  }

  clearSecrets(): string[] {
    return [...this.clears];
  }

  /** Whether anything would change on save. */
  isDirty(): boolean {
    return this.edits.size > 0 || this.typedSecrets.size > 0 || this.clears.size > 0;
  }

  persist(): PersistedForm {
    return { fingerprint: fingerprint(this.model), edits: Object.fromEntries(this.edits), clears: [...this.clears] };
  }

  /** Restores saved edits when they belong to this same model (same skill and config.json values). */
  restore(saved: unknown): boolean {
    if (!isPersistedForm(saved) || saved.fingerprint !== fingerprint(this.model)) return false;
    for (const [key, edit] of Object.entries(saved.edits)) if (this.fields.has(key) && !this.field(key).secret) this.edits.set(key, edit);
    for (const key of saved.clears) if (this.fields.get(key)?.secret?.stored === true) this.clears.add(key);
    return true;
  }
}

/** Identifies a model by skill and written values, so edits are never restored onto a different config.json. */
function fingerprint(model: ConfigFormModel): string {
  const written = model.categories.flatMap((category) => category.fields).map((field) => [field.key, field.value ?? null, field.secret?.stored ?? null]);
  return JSON.stringify([model.skill, written]);
}

function isPersistedForm(value: unknown): value is PersistedForm {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<PersistedForm>;
  return typeof candidate.fingerprint === 'string' && typeof candidate.edits === 'object' && candidate.edits !== null && Array.isArray(candidate.clears);
}
