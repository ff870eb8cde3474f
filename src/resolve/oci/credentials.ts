/**
 * Who capiform is to an OCI registry. In order: cluster-api-operator's variables (`OCI_USERNAME`/`OCI_PASSWORD`,
 * `OCI_ACCESS_TOKEN`, as the operator's `OCIAuthentication` reads them), then docker's `config.json`
 * (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`: `auths.<registry>.auth`, base64 `user:password`, as
 * `docker login` writes it). Credential helpers (`credsStore`) are not run: capiform starts no programs.
 * Credentials are held here and in request headers only; the HTTP layer masks them in every message.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface OciCredentials {
  readonly username?: string;
  readonly password?: string;
  /** Sent as the registry's bearer token as it is (oras `Credential.AccessToken`). */
  readonly accessToken?: string;
  /** Where they came from, for messages: `OCI_USERNAME/OCI_PASSWORD`, `/home/me/.docker/config.json`. */
  readonly source: string;
}

const maxDockerConfigBytes = 1024 * 1024;

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v !== '' ? v : undefined;
}

/** The docker config file `env` points at, whether or not it exists. */
export function dockerConfigPath(env: Record<string, string | undefined>): string | undefined {
  const dir = nonEmpty(env.DOCKER_CONFIG);
  if (dir) return join(dir, 'config.json');
  const home = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE);
  return home ? join(home, '.docker', 'config.json') : undefined;
}

/** The key of `auths` that names `registry`: `host`, `https://host`, `http://host`, with or without a path. */
function matchesRegistry(key: string, registry: string): boolean {
  const host = key.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  return host.toLowerCase() === registry.toLowerCase();
}

function fromDockerConfig(path: string, registry: string): OciCredentials | undefined {
  let text: string;
  try {
    if (statSync(path).size > maxDockerConfigBytes) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let auths: unknown;
  try {
    auths = (JSON.parse(text) as { auths?: unknown }).auths;
  } catch {
    // An unreadable docker config gives no credentials, as docker's own fallback to anonymous pulls does.
    return undefined;
  }
  if (auths === null || typeof auths !== 'object') return undefined;
  for (const [key, entry] of Object.entries(auths as Record<string, unknown>)) {
    if (!matchesRegistry(key, registry) || entry === null || typeof entry !== 'object') continue;
    const e = entry as { auth?: unknown; username?: unknown; password?: unknown; identitytoken?: unknown };
    if (typeof e.auth === 'string' && e.auth !== '') {
      const decoded = Buffer.from(e.auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), source: path };
    }
    if (typeof e.username === 'string' && typeof e.password === 'string') return { username: e.username, password: e.password, source: path };
  }
  return undefined;
}

export function ociCredentials(registry: string, env: Record<string, string | undefined>): OciCredentials | undefined {
  const username = nonEmpty(env.OCI_USERNAME);
  const password = nonEmpty(env.OCI_PASSWORD);
  const accessToken = nonEmpty(env.OCI_ACCESS_TOKEN);
  if (username || password || accessToken) {
    return {
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(accessToken ? { accessToken } : {}),
      source: accessToken && !username ? 'OCI_ACCESS_TOKEN' : 'OCI_USERNAME/OCI_PASSWORD',
    };
  }
  const path = dockerConfigPath(env);
  return path ? fromDockerConfig(path, registry) : undefined;
}
