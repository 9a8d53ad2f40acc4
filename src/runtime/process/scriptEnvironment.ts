// Builds the minimal environment a skill script gets: a short allowlist of the host's variables, never its secrets.

/** Host variables passed through (everything else, tokens and keys included, is withheld). */
export const PASSED_THROUGH_VARIABLES = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP',
  'SYSTEMROOT', 'SystemRoot', 'COMSPEC', 'PATHEXT', 'WINDIR', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA',
] as const;

/** Context a script receives through NARRATORIA_* variables. */
export interface ScriptContext {
  readonly root: string;
  readonly skillDirectory?: string | undefined;
  readonly skillDataDirectory?: string | undefined;
  readonly skillConfigJson?: string | undefined;
  readonly toolId?: string | undefined;
  readonly requestId?: string | undefined;
}

/** The environment for one script run: allowlisted host variables + Narratoria context + explicit extras. */
export function buildScriptEnvironment(
  context: ScriptContext,
  extra: Readonly<Record<string, string>> = {},
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH_VARIABLES) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  env['NARRATORIA_PROTOCOL_VERSION'] = '0';
  env['NARRATORIA_ROOT'] = context.root;
  if (context.skillDirectory) env['NARRATORIA_SKILL_DIR'] = context.skillDirectory;
  if (context.skillDataDirectory) env['NARRATORIA_SKILL_DATA'] = context.skillDataDirectory;
  if (context.skillConfigJson) env['NARRATORIA_SKILL_CONFIG'] = context.skillConfigJson;
  if (context.toolId) env['NARRATORIA_TOOL_ID'] = context.toolId;
  if (context.requestId) env['NARRATORIA_REQUEST_ID'] = context.requestId;
  return { ...env, ...extra };
}
