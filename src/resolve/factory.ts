/**
 * `repositoryFactory` (`client/repository/client.go`): picks the repository implementation from the provider URL.
 * - https + host exactly `github.com` → GitHub;
 * - https + host starting `gitlab.` + escaped path starting `/api/v4/projects/` → GitLab;
 * - any other https → error; scheme `file` or none → local; anything else (including http) → error.
 * Construction resolves `latest` (GitHub and local).
 */
import { CapiformError, ConfigError } from '../errors.js';
import type { HttpClient, ProgressListener } from './http/client.js';
import { latestContractRelease } from './versions.js';
import type { ProviderConfig } from './catalog.js';
import { checkProviderContract, readMetadata, type Metadata, type ReleaseSeries } from './metadata.js';
import { withOverrides } from './overrides.js';
import { parseProviderName } from './provider-name.js';
import { manifestLabel } from '../capi/index.js';
import { getProvider, type UserProvider } from './providers.js';
import { escapedPath, parseGoUrl, type GoUrl, goQuote } from '../go/index.js';
import { LocalRepository } from './local/local-repository.js';
import type { ProviderRepository } from './repository.js';

export interface RepositoryProvider {
  name: string;
  type: string;
  url: string;
}

export interface RepositoryOptions {
  /** Variables (tokens such as `github-token`, `gitlab-access-token`); used by remote repositories. */
  get?: (name: string) => string | undefined;
  /** OS environment (GOPROXY etc.), for remote repositories. */
  env?: Record<string, string | undefined>;
  /**
   * The run's HTTP layer for remote repositories (cache, offline mode, progress, request counts); pass the same client
   * for every repository of a run so they share release listings. Default: a client for this repository alone, on
   * the cache dir from `env` (`$CAPIFORM_CACHE_DIR`, XDG).
   */
  http?: HttpClient;
  /** Download progress, for a client built here (ignored when `http` is given). */
  onProgress?: ProgressListener | undefined;
  /** `--offline`, for a client built here: answer from the cache only (ignored when `http` is given). */
  offline?: boolean;
}

/** The contract clusterctl resolves `latest` against (`clusterv1.GroupVersion.Version`). */
const currentContract = 'v1beta2';

export type RepositoryKindFor = 'github' | 'gitlab' | 'local';

/** Which implementation a URL selects; throws ConfigError with clusterctl's messages for unsupported URLs. */
export function repositoryKindFor(url: string): { kind: RepositoryKindFor; parsed: GoUrl } {
  let parsed: GoUrl;
  try {
    parsed = parseGoUrl(url);
  } catch {
    throw new ConfigError(`failed to parse repository url ${goQuote(url)}`, {
      hint: 'use an https://github.com/... release URL, a GitLab package URL, or an absolute local path',
    });
  }
  if (parsed.scheme === 'https') {
    if (parsed.host === 'github.com') return { kind: 'github', parsed };
    if (parsed.host.startsWith('gitlab.') && escapedPath(parsed).startsWith('/api/v4/projects/')) {
      return { kind: 'gitlab', parsed };
    }
    throw new ConfigError(`invalid provider url. Only GitHub and GitLab are supported for ${goQuote(parsed.scheme)} schema`, {
      hint: 'point the provider at https://github.com/<owner>/<repo>/releases/..., a GitLab package URL, or a local path',
    });
  }
  if (parsed.scheme === 'file' || parsed.scheme === '') return { kind: 'local', parsed };
  throw new ConfigError(`invalid provider url. there are no provider implementation for ${goQuote(parsed.scheme)} schema`, {
    hint: 'use https://github.com/..., a GitLab package URL, or an absolute local path',
  });
}

function prefixed<T extends CapiformError>(err: T, prefix: string): T {
  err.message = `${prefix}: ${err.message}`;
  return err;
}

/**
 * Builds the repository for a provider (`{ name, type, url }` from `getProvider`). Local repositories resolve
 * `latest` here. Errors carry clusterctl's wrapping (`error creating the local filesystem repository client: …`).
 */
export async function createRepository(
  provider: RepositoryProvider,
  opts: RepositoryOptions = {},
): Promise<ProviderRepository> {
  const { kind } = repositoryKindFor(provider.url);
  switch (kind) {
    case 'local':
      try {
        return await LocalRepository.create(provider);
      } catch (err) {
        if (err instanceof CapiformError) throw prefixed(err, 'error creating the local filesystem repository client');
        throw err;
      }
    case 'github':
    case 'gitlab': {
      const env = (opts.env ?? {}) as NodeJS.ProcessEnv;
      const label = kind === 'github' ? 'GitHub' : 'GitLab';
      // Loaded on demand: local repositories (and `generate` on them) must not pay for octokit and zod.
      const { createRemoteRepository, httpClientFor } = await import('./remote/index.js');
      try {
        const repo = createRemoteRepository(kind, provider.url, {
          http: opts.http ?? httpClientFor(env, { onProgress: opts.onProgress, offline: opts.offline ?? false }),
          env,
          variables: opts.get,
        });
        // clusterctl resolves `latest` when it builds a GitHub repository (GitLab has no `latest`).
        if (kind === 'github' && repo.defaultVersion === 'latest') {
          try {
            (repo as { defaultVersion: string }).defaultVersion = await latestContractRelease(repo, currentContract);
          } catch (err) {
            if (err instanceof Error) err.message = `failed to get latest release: ${err.message}`;
            throw err;
          }
        }
        return repo;
      } catch (err) {
        if (err instanceof CapiformError) throw prefixed(err, `error creating the ${label} repository client`);
        throw err;
      }
    }
  }
}

/** What `resolveProviderRelease` needs from clusterctl's configuration (a `ClusterctlConfig` fits). */
export interface ProviderResolutionConfig {
  /** User `providers:` entries (URLs already expanded). */
  providers: readonly UserProvider[];
  /** The `overridesFolder` variable (blank/undefined = default folder). */
  overridesFolder?: string;
  env: Record<string, string | undefined>;
  get?: (name: string) => string | undefined;
}

export interface ResolvedProviderRelease {
  provider: ProviderConfig;
  /** ManifestLabel, e.g. `infrastructure-aws`. */
  label: string;
  /** The version to use: the one asked for, or the repository's default (`latest` already resolved). */
  version: string;
  /** The repository behind the overrides layer (reads look in the overrides folder first). */
  repository: ProviderRepository;
  metadata: Metadata;
  releaseSeries: ReleaseSeries;
}

/**
 * `generate provider` steps 1–6 (spec §0): parse `name[:version]`, find the provider (built-in or clusterctl.yaml),
 * build its repository (resolving `latest`), default the version, read metadata.yaml through the overrides layer,
 * and check the version's release series and contract. Errors are clusterctl's.
 */
export async function resolveProviderRelease(
  nameAndVersion: string,
  type: string,
  config: ProviderResolutionConfig,
): Promise<ResolvedProviderRelease> {
  const { name, version: asked } = parseProviderName(nameAndVersion);
  const provider = getProvider(name, type, config.providers);
  const inner = await createRepository(provider, { get: config.get, env: config.env });
  const version = asked === '' ? inner.defaultVersion : asked;
  const repository = withOverrides(inner, provider, { overridesFolder: config.overridesFolder, env: config.env });
  const metadata = await readMetadata(repository, version, provider);
  const releaseSeries = checkProviderContract(metadata, version, name);
  return { provider, label: manifestLabel(provider.name, provider.type), version, repository, metadata, releaseSeries };
}
