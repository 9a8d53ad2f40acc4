// The Configure Skill panel: one webview form per skill over the runtime's skillConfigForm, skillConfigFormValidation and skillConfigSave. VS Code glue only; never logs a value.
import * as vscode from 'vscode';
import { errorMessage } from '../../runtime/common/errors.js';
import type { ConfigSchema } from '../../runtime/skills/skillConfig.js';
import { buildConfigForm, formBaseline, type ConfigFormCurrent } from '../../runtime/skills/skillConfigForm.js';
import { readConfigFormSource, saveConfig, type SkillSecretStore } from '../../runtime/skills/skillConfigSave.js';
import { validateConfigForm } from '../../runtime/skills/skillConfigFormValidation.js';
import type { Skill } from '../../runtime/skills/skillTypes.js';
import {
  assertNeverConfigMessage,
  type ConfigFormModel,
  type ConfigFormValues,
  type FromConfigForm,
  type ToConfigForm,
} from '../../protocol/configFormMessages.js';
import { WebviewHost } from '../webviewHost.js';
import { createSkillSecretStore } from './skillSecrets.js';

/** What {@link openConfigureSkillPanel} needs from the extension. */
export interface ConfigureSkillPanelOptions {
  readonly skill: Skill;
  readonly extensionUri: vscode.Uri;
  readonly secrets: vscode.SecretStorage;
  /** The story folder the secrets belong to (see skillSecretKey). */
  readonly storyRoot: string;
  readonly log: vscode.LogOutputChannel;
  /** Called after a successful save (the caller refreshes the skills registry). */
  readonly onDidSave: () => void | Promise<void>;
}

const VIEW_TYPE = 'narratoria.configureSkill';

/** Open panels by skill directory: one per skill. */
const openPanels = new Map<string, ConfigureSkillPanel>();

/**
 * Opens the Configure Skill form of `options.skill`, or reveals it when already open. When the skill
 * has no usable config schema, says why (offering to open the schema file) instead of an empty form.
 */
export async function openConfigureSkillPanel(options: ConfigureSkillPanelOptions): Promise<void> {
  const key = options.skill.directory;
  const existing = openPanels.get(key);
  if (existing) {
    existing.reveal();
    return;
  }
  const secretStore = createSkillSecretStore(options.secrets, options.storyRoot);
  const source = await readConfigFormSource(options.skill, secretStore);
  if (source.kind === 'unavailable') {
    // Not awaited: the notification stays until the author answers, the command is done now.
    explainUnavailable(source.message, source.schemaFile, options.skill, options.log);
    return;
  }
  const opened = openPanels.get(key);
  if (opened) {
    opened.reveal();
    return;
  }
  const panel = new ConfigureSkillPanel(options, secretStore, source.skill, source.schema, source.current);
  openPanels.set(key, panel);
  panel.onDispose(() => {
    if (openPanels.get(key) === panel) openPanels.delete(key);
  });
}

/** One Configure Skill webview: its panel, messages and listeners are held by one WebviewHost. */
class ConfigureSkillPanel {
  private readonly view: WebviewHost<ToConfigForm, FromConfigForm>;
  /** The latest model sent, the schema and config.json it was built from (for validation and the save baseline). */
  private model: ConfigFormModel;
  private busy = false;

  constructor(
    private readonly options: ConfigureSkillPanelOptions,
    private readonly secretStore: SkillSecretStore,
    private skill: Skill,
    private schema: ConfigSchema,
    private current: ConfigFormCurrent,
  ) {
    this.model = buildConfigForm(skill, current);
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Configure ${skill.displayName}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview')],
    });
    this.view = new WebviewHost<ToConfigForm, FromConfigForm>(panel, {
      extensionUri: options.extensionUri,
      log: options.log,
      name: 'Configure Skill',
      page: { title: `Configure ${skill.displayName}`, stylesheet: 'configForm.css', script: 'configForm.js', rootId: 'root' },
      beforeReady: 'drop',
      // Also sent after the webview is reloaded (hidden and shown again): start from disk.
      onReady: async () => {
        if (await this.reload()) this.post({ type: 'init', model: this.model });
      },
      onMessage: (message) => this.handle(message),
      onMessageError: (error) => void vscode.window.showErrorMessage(`Configure ${this.skill.displayName}: ${errorMessage(error)}`),
    });
  }

  reveal(): void {
    this.view.panel.reveal();
  }

  onDispose(listener: () => void): void {
    this.view.onDidDispose(listener);
  }

  private dispose(): void {
    this.view.dispose();
  }

  private post(message: ToConfigForm): void {
    this.view.post(message);
  }

  private async handle(message: Exclude<FromConfigForm, { readonly type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'validate': {
        const problems = validateConfigForm(this.schema, message.values, {
          secretsPresent: this.current.secretsPresent,
          clearSecrets: message.clearSecrets,
          written: this.current.values,
        });
        this.post({ type: 'validation', requestId: message.requestId, problems });
        return;
      }
      case 'save':
        await this.save(message.values, message.clearSecrets);
        return;
      case 'cancel':
        this.dispose();
        return;
      case 'openFile':
        await this.openFile(message.which);
        return;
      default:
        assertNeverConfigMessage(message);
    }
  }

  private async save(values: ConfigFormValues, clearSecrets: readonly string[]): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (this.model.configError !== undefined) {
        this.post({ type: 'saveFailed', message: `${this.model.configError} Nothing was saved: fix or delete the file first.` });
        return;
      }
      const result = await saveConfig({
        skill: this.skill,
        submitted: values,
        clearSecrets,
        secretStore: this.secretStore,
        baseline: formBaseline(this.model),
      });
      if (!result.ok) {
        this.options.log.warn(`Configure Skill (${this.skill.name}): ${result.message}`);
        this.post({ type: 'saveFailed', message: result.message, ...(result.problems ? { problems: result.problems } : {}) });
        if (!result.problems) void vscode.window.showErrorMessage(`Could not save the configuration of ${this.skill.displayName}: ${result.message}`);
        return;
      }
      this.options.log.info(`Saved the configuration of ${this.skill.name}${result.wroteConfig ? ` (${result.configFile})` : ''}`);
      for (const notice of result.notices) this.options.log.info(`  ${notice}`);
      if (await this.reload()) this.post({ type: 'saved', model: this.model, notices: result.notices });
      const notices = result.notices.length > 0 ? ` ${result.notices.join(' ')}` : '';
      void vscode.window.showInformationMessage(`Saved the configuration of ${this.skill.displayName}.${notices}`);
      try {
        await this.options.onDidSave();
      } catch (error) {
        this.options.log.error(`Refreshing the skills after saving ${this.skill.name} failed: ${errorMessage(error)}`);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Re-reads the schema, config.json and stored-secret flags; false (and the panel closes) when the schema is no longer usable. */
  private async reload(): Promise<boolean> {
    const source = await readConfigFormSource(this.skill, this.secretStore);
    if (source.kind === 'unavailable') {
      this.dispose();
      explainUnavailable(source.message, source.schemaFile, this.skill, this.options.log);
      return false;
    }
    this.skill = source.skill;
    this.schema = source.schema;
    this.current = source.current;
    this.model = buildConfigForm(source.skill, source.current);
    return !this.view.isDisposed;
  }

  private async openFile(which: 'schema' | 'config'): Promise<void> {
    const file =
      which === 'schema'
        ? this.skill.configSchemaFile
        : this.model.files.config.exists
          ? vscode.Uri.joinPath(vscode.Uri.file(this.skill.directory), 'config.json').fsPath
          : undefined;
    if (file === undefined) {
      void vscode.window.showInformationMessage(`${this.skill.displayName} has no config.json yet; saving the form creates it.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }
}

/** Says why there is no form, offering to open the schema file (or the manifest when there is none). */
function explainUnavailable(message: string, schemaFile: string | undefined, skill: Skill, log: vscode.LogOutputChannel): void {
  const open = schemaFile !== undefined ? 'Open Config Schema' : 'Open Manifest';
  log.info(`Configure Skill: ${message}`);
  const shown = schemaFile !== undefined ? vscode.window.showWarningMessage(message, open) : vscode.window.showInformationMessage(message, open);
  void Promise.resolve(shown)
    .then(async (choice) => {
      if (choice === open) await vscode.window.showTextDocument(vscode.Uri.file(schemaFile ?? skill.manifestPath));
    })
    .catch((error: unknown) => log.error(`Configure Skill: ${errorMessage(error)}`));
}

/** The form's page: strict CSP (no inline code or style), a fresh nonce per load, resources from dist/webview only. */
