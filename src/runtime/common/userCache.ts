// The user's cache folder for Narratoria (models, compiled code): `$XDG_CACHE_HOME/narratoria`, else `~/.cache/narratoria`.
import * as os from 'node:os';
import * as path from 'node:path';

/** `$XDG_CACHE_HOME/narratoria` when that is an absolute path, else `~/.cache/narratoria`. */
export function narratoriaCacheHome(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env['XDG_CACHE_HOME'] && path.isAbsolute(env['XDG_CACHE_HOME']) ? env['XDG_CACHE_HOME'] : path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'narratoria');
}
