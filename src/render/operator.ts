/**
 * The Cluster API Operator's provider objects (operator.cluster.x-k8s.io/v1alpha2 CoreProvider, BootstrapProvider, …)
 * for the locked providers, carrying the config's settings in the operator's own fields, so the operator applies to
 * the upstream components what `capiform render` applies to the tree:
 * - `manager` → `spec.manager` (the operator turns it into the same flags on the `manager` container);
 * - `deployment` → `spec.deployment`; image overrides (`images:` and `deployment.containers[].image`) →
 *   `spec.deployment.containers[].imageUrl` of every container of the manager Deployment;
 * - variables → `spec.configSecret`, a reference only: the Secret is provisioned out of band (external-secrets,
 *   SOPS), so no variable value, credential or not, is written;
 * - RFC 6902 `patches` → `spec.patches` (target by group, version, kind, name, namespace).
 * With each provider object goes a ConfigMap holding the upstream release it selects (`fetchConfig.selector`), so the
 * operator installs exactly the locked bytes, offline: `bundle --operator` and `render` with `output: 'operator'`.
 * Pure: the caller passes the release files, the rendered components and the config's settings.
 */
import { asObject as rec, compareGoStrings } from '../go/index.js';
import { gzipReproducible } from '../cache/index.js';
import type { ResolvedConfig, ResolvedProvider } from '../config/index.js';
import { alterImage, type ImageOverrides } from './components/index.js';
import { emitObject, parseManifests } from '../yaml/index.js';

type Obj = Record<string, unknown>;

/** The operator's kind and `provider.cluster.x-k8s.io/type` label value per clusterctl provider type. */
export const operatorKinds: Readonly<Record<string, { kind: string; type: string }>> = {
  CoreProvider: { kind: 'CoreProvider', type: 'core' },
  BootstrapProvider: { kind: 'BootstrapProvider', type: 'bootstrap' },
  ControlPlaneProvider: { kind: 'ControlPlaneProvider', type: 'controlplane' },
  InfrastructureProvider: { kind: 'InfrastructureProvider', type: 'infrastructure' },
  IPAMProvider: { kind: 'IPAMProvider', type: 'ipam' },
  RuntimeExtensionProvider: { kind: 'RuntimeExtensionProvider', type: 'runtimeextension' },
  AddonProvider: { kind: 'AddonProvider', type: 'addon' },
};

export const operatorApiVersion = 'operator.cluster.x-k8s.io/v1alpha2';

/** What the provider objects carry from the config. */
export type OperatorSettings = Pick<ResolvedConfig, 'providers' | 'variables' | 'images'>;

/** One locked provider as the operator sees it. */
export interface OperatorProviderInput {
  readonly name: string;
  readonly type: string;
  readonly label: string;
  readonly version: string;
  /** The namespace the rendered components install into. */
  readonly namespace: string;
  /** `fetchConfig` of the provider object (a ConfigMap selector in a bundle). */
  readonly fetchConfig?: Obj;
  /** The rendered `providers/<label>/components.yaml`, for the images the tree uses. */
  readonly renderedComponents?: string;
}

/** The Secret a provider's `configSecret` names: `<label>-variables` in the provider's namespace. */
export function configSecretName(label: string): string {
  return `${label}-variables`;
}

function sortedRecord<T>(r: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.keys(r).sort(compareGoStrings).map((k) => [k, r[k]!]));
}

/** `spec.manager`: ProviderSpec.ManagerSpec, field by field from the config's `manager`. */
function managerSpec(m: NonNullable<ResolvedProvider['manager']>): Obj | undefined {
  const out: Obj = {};
  if (m.syncPeriod !== undefined) out.syncPeriod = m.syncPeriod;
  if (m.metricsBindAddress !== undefined) out.metrics = { bindAddress: m.metricsBindAddress };
  if (m.healthAddr !== undefined) out.health = { healthProbeBindAddress: m.healthAddr };
  if (m.profilerAddress !== undefined) out.profilerAddress = m.profilerAddress;
  if (m.maxConcurrentReconciles !== undefined) out.maxConcurrentReconciles = m.maxConcurrentReconciles;
  if (m.verbosity !== undefined) out.verbosity = m.verbosity;
  if (m.featureGates && Object.keys(m.featureGates).length > 0) out.featureGates = sortedRecord(m.featureGates);
  if (m.additionalArgs && Object.keys(m.additionalArgs).length > 0) out.additionalArgs = sortedRecord(m.additionalArgs);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Container name → image of the Deployment(s) with a `manager` container in the rendered components. */
function renderedManagerImages(text: string | undefined): Map<string, string> {
  const images = new Map<string, string>();
  if (text === undefined) return images;
  for (const o of parseManifests(text)) {
    if (o.kind !== 'Deployment') continue;
    const containers = rec(rec(rec(o.spec)?.template)?.spec)?.containers;
    if (!Array.isArray(containers) || !containers.some((c) => rec(c)?.name === 'manager')) continue;
    for (const c of containers) {
      const name = rec(c)?.name;
      const image = rec(c)?.image;
      if (typeof name === 'string' && typeof image === 'string' && !images.has(name)) images.set(name, image);
    }
  }
  return images;
}

/** `spec.deployment`: ProviderSpec.DeploymentSpec, with `imageUrl` wherever the config relocates an image. */
function deploymentSpec(p: ResolvedProvider, relocated: boolean, rendered: Map<string, string>): Obj | undefined {
  const d = p.deployment;
  const out: Obj = {};
  if (d?.replicas !== undefined) out.replicas = d.replicas;
  if (d?.nodeSelector) out.nodeSelector = sortedRecord(d.nodeSelector);
  if (d?.tolerations) out.tolerations = structuredClone(d.tolerations);
  if (d?.affinity) out.affinity = structuredClone(d.affinity);
  const containers = new Map<string, Obj>();
  for (const c of d?.containers ?? []) {
    const spec: Obj = { name: c.name };
    const image = c.image ?? (relocated ? rendered.get(c.name) : undefined);
    if (image !== undefined) spec.imageUrl = image;
    if (c.args) spec.args = sortedRecord(c.args);
    if (c.env) spec.env = structuredClone(c.env);
    if (c.resources) spec.resources = structuredClone(c.resources);
    containers.set(c.name, spec);
  }
  if (relocated) {
    for (const [name, image] of rendered) if (!containers.has(name)) containers.set(name, { name, imageUrl: image });
  }
  if (containers.size > 0) out.containers = [...containers.values()];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `spec.patches`: each RFC 6902 patch with its target; `apiVersion` splits into the selector's group and version. */
function patchesSpec(p: ResolvedProvider): Obj[] | undefined {
  if (p.patches.length === 0) return undefined;
  return p.patches.map((patch) => {
    const t = patch.target;
    const target: Obj = {};
    if (t.apiVersion !== undefined) {
      const slash = t.apiVersion.lastIndexOf('/');
      if (slash >= 0) target.group = t.apiVersion.slice(0, slash);
      target.version = t.apiVersion.slice(slash + 1);
    }
    if (t.kind !== undefined) target.kind = t.kind;
    if (t.name !== undefined) target.name = t.name;
    if (t.namespace !== undefined) target.namespace = t.namespace;
    return { target, patch: JSON.stringify(patch.patch) };
  });
}

/** Names of the variables the provider's Secret must hold: the config's global variables and the provider's own. */
export function configSecretKeys(settings: OperatorSettings, p: ResolvedProvider | undefined): string[] {
  return [...new Set([...Object.keys(settings.variables), ...Object.keys(p?.variables ?? {})])].sort(compareGoStrings);
}

/** The config entry of a locked provider (same type and name). */
export function configuredProvider(settings: OperatorSettings | undefined, lock: { type: string; name: string }): ResolvedProvider | undefined {
  return settings?.providers.find((p) => p.type === lock.type && p.name === lock.name);
}

/**
 * The provider object as YAML, preceded by a comment naming the Secret it references and the keys that Secret must
 * hold; `undefined` for a provider type the operator does not manage.
 */
export function operatorProviderYaml(input: OperatorProviderInput, settings: OperatorSettings | undefined): string | undefined {
  const k = operatorKinds[input.type];
  if (!k) return undefined;
  const p = configuredProvider(settings, input);
  const spec: Obj = { version: input.version };
  if (p?.manager) {
    const m = managerSpec(p.manager);
    if (m) spec.manager = m;
  }
  // The config's `images:` and the provider's own, as the render applied them (clusterctl's keys: all, label, label/name).
  const overrides: ImageOverrides = { ...settings?.images, ...(p?.images ? { [input.label]: { ...p.images } } : {}) };
  const relocated = Object.keys(overrides).some((key) => key === 'all' || key === input.label || key.startsWith(`${input.label}/`));
  if (p) {
    const images = new Map<string, string>();
    // Applying an override twice gives the same image, so a tree rendered with or without it yields the same URL.
    if (relocated) for (const [name, image] of renderedManagerImages(input.renderedComponents)) images.set(name, alterImage(input.label, image, overrides));
    const d = deploymentSpec(p, relocated, images);
    if (d) spec.deployment = d;
  }
  const keys = settings ? configSecretKeys(settings, p) : [];
  let header = '';
  if (keys.length > 0) {
    spec.configSecret = { name: configSecretName(input.label), namespace: input.namespace };
    header =
      `# spec.configSecret: create Secret ${input.namespace}/${configSecretName(input.label)} out of band (external-secrets, SOPS);\n` +
      `# capiform writes no variable values. Keys (from capi.config): ${keys.join(', ')}\n`;
  }
  if (input.fetchConfig) spec.fetchConfig = input.fetchConfig;
  if (p) {
    const patches = patchesSpec(p);
    if (patches) spec.patches = patches;
  }
  const obj = { apiVersion: operatorApiVersion, kind: k.kind, metadata: { name: input.name, namespace: input.namespace }, spec };
  return header + emitObject(obj);
}

/** A ConfigMap holds at most 1 MiB; bigger components go gzip-compressed in `binaryData` (operator annotation). */
const maxPlainComponents = 900 * 1024;

function q(s: string): string {
  return JSON.stringify(s);
}

function literal(text: string, indent: string): string {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `|${text.endsWith('\n') ? '' : '-'}\n${body.split('\n').slice(0, -1).map((l) => (l === '' ? '' : indent + l)).join('\n')}\n`;
}

/** One provider's release for the operator: the upstream files and where the render installs it. */
export interface OperatorRelease extends Omit<OperatorProviderInput, 'fetchConfig'> {
  /** The upstream components file, as released (the operator applies the settings itself). */
  readonly components: string;
  /** The release's metadata.yaml. */
  readonly metadata: string;
}

/**
 * The provider's Namespace, the ConfigMap holding its release (labelled `provider.cluster.x-k8s.io/name`, `/type`,
 * `/version`) and the provider object selecting it; `undefined` for a type the operator does not manage.
 */
export function operatorManifests(release: OperatorRelease, settings: OperatorSettings | undefined): string | undefined {
  const k = operatorKinds[release.type];
  if (!k) return undefined;
  const labels = { 'provider.cluster.x-k8s.io/name': release.name, 'provider.cluster.x-k8s.io/type': k.type };
  const ns = release.namespace;
  const compressed = Buffer.byteLength(release.components) > maxPlainComponents;
  let cm = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${q(`${k.type}-${release.name}-${release.version}`)}\n  namespace: ${q(ns)}\n  labels:\n`;
  for (const [l, v] of Object.entries({ ...labels, 'provider.cluster.x-k8s.io/version': release.version })) cm += `    ${l}: ${q(v)}\n`;
  if (compressed) cm += `  annotations:\n    provider.cluster.x-k8s.io/compressed: "true"\n`;
  cm += `data:\n  metadata: ${literal(release.metadata, '    ')}`;
  if (compressed) cm += `binaryData:\n  components: ${gzipReproducible(Buffer.from(release.components), 9).toString('base64')}\n`;
  else cm += `  components: ${literal(release.components, '    ')}`;
  const { components: _c, metadata: _m, ...input } = release;
  const provider = operatorProviderYaml({ ...input, fetchConfig: { selector: { matchLabels: labels } } }, settings)!;
  return `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${q(ns)}\n---\n${cm}---\n${provider}`;
}
