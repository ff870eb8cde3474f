/**
 * clusterctl's overrides layer (`client/repository/overrides.go`): before reading components, metadata.yaml,
 * cluster templates or ClusterClass templates from a repository, clusterctl looks for
 * `<base>/<ManifestLabel>/<version>/<file>` and uses it when it exists. Version lists still come from the repository.
 *
 * `<base>` = `$XDG_CONFIG_HOME/cluster-api/overrides` (or the legacy `$HOME/.cluster-api/overrides` when only that one
 * exists), replaced by the `overridesFolder` variable when it is non-blank (after envsubst with the OS environment).
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { evalWithEnvOrThrow, homeDir, xdgConfigHome, type Env } from '../config/index.js';
import { ResolutionError } from '../errors.js';
import { manifestLabel } from '../capi/index.js';
import type { ProviderRepository } from './repository.js';

export interface OverridesOptions {
  /** The `overridesFolder` variable as read from the clusterctl config (before envsubst); blank = unset. */
  overridesFolder?: string;
  env: Env;
}

/** The default overrides folder (XDG, with the legacy `$HOME/.cluster-api/overrides` fallback). */
export function defaultOverridesFolder(env: Env): string {
  const xdg = join(xdgConfigHome(env), 'cluster-api', 'overrides');
  const legacy = join(homeDir(env), '.cluster-api', 'overrides');
  if (!existsSync(xdg) && existsSync(legacy)) return legacy;
  return xdg;
}

/** The base folder overrides are read from. */
export function overridesBase(opts: OverridesOptions): string {
  const f = opts.overridesFolder;
  if (f !== undefined && f.trim() !== '') return evalWithEnvOrThrow(f, opts.env, 'unable to evaluate overridesFolder');
  return defaultOverridesFolder(opts.env);
}

/** `overrides.Path()`: `<base>/<ManifestLabel>/<version>/<file>`. */
export function overridePath(
  provider: { name: string; type: string } | string,
  version: string,
  file: string,
  opts: OverridesOptions,
): string {
  const label = typeof provider === 'string' ? provider : manifestLabel(provider.name, provider.type);
  return join(overridesBase(opts), label, version, file);
}

/** `getLocalOverride`: the override's bytes, null when there is none; other stat/read errors are fatal. */
export async function readOverride(
  provider: { name: string; type: string } | string,
  version: string,
  file: string,
  opts: OverridesOptions,
): Promise<Uint8Array | null> {
  const path = overridePath(provider, version, file, opts);
  const label = typeof provider === 'string' ? provider : manifestLabel(provider.name, provider.type);
  try {
    await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ResolutionError(`stat ${path}: ${(err as Error).message}`, { where: path, cause: err });
  }
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    throw new ResolutionError(`failed to read local override for ${label}: ${(err as Error).message}`, {
      where: path,
      hint: 'check the permissions of the overrides folder',
      cause: err,
    });
  }
}

/**
 * A repository whose file reads look in the overrides folder first (components, metadata, templates,
 * ClusterClasses). `listVersions` and `latest` resolution use the wrapped repository only, as in clusterctl.
 */
export class OverriddenRepository implements ProviderRepository {
  readonly inner: ProviderRepository;
  private readonly provider: { name: string; type: string } | string;
  private readonly opts: OverridesOptions;

  constructor(inner: ProviderRepository, provider: { name: string; type: string } | string, opts: OverridesOptions) {
    this.inner = inner;
    this.provider = provider;
    this.opts = opts;
  }

  get kind() {
    return this.inner.kind;
  }
  get url() {
    return this.inner.url;
  }
  get componentsFile() {
    return this.inner.componentsFile;
  }
  get defaultVersion() {
    return this.inner.defaultVersion;
  }
  get rootPath() {
    return this.inner.rootPath;
  }

  listVersions(): Promise<string[]> {
    return this.inner.listVersions();
  }

  get listVersionPage(): ProviderRepository['listVersionPage'] {
    return this.inner.listVersionPage?.bind(this.inner);
  }

  private version(v: string): string {
    return v === '' ? this.inner.defaultVersion : v;
  }

  async getFile(version: string, file: string): Promise<Uint8Array | null> {
    const o = await readOverride(this.provider, this.version(version), file, this.opts);
    return o ?? this.inner.getFile(version, file);
  }

  /** The override path when an override exists, else the repository location. */
  fileLocation(version: string, file: string): string {
    const p = overridePath(this.provider, this.version(version), file, this.opts);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // no override
    }
    return this.inner.fileLocation(version, file);
  }

  listFiles(version: string): Promise<string[] | null> {
    return this.inner.listFiles ? this.inner.listFiles(version) : Promise.resolve(null);
  }
}

/** Wraps `repo` with the overrides layer for `provider`. */
export function withOverrides(
  repo: ProviderRepository,
  provider: { name: string; type: string } | string,
  opts: OverridesOptions,
): ProviderRepository {
  return new OverriddenRepository(repo, provider, opts);
}
