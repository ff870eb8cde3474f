/**
 * Which repository implementation a provider URL selects in capi.config, in one place (config resolution, the
 * pipeline's repository factory, bundles). An explicit `type:` in the config always wins; without one:
 * - `https://github.com/…` → GitHub; `https://gitlab.<…>/api/v4/projects/…` → GitLab (clusterctl's detection);
 * - any other `http(s)://` URL → a plain HTTPS mirror (whose parser refuses plain http except on loopback hosts);
 * - anything else (a path, `file://`) → a local folder.
 * clusterctl's own factory (`repositoryKindFor` in factory.ts, for `generate`) keeps clusterctl's stricter rules.
 */
import type { RepositoryKind } from './repository.js';

/** Where plain `http://` is acceptable: the same machine (a local mirror, a test server); never for tokens in transit. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The remote kind clusterctl's factory would pick for an http(s) URL, else `https` (capiform's mirrors). */
export function remoteKindOf(url: string): Exclude<RepositoryKind, 'local'> {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' && u.host === 'github.com') return 'github';
    if (u.protocol === 'https:' && u.host.startsWith('gitlab.') && u.pathname.startsWith('/api/v4/projects/')) return 'gitlab';
  } catch {
    // fall through: the repository's own parser reports the error
  }
  return 'https';
}

export function isRemoteUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** The kind for a config entry: its explicit `type`, else what the URL says. */
export function repositoryKindOf(url: string, explicit: RepositoryKind | undefined): RepositoryKind {
  if (explicit) return explicit;
  return isRemoteUrl(url) ? remoteKindOf(url) : 'local';
}
