/**
 * TEMPORARY narrow stand-ins for helper C's src/resolve primitives (createRepository for local folders, readMetadata,
 * the provider catalog). Delete this file when C's modules land on main; resolve-config.ts imports only from here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ResolutionError } from '../errors.js';
import type { ProviderRepository } from '../resolve/repository.js';

export interface ReleaseSeries {
  major: number;
  minor: number;
  contract: string;
}
export interface Metadata {
  releaseSeries: ReleaseSeries[];
}

export function createRepository(provider: { name: string; type: string; url: string }): ProviderRepository {
  const path = provider.url.replace(/^file:\/\//, '');
  if (!isAbsolute(path)) throw new ResolutionError(`invalid path: path "${provider.url}" must be an absolute path`);
  if (/^[a-z]+:\/\//.test(provider.url) && !provider.url.startsWith('file://')) {
    throw new ResolutionError(`remote repositories are not available yet: ${provider.url}`);
  }
  const base = dirname(dirname(path));
  return {
    kind: 'local',
    url: provider.url,
    componentsFile: basename(path),
    defaultVersion: basename(dirname(path)),
    rootPath: '.',
    listVersions: async () => (existsSync(base) ? readdirSync(base).filter((d) => /^v?\d+\.\d+\.\d+/.test(d)) : []),
    getFile: async (version, f) => {
      const p = join(base, version, f);
      if (!existsSync(p) || statSync(p).isDirectory()) return null;
      return readFile(p);
    },
    fileLocation: (version, f) => join(base, version, f),
    listFiles: async (version) => (existsSync(join(base, version)) ? readdirSync(join(base, version)) : null),
  };
}

export function parseMetadata(bytes: Uint8Array, label: string): Metadata {
  let doc: { releaseSeries?: ReleaseSeries[] } | null;
  try {
    doc = parseYaml(Buffer.from(bytes).toString('utf8')) as { releaseSeries?: ReleaseSeries[] } | null;
  } catch (err) {
    throw new ResolutionError(`error decoding "metadata.yaml" for provider "${label}": ${(err as Error).message}`);
  }
  const series = doc?.releaseSeries ?? [];
  if (series.length === 0) throw new ResolutionError(`invalid provider metadata: releaseSeries is empty in metadata.yaml for provider ${label}`);
  return { releaseSeries: series };
}

/** Names clusterctl knows without a URL (a subset, for the "unknown provider" message until C's catalog lands). */
export const catalogProviders: Record<string, string[]> = {
  CoreProvider: ['cluster-api'],
  BootstrapProvider: ['kubeadm', 'talos', 'microk8s', 'k0sproject-k0smotron', 'rke2', 'eks', 'kubekey-k3s', 'ck8s'],
  ControlPlaneProvider: ['kubeadm', 'talos', 'microk8s', 'k0sproject-k0smotron', 'rke2', 'nested', 'kamaji', 'kubekey-k3s', 'ck8s'],
  InfrastructureProvider: ['aws', 'azure', 'vsphere', 'metal3', 'docker', 'gcp', 'openstack', 'hetzner', 'digitalocean', 'ibmcloud', 'nutanix', 'oci', 'proxmox', 'tinkerbell', 'vcluster', 'byoh', 'packet', 'kubevirt', 'outscale', 'vcd', 'linode'],
  IPAMProvider: ['in-cluster', 'metal3', 'nutanix'],
  RuntimeExtensionProvider: ['nutanix'],
  AddonProvider: ['helm', 'rancher-turtles'],
};
