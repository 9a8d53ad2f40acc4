// Builds the minimal environment a skill script gets: a short allowlist of the host's variables, never its secrets.
import { existsSync } from 'node:fs';
import { vectorsFile } from '../narrator/selection/relatedness/vectors.js';

/** Host variables passed through (everything else, tokens and keys included, is withheld). */
export const PASSED_THROUGH_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'SystemRoot',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  // Network settings a script needs behind a corporate proxy or with a private certificate authority.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
] as const;

/** The allowlisted host variables, read once (process.env lookups are slow native calls). */
export function snapshotHostEnvironment(host: NodeJS.ProcessEnv = process.env): Readonly<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const name of PASSED_THROUGH_VARIABLES) {
    const value = host[name];
    if (value !== undefined) snapshot[name] = value;
  }
  return snapshot;
}

let bundledWordVectors: string | null | undefined;

/** The runtime's word vectors file (NARRATORIA_WORD_VECTORS: the memory skill ranks by meaning with it); undefined when this build has none. Looked up once. */
export function wordVectorsFile(): string | undefined {
  if (bundledWordVectors === undefined) {
    try {
      const file = vectorsFile();
      bundledWordVectors = existsSync(file) ? file : null;
    } catch {
      // A bundle without the data file, and no source beside it either.
      bundledWordVectors = null;
    }
  }
  return bundledWordVectors ?? undefined;
}

/** Context a script receives through NARRATORIA_* variables. */
export interface ScriptContext {
  readonly root: string;
  readonly skillDirectory?: string | undefined;
  readonly skillDataDirectory?: string | undefined;
  /** NARRATORIA_SKILL_SHARED: the skill's data shared by every session (created by the script when it needs it). */
  readonly skillSharedDirectory?: string | undefined;
  /** NARRATORIA_SESSION_ID: the play-through the script serves. */
  readonly sessionId?: string | undefined;
  readonly skillConfigJson?: string | undefined;
  readonly toolId?: string | undefined;
  readonly requestId?: string | undefined;
}

/** The environment for one script run: allowlisted host variables (a snapshot) + Narratoria context + explicit extras. */
export function buildScriptEnvironment(
  context: ScriptContext,
  extra?: Readonly<Record<string, string>>,
  host: Readonly<Record<string, string>> = snapshotHostEnvironment(),
): Record<string, string> {
  // Built key by key: object spreads here cost ~20× more, once per tool run (bench b2).
  const env: Record<string, string> = {};
  for (const name in host) env[name] = host[name]!;
  env['NARRATORIA_PROTOCOL_VERSION'] = '0';
  env['NARRATORIA_ROOT'] = context.root;
  if (context.skillDirectory) env['NARRATORIA_SKILL_DIR'] = context.skillDirectory;
  if (context.skillDataDirectory) env['NARRATORIA_SKILL_DATA'] = context.skillDataDirectory;
  if (context.skillSharedDirectory) env['NARRATORIA_SKILL_SHARED'] = context.skillSharedDirectory;
  if (context.sessionId) env['NARRATORIA_SESSION_ID'] = context.sessionId;
  if (context.skillConfigJson) env['NARRATORIA_SKILL_CONFIG'] = context.skillConfigJson;
  if (context.toolId) env['NARRATORIA_TOOL_ID'] = context.toolId;
  if (context.requestId) env['NARRATORIA_REQUEST_ID'] = context.requestId;
  const wordVectors = wordVectorsFile();
  if (wordVectors) env['NARRATORIA_WORD_VECTORS'] = wordVectors;
  if (extra) for (const name in extra) env[name] = extra[name]!;
  return env;
}
