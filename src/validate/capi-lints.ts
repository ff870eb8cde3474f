/**
 * Cluster API lints the schemas cannot express: autoscaler-managed MachineDeployments that pin `replicas`, v1beta1
 * objects applied on a v1beta2 contract, and topology Clusters whose ClusterClass or Kubernetes version is not
 * available.
 */
import { findingAt, isRecord, type Finding, type SourceObject } from './findings.js';
import { groupOf, type SchemaCatalog } from './schemas.js';
import { objectOrEmpty as rec } from '../go/index.js';

/** The annotations the cluster autoscaler's Cluster API provider reads node group sizes from. */
const autoscalerAnnotations = ['cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size', 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size'];

const capiGroup = (group: string): boolean => group === 'cluster.x-k8s.io' || group.endsWith('.cluster.x-k8s.io');
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function lintCapiObjects(objects: readonly SourceObject[], catalog: SchemaCatalog): Finding[] {
  const out: Finding[] = [];
  const classes = new Map<string, Record<string, unknown>>();
  for (const s of objects) {
    if (s.object.kind === 'ClusterClass' && capiGroup(groupOf(str(s.object.apiVersion) ?? ''))) {
      const m = rec(s.object.metadata);
      // A ClusterClass without a namespace lands in whichever namespace it is applied to (a template's target).
      classes.set(`${str(m.namespace) ?? '*'}/${str(m.name) ?? ''}`, s.object);
    }
  }
  for (const s of objects) {
    const apiVersion = str(s.object.apiVersion) ?? '';
    const group = groupOf(apiVersion);
    if (!capiGroup(group)) continue;
    out.push(...v1beta1OnV1beta2(s, apiVersion, group, catalog));
    if (s.object.kind === 'MachineDeployment' || s.object.kind === 'MachinePool') out.push(...autoscaledReplicas(s, rec(s.object.metadata), rec(s.object.spec).replicas, 'spec.replicas'));
    if (s.object.kind === 'Cluster') out.push(...topologyLints(s, classes));
  }
  return out;
}

function autoscaledReplicas(s: SourceObject, metadata: Record<string, unknown>, replicas: unknown, field: string): Finding[] {
  const annotations = rec(metadata.annotations);
  const managed = autoscalerAnnotations.filter((a) => a in annotations);
  if (managed.length === 0 || replicas === undefined || replicas === null) return [];
  return [
    findingAt(s, {
      severity: 'error',
      field,
      rule: 'capi.autoscaler-replicas',
      message: `${field}: the cluster autoscaler manages the replicas (${managed.join(', ')}); a pinned value resets its choice on every sync`,
      value: replicas,
      hint: `remove ${field.split('.').pop()} and let the autoscaler size the group between its min and max`,
    }),
  ];
}

/**
 * Kinds the cluster-api repository defines, whose v1beta1 → v1beta2 move is CAPI's own conversion. Providers number
 * their API versions on their own (CAPO's and CAPIBM's v1beta1 → v1beta2 is unrelated to the contract's), so their
 * kinds are left alone: the hint would describe the wrong conversion.
 */
function capiOwnKind(group: string, kind: string): boolean {
  if (group === 'cluster.x-k8s.io' || group === 'addons.cluster.x-k8s.io' || group === 'ipam.cluster.x-k8s.io' || group === 'runtime.cluster.x-k8s.io') return true;
  if (group === 'bootstrap.cluster.x-k8s.io' || group === 'controlplane.cluster.x-k8s.io') return kind.startsWith('Kubeadm');
  // The Docker provider (CAPD) ships with cluster-api and converts with it.
  return group === 'infrastructure.cluster.x-k8s.io' && (kind.startsWith('Docker') || kind.startsWith('Dev'));
}

function v1beta1OnV1beta2(s: SourceObject, apiVersion: string, group: string, catalog: SchemaCatalog): Finding[] {
  if (!apiVersion.endsWith('/v1beta1')) return [];
  const kind = str(s.object.kind) ?? '';
  if (!capiOwnKind(group, kind)) return [];
  if (!catalog.versionsOf(group, kind).includes(`${group}/v1beta2`)) return [];
  return [
    findingAt(s, {
      severity: 'warning',
      field: 'apiVersion',
      rule: 'capi.v1beta1-on-v1beta2',
      message: `${kind} is written as ${apiVersion} on a v1beta2 contract: the API server converts it, but v1beta1 is deprecated and its fields differ`,
      value: apiVersion,
      hint: `convert it to ${group}/v1beta2 (CAPI's v1beta1 → v1beta2 conversion: e.g. topology.class → topology.classRef.name, infrastructureRef/bootstrap.configRef keep only apiGroup, kind and name)`,
    }),
  ];
}

function topologyLints(s: SourceObject, classes: Map<string, Record<string, unknown>>): Finding[] {
  const spec = rec(s.object.spec);
  if (!isRecord(spec.topology)) return [];
  const t = spec.topology;
  const out: Finding[] = [];
  const ns = str(rec(s.object.metadata).namespace) ?? 'default';
  const ref = rec(t.classRef);
  const name = str(ref.name) ?? str(t.class);
  const classNs = str(ref.namespace) ?? str(t.classNamespace) ?? ns;
  const field = isRecord(t.classRef) ? 'spec.topology.classRef.name' : 'spec.topology.class';
  const cls = name ? (classes.get(`${classNs}/${name}`) ?? classes.get(`*/${name}`)) : undefined;
  if (name && !cls) {
    out.push(
      findingAt(s, {
        severity: 'error',
        field,
        rule: 'capi.topology-class',
        message: `${field}: ClusterClass ${classNs}/${name} is not available: no such ClusterClass among the validated objects`,
        value: name,
        hint: 'render or pass the ClusterClass with the Cluster (clusterclasses/), or fix the class name and namespace',
      }),
    );
  }
  const version = str(t.version);
  const versions = cls ? rec(cls.spec).kubernetesVersions : undefined;
  if (version && Array.isArray(versions) && versions.length > 0 && !versions.includes(version)) {
    out.push(
      findingAt(s, {
        severity: 'error',
        field: 'spec.topology.version',
        rule: 'capi.topology-version',
        message: `spec.topology.version: version ${version} is not one of the versions ClusterClass ${classNs}/${name} supports (${versions.map(String).join(', ')})`,
        value: version,
        hint: `pick a version from the ClusterClass's spec.kubernetesVersions`,
      }),
    );
  }
  const workers = rec(t.workers);
  for (const [key, list] of [['machineDeployments', workers.machineDeployments], ['machinePools', workers.machinePools]] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((md, i) => {
      if (isRecord(md)) out.push(...autoscaledReplicas(s, rec(md.metadata), md.replicas, `spec.topology.workers.${key}[${i}].replicas`));
    });
  }
  return out;
}
