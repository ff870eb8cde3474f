/**
 * The interface every provider repository implements (local folder, GitHub releases, GitLab packages, HTTPS).
 * Sources only list versions and fetch bytes; caching, digests, retries and version choice live above them.
 * "Not found" is a value (`null`); an unhealthy upstream is an error that stops the run.
 */

export type RepositoryKind = 'local' | 'github' | 'gitlab' | 'https' | 'oci';

/** Where a provider's releases come from, as resolution reports it and the lock records it. */
export interface RepositorySource {
  readonly kind: RepositoryKind;
  /** The repository as configured: a path relative to the config directory, or a URL; `catalog` entries keep the catalog URL. */
  readonly url: string;
}

export interface VersionPage {
  versions: string[];
  last: boolean;
}

export interface ProviderRepository {
  readonly kind: RepositoryKind;
  /** The provider URL as configured (after envsubst of OS env for clusterctl.yaml entries). */
  readonly url: string;
  /** The components file name taken from the URL (`core-components.yaml`, `infrastructure-components-development.yaml`). */
  readonly componentsFile: string;
  /**
   * The version segment of the URL: a concrete version, or `latest` (resolved with clusterctl's
   * `latestContractRelease` by the caller).
   */
  readonly defaultVersion: string;
  /** Folder inside a release that holds the files (`.` normally). */
  readonly rootPath: string;
  /** Every version the repository offers, as the repository names them (e.g. `v1.13.5`). */
  listVersions(): Promise<string[]>;
  /**
   * Sources whose listing is paginated, newest created first (GitHub's releases API): the versions of page `index`
   * (from 0) and whether it is the last one, so resolution reads only the pages it needs (candidates.ts).
   */
  listVersionPage?(index: number): Promise<VersionPage>;
  /** Bytes of `file` at `version`, or `null` when the repository has no such file. */
  getFile(version: string, file: string): Promise<Uint8Array | null>;
  /** Human-readable location of a file, for errors and the lock (`/abs/path` or `https://…`). */
  fileLocation(version: string, file: string): string;
  /** Names of the files a release holds, when the source can list them (local folders, GitHub assets). */
  listFiles?(version: string): Promise<string[] | null>;
  /**
   * capi.lock.yaml pins `file` of `version` at `location` (a `fileLocation` of an earlier run): sources whose
   * locations carry more than the file's sha256 (an OCI manifest digest) check it when they read the release again.
   */
  pinLocation?(version: string, location: string): void;
}
