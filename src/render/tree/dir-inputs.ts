/**
 * What each directory of the tree is a function of: one explicit record per directory kind. A render step reads
 * nothing that is not in its record (the release file by its digest, the values of the variables the file uses, the
 * settings that reach it), so the record is also the directory's cache key: the pipeline digests the whole record
 * (src/pipeline/tree/dir-key.ts) together with capiform's version and code, and a field added here is covered by the
 * key without anyone listing it. The render layer builds records and never hashes or stores them.
 */
import type { ResolvedCluster, ResolvedConfig, ResolvedProvider } from '../../config/index.js';
import type { ImageOverrides } from '../components/index.js';
import { renderedValues, valuesOf } from '../lookups.js';
import type { TreeFile } from './tree-file.js';

/** `providers/<label>`: the components file and the provider's settings, with the values its variables get. */
export interface ProviderDirInputs {
  kind: 'provider';
  version: string;
  /** sha256 of the components file. */
  raw: string;
  file: string;
  provider: Omit<ResolvedProvider, 'variables'> & { variables: Record<string, string | null> };
  images: ResolvedConfig['images'];
  secrets: ResolvedConfig['secrets'];
  output?: 'operator';
}

/** `providers/cert-manager`: the release's `cert-manager.yaml` and the image overrides. */
export interface CertManagerDirInputs {
  kind: 'cert-manager';
  version: string;
  /** sha256 of `cert-manager.yaml`. */
  raw: string;
  images: ResolvedConfig['images'];
}

/** `clusters/<namespace>/<name>`: the template, the cluster's settings and the values of the variables it uses. */
export interface ClusterDirInputs {
  kind: 'cluster';
  /** The cluster's settings; its variables count only through `values`. */
  cluster: Omit<ResolvedCluster, 'variables'> & { variables?: undefined };
  /** sha256 of the template file. */
  template: string;
  file: string;
  version: string;
  label: string;
  /** The value each variable the template uses gets (null: unset); credentials are markers, never values. */
  values: Record<string, string | null>;
  secrets: ResolvedConfig['secrets'];
  argocd: boolean;
  images: ImageOverrides;
}

/** `clusterclasses/<namespace>/<name>`: the class file and the values of the variables it uses. */
export interface ClassDirInputs {
  kind: 'clusterclass';
  /** `namespace/name`. */
  key: string;
  /** sha256 of the class file. */
  raw: string;
  secrets: ResolvedConfig['secrets'];
  templates: ResolvedConfig['templates'];
  values: Record<string, string | null>;
}

export type DirInputs = ProviderDirInputs | CertManagerDirInputs | ClusterDirInputs | ClassDirInputs;

/**
 * The memo the pipeline hands a render: a directory's files by its inputs record, and what the render produced
 * recorded under it. The render layer only asks and tells; reading and writing the cache and the tree is the
 * pipeline's (src/pipeline/tree/tree-cache.ts).
 */
export interface TreeMemo {
  /** The cache key of a record (equal records, equal keys; any field that differs, a different key). */
  key(inputs: DirInputs): string;
  /** The directory's files when it was rendered from `key` and they are intact; else null. */
  reuse(dir: string, key: string): { files: TreeFile[]; extra: unknown } | null;
  /** Remembers what `dir` rendered to from `key`; `keep`: its contents are kept too (expensive directories). */
  record(dir: string, key: string, files: readonly TreeFile[], extra?: unknown, keep?: boolean): void;
  /** Records nothing for `dir` in this run (its files were changed by something its record does not cover). */
  forget(dir: string): void;
  /** Tree paths whose bytes on disk are what this run produces (the writer neither compares nor rewrites them). */
  readonly verified: Set<string>;
  /** The text of a reused file (reused files carry no content when the tree on disk holds them). */
  read(path: string): string;
}

/** The record of `providers/<label>`. */
export function providerDirInputs(config: ResolvedConfig, p: ResolvedProvider, version: string, rawSha: string, file: string): ProviderDirInputs {
  return {
    kind: 'provider',
    version,
    raw: rawSha,
    file,
    provider: { ...p, variables: renderedValues(config, [p.variables, config.variables]) },
    images: config.images,
    secrets: config.secrets,
    ...(config.output === 'operator' ? { output: 'operator' as const } : {}),
  };
}

/** The record of `providers/cert-manager`. */
export function certManagerDirInputs(config: ResolvedConfig, version: string, rawSha: string): CertManagerDirInputs {
  return { kind: 'cert-manager', version, raw: rawSha, images: config.images };
}

/**
 * The record of a cluster directory. `used`: the variables the template uses; `lookup`: their values as the template
 * sees them (cluster's, global, cluster settings), so a variable the template does not use cannot change it.
 */
export function clusterDirInputs(
  config: ResolvedConfig,
  c: ResolvedCluster,
  t: { sha: string; file: string; version: string; label: string; used: readonly string[]; lookup: (name: string) => string | undefined; images: ImageOverrides },
): ClusterDirInputs {
  return {
    kind: 'cluster',
    cluster: { ...c, variables: undefined },
    template: t.sha,
    file: t.file,
    version: t.version,
    label: t.label,
    values: valuesOf(t.used, t.lookup),
    secrets: config.secrets,
    argocd: Boolean(config.argocd),
    images: t.images,
  };
}

/** The record of a ClusterClass directory, with the values the cluster that brings it gives its variables. */
export function classDirInputs(config: ResolvedConfig, key: string, sha: string, used: readonly string[], lookup: (name: string) => string | undefined): ClassDirInputs {
  return { kind: 'clusterclass', key, raw: sha, secrets: config.secrets, templates: config.templates, values: valuesOf(used, lookup) };
}
