/** Common labels (spec §2.6), the final object order (§2.5) and the cert-manager labels/annotation (§6). */
import { isObject as isObj } from '../../go/index.js';

type Obj = Record<string, unknown>;

export const CLUSTERCTL_LABEL = 'clusterctl.cluster.x-k8s.io';
export const PROVIDER_LABEL = 'cluster.x-k8s.io/provider';
export const CORE_LABEL = 'clusterctl.cluster.x-k8s.io/core';
export const CERT_MANAGER_VERSION_ANNOTATION = 'cert-manager.clusterctl.cluster.x-k8s.io/version';

/**
 * unstructured `GetLabels`/`GetAnnotations`: the string map, or nothing when any value is not a string (Go's
 * `NestedStringMap` fails and the getter returns nil, so those labels are replaced).
 */
function stringMap(v: unknown): Obj | undefined {
  if (!isObj(v)) return undefined;
  for (const k of Object.keys(v)) if (typeof v[k] !== 'string') return undefined;
  return v;
}

/** Sets `metadata.<field>` entries (labels or annotations), creating the map when absent. */
export function setMetaEntries(o: Obj, field: 'labels' | 'annotations', entries: Record<string, string>): Obj {
  const meta = isObj(o.metadata) ? o.metadata : undefined;
  const current = stringMap(meta?.[field]);
  if (current && Object.keys(entries).every((k) => current[k] === entries[k])) return o;
  const next: Obj = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(entries)) next[k] = v;
  return { ...o, metadata: { ...(meta ?? {}), [field]: next } };
}

export function commonLabels(manifestLabel: string): Record<string, string> {
  return { [CLUSTERCTL_LABEL]: '', [PROVIDER_LABEL]: manifestLabel };
}

/** `addCommonLabels`: on every object, overwriting these two keys and keeping other labels. */
export function addCommonLabels(objs: Obj[], manifestLabel: string): Obj[] {
  const labels = commonLabels(manifestLabel);
  return objs.map((o) => setMetaEntries(o, 'labels', labels));
}

/** The API group of an apiVersion (`cert-manager.io/v1` → `cert-manager.io`, `v1` → ``). */
export function groupOf(apiVersion: unknown): string {
  const v = typeof apiVersion === 'string' ? apiVersion : '';
  const i = v.indexOf('/');
  return i < 0 ? '' : v.slice(0, i);
}

/**
 * The order `sort.SliceStable` gives with clusterctl's comparator (spec §2.5), in closed form:
 * [Namespace objects] + [cert-manager.io objects, reversed] + [everything else, in input order].
 */
export function sortComponents<T>(objs: T[], kind: (o: T) => string, group: (o: T) => string): T[] {
  const ns: T[] = [];
  const cm: T[] = [];
  const rest: T[] = [];
  for (const o of objs) {
    if (kind(o) === 'Namespace') ns.push(o);
    else if (group(o) === 'cert-manager.io') cm.push(o);
    else rest.push(o);
  }
  return [...ns, ...cm.reverse(), ...rest];
}
