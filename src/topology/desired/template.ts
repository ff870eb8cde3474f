/**
 * Objects and templates cloned from ClusterClass templates (`desired_state.go` `templateToObject` /
 * `templateToTemplate`, `controllers/external/util.go` `GenerateTemplate`).
 */
import type { KubeObject } from '../../yaml/index.js';
import { labels as l, annotations as a } from './labels.js';
import { asObj, cloneJson, groupOf, type Obj } from './json.js';

export interface ClusterIdentity {
  name: string;
  namespace: string;
  uid?: string;
}

/** `ownerrefs.OwnerReferenceTo(cluster, Cluster)`. */
export function clusterOwnerRef(cluster: ClusterIdentity): Obj {
  const ref: Obj = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name };
  if (cluster.uid) ref.uid = cluster.uid;
  return ref;
}

/** `<Kind>.<group>` of the template a clone came from (`GroupKind.String()`). */
function groupKind(template: KubeObject): string {
  const group = groupOf(String(template.apiVersion ?? ''));
  return group ? `${String(template.kind)}.${group}` : String(template.kind);
}

export interface TemplateToInput {
  template: KubeObject;
  cluster: ClusterIdentity;
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerRef?: Obj;
}

/** An object (InfrastructureCluster, ControlPlane, MachinePool configs) from a template's `spec.template`. */
export function templateToObject(input: TemplateToInput): KubeObject {
  const spec = asObj(input.template.spec);
  const body = cloneJson(asObj(spec.template));
  const metadata = asObj(body.metadata);
  const annotations: Record<string, string> = { ...(asObj(metadata.annotations) as Record<string, string>), ...input.annotations };
  annotations[a.clonedFromName] = String(asObj(input.template.metadata).name ?? '');
  annotations[a.clonedFromGroupKind] = groupKind(input.template);
  const labels: Record<string, string> = { ...(asObj(metadata.labels) as Record<string, string>), ...input.labels };
  labels[l.clusterName] = input.cluster.name;
  labels[l.owned] = '';
  const meta: Obj = { ...without(metadata, ['resourceVersion', 'finalizers', 'uid', 'selfLink']) };
  meta.name = input.name;
  meta.namespace = input.cluster.namespace;
  meta.labels = labels;
  meta.annotations = annotations;
  if (input.ownerRef) meta.ownerReferences = [input.ownerRef];
  const out: KubeObject = {
    apiVersion: body.apiVersion ?? input.template.apiVersion,
    kind: body.kind ?? String(input.template.kind ?? '').replace(/Template$/, ''),
    metadata: meta,
  };
  for (const [k, v] of Object.entries(body)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata') out[k] = v;
  return out;
}

/** A template (CP InfrastructureMachineTemplate, MD bootstrap/infrastructure templates) copied from the class's. */
export function templateToTemplate(input: TemplateToInput): KubeObject {
  const copy = cloneJson(input.template);
  const metadata = asObj(copy.metadata);
  const labels: Record<string, string> = { ...(asObj(metadata.labels) as Record<string, string>), ...input.labels };
  labels[l.clusterName] = input.cluster.name;
  labels[l.owned] = '';
  const annotations: Record<string, string> = { ...(asObj(metadata.annotations) as Record<string, string>), ...input.annotations };
  annotations[a.clonedFromName] = String(metadata.name ?? '');
  annotations[a.clonedFromGroupKind] = groupKind(input.template);
  delete annotations[a.lastApplied];
  const meta: Obj = without(metadata, ['resourceVersion', 'finalizers', 'uid', 'selfLink', 'creationTimestamp', 'generation', 'managedFields']);
  meta.name = input.name;
  meta.namespace = input.cluster.namespace;
  meta.labels = labels;
  meta.annotations = annotations;
  if (input.ownerRef) meta.ownerReferences = [input.ownerRef];
  const out: KubeObject = { apiVersion: copy.apiVersion, kind: copy.kind, metadata: meta };
  for (const [k, v] of Object.entries(copy)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && k !== 'status') out[k] = v;
  return out;
}

function without(o: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}
