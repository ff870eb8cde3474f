/** clusterctl's provider types, manifest labels and install order (cmd/clusterctl/api/v1alpha3). */

export const providerTypes = [
  'CoreProvider',
  'BootstrapProvider',
  'ControlPlaneProvider',
  'InfrastructureProvider',
  'IPAMProvider',
  'RuntimeExtensionProvider',
  'AddonProvider',
] as const;
export type ProviderType = (typeof providerTypes)[number];

const prefixes: Record<ProviderType, string> = {
  CoreProvider: '',
  BootstrapProvider: 'bootstrap-',
  ControlPlaneProvider: 'control-plane-',
  InfrastructureProvider: 'infrastructure-',
  IPAMProvider: 'ipam-',
  RuntimeExtensionProvider: 'runtime-extension-',
  AddonProvider: 'addon-',
};

export function isProviderType(value: string): value is ProviderType {
  return (providerTypes as readonly string[]).includes(value);
}

/** `ManifestLabel(name, type)`: `infrastructure-aws`, `cluster-api`, `bootstrap-kubeadm`. Unknown types get no prefix. */
export function manifestLabel(name: string, type: string): string {
  return (isProviderType(type) ? prefixes[type] : '') + name;
}

/**
 * Where a provider type goes: the `generate provider` flag (`control-plane`, as clusterctl names it) and the
 * capi.config `providers` key (`controlPlane`). Both follow the manifest label prefix.
 */
export function providerTypePlace(type: string): { flag: string; key: string } | undefined {
  if (!isProviderType(type)) return undefined;
  const flag = prefixes[type].replace(/-$/, '') || 'core';
  return { flag, key: flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()) };
}

const componentsFiles: Record<ProviderType, string> = {
  CoreProvider: 'core-components.yaml',
  BootstrapProvider: 'bootstrap-components.yaml',
  ControlPlaneProvider: 'control-plane-components.yaml',
  InfrastructureProvider: 'infrastructure-components.yaml',
  IPAMProvider: 'ipam-components.yaml',
  RuntimeExtensionProvider: 'runtime-extension-components.yaml',
  AddonProvider: 'addon-components.yaml',
};

/** The components file clusterctl's convention names for a provider type (`infrastructure-components.yaml`). */
export function componentsFileName(type: string): string | undefined {
  return isProviderType(type) ? componentsFiles[type] : undefined;
}

/** `ProviderType.Order()`: Core 0 … Addon 6, anything else 99. */
export function providerTypeOrder(type: string): number {
  switch (type) {
    case 'CoreProvider':
      return 0;
    case 'BootstrapProvider':
      return 1;
    case 'ControlPlaneProvider':
      return 2;
    case 'InfrastructureProvider':
      return 3;
    case 'IPAMProvider':
      return 4;
    case 'RuntimeExtensionProvider':
      return 5;
    case 'AddonProvider':
      return 6;
    default:
      return 99;
  }
}

/** CLI flag → provider type (`--infrastructure aws`). */
export const providerTypeByFlag: Record<string, ProviderType> = {
  core: 'CoreProvider',
  bootstrap: 'BootstrapProvider',
  controlPlane: 'ControlPlaneProvider',
  infrastructure: 'InfrastructureProvider',
  ipam: 'IPAMProvider',
  runtimeExtension: 'RuntimeExtensionProvider',
  addon: 'AddonProvider',
};
