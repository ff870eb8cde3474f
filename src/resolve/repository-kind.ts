/**
 * Which repository implementation a provider URL selects in capi.config, in one place (config resolution, the
 * pipeline's repository factory, bundles). An explicit `type:` in the config always wins; without one:
 * - `https://github.com/…` → GitHub; `https://gitlab.<…>/api/v4/projects/…` → GitLab (clusterctl's detection);
 * - any other `http(s)://` URL → a plain HTTPS mirror (whose parser refuses plain http except on loopback hosts);
 * - `oci://<registry>/<repository>[:tag]` → an OCI registry (release files as titled layers, as `oras push` writes them);
 * - a path or `file://` → a local folder; any other `<scheme>://` is a config error naming the schemes read here.
 * clusterctl's own factory (`repositoryKindFor` in factory.ts, for `generate`) keeps clusterctl's stricter rules.
 */
import { ConfigError } from '../errors.js';
import type { RepositoryKind } from './repository.js';

/** The URL schemes a provider `url` may have; anything without `<scheme>://` is a local path. */
export const repositorySchemes = ['https', 'http', 'oci', 'file'] as const;

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

/**
 * The kind for a config entry: its explicit `type`, else what the URL says. A `<scheme>://` capiform does not read
 * (`s3://`, `git://`, a typo such as `htps://`) is refused here: taken for a local path it would fail much later as
 * a folder that does not exist. `where` is the config path of the url.
 */
export function repositoryKindOf(url: string, explicit: RepositoryKind | undefined, where?: string): RepositoryKind {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && !(repositorySchemes as readonly string[]).includes(scheme)) {
    throw new ConfigError(`unsupported repository url scheme "${scheme}://" in ${JSON.stringify(url)}`, {
      ...(where ? { where } : {}),
      hint:
        'capiform reads https:// (GitHub releases, GitLab packages, HTTPS mirrors), http:// on a loopback host, ' +
        'oci://<registry>/<repository>[:tag] (OCI registries), file:// and plain paths (local repositories)',
    });
  }
  if (explicit) return explicit;
  if (scheme === 'oci') return 'oci';
  return isRemoteUrl(url) ? remoteKindOf(url) : 'local';
}
