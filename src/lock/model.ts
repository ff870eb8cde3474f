/**
 * The lockfile model: what the code works with. The on-disk shape (`capi.lock.yaml`) is in ./format.ts; converters go
 * both ways so the file can stay stable and readable while the model stays convenient.
 */
import type { RepositorySource } from '../resolve/index.js';
import type { ProviderType } from '../capi/index.js';

/** The version this capiform writes and the newest it reads. */
export const lockfileVersion = 1;

export const lockFileName = 'capi.lock.yaml';

export interface LockedFile {
  /** File name inside the release: `core-components.yaml`, `metadata.yaml`, `cluster-template-development.yaml`. */
  readonly name: string;
  /** A local file: path relative to the config directory, `/`-separated. */
  readonly path?: string;
  /** A remote file: its URL. */
  readonly url?: string;
  readonly sha256: string;
  readonly size: number;
}

/** Resolution produces it; the lock records it as is. */
export type LockedSource = RepositorySource;

export interface LockedProvider {
  readonly name: string;
  readonly type: ProviderType;
  readonly label: string;
  /** The constraint the version was chosen for (`~1.13.0`, `latest`, `v1.13.1`). */
  readonly constraint: string;
  readonly version: string;
  readonly contract: string;
  readonly source: LockedSource;
  readonly files: readonly LockedFile[];
}

export interface LockedCertManager {
  readonly version: string;
  readonly source: LockedSource;
  readonly files: readonly LockedFile[];
}

/**
 * A release of an infrastructure provider that clusters render their template from (`clusters[].templateVersion`)
 * while the provider itself runs its locked version: only the template and ClusterClass files those clusters read.
 */
export interface LockedTemplatePin {
  /** The provider's label (`infrastructure-docker`). */
  readonly label: string;
  /** The `templateVersion` the version was chosen for (`~1.12.0`, `v1.12.4`). */
  readonly constraint: string;
  readonly version: string;
  readonly source: LockedSource;
  readonly files: readonly LockedFile[];
}

export interface Lock {
  readonly lockfileVersion: number;
  /** sha256 of the config inputs that affect resolution (providers, sources, constraints, cert-manager, contract pin). */
  readonly configDigest: string;
  /** The management contract every provider maps to. */
  readonly contract: string;
  readonly providers: readonly LockedProvider[];
  readonly certManager: LockedCertManager | undefined;
  /** Template pins, by label then constraint; absent (and not written) when no cluster pins one. */
  readonly templatePins?: readonly LockedTemplatePin[];
}

/**
 * A fleet's lock: one section per management cluster (`targets.<name>`), each a complete lock of its own, in one file.
 * Sections are kept in name order so the file is byte-stable.
 */
export interface FleetLock {
  readonly lockfileVersion: number;
  readonly targets: ReadonlyMap<string, Lock>;
}

/** What `capi.lock.yaml` holds: one management cluster's lock, or a fleet's sections. */
export type LockFile = Lock | FleetLock;

export function isFleetLock(lock: LockFile): lock is FleetLock {
  return 'targets' in lock;
}
