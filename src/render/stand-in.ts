/**
 * TEMPORARY stand-ins for teammates' modules that have not landed yet (envsubst: helper A; yaml + components:
 * helper B). Only the narrow surface generate needs, against the fixed interfaces in the team plan. Deleted as soon as
 * the real modules are on main.
 */
import { parseAllDocuments, stringify } from 'yaml';
import { InputError } from '../errors.js';
import { manifestLabel } from '../resolve/provider-type.js';

export type KubeObject = Record<string, unknown>;

export function parseManifests(text: string, opts: { source?: string } = {}): KubeObject[] {
  const out: KubeObject[] = [];
  const docs = text.split(/^---[ \t]*(?:#.*)?$/m);
  docs.forEach((doc) => {
    for (const d of parseAllDocuments(doc, { version: '1.1' })) {
      if (d.errors.length > 0) {
        throw new InputError(`failed to unmarshal the ${out.length + 1}th yaml document: ${JSON.stringify(doc)}`, {
          where: opts.source,
        });
      }
      const v: unknown = d.toJS();
      if (v === null || v === undefined) continue;
      out.push(v as KubeObject);
    }
  });
  return out;
}

export function emitManifests(objs: KubeObject[]): string {
  return objs.map((o) => stringify(o, { version: '1.1', lineWidth: 0 })).join('---\n');
}

const clusterScoped = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'PodSecurityPolicy', 'CertificateSigningRequest', 'ClusterRoleBinding',
  'ClusterRole', 'VolumeAttachment', 'StorageClass', 'CSIDriver', 'CSINode', 'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration', 'CustomResourceDefinition', 'PriorityClass', 'RuntimeClass',
]);

function meta(o: KubeObject): Record<string, unknown> {
  if (typeof o.metadata !== 'object' || o.metadata === null) o.metadata = {};
  return o.metadata as Record<string, unknown>;
}

export function fixTargetNamespace(objs: KubeObject[], ns: string): KubeObject[] {
  for (const o of objs) {
    if (o.kind === 'Namespace') meta(o).name = ns;
    if (!clusterScoped.has(String(o.kind))) meta(o).namespace = ns;
  }
  return objs;
}

export interface Components {
  objects: KubeObject[];
  yaml(): string;
  images: string[];
  targetNamespace: string;
  inventoryObject(): KubeObject;
}

export function renderComponents(input: {
  text: string;
  providerName: string;
  providerType: string;
  manifestLabel: string;
  version: string;
  targetNamespace?: string;
  images?: unknown;
  source?: string;
}): Components {
  const objs = parseManifests(input.text, { source: input.source });
  const nss = objs.filter((o) => o.kind === 'Namespace');
  if (nss.length > 1) {
    throw new InputError(
      'failed to detect default target namespace: Invalid manifest. There should be no more than one resource with Kind Namespace in the provider components yaml',
    );
  }
  const ns = input.targetNamespace || String(nss[0] ? meta(nss[0]).name : '');
  if (!ns) throw new InputError("target namespace can't be defaulted. Please specify a target namespace");
  if (nss.length === 0) objs.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  fixTargetNamespace(objs, ns);
  const label = manifestLabel(input.providerName, input.providerType);
  for (const o of objs) {
    const m = meta(o);
    m.labels = { ...((m.labels as object) ?? {}), 'clusterctl.cluster.x-k8s.io': '', 'cluster.x-k8s.io/provider': label };
  }
  const ordered = [...objs.filter((o) => o.kind === 'Namespace'), ...objs.filter((o) => o.kind !== 'Namespace')];
  return {
    objects: ordered,
    yaml: () => emitManifests(ordered),
    images: [],
    targetNamespace: ns,
    inventoryObject: () => ({}),
  };
}

