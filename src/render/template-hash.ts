/**
 * `templates: { hashNames: true }`: immutable templates, painless. InfrastructureMachineTemplates (kind
 * `*MachineTemplate` in `infrastructure.cluster.x-k8s.io`), KubeadmConfigTemplates (`*ConfigTemplate` in
 * `bootstrap.cluster.x-k8s.io`) and every other template kind whose webhook refuses a spec update
 * (`immutableTemplates` of src/capi: DockerClusterTemplate, KubeadmControlPlaneTemplate, AWSClusterTemplate, …) get a
 * suffix made from a hash of their `spec`, and every reference to them is rewritten (MachineDeployment
 * `bootstrap.configRef` / `infrastructureRef`, KubeadmControlPlane `machineTemplate.infrastructureRef` (v1beta1) and
 * `machineTemplate.spec.infrastructureRef` (v1beta2), ClusterClass `templateRef` / `ref`). A spec change then becomes
 * a new template and a new reference — the rotation CAPI accepts — instead of a mutation its webhooks reject;
 * metadata-only changes keep the name.
 *
 * Pure: objects in, new objects out (inputs are not modified).
 */
import { canonicalDigest } from '../cache/index.js';
import { immutableTemplateOf } from '../capi/index.js';
import { isObject as isRecord } from '../go/index.js';

type KubeObject = Record<string, unknown>;

const maxNameLength = 63;
/** Hex characters of the suffix: 10 (40 bits) keeps collisions out of reach for the templates of one namespace. */
const hashLength = 10;

function groupOf(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** True for the template kinds that get hash names. */
export function isHashNamedTemplate(apiVersion: unknown, kind: unknown): boolean {
  if (typeof kind !== 'string') return false;
  const group = groupOf(apiVersion);
  return (
    (group === 'infrastructure.cluster.x-k8s.io' && kind.endsWith('MachineTemplate')) ||
    (group === 'bootstrap.cluster.x-k8s.io' && kind.endsWith('ConfigTemplate')) ||
    immutableTemplateOf(apiVersion, kind) !== undefined
  );
}

/** The content hash of a template: the first 10 hex characters of sha256 over its canonical `spec`. */
export function templateSpecHash(spec: unknown): string {
  return canonicalDigest(spec ?? {}).slice(0, hashLength);
}

/** `<name>-<hash>`, with the name cut so the result stays a valid name of at most 63 characters. */
export function hashedName(name: string, hash: string): string {
  let base = name;
  const room = maxNameLength - hash.length - 1;
  if (base.length > room) base = base.slice(0, room).replace(/[-.]+$/, '');
  return `${base}-${hash}`;
}

interface Rename {
  group: string;
  kind: string;
  namespace: string;
  from: string;
  to: string;
}

function refGroup(ref: Record<string, unknown>): string | undefined {
  if (typeof ref.apiGroup === 'string') return ref.apiGroup;
  if (typeof ref.apiVersion === 'string') return groupOf(ref.apiVersion);
  return undefined;
}

function rewriteRefs(v: unknown, namespace: string, renames: Map<string, Rename>): void {
  if (Array.isArray(v)) {
    for (const x of v) rewriteRefs(x, namespace, renames);
    return;
  }
  if (!isRecord(v)) return;
  if (typeof v.kind === 'string' && typeof v.name === 'string') {
    const ns = typeof v.namespace === 'string' && v.namespace !== '' ? v.namespace : namespace;
    const r = renames.get(`${v.kind}/${ns}/${v.name}`);
    const g = refGroup(v);
    if (r && (g === undefined || g === r.group)) v.name = r.to;
  }
  for (const x of Object.values(v)) rewriteRefs(x, namespace, renames);
}

/**
 * Gives machine templates content-hash names and rewrites every reference to them (in objects of the same
 * namespace). Returns new objects in the same order.
 */
export function hashTemplateNames(objects: readonly KubeObject[]): KubeObject[] {
  const out = objects.map((o) => structuredClone(o));
  const renames = new Map<string, Rename>();
  for (const o of out) {
    if (!isHashNamedTemplate(o.apiVersion, o.kind) || !isRecord(o.metadata) || typeof o.metadata.name !== 'string') continue;
    const namespace = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    const from = o.metadata.name;
    const to = hashedName(from, templateSpecHash(o.spec));
    o.metadata.name = to;
    renames.set(`${String(o.kind)}/${namespace}/${from}`, { group: groupOf(o.apiVersion), kind: String(o.kind), namespace, from, to });
  }
  if (renames.size === 0) return out;
  for (const o of out) {
    if (isHashNamedTemplate(o.apiVersion, o.kind)) continue;
    const namespace = isRecord(o.metadata) && typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    rewriteRefs(o.spec, namespace, renames);
  }
  return out;
}
