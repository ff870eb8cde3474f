/**
 * TEMPORARY narrow stand-ins for helper G's Render API (renderProviderComponents, renderClusterTemplate,
 * templateOptionsToVariables, ClusterClass references), composed from the modules already on main (A's envsubst,
 * B's YAML and components). Without G's clusterctl error wrapping and validation. Delete this file when G's
 * src/render/provider-components.ts and cluster-template.ts land (deps.ts switches its imports).
 */
import { process as substitute } from '../envsubst/index.js';
import { fixTargetNamespace, processCertManagerManifest, renderComponents, type Components, type ImageOverrides } from '../components/index.js';
import { emitManifests, parseManifests, type KubeObject } from '../../yaml/index.js';
import { manifestLabel } from '../../resolve/provider-type.js';

type Lookup = (name: string) => string | undefined;
export type { ImageOverrides, KubeObject };
export { emitManifests };

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
  return renderComponents({
    text: substitute(input.raw, input.variables),
    providerName: input.name,
    providerType: input.type,
    manifestLabel: manifestLabel(input.name, input.type),
    version: input.version,
    ...(input.targetNamespace ? { targetNamespace: input.targetNamespace } : {}),
    images: input.images ?? null,
    ...(input.source ? { source: input.source } : {}),
  });
}

export function renderClusterTemplate(input: { raw: string; source?: string; targetNamespace: string; variables: Lookup }): {
  objects: KubeObject[];
  yaml(): string;
} {
  const objs = fixTargetNamespace(parseManifests(substitute(input.raw, input.variables), input.source ? { source: input.source } : {}), input.targetNamespace) as KubeObject[];
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
    const ns = String((o.metadata as { namespace?: string } | undefined)?.namespace ?? '');
    if (o.apiVersion.endsWith('/v1beta1')) refs.push({ name: topo.class ?? '', namespace: topo.classNamespace || ns });
    else refs.push({ name: topo.classRef?.name ?? '', namespace: topo.classRef?.namespace || ns });
  }
  return refs;
}

export function processCertManager(raw: string, version: string, images?: ImageOverrides): { yaml(): string } {
  return processCertManagerManifest({ text: raw, version, images: images ?? null });
}
