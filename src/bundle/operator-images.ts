/**
 * The workloads a Cluster API Operator runs for a provider written in operator form (`providers/<label>/operator.yaml`:
 * its Namespace, its release in a ConfigMap and the provider object). The tree holds the upstream components, not
 * what runs: the operator installs them into the provider object's namespace, customizes them as cluster-api-operator's
 * component_customizer.go does, then applies `spec.patches` (phase_fetch.go), and so does this module:
 * - `spec.deployment.containers[].imageUrl` replaces the image of the container of that name (containers, not init
 *   containers) of the provider's Deployment; when the components hold several Deployments, only those named
 *   `ca*-controller-manager` are customized (capiform writes no `additionalDeployments`);
 * - `spec.patches` (RFC 6902 operations, target by group, version, kind, name and namespace) apply afterwards.
 * An air gap needs these images even though the operator, not the tree, holds the components.
 */
import { gunzipSync } from 'node:zlib';
import type { ResolvedProvider } from '../config/index.js';
import { InputError } from '../errors.js';
import { applyJsonPatches, operatorApiVersion, operatorKinds } from '../render/index.js';
import { MAX_MANIFEST_SIZE, parseManifests, splitDocuments, type KubeObject } from '../yaml/index.js';
import { asObject as rec } from '../go/index.js';

type Obj = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const operatorGroup = operatorApiVersion.slice(0, operatorApiVersion.indexOf('/') + 1);
const providerObjectLine = new RegExp(`^apiVersion:[ \\t]*["']?${operatorGroup.replace(/\./g, '\\.')}`, 'm');
const workloadKind = /^kind:[ \t]*["']?(Deployment|DaemonSet)["']?[ \t]*$/m;

/** True when a provider file is in operator form (holds an operator provider object). */
export function isOperatorForm(text: string): boolean {
  return providerObjectLine.test(text);
}

function nameOf(o: Obj): string {
  return str(rec(o.metadata)?.name) ?? '';
}

/** The release components a ConfigMap holds: `data.components`, or gzip in `binaryData` when marked compressed. */
function componentsOf(cm: Obj, where: string): string | undefined {
  const plain = str(rec(cm.data)?.components);
  if (plain !== undefined) return plain;
  const packed = str(rec(cm.binaryData)?.components);
  if (packed === undefined) return undefined;
  try {
    return gunzipSync(Buffer.from(packed, 'base64'), { maxOutputLength: MAX_MANIFEST_SIZE }).toString('utf8');
  } catch (err) {
    throw new InputError(`${where}: ConfigMap ${nameOf(cm)}: binaryData.components is not a gzip stream of at most ${MAX_MANIFEST_SIZE} bytes: ${(err as Error).message}`, {
      where,
      hint: 'run `capiform render` to write the provider again',
    });
  }
}

/** The ConfigMap the provider object's `fetchConfig.selector` picks for its `spec.version`. */
function selectedConfigMap(provider: Obj, configMaps: readonly Obj[]): Obj | undefined {
  const spec = rec(provider.spec) ?? {};
  const match = rec(rec(rec(spec.fetchConfig)?.selector)?.matchLabels) ?? {};
  const version = str(spec.version);
  return configMaps.find((cm) => {
    const labels = rec(rec(cm.metadata)?.labels) ?? {};
    return Object.entries(match).every(([k, v]) => labels[k] === v) && (version === undefined || labels['provider.cluster.x-k8s.io/version'] === version);
  });
}

/** The operator's selection for `spec.deployment`: the one Deployment, or the `ca*-controller-manager` ones. */
function customizedDeployments(workloads: readonly KubeObject[]): KubeObject[] {
  const deployments = workloads.filter((o) => o.kind === 'Deployment');
  if (deployments.length <= 1) return deployments;
  return deployments.filter((d) => nameOf(d).startsWith('ca') && nameOf(d).endsWith('-controller-manager'));
}

function containersOf(o: Obj): Obj[] {
  const list = rec(rec(rec(o.spec)?.template)?.spec)?.containers;
  return Array.isArray(list) ? list.map(rec).filter((c): c is Obj => c !== undefined) : [];
}

/** `spec.patches` as RFC 6902 patches, applied to the workloads their target selects. */
function applyOperatorPatches(workloads: KubeObject[], provider: Obj, where: string): void {
  const patches = rec(provider.spec)?.patches;
  if (!Array.isArray(patches)) return;
  patches.forEach((entry, i) => {
    const t = rec(rec(entry)?.target) ?? {};
    const text = str(rec(entry)?.patch) ?? '';
    let ops: unknown;
    try {
      ops = JSON.parse(text);
    } catch {
      ops = undefined;
    }
    if (!Array.isArray(ops)) {
      throw new InputError(`${where}: ${String(provider.kind)} ${nameOf(provider)}: spec.patches[${i}].patch is not a JSON array of RFC 6902 operations`, { where });
    }
    const group = str(t.group);
    const version = str(t.version);
    const apiVersion = version === undefined ? undefined : group ? `${group}/${version}` : version;
    const selected = workloads.filter((o) => {
      const m = rec(o.metadata);
      const gv = String(o.apiVersion ?? '');
      const slash = gv.lastIndexOf('/');
      return (
        (group === undefined || gv.slice(0, Math.max(slash, 0)) === group) &&
        (version === undefined || gv.slice(slash + 1) === version) &&
        (t.kind === undefined || o.kind === t.kind) &&
        (t.name === undefined || m?.name === t.name) &&
        (t.namespace === undefined || m?.namespace === t.namespace)
      );
    });
    // A patch of another kind (a Service, a CRD) changes no image.
    if (selected.length === 0) return;
    const target = { ...(apiVersion !== undefined ? { apiVersion } : {}), ...(str(t.kind) ? { kind: str(t.kind) } : {}), ...(str(t.name) ? { name: str(t.name) } : {}), ...(str(t.namespace) ? { namespace: str(t.namespace) } : {}) };
    applyJsonPatches(selected, [{ target, patch: ops as ResolvedProvider['patches'][number]['patch'] }], `${where}: ${String(provider.kind)} ${nameOf(provider)}.spec`, nameOf(provider));
  });
}

/**
 * The Deployments and DaemonSets the operator runs for each provider object of an operator-form file, as it
 * runs them (namespace, images, patches). A provider object whose ConfigMap is missing is an error: its images
 * would be unknown.
 */
export function operatorWorkloads(text: string, file: string): KubeObject[] {
  const docs = splitDocuments(text, file)
    .map((c) => text.slice(c.start, c.end))
    .filter((d) => providerObjectLine.test(d) || /^kind:[ \t]*["']?ConfigMap["']?[ \t]*$/m.test(d));
  const objects = docs.length === 0 ? [] : parseManifests(docs.join('\n---\n'), { source: file });
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  const out: KubeObject[] = [];
  for (const provider of objects) {
    if (!String(provider.apiVersion ?? '').startsWith(operatorGroup) || !(String(provider.kind) in operatorKinds)) continue;
    const cm = selectedConfigMap(provider, configMaps);
    const components = cm ? componentsOf(cm, file) : undefined;
    if (components === undefined) {
      throw new InputError(`${file}: ${String(provider.kind)} ${nameOf(provider)} selects no ConfigMap holding the components of ${String(rec(provider.spec)?.version)}, so the images it runs are unknown`, {
        where: file,
        hint: 'run `capiform render` to write the provider again',
      });
    }
    const source = `${file} (ConfigMap ${nameOf(cm!)})`;
    const kept = splitDocuments(components, source)
      .map((c) => components.slice(c.start, c.end))
      .filter((d) => workloadKind.test(d));
    const workloads = kept.length === 0 ? [] : parseManifests(kept.join('\n---\n'), { source });
    const namespace = str(rec(provider.metadata)?.namespace);
    if (namespace) for (const w of workloads) w.metadata = { ...rec(w.metadata), namespace };
    const images = rec(rec(provider.spec)?.deployment)?.containers;
    for (const d of customizedDeployments(workloads)) {
      for (const want of Array.isArray(images) ? images.map(rec) : []) {
        const url = str(want?.imageUrl);
        const c = containersOf(d).find((x) => x.name === want?.name);
        if (url !== undefined && c) c.image = url;
      }
    }
    applyOperatorPatches(workloads, provider, file);
    out.push(...workloads);
  }
  return out;
}
