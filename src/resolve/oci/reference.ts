/**
 * `oci://<registry>/<repository>[:tag]`: where an OCI provider repository lives. The registry is spoken to over
 * https; plain http only for a loopback registry (127.0.0.1, ::1, localhost), which docker also treats as insecure
 * by default. Names follow the distribution grammar, so a URL that no registry could serve fails here, as a config
 * error, rather than as a 404 later.
 */
import { ConfigError } from '../../errors.js';
import { isLoopbackHost } from '../repository-kind.js';

export interface OciReference {
  /** `ghcr.io`, `127.0.0.1:5000`, `[::1]:5000`. */
  readonly registry: string;
  /** `kubernetes-sigs/cluster-api`. */
  readonly repository: string;
  /** The tag in the URL, if any: the repository then offers that one version. */
  readonly tag: string | undefined;
  /** `https://<registry>` or, for a loopback registry, `http://<registry>`. */
  readonly base: string;
}

const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const repositoryPattern = new RegExp(`^${component}(?:/${component})*$`);
const tagPattern = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const registryPattern = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const form = 'oci://<registry>/<repository>[:tag], e.g. oci://ghcr.io/my-org/cluster-api or oci://127.0.0.1:5000/capi/cluster-api:v1.12.4';

export function parseOciUrl(url: string, where?: string): OciReference {
  const bad = (why: string): ConfigError =>
    new ConfigError(`invalid OCI repository url ${JSON.stringify(url)}: ${why}`, { ...(where ? { where } : {}), hint: `write it as ${form}` });
  const m = /^oci:\/\/([^/]*)\/(.*)$/i.exec(url);
  if (!m) throw bad('it needs a registry and a repository');
  const registry = m[1]!;
  let rest = m[2]!;
  if (registry.includes('@')) throw bad('credentials do not belong in the url (use OCI_USERNAME/OCI_PASSWORD or docker login)');
  if (!registryPattern.test(registry)) throw bad(`${JSON.stringify(registry)} is not a registry host[:port]`);
  if (rest.includes('@')) throw bad('a digest reference (@sha256:…) is not supported; name a tag, capi.lock.yaml pins its digest');
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon >= 0) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagPattern.test(tag)) throw bad(`${JSON.stringify(tag)} is not a tag`);
  }
  if (!repositoryPattern.test(rest)) {
    throw bad(`${JSON.stringify(rest)} is not a repository name (lowercase letters, digits and . _ - separators, parts joined by /)`);
  }
  const scheme = isLoopbackHost(registry) ? 'http' : 'https';
  return { registry, repository: rest, tag, base: `${scheme}://${registry}` };
}

/** `oci://<registry>/<repository>:<tag>`, the way errors and the lock name one release. */
export function ociReleaseUrl(ref: OciReference, tag: string): string {
  return `oci://${ref.registry}/${ref.repository}:${tag}`;
}
