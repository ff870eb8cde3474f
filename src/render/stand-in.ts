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

// ---- helper C stand-ins (src/resolve, src/config/clusterctl) ----
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, basename, isAbsolute } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, ResolutionError } from '../errors.js';
import type { ProviderRepository } from '../resolve/repository.js';

export interface ProviderConfig {
  name: string;
  type: string;
  url: string;
}

export interface ClusterctlConfig {
  get(name: string): string | undefined;
  providers: ProviderConfig[];
  images: Record<string, { repository?: string; name?: string; tag?: string }>;
  overridesFolder: string | undefined;
}

export function loadClusterctlConfig(opts: { path?: string; env: NodeJS.ProcessEnv; cwd: string }): ClusterctlConfig {
  let doc: Record<string, unknown> = {};
  if (opts.path) {
    const p = isAbsolute(opts.path) ? opts.path : join(opts.cwd, opts.path);
    if (!existsSync(p)) throw new ConfigError(`config file ${p} does not exist`);
    doc = (parseYaml(readFileSync(p, 'utf8')) as Record<string, unknown>) ?? {};
  }
  const lower = new Map(Object.entries(doc).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    get: (name) => {
      const e = opts.env[name.toUpperCase().replace(/-/g, '_')];
      if (e !== undefined) return e;
      const v = lower.get(name.toLowerCase());
      if (v === undefined || v === null) return undefined;
      return typeof v === 'object' ? '' : String(v);
    },
    providers: (doc.providers as ProviderConfig[] | undefined) ?? [],
    images: (doc.images as ClusterctlConfig['images'] | undefined) ?? {},
    overridesFolder: undefined,
  };
}

export function parseProviderName(p: string): { name: string; version: string } {
  const parts = p.split(':');
  if (parts.length > 2 || !parts[0] || (parts.length === 2 && !parts[1])) {
    throw new ConfigError(`invalid provider name "${p}". Provider name should be in the form name[:version]`);
  }
  return { name: parts[0].toLowerCase(), version: parts[1] ?? '' };
}

export function createRepository(provider: ProviderConfig): ProviderRepository {
  const path = provider.url.replace(/^file:\/\//, '');
  if (!isAbsolute(path)) throw new ResolutionError(`invalid path: path "${provider.url}" must be an absolute path`);
  const file = basename(path);
  const versionDir = dirname(path);
  const base = dirname(versionDir);
  const defaultVersion = basename(versionDir);
  return {
    kind: 'local',
    url: provider.url,
    componentsFile: file,
    defaultVersion,
    rootPath: '.',
    listVersions: async () => readdirSync(base).filter((d) => /^v?\d+\.\d+\.\d+/.test(d)),
    getFile: async (version, f) => {
      const p = join(base, version, f);
      if (!existsSync(p) || statSync(p).isDirectory()) return null;
      return readFileSync(p);
    },
    fileLocation: (version, f) => join(base, version, f),
    listFiles: async (version) => (existsSync(join(base, version)) ? readdirSync(join(base, version)) : null),
  };
}

export interface Metadata {
  releaseSeries: { major: number; minor: number; contract: string }[];
}

export async function readMetadata(repo: ProviderRepository, version: string, label: string): Promise<Metadata> {
  const bytes = await repo.getFile(version, 'metadata.yaml');
  if (bytes === null) {
    throw new ResolutionError(`failed to read "metadata.yaml" from the repository for provider "${label}"`);
  }
  const doc = parseYaml(Buffer.from(bytes).toString('utf8')) as Metadata;
  return { releaseSeries: doc.releaseSeries ?? [] };
}
