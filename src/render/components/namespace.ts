/**
 * Target namespace handling of clusterctl's components (spec §2.2–§2.4): `inspectTargetNamespace`,
 * `addNamespaceIfMissing`, `fixTargetNamespace` (also used for cluster templates), and the 16 kinds clusterctl
 * treats as cluster-scoped. Objects are plain JSON; every function returns new objects and leaves its input alone.
 */
import { InputError } from '../../errors.js';
import {
  CustomResourceDefinitionV1,
  CustomResourceDefinitionV1beta1,
  MutatingWebhookConfigurationV1,
  MutatingWebhookConfigurationV1beta1,
  RoleBinding,
  typedRoundTrip,
  ValidatingWebhookConfigurationV1,
  ValidatingWebhookConfigurationV1beta1,
} from './typed-roundtrip.js';
import { isObject as isObj } from '../../go/index.js';

type Obj = Record<string, unknown>;

/** `util.IsResourceNamespaced`: every kind but these is namespaced, whatever its group. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'PodSecurityPolicy',
  'CertificateSigningRequest',
  'ClusterRoleBinding',
  'ClusterRole',
  'VolumeAttachment',
  'StorageClass',
  'CSIDriver',
  'CSINode',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'CustomResourceDefinition',
  'PriorityClass',
  'RuntimeClass',
]);

export function isResourceNamespaced(kind: string): boolean {
  return !CLUSTER_SCOPED_KINDS.has(kind);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const kindOf = (o: Obj): string => str(o.kind);
export const metaOf = (o: Obj): Obj => (isObj(o.metadata) ? o.metadata : {});
export const nameOf = (o: Obj): string => str(metaOf(o).name);

/** unstructured `SetNestedField(metadata.<field>)`; an empty value removes the field, as Set{Name,Namespace} do. */
function setMeta(o: Obj, field: string, value: string): Obj {
  const meta = isObj(o.metadata) ? o.metadata : undefined;
  if (value === '') {
    if (!meta || !(field in meta)) return o;
    const m = { ...meta };
    delete m[field];
    return { ...o, metadata: m };
  }
  if (meta && meta[field] === value) return o;
  return { ...o, metadata: { ...(meta ?? {}), [field]: value } };
}

/** `inspectTargetNamespace`: the name of the single Namespace object, '' if none. */
export function inspectTargetNamespace(objs: Obj[]): string {
  let ns = '';
  let count = 0;
  for (const o of objs) {
    if (kindOf(o) !== 'Namespace') continue;
    count++;
    if (count > 1)
      throw new InputError(
        'Invalid manifest. There should be no more than one resource with Kind Namespace in the provider components yaml',
        { hint: 'A provider components file may define at most one Namespace object.' },
      );
    ns = nameOf(o);
  }
  return ns;
}

/** The Namespace object clusterctl appends when the components have none. */
export function namespaceObject(name: string): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** `addNamespaceIfMissing`: appends a Namespace object when no object has kind Namespace. */
export function addNamespaceIfMissing(objs: Obj[], targetNamespace: string): Obj[] {
  if (objs.some((o) => kindOf(o) === 'Namespace')) return objs;
  return [...objs, namespaceObject(targetNamespace)];
}

const INJECT_CA = 'cert-manager.io/inject-ca-from';

function fixInjectCaFrom(o: Obj, ns: string): Obj {
  const ann = metaOf(o).annotations;
  if (!isObj(ann) || !Object.prototype.hasOwnProperty.call(ann, INJECT_CA)) return o;
  const parts = str(ann[INJECT_CA]).split('/');
  if (parts.length !== 2)
    throw new InputError(`object ${kindOf(o)} ${nameOf(o)} does not have a correct value for ${INJECT_CA}`, {
      hint: `${INJECT_CA} must be <namespace>/<certificate name>.`,
    });
  const value = `${ns}/${parts[1]}`;
  if (ann[INJECT_CA] === value) return o;
  return { ...o, metadata: { ...metaOf(o), annotations: { ...ann, [INJECT_CA]: value } } };
}

function withServiceNamespace(cc: unknown, ns: string): unknown {
  if (!isObj(cc) || !isObj(cc.service)) return cc;
  if (cc.service.namespace === ns) return cc;
  return { ...cc, service: { ...cc.service, namespace: ns } };
}

function fixWebhooks(o: Obj, ns: string): Obj {
  const kind = kindOf(o);
  const v = str(o.apiVersion);
  const mutating = kind === 'MutatingWebhookConfiguration';
  let type;
  if (v === 'admissionregistration.k8s.io/v1')
    type = mutating ? MutatingWebhookConfigurationV1 : ValidatingWebhookConfigurationV1;
  else if (v === 'admissionregistration.k8s.io/v1beta1')
    type = mutating ? MutatingWebhookConfigurationV1beta1 : ValidatingWebhookConfigurationV1beta1;
  else throw new InputError(`failed to patch ${v} ${kind}`, { hint: 'Use admissionregistration.k8s.io/v1.' });
  const t = typedRoundTrip(o, type);
  const hooks = t.webhooks;
  if (!Array.isArray(hooks)) return t;
  let changed = false;
  const out = hooks.map((h: unknown) => {
    if (!isObj(h)) return h;
    const cc = withServiceNamespace(h.clientConfig, ns);
    if (cc === h.clientConfig) return h;
    changed = true;
    return { ...h, clientConfig: cc };
  });
  return changed ? { ...t, webhooks: out } : t;
}

function fixCRD(o: Obj, ns: string): Obj {
  const v = str(o.apiVersion);
  if (v === 'apiextensions.k8s.io/v1') {
    const t = typedRoundTrip(o, CustomResourceDefinitionV1);
    const spec = t.spec as Obj;
    const conv = spec.conversion;
    if (!isObj(conv) || !isObj(conv.webhook)) return t;
    const cc = withServiceNamespace(conv.webhook.clientConfig, ns);
    if (cc === conv.webhook.clientConfig) return t;
    return { ...t, spec: { ...spec, conversion: { ...conv, webhook: { ...conv.webhook, clientConfig: cc } } } };
  }
  if (v === 'apiextensions.k8s.io/v1beta1') {
    const t = typedRoundTrip(o, CustomResourceDefinitionV1beta1);
    const spec = t.spec as Obj;
    const conv = spec.conversion;
    if (!isObj(conv)) return t;
    const cc = withServiceNamespace(conv.webhookClientConfig, ns);
    if (cc === conv.webhookClientConfig) return t;
    return { ...t, spec: { ...spec, conversion: { ...conv, webhookClientConfig: cc } } };
  }
  throw new InputError(`failed to patch ${v} CustomResourceDefinition`, { hint: 'Use apiextensions.k8s.io/v1.' });
}

function fixRBAC(o: Obj, ns: string): Obj {
  const kind = kindOf(o);
  const v = str(o.apiVersion);
  if (v !== 'rbac.authorization.k8s.io/v1') {
    const ver = v.includes('/') ? v.slice(v.indexOf('/') + 1) : v;
    throw new InputError(`converting (${ver}.${kind}) to (v1.${kind}): unknown conversion`, {
      hint: 'Use rbac.authorization.k8s.io/v1.',
    });
  }
  const t = typedRoundTrip(o, RoleBinding);
  const subjects = t.subjects;
  if (!Array.isArray(subjects)) return t;
  let changed = false;
  const out = subjects.map((s: unknown) => {
    if (!isObj(s) || !s.namespace || s.namespace === ns) return s;
    changed = true;
    return { ...s, namespace: ns };
  });
  return changed ? { ...t, subjects: out } : t;
}

function fixCertificate(o: Obj, originalNamespace: string, ns: string): Obj {
  const spec = o.spec;
  if (!isObj(spec) || !Array.isArray(spec.dnsNames)) return o;
  if (!spec.dnsNames.every((d) => typeof d === 'string')) return o;
  const from = `.${originalNamespace}.`;
  const to = `.${ns}.`;
  const out = (spec.dnsNames as string[]).map((d) => d.replace(from, () => to));
  if (out.every((d, i) => d === (spec.dnsNames as string[])[i])) return o;
  return { ...o, spec: { ...spec, dnsNames: out } };
}

/** `fixTargetNamespace` for one object (spec §2.3). */
export function fixObjectNamespace(input: Obj, targetNamespace: string): Obj {
  let o = input;
  const kind = kindOf(o);
  if (kind === 'Namespace') o = setMeta(o, 'name', targetNamespace);
  const originalNamespace = str(metaOf(o).namespace);
  if (isResourceNamespaced(kind)) o = setMeta(o, 'namespace', targetNamespace);
  if (
    kind === 'MutatingWebhookConfiguration' ||
    kind === 'ValidatingWebhookConfiguration' ||
    kind === 'CustomResourceDefinition'
  ) {
    o = fixInjectCaFrom(o, targetNamespace);
    o = kind === 'CustomResourceDefinition' ? fixCRD(o, targetNamespace) : fixWebhooks(o, targetNamespace);
  }
  if (kind === 'Certificate') o = fixCertificate(o, originalNamespace, targetNamespace);
  if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') o = fixRBAC(o, targetNamespace);
  return o;
}

/** `fixTargetNamespace`: every object moved to `targetNamespace` (components and cluster templates alike). */
export function fixTargetNamespace(objs: Obj[], targetNamespace: string): Obj[] {
  return objs.map((o) => fixObjectNamespace(o, targetNamespace));
}
