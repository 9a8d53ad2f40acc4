// The Configure Skill form in headless Chromium: the built dist/webview/configForm.js in the extension's own page shell (previewShell.ts) with VS Code dark theme variables, its API wired to the real runtime (buildConfigForm, validateConfigForm, saveConfig) over temp dirs.
import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { discoverSkills } from '../../src/runtime/skills/skillDiscovery.js';
import { buildConfigForm, formBaseline } from '../../src/runtime/skills/skillConfigForm.js';
import { readConfigFormSource, saveConfig, type SkillSecretStore } from '../../src/runtime/skills/skillConfigSave.js';
import { validateConfigForm } from '../../src/runtime/skills/skillConfigFormValidation.js';
import type { ConfigSchema } from '../../src/runtime/skills/skillConfig.js';
import type { Skill } from '../../src/runtime/skills/skillTypes.js';
import type { ConfigFormModel, FromConfigForm, ToConfigForm } from '../../src/protocol/configFormMessages.js';
import { configSchema, createTempStory, type TempStory } from '../runtime/skills/skillFixture.js';
import {
  chromiumArgs,
  chromiumPath,
  closeServer,
  previewPageHtml,
  projectRoot,
  requireBundles,
  saveScreenshot,
  startPreviewServer,
  watchPageErrors,
} from './previewShell.js';

const STORED_SECRET = 'sk-stored-0123456789';
/** Margin: a safety net against a hung browser, not a time limit: each test launches Chromium and waits only for conditions. */
const TEST_TIMEOUT_MS = 120_000;

class MemorySecretStore implements SkillSecretStore {
  readonly values = new Map<string, string>();
  async get(skill: string, key: string) {
    return this.values.get(`${skill}.${key}`);
  }
  async store(skill: string, key: string, value: string) {
    this.values.set(`${skill}.${key}`, value);
  }
  async delete(skill: string, key: string) {
    this.values.delete(`${skill}.${key}`);
  }
}

/** Colours of VS Code's settings editor (Dark Modern) that the form uses beyond the shared preview theme (vscodeThemes.ts). */
const settingsEditorColors: Record<string, string> = {
  'dropdown-background': '#313131',
  'dropdown-foreground': '#cccccc',
  'dropdown-border': '#3c3c3c',
  'dropdown-listBackground': '#1f1f1f',
  'checkbox-background': '#313131',
  'checkbox-foreground': '#cccccc',
  'checkbox-border': '#3c3c3c',
  'textLink-activeForeground': '#4daafc',
  'textPreformat-background': '#3c3c3c',
  'settings-headerForeground': '#ffffff',
  'settings-settingsHeaderHoverForeground': '#ffffffb3',
  'settings-modifiedItemIndicator': '#bb800966',
  'settings-headerBorder': '#2b2b2b',
  'settings-sashBorder': '#2b2b2b',
  'settings-dropdownBackground': '#313131',
  'settings-dropdownForeground': '#cccccc',
  'settings-dropdownBorder': '#3c3c3c',
  'settings-dropdownListBorder': '#454545',
  'settings-checkboxBackground': '#313131',
  'settings-checkboxForeground': '#cccccc',
  'settings-checkboxBorder': '#3c3c3c',
  'settings-textInputBackground': '#313131',
  'settings-textInputForeground': '#cccccc',
  'settings-textInputBorder': '#3c3c3c',
  'settings-numberInputBackground': '#313131',
  'settings-numberInputForeground': '#cccccc',
  'settings-numberInputBorder': '#3c3c3c',
  'settings-focusedRowBackground': '#2a2d2e99',
  'settings-rowHoverBackground': '#2a2d2e4d',
  'settings-focusedRowBorder': '#0078d4',
};

/** The extension's side of one form, with the real runtime behind it. */
interface FormHost {
  readonly skill: Skill;
  readonly schema: ConfigSchema;
  readonly store: MemorySecretStore;
  model: ConfigFormModel;
  readonly posted: FromConfigForm[];
}

/** Serves the form page (the extension's shell, as configureSkillPanel.ts builds it), dist/webview and the test's theme. */
function startServer(): Promise<{ server: Server; origin: string }> {
  requireBundles('configForm.js', 'configForm.css', 'codicon.css', 'codicon.ttf');
  const settingsCss = `:root {\n${Object.entries(settingsEditorColors)
    .map(([name, value]) => `  --vscode-${name}: ${value};`)
    .join('\n')}\n}\n`;
  const shell = { title: 'Configure', stylesheet: 'configForm.css', script: 'configForm.js', rootId: 'root' };
  return startPreviewServer(
    (url, origin) =>
      url.pathname === '/form.html' ? { type: 'text/html; charset=utf-8', body: previewPageHtml(origin, 'dark', shell, undefined, formBootstrap) } : undefined,
    settingsCss,
  );
}

/** Test code in the page: what the form posts also goes to the test's host (a Playwright binding), and the last validation answer is counted. */
const formBootstrap = `(() => {
  // The requestId of the last validation answer that reached the page; this listener runs before the form's.
  window.__validated = 0;
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'validation') window.__validated = Math.max(window.__validated, event.data.requestId);
  });
  const acquire = window.acquireVsCodeApi;
  window.acquireVsCodeApi = () => {
    const api = acquire();
    return Object.freeze({ ...api, postMessage: (message) => { api.postMessage(message); window.__formPost(JSON.parse(JSON.stringify(message))); } });
  };
})();`;

/** Opens the form page for `host`; answers its messages the way configureSkillPanel.ts does, with the real runtime. */
async function openForm(browser: Browser, origin: string, host: FormHost, viewport = { width: 1100, height: 760 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion: 'reduce', colorScheme: 'dark' });
  // Margin: every auto-waiting action and waitFor gets 60 s instead of Playwright's 30 s; they wait for
  // conditions, so this only matters when a loaded machine is very slow, and a stuck page still fails.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const send = (message: ToConfigForm) => page.evaluate((data) => window.postMessage(data, '*'), message as unknown);
  const written = () =>
    host.model.configError === undefined
      ? (JSON.parse(readFileSync(path.join(host.skill.directory, 'config.json'), 'utf8') || '{}') as Record<string, unknown>)
      : {};
  await page.exposeFunction('__formPost', async (message: FromConfigForm) => {
    host.posted.push(message);
    switch (message.type) {
      case 'ready':
        await send({ type: 'init', model: host.model });
        break;
      case 'validate': {
        const secretsPresent = new Set([...host.store.values.keys()].map((key) => key.split('.')[1]!));
        const values = existsSync(path.join(host.skill.directory, 'config.json')) ? written() : {};
        await send({
          type: 'validation',
          requestId: message.requestId,
          problems: validateConfigForm(host.schema, message.values, { secretsPresent, clearSecrets: message.clearSecrets, written: values }),
        });
        break;
      }
      case 'save': {
        const result = await saveConfig({
          skill: host.skill,
          submitted: message.values,
          clearSecrets: message.clearSecrets,
          secretStore: host.store,
          baseline: formBaseline(host.model),
        });
        if (!result.ok) {
          await send({ type: 'saveFailed', message: result.message, ...(result.problems ? { problems: result.problems } : {}) });
          break;
        }
        const source = await readConfigFormSource(host.skill, host.store);
        assert.ok(source.kind === 'ready');
        host.model = buildConfigForm(source.skill, source.current);
        await send({ type: 'saved', model: host.model, notices: result.notices });
        break;
      }
      case 'cancel':
      case 'openFile':
        break;
    }
  });
  await page.goto(`${origin}/form.html`);
  await page.locator('[data-testid="config-field"]').first().waitFor();
  return { page, errors };
}

async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  return saveScreenshot(page, name, fullPage);
}

async function hostFor(story: TempStory, skillName: string, store: MemorySecretStore): Promise<FormHost> {
  const { skills } = await discoverSkills({ root: story.root });
  const skill = skills.find((candidate) => candidate.name === skillName);
  assert.ok(skill);
  const source = await readConfigFormSource(skill, store);
  assert.ok(source.kind === 'ready');
  return { skill: source.skill, schema: source.schema, store, model: buildConfigForm(source.skill, source.current), posted: [] };
}

async function withBrowser(t: TestContext, run: (browser: Browser, origin: string, story: TempStory) => Promise<void>): Promise<void> {
  const story = createTempStory('narratoria-config-form-');
  const { server, origin } = await startServer();
  let browser: Browser | undefined;
  t.after(async () => {
    await browser?.close().catch(() => undefined);
    await closeServer(server);
    story.remove();
  });
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  await run(browser, origin, story);
}

/** Polls `condition` until it holds; the 60 s deadline is a safety net, not a timing assertion. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the form's debounced validation of the edits `edited` recognises has been answered and applied
 * (the form validates 250 ms after the last change, then the host answers). Deterministic: it waits for that
 * request and its answer, not for a time.
 */
async function validated(page: Page, host: FormHost, edited: (values: Record<string, unknown>) => boolean): Promise<void> {
  let requestId = 0;
  await until(() => {
    const request = host.posted.findLast((message) => message.type === 'validate' && edited(message.values as Record<string, unknown>));
    requestId = request?.type === 'validate' ? request.requestId : 0;
    return requestId > 0;
  }, 'the form validates the last edit');
  await page.waitForFunction((id) => (window as unknown as { __validated: number }).__validated >= id, requestId);
}

const field = (page: Page, key: string) => page.locator(`[data-testid="config-field"][data-key="${key}"]`);
const control = (page: Page, key: string) => page.locator(`[data-testid="config-control"][data-key="${key}"]`);
const error = (page: Page, key: string) => page.locator(`[data-testid="config-error"][data-key="${key}"]`);

test('the storyteller form: dropdowns, a masked stored secret, and Ctrl+S saves the values (secret to the store only)', {
  timeout: TEST_TIMEOUT_MS,
}, async (t) => {
  await withBrowser(t, async (browser, origin, story) => {
    const directory = path.join(story.root, 'skills', 'storyteller');
    cpSync(path.join(projectRoot, 'skills', 'storyteller'), directory, { recursive: true });
    writeFileSync(path.join(directory, 'config.json'), JSON.stringify({ style: 'poetic' }, null, 2));
    const store = new MemorySecretStore();
    store.values.set('storyteller.apiKey', STORED_SECRET);
    const host = await hostFor(story, 'storyteller', store);
    const { page, errors } = await openForm(browser, origin, host);

    await assert.doesNotReject(page.locator('[data-testid="config-form"]').waitFor());
    assert.deepEqual(await page.locator('.category-title').allTextContents(), ['Narration', 'Provider']);
    assert.deepEqual(
      await page
        .locator('[data-testid="config-field"]')
        .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-key'), row.getAttribute('data-control')])),
      [
        ['style', 'dropdown'],
        ['provider', 'dropdown'],
        ['apiKey', 'password'],
      ],
    );
    assert.equal(await control(page, 'style').evaluate((select) => (select as HTMLSelectElement).tagName), 'SELECT');
    assert.deepEqual(await control(page, 'style').locator('option').allTextContents(), ['terse', 'vivid', 'poetic']);
    assert.equal(await control(page, 'style').evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent), 'poetic');
    assert.equal(await field(page, 'style').getAttribute('data-modified'), 'true', 'config.json sets style');
    assert.equal(
      await control(page, 'provider').evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent),
      'template',
      'the default is shown',
    );
    assert.equal(await field(page, 'provider').getAttribute('data-modified'), 'false');
    // The secret: masked, empty, with the Secret Storage hint and Clear; its value is nowhere in the page.
    assert.equal(await control(page, 'apiKey').getAttribute('type'), 'password');
    assert.equal(await control(page, 'apiKey').inputValue(), '');
    assert.match(await field(page, 'apiKey').innerText(), /Stored in VS Code Secret Storage\./);
    assert.match(await field(page, 'apiKey').innerText(), /STORYTELLER_API_KEY/);
    assert.equal(await page.locator('[data-testid="config-clear-secret"][data-key="apiKey"]').isVisible(), true);
    assert.ok(!(await page.content()).includes(STORED_SECRET));
    // Accessible wiring: the title labels the control, the description describes it.
    const describedBy = (await control(page, 'style').getAttribute('aria-describedby')) ?? '';
    assert.match(await page.locator(`#${describedBy.split(' ')[0]!}`).innerText(), /^terse: one or two plain sentences/);
    await screenshot(page, 'config-form-dark');

    // Edit with the keyboard: pick "terse", type a new key, save with Ctrl+S.
    await control(page, 'style').focus();
    await control(page, 'style').selectOption({ label: 'terse' });
    await control(page, 'apiKey').fill('sk-new-0123456789');
    assert.equal(await page.locator('[data-testid="config-status"]').innerText(), 'Unsaved changes');
    await page.keyboard.press('Control+s');
    await page.locator('[data-testid="config-status"]', { hasText: 'Saved.' }).waitFor();
    const save = host.posted.find((message) => message.type === 'save');
    assert.deepEqual(save, { type: 'save', values: { style: 'terse', apiKey: 'sk-new-0123456789' }, clearSecrets: [] });
    assert.deepEqual(JSON.parse(readFileSync(path.join(directory, 'config.json'), 'utf8')), { style: 'terse' });
    assert.equal(store.values.get('storyteller.apiKey'), 'sk-new-0123456789');
    assert.equal(await control(page, 'apiKey').inputValue(), '', 'the form is redrawn from disk without the secret');

    // Clear, then Save: the stored key is deleted.
    await page.locator('[data-testid="config-clear-secret"][data-key="apiKey"]').click();
    assert.match(await field(page, 'apiKey').innerText(), /Will be removed from VS Code Secret Storage when you save\./);
    await page.locator('[data-testid="config-save"]').click();
    await page.locator('[data-testid="config-status"]', { hasText: 'Saved.' }).waitFor();
    assert.deepEqual(host.posted.filter((message) => message.type === 'save').at(-1), { type: 'save', values: { style: 'terse' }, clearSecrets: ['apiKey'] });
    assert.equal(store.values.has('storyteller.apiKey'), false);
    assert.match(await page.locator('.banner.info').innerText(), /Removed the stored "API key" from VS Code Secret Storage\./);

    await page.locator('[data-testid="config-cancel"]').click();
    // Deterministic: the message reaches the host through a Playwright binding, asynchronously; wait for it.
    await until(() => host.posted.at(-1)?.type === 'cancel', 'the host receives cancel');
    assert.deepEqual([...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)), ...errors], []);
  });
});

test('every control type, an inline error after a bad value (aria wired), Reset to Default and values kept as written', {
  timeout: TEST_TIMEOUT_MS,
}, async (t) => {
  await withBrowser(t, async (browser, origin, story) => {
    story.skill(
      'narrator-lab',
      { displayName: 'Narrator Lab' },
      {
        'config-schema.json': configSchema(
          {
            persona: { type: 'string', title: 'Persona', description: 'Who tells the story.', minLength: 3, 'x-category': 'Voice' },
            prelude: { type: 'string', title: 'Prelude', format: 'textarea', description: 'Read before the first turn.', 'x-category': 'Voice' },
            style: { type: 'string', title: 'Style', enum: ['terse', 'vivid'], default: 'vivid', 'x-category': 'Voice' },
            maxTokens: {
              type: 'integer',
              title: 'Max tokens',
              minimum: 1,
              maximum: 4096,
              default: 256,
              description: 'Upper bound of one narration.',
              'x-category': 'Limits',
            },
            temperature: { type: 'number', title: 'Temperature', minimum: 0, maximum: 2, default: 0.7, 'x-category': 'Limits' },
            seed: { type: 'integer', title: 'Seed', description: 'Fixed seed for reproducible runs.', 'x-env-var': 'LAB_SEED', 'x-category': 'Limits' },
            streaming: {
              type: 'boolean',
              title: 'Stream narration',
              description: 'Show the narration while it is written.',
              default: true,
              'x-category': 'Limits',
            },
            endpoint: { type: 'string', title: 'Endpoint', format: 'uri', 'x-category': 'Provider' },
            contact: { type: 'string', title: 'Contact', format: 'email', 'x-category': 'Provider' },
            factions: { type: 'array', title: 'Factions', items: { type: 'string', minLength: 1 }, default: ['Town Guard'], 'x-category': 'World' },
            moods: { type: 'array', title: 'Moods', items: { type: 'string', enum: ['calm', 'tense', 'eerie'] }, 'x-category': 'World' },
            rules: { type: 'array', title: 'Rules', items: { type: 'object' }, 'x-category': 'World' },
          },
          { title: 'Narrator Lab settings', description: 'A skill with one field of each kind.', required: ['persona'] },
        ),
        'config.json': { persona: 'The Chronicler', seed: '${LAB_SEED}', factions: ['Town Guard', 'Thieves Guild'], custom: 'kept' },
      },
    );
    const host = await hostFor(story, 'narrator-lab', new MemorySecretStore());
    const { page, errors } = await openForm(browser, origin, host, { width: 1100, height: 800 });

    const tagAndType = (key: string) => control(page, key).evaluate((element) => [element.tagName, element.getAttribute('type')]);
    assert.deepEqual(await tagAndType('persona'), ['INPUT', 'text']);
    assert.deepEqual(await tagAndType('prelude'), ['TEXTAREA', null]);
    assert.deepEqual(await tagAndType('style'), ['SELECT', null]);
    assert.deepEqual(await tagAndType('maxTokens'), ['INPUT', 'number']);
    assert.deepEqual(
      await control(page, 'maxTokens').evaluate((input) => [
        input.getAttribute('min'),
        input.getAttribute('max'),
        input.getAttribute('step'),
        (input as HTMLInputElement).placeholder,
      ]),
      ['1', '4096', '1', '256'],
    );
    assert.equal(await control(page, 'temperature').getAttribute('step'), 'any');
    assert.deepEqual(await tagAndType('streaming'), ['INPUT', 'checkbox']);
    assert.equal(await control(page, 'streaming').isChecked(), true);
    assert.deepEqual(await tagAndType('endpoint'), ['INPUT', 'url']);
    assert.deepEqual(await tagAndType('contact'), ['INPUT', 'email']);
    assert.deepEqual(await tagAndType('rules'), ['TEXTAREA', null]);
    assert.deepEqual(
      await control(page, 'factions')
        .locator('input')
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
      ['Town Guard', 'Thieves Guild'],
    );
    // seed is written as ${LAB_SEED}: shown as written, with Replace Value, never turned into a number.
    assert.equal(await control(page, 'seed').innerText(), '${LAB_SEED}');
    assert.match(await field(page, 'seed').innerText(), /Read from \$LAB_SEED when the skill loads\./);
    assert.match(await page.locator('.banner.warning').innerText(), /config\.json sets unknown field "custom".*the form keeps it as it is\./);

    // A bad value: the error appears under the field, the control is aria-invalid and described by it.
    await control(page, 'maxTokens').fill('5000');
    await error(page, 'maxTokens').waitFor();
    assert.equal(await error(page, 'maxTokens').innerText(), 'Must be between 1 and 4096, but is 5000.');
    assert.equal(await control(page, 'maxTokens').getAttribute('aria-invalid'), 'true');
    const errorId = await error(page, 'maxTokens').getAttribute('id');
    assert.ok((await control(page, 'maxTokens').getAttribute('aria-describedby'))?.split(' ').includes(errorId!));
    await control(page, 'persona').fill('Al');
    await error(page, 'persona').waitFor();
    assert.equal(await error(page, 'persona').innerText(), 'Must be at least 3 characters long, but is 2 characters long.');
    await control(page, 'factions').locator('.list-add').click();
    await page.keyboard.type('Mages Circle');
    await control(page, 'moods').locator('.list-add').click();
    await control(page, 'moods').locator('select').selectOption({ label: 'eerie' });
    await control(page, 'rules').fill('[{"when": "night"}]');
    // The screenshot shows the form once its validation of these edits is back (was a fixed 400 ms sleep).
    await validated(page, host, (values) => {
      const text = JSON.stringify(values);
      return text.includes('Mages Circle') && text.includes('eerie') && text.includes('night');
    });
    await screenshot(page, 'config-form-dark-controls', true);

    // Saving with errors is refused by the extension, which names the first one.
    await page.locator('[data-testid="config-save"]').click();
    await page.locator('[data-testid="config-status"]', { hasText: 'Nothing was saved' }).waitFor();
    assert.equal(
      await page.locator('[data-testid="config-status"]').innerText(),
      'Nothing was saved: "Persona": Must be at least 3 characters long, but is 2 characters long. (and 1 more)',
    );
    // Fix both (maxTokens by Reset to Default, from the keyboard), then save.
    await control(page, 'persona').fill('The Archivist');
    await field(page, 'maxTokens').hover();
    await page.locator('[data-testid="config-reset"][data-key="maxTokens"]').focus();
    await page.keyboard.press('Enter');
    assert.equal(await control(page, 'maxTokens').inputValue(), '256', 'the default is shown again');
    assert.equal(await field(page, 'maxTokens').getAttribute('data-modified'), 'false');
    await error(page, 'maxTokens').waitFor({ state: 'detached' });
    await error(page, 'persona').waitFor({ state: 'detached' });
    await control(page, 'streaming').uncheck();
    await page.locator('[data-testid="config-save"]').click();
    await page.locator('[data-testid="config-status"]', { hasText: 'Saved.' }).waitFor();
    assert.deepEqual(JSON.parse(readFileSync(path.join(host.skill.directory, 'config.json'), 'utf8')), {
      persona: 'The Archivist',
      seed: '${LAB_SEED}',
      factions: ['Town Guard', 'Thieves Guild', 'Mages Circle'],
      custom: 'kept',
      streaming: false,
      moods: ['eerie'],
      rules: [{ when: 'night' }],
    });
    assert.deepEqual([...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)), ...errors], []);
  });
});
