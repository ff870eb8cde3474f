/**
 * Argo CD sync waves for the tree. Lower waves sync (and, with Application health enabled, become healthy) first:
 * cert-manager, then the core provider, then the other providers and the workload namespaces, then ClusterClasses,
 * then Clusters. Gaps are not
 * needed; Argo CD only compares the numbers.
 */
import type { ProviderType } from '../../capi/index.js';
import type { SyncWavePatch } from './kustomization.js';

export const syncWaves = {
  /** cert-manager: every provider's Issuer/Certificate and CA injection needs it. */
  certManager: 0,
  /** The core provider owns the cluster.x-k8s.io CRDs the other providers' webhooks and RBAC refer to. */
  core: 1,
  /** Bootstrap, control plane, infrastructure, IPAM, runtime extension and add-on providers, in parallel. */
  providers: 2,
  /** The workload clusters' Namespaces: nothing to wait for, and everything after them lives in one. */
  namespaces: 2,
  /** ClusterClasses and their templates need the provider CRDs and webhooks. */
  clusterClasses: 3,
  /** Clusters need their ClusterClass (topology) or their provider CRDs (plain templates). */
  clusters: 4,
} as const;

/** The wave of a provider directory; `CertManager` stands for the cert-manager directory. */
export function providerSyncWave(type: ProviderType | 'CertManager'): number {
  if (type === 'CertManager') return syncWaves.certManager;
  return type === 'CoreProvider' ? syncWaves.core : syncWaves.providers;
}

/**
 * Waves inside one cluster directory (passed to `kustomizationFor`): the CAPI `Cluster` goes after everything else
 * in the directory, so an auto-included ClusterClass and the infrastructure/bootstrap templates exist when the
 * topology controller (or the plain template's references) look for them.
 */
export const clusterDirectorySyncWaves: readonly SyncWavePatch[] = [{ group: 'cluster.x-k8s.io', kind: 'Cluster', wave: 1 }];
