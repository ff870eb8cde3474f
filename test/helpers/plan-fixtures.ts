/** Small builders for plan tests: a rendered-tree inventory, a local repository, and cluster manifests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { manifestLabel } from '../../src/capi/index.js';
import { tempDir as testTempDir } from './testdir.js';

export function tempDir(prefix = 'capiform-plan-'): string {
  return testTempDir(prefix);
}

export function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export interface TreeProvider {
  name: string;
  type: string;
  version: string;
  namespace: string;
}

/** Writes `providers/<label>/inventory.yaml` with the clusterctl inventory `Provider` object, as the rendered tree has it. */
export function writeTreeInventory(base: string, providers: readonly TreeProvider[]): void {
  for (const p of providers) {
    const label = manifestLabel(p.name, p.type);
    writeFile(
      join(base, 'providers', label, 'inventory.yaml'),
      [
        'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3',
        'kind: Provider',
        'metadata:',
        `  name: ${label}`,
        `  namespace: ${p.namespace}`,
        '  labels:',
        `    cluster.x-k8s.io/provider: ${label}`,
        '    clusterctl.cluster.x-k8s.io: ""',
        `providerName: ${p.name}`,
        `type: ${p.type}`,
        `version: ${p.version}`,
        '',
      ].join('\n'),
    );
  }
}

/** A clusterctl local repository: `<root>/<label>/<version>/metadata.yaml` for each version. */
export function writeRepository(
  root: string,
  label: string,
  versions: readonly string[],
  series: readonly { major: number; minor: number; contract: string }[],
): void {
  const body = [
    'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3',
    'kind: Metadata',
    'releaseSeries:',
    ...series.flatMap((s) => [`  - major: ${s.major}`, `    minor: ${s.minor}`, `    contract: ${s.contract}`]),
    '',
  ].join('\n');
  for (const v of versions) writeFile(join(root, label, v, 'metadata.yaml'), body);
}

/** The core CAPI inventory (core, kubeadm bootstrap and control plane) plus one infrastructure provider. */
export function capiStack(version: string, infra: { name: string; version: string; namespace: string }): TreeProvider[] {
  return [
    { name: 'cluster-api', type: 'CoreProvider', version, namespace: 'capi-system' },
    { name: 'kubeadm', type: 'BootstrapProvider', version, namespace: 'capi-kubeadm-bootstrap-system' },
    { name: 'kubeadm', type: 'ControlPlaneProvider', version, namespace: 'capi-kubeadm-control-plane-system' },
    { name: infra.name, type: 'InfrastructureProvider', version: infra.version, namespace: infra.namespace },
  ];
}

/**
 * A project whose rendered tree holds only core cluster-api at `installed` (in capi-system), with a local repository
 * `repo/` that has cluster-api v1.0.0 (contract v1beta2): the smallest input of `plan upgrade --repository repo`.
 */
export function coreOnlyProject(installed = 'v1.0.0'): string {
  const base = tempDir();
  writeTreeInventory(base, [{ name: 'cluster-api', type: 'CoreProvider', version: installed, namespace: 'capi-system' }]);
  writeRepository(join(base, 'repo'), 'cluster-api', ['v1.0.0'], [{ major: 1, minor: 0, contract: 'v1beta2' }]);
  return base;
}
