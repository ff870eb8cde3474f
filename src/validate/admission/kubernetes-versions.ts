/**
 * Which Kubernetes versions a workload cluster may run under the locked Cluster API release: the support matrix of
 * CAPI's book (`docs/book/src/reference/versions.md`, "Core provider (cluster-api-controller)"), transcribed as data
 * with the tag it was read at. The kubeadm bootstrap and control plane providers and CAPD follow the core's matrix
 * (the same page says so); other infrastructure providers publish theirs in their own documentation, not in their
 * release files, so they are not checked here.
 *
 * The release comes from the clusterctl inventory (`Provider` objects) rendered under `providers/`.
 */
import { compareKubernetesVersions, parseKubernetesVersion, type KubernetesVersion } from '../../capi/index.js';
import { findingAt, type Finding, type SourceObject } from '../findings.js';
import { at, rec, str } from './webhook-fields.js';

export interface KubernetesSupport {
  /** The CAPI minor release, `v1.13`. */
  readonly capi: string;
  /** The oldest and newest Kubernetes minor a workload cluster may run, `v1.30`. */
  readonly min: string;
  readonly max: string;
  /** Kubernetes minors supported only from a CAPI patch release on: `{ 'v1.36': 'v1.13.1' }`. */
  readonly from?: Readonly<Record<string, string>>;
  /** Where the row was read. */
  readonly source: string;
}

const book = (tag: string): string => `kubernetes-sigs/cluster-api docs/book/src/reference/versions.md at ${tag}`;

/** Workload cluster support ("✓" and "✓ (only workload)" rows) per CAPI minor. */
export const kubernetesSupportMatrix: readonly KubernetesSupport[] = [
  { capi: 'v1.10', min: 'v1.27', max: 'v1.33', from: { 'v1.33': 'v1.10.1' }, source: book('v1.12.11') },
  { capi: 'v1.11', min: 'v1.28', max: 'v1.34', from: { 'v1.34': 'v1.11.1' }, source: book('v1.13.5') },
  { capi: 'v1.12', min: 'v1.29', max: 'v1.36', from: { 'v1.35': 'v1.12.1', 'v1.36': 'v1.12.8' }, source: book('v1.13.5') },
  { capi: 'v1.13', min: 'v1.30', max: 'v1.36', from: { 'v1.36': 'v1.13.1' }, source: book('v1.13.5') },
];

/** Where each kind keeps the Kubernetes version its machines run. */
const versionFields: Readonly<Record<string, string>> = {
  Cluster: 'spec.topology.version',
  KubeadmControlPlane: 'spec.version',
  MachineDeployment: 'spec.template.spec.version',
  MachineSet: 'spec.template.spec.version',
  MachinePool: 'spec.template.spec.version',
  Machine: 'spec.version',
};

const minorOf = (v: KubernetesVersion): string => `v${v.major}.${v.minor}`;
const minorNumber = (m: string): number => Number(m.split('.')[1]);

/** The locked core provider's version, from the clusterctl inventory among `objects`. */
export function coreProviderVersion(objects: readonly SourceObject[]): string | undefined {
  for (const s of objects) {
    const o = s.object;
    if (o.kind !== 'Provider' || !(str(o.apiVersion) ?? '').startsWith('clusterctl.cluster.x-k8s.io/')) continue;
    if (o.type === 'CoreProvider' && typeof o.version === 'string') return o.version;
  }
  return undefined;
}

/**
 * Every version-carrying CAPI object whose Kubernetes version the locked CAPI release does not support: an error
 * outside the matrix row, a warning when the matrix has no row for the release. Objects the topology controller
 * creates carry their Cluster's version and are checked through the Cluster.
 */
export function kubernetesVersionFindings(objects: readonly SourceObject[], inventory: readonly SourceObject[]): Finding[] {
  const capiText = coreProviderVersion(inventory);
  const capi = capiText ? parseKubernetesVersion(capiText.replace(/^v/, '')) : null;
  if (!capiText || !capi) return [];
  const row = kubernetesSupportMatrix.find((r) => r.capi === minorOf(capi));
  const out: Finding[] = [];
  for (const src of objects) {
    const o = src.object;
    const field = versionFields[String(o.kind)];
    const apiVersion = str(o.apiVersion) ?? '';
    if (!field || !(apiVersion.startsWith('cluster.x-k8s.io/') || apiVersion.startsWith('controlplane.cluster.x-k8s.io/'))) continue;
    if ('topology.cluster.x-k8s.io/owned' in rec(at(o, 'metadata.labels'))) continue;
    const raw = at(o, field);
    if (typeof raw !== 'string') continue;
    const v = parseKubernetesVersion(raw.replace(/^v/, ''));
    if (!v) continue;
    const minor = minorOf(v);
    if (!row) {
      out.push(
        findingAt(src, {
          severity: 'warning',
          field,
          rule: 'k8s-version/unknown-release',
          value: raw,
          message: `${field}: Kubernetes ${raw} is not checked: capiform knows no support matrix for cluster-api ${capiText} (known: ${kubernetesSupportMatrix.map((r) => r.capi).join(', ')})`,
          hint: "check CAPI's docs/book/src/reference/versions.md for the release",
        }),
      );
      continue;
    }
    /** The error finding for a Kubernetes version this cluster-api does not run. */
    const unsupported = (message: string, hint: string): Finding =>
      findingAt(src, { severity: 'error', field, rule: 'k8s-version/unsupported', value: raw, message, hint });
    const n = v.major === 1 ? v.minor : Number.NaN;
    const range = `${row.min}.x – ${row.max}.x`;
    if (!(n >= minorNumber(row.min) && n <= minorNumber(row.max))) {
      out.push(
        unsupported(
          `${field}: Kubernetes ${raw} is not supported by cluster-api ${capiText}: workload clusters run ${range} (${row.source})`,
          n > minorNumber(row.max) ? `use Kubernetes ${row.max}.x or older (kubernetesVersion in capi.config.ts), or lock a newer cluster-api` : `use Kubernetes ${row.min}.x or newer (kubernetesVersion in capi.config.ts), or lock an older cluster-api`,
        ),
      );
      continue;
    }
    const needs = row.from?.[minor];
    const needed = needs ? parseKubernetesVersion(needs.replace(/^v/, '')) : null;
    if (needs && needed && compareKubernetesVersions(capi, needed) < 0) {
      out.push(
        unsupported(
          `${field}: Kubernetes ${minor} is supported from cluster-api ${needs} on; the lock has ${capiText} (${row.source})`,
          `lock cluster-api ${needs} or later (\`capiform lock --upgrade\`), or use Kubernetes ${row.min}.x – v1.${minorNumber(minor) - 1}.x`,
        ),
      );
    }
  }
  return out;
}
