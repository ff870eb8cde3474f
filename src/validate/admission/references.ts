/**
 * Reference integrity: every object reference CAPI's and the providers' controllers follow resolves to an object the
 * tree applies, or to one a documented source outside it provides. A dangling reference is accepted by the API
 * server and then stops the controller ("failed to retrieve DockerCluster …: not found"), so green would lie.
 *
 * The references are data: the referring kinds, the field, and where the kind and namespace come from. Sources:
 * kubernetes-sigs/cluster-api `api/core/v1beta2/{cluster,machine,machinedeployment,machineset,machinepool,
 * clusterclass}_types.go`, `api/controlplane/kubeadm/v1beta2/kubeadm_control_plane_types.go`,
 * `api/addons/v1beta2/clusterresourceset_types.go` (v1beta1: the same fields with `ref` for `templateRef` and a
 * `machineTemplate.infrastructureRef`, and a ClusterClass's workers under `template`); CAPA `api/v1beta2/awscluster_types.go`, `awsidentity_types.go`; CAPZ
 * `api/v1beta1/azurecluster_types.go`, `azureclusteridentity_types.go`; CAPV `apis/v1beta1/vspherecluster_types.go`,
 * `vsphereclusteridentity_types.go`.
 */
import { levenshtein } from '../../resolve/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from '../findings.js';
import { objectOrEmpty as rec } from '../../go/index.js';

/** One kind of reference: which objects hold it, at which field, and how its target is named. */
interface ReferenceRule {
  /** The referring kinds (group-less: providers' kinds do not collide). */
  readonly kinds: readonly string[];
  /** The field, dot-separated; `[]` after a name walks every item of that list. */
  readonly path: string;
  /** The target's kind when the reference does not say it (a Secret's name, a ClusterResourceSet resource). */
  readonly kind?: string;
  /** The target lives in no namespace (CAPA's and CAPV's identities). */
  readonly clusterScoped?: boolean;
  /**
   * The target is in the provider controller's namespace, not the referrer's (CAPA's AWSClusterStaticIdentity and
   * CAPV's VSphereClusterIdentity name a Secret there): any namespace of the tree matches.
   */
  readonly controllerNamespace?: boolean;
  /** The reference is only followed when this sibling field of the referrer is unset (`dataSecretName`). */
  readonly unlessSibling?: string;
}

const machineOwners = ['MachineDeployment', 'MachineSet', 'MachinePool'];

const rules: readonly ReferenceRule[] = [
  // A topology Cluster's refs are written by the topology controller: see `topologyOwned`.
  { kinds: ['Cluster'], path: 'spec.infrastructureRef' },
  { kinds: ['Cluster'], path: 'spec.controlPlaneRef' },
  { kinds: ['Machine'], path: 'spec.infrastructureRef' },
  { kinds: ['Machine'], path: 'spec.bootstrap.configRef', unlessSibling: 'dataSecretName' },
  { kinds: machineOwners, path: 'spec.template.spec.infrastructureRef' },
  { kinds: machineOwners, path: 'spec.template.spec.bootstrap.configRef', unlessSibling: 'dataSecretName' },
  // v1beta1 and v1beta2 KubeadmControlPlane (and its template's) machine templates.
  { kinds: ['KubeadmControlPlane'], path: 'spec.machineTemplate.infrastructureRef' },
  { kinds: ['KubeadmControlPlane'], path: 'spec.machineTemplate.spec.infrastructureRef' },
  // ClusterClass: v1beta2 `templateRef`, v1beta1 `ref`.
  ...['ref', 'templateRef'].flatMap((r): ReferenceRule[] => [
    { kinds: ['ClusterClass'], path: `spec.infrastructure.${r}` },
    { kinds: ['ClusterClass'], path: `spec.controlPlane.${r}` },
    { kinds: ['ClusterClass'], path: `spec.controlPlane.machineInfrastructure.${r}` },
  ]),
  // Workers: v1beta1 `template.bootstrap.ref`, v1beta2 `bootstrap.templateRef` (the `template` level is gone).
  ...(['machineDeployments', 'machinePools'] as const).flatMap((w): ReferenceRule[] => [
    { kinds: ['ClusterClass'], path: `spec.workers.${w}[].template.bootstrap.ref` },
    { kinds: ['ClusterClass'], path: `spec.workers.${w}[].template.infrastructure.ref` },
    { kinds: ['ClusterClass'], path: `spec.workers.${w}[].bootstrap.templateRef` },
    { kinds: ['ClusterClass'], path: `spec.workers.${w}[].infrastructure.templateRef` },
  ]),
  { kinds: ['ClusterResourceSet'], path: 'spec.resources[]' },
  // CAPA: AWSCluster*Identity kinds are cluster-scoped; a static identity's Secret is in CAPA's namespace.
  { kinds: ['AWSCluster', 'AWSManagedControlPlane', 'ROSAControlPlane', 'AWSManagedCluster'], path: 'spec.identityRef', clusterScoped: true },
  { kinds: ['AWSClusterRoleIdentity'], path: 'spec.sourceIdentityRef', clusterScoped: true },
  { kinds: ['AWSClusterStaticIdentity'], path: 'spec.secretRef', kind: 'Secret', controllerNamespace: true },
  // CAPZ: an AzureClusterIdentity in the namespace the ref names; its client secret a Secret reference.
  { kinds: ['AzureCluster', 'AzureManagedControlPlane', 'AzureASOManagedCluster'], path: 'spec.identityRef' },
  { kinds: ['AzureClusterIdentity'], path: 'spec.clientSecret', kind: 'Secret' },
  // CAPV: a Secret in the cluster's namespace, or a cluster-scoped VSphereClusterIdentity whose Secret is in CAPV's.
  { kinds: ['VSphereCluster'], path: 'spec.identityRef' },
  { kinds: ['VSphereClusterIdentity'], path: 'spec.secretName', kind: 'Secret', controllerNamespace: true },
];

const rulesByKind = new Map<string, ReferenceRule[]>();
for (const r of rules) for (const k of r.kinds) rulesByKind.set(k, [...(rulesByKind.get(k) ?? []), r]);

/** Secrets CAPI's controllers create for every cluster (`util/secret/consts.go`: the Purpose suffixes). */
const clusterSecretSuffixes = ['kubeconfig', 'ca', 'etcd', 'proxy', 'sa', 'apiserver-etcd-client'];

export interface ReferenceOptions {
  /** `namespace/name` of Secrets the secrets policy left out of the tree: provided by other means, not dangling. */
  readonly omittedSecrets?: ReadonlySet<string>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const groupOfApiVersion = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '');

/** What the tree holds, by kind and name; `*` stands for an object written without a namespace. */
class TreeIndex {
  private readonly keys = new Set<string>();
  private readonly byKindName = new Set<string>();
  private readonly names = new Map<string, Set<string>>();

  constructor(objects: readonly SourceObject[]) {
    for (const s of objects) {
      const kind = str(s.object.kind);
      const m = rec(s.object.metadata);
      const name = str(m.name);
      if (!kind || !name) continue;
      this.keys.add(`${kind}/${str(m.namespace) ?? '*'}/${name}`);
      this.byKindName.add(`${kind}/${name}`);
      const list = this.names.get(kind) ?? new Set<string>();
      list.add(name);
      this.names.set(kind, list);
    }
  }

  has(kind: string, namespace: string | undefined, name: string): boolean {
    // A referrer or target without a namespace is applied into one (a template's target namespace): name and kind decide.
    if (namespace === undefined) return this.byKindName.has(`${kind}/${name}`);
    return this.keys.has(`${kind}/${namespace}/${name}`) || this.keys.has(`${kind}/*/${name}`);
  }

  /** The names of `kind` the tree holds, for a did-you-mean. */
  namesOf(kind: string): string[] {
    return [...(this.names.get(kind) ?? [])].sort();
  }
}

interface Located {
  readonly field: string;
  readonly value: unknown;
  readonly parent: Record<string, unknown>;
}

/** The values at `path` in `o`, with their field path (`[]` expanded to `[i]`). */
function valuesAt(o: Record<string, unknown>, path: string): Located[] {
  let current: Located[] = [{ field: '', value: o, parent: o }];
  for (const seg of path.split('.')) {
    const list = seg.endsWith('[]');
    const key = list ? seg.slice(0, -2) : seg;
    const next: Located[] = [];
    for (const c of current) {
      const holder = c.value;
      if (!isRecord(holder) || !(key in holder)) continue;
      const v = holder[key];
      const field = c.field ? `${c.field}.${key}` : key;
      if (!list) next.push({ field, value: v, parent: holder });
      else if (Array.isArray(v)) v.forEach((item, i) => next.push({ field: `${field}[${i}]`, value: item, parent: holder }));
    }
    current = next;
  }
  return current;
}

interface Target {
  readonly kind: string;
  readonly group: string;
  readonly name: string;
  /** undefined: any namespace (the referrer has none, or the target is cluster-scoped or in a controller's). */
  readonly namespace: string | undefined;
}

function targetOf(rule: ReferenceRule, value: unknown, referrerNamespace: string | undefined): Target | undefined {
  if (typeof value === 'string') {
    if (!rule.kind || value === '') return undefined;
    return { kind: rule.kind, group: '', name: value, namespace: rule.controllerNamespace ? undefined : referrerNamespace };
  }
  if (!isRecord(value)) return undefined;
  const name = str(value.name);
  const kind = str(value.kind) ?? rule.kind;
  if (!name || !kind) return undefined;
  const group = str(value.apiGroup) ?? groupOfApiVersion(str(value.apiVersion) ?? '');
  const namespace = rule.clusterScoped || rule.controllerNamespace ? undefined : (str(value.namespace) ?? referrerNamespace);
  return { kind, group, name, namespace };
}

/** Objects a controller creates, which a tree never holds. */
function providedByControllers(t: Target, clusters: ReadonlySet<string>): boolean {
  if (t.kind === 'Secret') {
    for (const suffix of clusterSecretSuffixes) {
      if (t.name.endsWith(`-${suffix}`) && clusters.has(t.name.slice(0, -suffix.length - 1))) return true;
    }
  }
  // CAPA's AutoControllerIdentityCreator (on by default) creates the `default` AWSClusterControllerIdentity.
  return t.kind === 'AWSClusterControllerIdentity' && t.name === 'default';
}

/** A topology Cluster's own refs, and every object the topology controller creates, are the controller's to write. */
function topologyOwned(s: SourceObject): boolean {
  return s.object.kind === 'Cluster' && isRecord(s.object.spec) && isRecord(s.object.spec.topology);
}

/**
 * Dangling references among `referrers`, resolved against `targets` (the whole tree: rendered objects, topology
 * expansions, provider components). A missing Secret is a warning (the secrets policy, external-secrets or SOPS may
 * provide it); any other missing object an error.
 */
export function referenceFindings(referrers: readonly SourceObject[], targets: readonly SourceObject[], options: ReferenceOptions = {}): Finding[] {
  const index = new TreeIndex(targets);
  const clusters = new Set(targets.filter((s) => s.object.kind === 'Cluster').map((s) => str(rec(s.object.metadata).name) ?? ''));
  const out: Finding[] = [];
  for (const s of referrers) {
    const kind = str(s.object.kind);
    const kindRules = kind ? rulesByKind.get(kind) : undefined;
    if (!kindRules || topologyOwned(s)) continue;
    const ns = str(rec(s.object.metadata).namespace);
    for (const rule of kindRules) {
      for (const at of valuesAt(s.object, rule.path)) {
        if (rule.unlessSibling && str(at.parent[rule.unlessSibling])) continue;
        const t = targetOf(rule, at.value, ns);
        if (!t || index.has(t.kind, t.namespace, t.name) || providedByControllers(t, clusters)) continue;
        const key = `${t.namespace ?? ''}/${t.name}`;
        if (t.kind === 'Secret' && options.omittedSecrets?.has(key)) continue;
        out.push(danglingFinding(s, at.field, t, index));
      }
    }
  }
  return out;
}

function danglingFinding(s: SourceObject, field: string, t: Target, index: TreeIndex): Finding {
  const what = `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}${t.group ? ` (${t.group})` : ''}`;
  if (t.kind === 'Secret') {
    return findingAt(s, {
      severity: 'warning',
      field,
      rule: 'ref/secret-not-in-tree',
      message: `${field}: references ${what}, which is not in the tree: the controller waits until it exists`,
      value: t.name,
      hint: 'provision the Secret before the cluster syncs (external-secrets, SOPS; secrets.policy "omit" leaves credentials out of the tree), or fix the name',
    });
  }
  const names = index.namesOf(t.kind);
  const close = names.filter((n) => closeName(n, t.name));
  const known = names.length === 0 ? `the tree holds no ${t.kind}` : `the tree's ${t.kind} objects: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  return findingAt(s, {
    severity: 'error',
    field,
    rule: 'ref/dangling',
    message: `${field}: references ${what}, which does not exist (${known})`,
    value: t.name,
    hint: close.length > 0 ? `did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : `add the ${t.kind} to the tree (the cluster's template or class), or fix the reference's kind, name and namespace`,
  });
}

/** Names at most two edits apart (a typo, a renamed cluster's `-md-0`). */
function closeName(a: string, b: string): boolean {
  return a !== b && Math.abs(a.length - b.length) <= 2 && levenshtein(a, b) <= 2;
}
