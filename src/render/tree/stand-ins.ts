/**
 * TEMPORARY narrow stand-ins for teammates' modules that have not landed on main yet (G: render API, H: Argo CD
 * glue, B: YAML emitter and cert-manager processing). Only what the pipeline needs, without clusterctl's finer
 * rules. Delete this file when the real modules are merged (deps.ts switches its imports).
 */
import { parseAllDocuments, stringify } from 'yaml';
import { InputError, MissingVariablesError } from '../../errors.js';
import { manifestLabel } from '../../resolve/provider-type.js';

export type KubeObject = Record<string, unknown>;
export type ImageOverrides = Record<string, { repository?: string; tag?: string }>;
type Lookup = (name: string) => string | undefined;

const varRe = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[=-])([^}]*))?\}/g;

function substitute(text: string, lookup: Lookup): string {
  const missing = new Set<string>();
  const out = text.replace(varRe, (_m, name: string, op: string | undefined, def: string | undefined) => {
    const v = lookup(name);
    if (v !== undefined && !(op?.startsWith(':') && v === '')) return v;
    if (op !== undefined) return def ?? '';
    missing.add(name);
    return '';
  });
  if (missing.size) throw new MissingVariablesError([...missing].sort());
  return out;
}

function parse(text: string): KubeObject[] {
  return parseAllDocuments(text, { version: '1.1' })
    .map((d) => d.toJS() as unknown)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

export function emitManifests(objs: KubeObject[]): string {
  return objs.map((o) => stringify(o, { version: '1.1', lineWidth: 0, indentSeq: false })).join('---\n');
}

function meta(o: KubeObject): Record<string, unknown> {
  return (o.metadata ??= {}) as Record<string, unknown>;
}

const clusterScoped = new Set(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ClusterIssuer', 'APIService', 'PriorityClass', 'StorageClass']);

export interface Components {
  objects: KubeObject[];
  yaml(): string;
  images: string[];
  targetNamespace: string;
  inventoryObject(): KubeObject;
}

export function renderProviderComponents(input: {
  raw: string;
  name: string;
  type: string;
  version: string;
  targetNamespace?: string;
  variables: Lookup;
  images?: ImageOverrides;
  source?: string;
}): Components {
  const objs = parse(substitute(input.raw, input.variables));
  const nss = objs.filter((o) => o.kind === 'Namespace');
  const ns = input.targetNamespace || String(nss[0] ? meta(nss[0]).name : '');
  if (!ns) throw new InputError("target namespace can't be defaulted. Please specify a target namespace");
  if (nss.length === 0) objs.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const label = manifestLabel(input.name, input.type);
  for (const o of objs) {
    const m = meta(o);
    if (o.kind === 'Namespace') m.name = ns;
    else if (!clusterScoped.has(String(o.kind))) m.namespace = ns;
    m.labels = { ...((m.labels as object) ?? {}), 'clusterctl.cluster.x-k8s.io': '', 'cluster.x-k8s.io/provider': label };
  }
  const ordered = [...objs.filter((o) => o.kind === 'Namespace'), ...objs.filter((o) => o.kind !== 'Namespace')];
  return {
    objects: ordered,
    yaml: () => emitManifests(ordered),
    images: [],
    targetNamespace: ns,
    inventoryObject: () => ({
      apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
      kind: 'Provider',
      metadata: {
        name: label,
        namespace: ns,
        labels: { 'clusterctl.cluster.x-k8s.io': '', 'cluster.x-k8s.io/provider': label, 'clusterctl.cluster.x-k8s.io/core': 'inventory' },
      },
      providerName: input.name,
      type: input.type,
      version: input.version,
    }),
  };
}

export function renderClusterTemplate(input: { raw: string; source?: string; targetNamespace: string; variables: Lookup }): {
  objects: KubeObject[];
  yaml(): string;
} {
  const objs = parse(substitute(input.raw, input.variables));
  for (const o of objs) if (!clusterScoped.has(String(o.kind))) meta(o).namespace = input.targetNamespace;
  return { objects: objs, yaml: () => emitManifests(objs) };
}

export function templateOptionsToVariables(
  opts: { clusterName: string; targetNamespace: string; kubernetesVersion?: string; controlPlaneMachineCount?: number | string; workerMachineCount?: number | string },
  _lookup: Lookup,
): Record<string, string> {
  const out: Record<string, string> = { NAMESPACE: opts.targetNamespace, CLUSTER_NAME: opts.clusterName };
  if (opts.kubernetesVersion) out.KUBERNETES_VERSION = opts.kubernetesVersion;
  out.CONTROL_PLANE_MACHINE_COUNT = String(opts.controlPlaneMachineCount ?? 1);
  out.WORKER_MACHINE_COUNT = String(opts.workerMachineCount ?? 0);
  return out;
}

export function clusterClassReferences(objects: KubeObject[]): { name: string; namespace: string }[] {
  const refs: { name: string; namespace: string }[] = [];
  for (const o of objects) {
    if (o.kind !== 'Cluster' || typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('cluster.x-k8s.io/')) continue;
    const topo = (o.spec as { topology?: { class?: string; classNamespace?: string; classRef?: { name?: string; namespace?: string } } } | undefined)?.topology;
    if (!topo) continue;
    const ns = String(meta(o).namespace ?? '');
    if (o.apiVersion.endsWith('/v1beta1')) refs.push({ name: topo.class ?? '', namespace: topo.classNamespace || ns });
    else refs.push({ name: topo.classRef?.name ?? '', namespace: topo.classRef?.namespace || ns });
  }
  return refs;
}

export function processCertManager(raw: string, version: string): { objects: KubeObject[]; yaml(): string } {
  const objs = parse(raw);
  for (const o of objs) {
    const m = meta(o);
    m.labels = { ...((m.labels as object) ?? {}), 'clusterctl.cluster.x-k8s.io': '', 'clusterctl.cluster.x-k8s.io/core': 'cert-manager' };
    m.annotations = { ...((m.annotations as object) ?? {}), 'cert-manager.clusterctl.cluster.x-k8s.io/version': version };
  }
  return { objects: objs, yaml: () => emitManifests(objs) };
}

