/** Where capiform's machine-local caches live: the content-addressed downloads, rendered components and trees. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$CAPIFORM_CACHE_DIR`, else `$XDG_CACHE_HOME/capiform`, else `~/.cache/capiform`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CAPIFORM_CACHE_DIR && env.CAPIFORM_CACHE_DIR.trim() !== '') return env.CAPIFORM_CACHE_DIR;
  if (env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.trim() !== '') return join(env.XDG_CACHE_HOME, 'capiform');
  return join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.cache', 'capiform');
}
