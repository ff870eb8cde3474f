/**
 * clusterctl's built-in provider list (`cmd/clusterctl/client/config/providers_client.go` `defaults()`), in source
 * order, at cluster-api commit ae7ff047db (v1.14.0 plus kairos-io-fleet and kairos-io, without hivelocity-hivelocity).
 * Every URL points at `/releases/latest/<components file>` on GitHub.
 */
import type { ProviderType } from '../capi/index.js';

export interface ProviderConfig {
  name: string;
  type: ProviderType | string;
  url: string;
}

const rows: [string, ProviderType, string][] = [
  ['cluster-api', 'CoreProvider', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/core-components.yaml'],
  ['kubeadm', 'BootstrapProvider', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/bootstrap-components.yaml'],
  ['kubekey-k3s', 'BootstrapProvider', 'https://github.com/kubesphere/kubekey/releases/latest/bootstrap-components.yaml'],
  ['talos', 'BootstrapProvider', 'https://github.com/siderolabs/cluster-api-bootstrap-provider-talos/releases/latest/bootstrap-components.yaml'],
  ['microk8s', 'BootstrapProvider', 'https://github.com/canonical/cluster-api-bootstrap-provider-microk8s/releases/latest/bootstrap-components.yaml'],
  ['rke2', 'BootstrapProvider', 'https://github.com/rancher/cluster-api-provider-rke2/releases/latest/bootstrap-components.yaml'],
  ['k0sproject-k0smotron', 'BootstrapProvider', 'https://github.com/k0sproject/k0smotron/releases/latest/bootstrap-components.yaml'],
  ['canonical-kubernetes', 'BootstrapProvider', 'https://github.com/canonical/cluster-api-k8s/releases/latest/bootstrap-components.yaml'],
  ['kairos-io', 'BootstrapProvider', 'https://github.com/kairos-io/cluster-api-provider-kairos/releases/latest/bootstrap-components.yaml'],
  ['kubeadm', 'ControlPlaneProvider', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/control-plane-components.yaml'],
  ['kubekey-k3s', 'ControlPlaneProvider', 'https://github.com/kubesphere/kubekey/releases/latest/control-plane-components.yaml'],
  ['talos', 'ControlPlaneProvider', 'https://github.com/siderolabs/cluster-api-control-plane-provider-talos/releases/latest/control-plane-components.yaml'],
  ['microk8s', 'ControlPlaneProvider', 'https://github.com/canonical/cluster-api-control-plane-provider-microk8s/releases/latest/control-plane-components.yaml'],
  ['nested', 'ControlPlaneProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-nested/releases/latest/control-plane-components.yaml'],
  ['kamaji', 'ControlPlaneProvider', 'https://github.com/clastix/cluster-api-control-plane-provider-kamaji/releases/latest/control-plane-components.yaml'],
  ['rke2', 'ControlPlaneProvider', 'https://github.com/rancher/cluster-api-provider-rke2/releases/latest/control-plane-components.yaml'],
  ['k0sproject-k0smotron', 'ControlPlaneProvider', 'https://github.com/k0sproject/k0smotron/releases/latest/control-plane-components.yaml'],
  ['canonical-kubernetes', 'ControlPlaneProvider', 'https://github.com/canonical/cluster-api-k8s/releases/latest/control-plane-components.yaml'],
  ['hosted-control-plane', 'ControlPlaneProvider', 'https://github.com/teutonet/cluster-api-provider-hosted-control-plane/releases/latest/control-plane-components.yaml'],
  ['kairos-io', 'ControlPlaneProvider', 'https://github.com/kairos-io/cluster-api-provider-kairos/releases/latest/control-plane-components.yaml'],
  ['linode-linode', 'InfrastructureProvider', 'https://github.com/linode/cluster-api-provider-linode/releases/latest/infrastructure-components.yaml'],
  ['aws', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/latest/infrastructure-components.yaml'],
  ['azure', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-azure/releases/latest/infrastructure-components.yaml'],
  ['docker', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api/releases/latest/infrastructure-components-development.yaml'],
  ['cloudscale-ch-cloudscale', 'InfrastructureProvider', 'https://github.com/cloudscale-ch/cluster-api-provider-cloudscale/releases/latest/infrastructure-components.yaml'],
  ['cloudstack', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-cloudstack/releases/latest/infrastructure-components.yaml'],
  ['digitalocean', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-digitalocean/releases/latest/infrastructure-components.yaml'],
  ['gcp', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-gcp/releases/latest/infrastructure-components.yaml'],
  ['tinkerbell-tinkerbell', 'InfrastructureProvider', 'https://github.com/tinkerbell/cluster-api-provider-tinkerbell/releases/latest/infrastructure-components.yaml'],
  ['metal3', 'InfrastructureProvider', 'https://github.com/metal3-io/cluster-api-provider-metal3/releases/latest/infrastructure-components.yaml'],
  ['nested', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-nested/releases/latest/infrastructure-components.yaml'],
  ['oci', 'InfrastructureProvider', 'https://github.com/oracle/cluster-api-provider-oci/releases/latest/infrastructure-components.yaml'],
  ['openstack', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-openstack/releases/latest/infrastructure-components.yaml'],
  ['sidero', 'InfrastructureProvider', 'https://github.com/siderolabs/sidero/releases/latest/infrastructure-components.yaml'],
  ['vcd', 'InfrastructureProvider', 'https://github.com/vmware/cluster-api-provider-cloud-director/releases/latest/infrastructure-components.yaml'],
  ['vsphere', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-vsphere/releases/latest/infrastructure-components.yaml'],
  ['maas', 'InfrastructureProvider', 'https://github.com/spectrocloud/cluster-api-provider-maas/releases/latest/infrastructure-components.yaml'],
  ['coxedge', 'InfrastructureProvider', 'https://github.com/coxedge/cluster-api-provider-coxedge/releases/latest/infrastructure-components.yaml'],
  ['byoh', 'InfrastructureProvider', 'https://github.com/vmware-tanzu/cluster-api-provider-bringyourownhost/releases/latest/infrastructure-components.yaml'],
  ['harvester-harvester', 'InfrastructureProvider', 'https://github.com/rancher-sandbox/cluster-api-provider-harvester/releases/latest/infrastructure-components.yaml'],
  ['hetzner', 'InfrastructureProvider', 'https://github.com/syself/cluster-api-provider-hetzner/releases/latest/infrastructure-components.yaml'],
  ['huawei', 'InfrastructureProvider', 'https://github.com/HuaweiCloudDeveloper/cluster-api-provider-huawei/releases/latest/infrastructure-components.yaml'],
  ['outscale', 'InfrastructureProvider', 'https://github.com/outscale/cluster-api-provider-outscale/releases/latest/infrastructure-components.yaml'],
  ['ibmcloud', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-ibmcloud/releases/latest/infrastructure-components.yaml'],
  ['nutanix', 'InfrastructureProvider', 'https://github.com/nutanix-cloud-native/cluster-api-provider-nutanix/releases/latest/infrastructure-components.yaml'],
  ['kubekey', 'InfrastructureProvider', 'https://github.com/kubesphere/kubekey/releases/latest/infrastructure-components.yaml'],
  ['kubevirt', 'InfrastructureProvider', 'https://github.com/kubernetes-sigs/cluster-api-provider-kubevirt/releases/latest/infrastructure-components.yaml'],
  ['vcluster', 'InfrastructureProvider', 'https://github.com/loft-sh/cluster-api-provider-vcluster/releases/latest/infrastructure-components.yaml'],
  ['virtink', 'InfrastructureProvider', 'https://github.com/smartxworks/cluster-api-provider-virtink/releases/latest/infrastructure-components.yaml'],
  ['proxmox', 'InfrastructureProvider', 'https://github.com/ionos-cloud/cluster-api-provider-proxmox/releases/latest/infrastructure-components.yaml'],
  ['k0sproject-k0smotron', 'InfrastructureProvider', 'https://github.com/k0sproject/k0smotron/releases/latest/infrastructure-components.yaml'],
  ['ionoscloud-ionoscloud', 'InfrastructureProvider', 'https://github.com/ionos-cloud/cluster-api-provider-ionoscloud/releases/latest/infrastructure-components.yaml'],
  ['vultr-vultr', 'InfrastructureProvider', 'https://github.com/vultr/cluster-api-provider-vultr/releases/latest/infrastructure-components.yaml'],
  ['opennebula', 'InfrastructureProvider', 'https://github.com/OpenNebula/cluster-api-provider-opennebula/releases/latest/infrastructure-components.yaml'],
  ['scaleway', 'InfrastructureProvider', 'https://github.com/scaleway/cluster-api-provider-scaleway/releases/latest/infrastructure-components.yaml'],
  ['metal-stack', 'InfrastructureProvider', 'https://github.com/metal-stack/cluster-api-provider-metal-stack/releases/latest/infrastructure-components.yaml'],
  ['oxide', 'InfrastructureProvider', 'https://github.com/oxidecomputer/cluster-api-provider-oxide/releases/latest/infrastructure-components.yaml'],
  ['kubeswift-io', 'InfrastructureProvider', 'https://github.com/kubeswift-io/cluster-api-provider-kubeswift/releases/latest/infrastructure-components.yaml'],
  ['kairos-io-fleet', 'InfrastructureProvider', 'https://github.com/kairos-io/cluster-api-provider-kairos-fleet/releases/latest/infrastructure-components.yaml'],
  ['in-cluster', 'IPAMProvider', 'https://github.com/kubernetes-sigs/cluster-api-ipam-provider-in-cluster/releases/latest/ipam-components.yaml'],
  ['metal3', 'IPAMProvider', 'https://github.com/metal3-io/ip-address-manager/releases/latest/ipam-components.yaml'],
  ['nutanix', 'IPAMProvider', 'https://github.com/nutanix-cloud-native/cluster-api-ipam-provider-nutanix/releases/latest/ipam-components.yaml'],
  ['rancher-fleet', 'AddonProvider', 'https://github.com/rancher/cluster-api-addon-provider-fleet/releases/latest/addon-components.yaml'],
  ['helm', 'AddonProvider', 'https://github.com/kubernetes-sigs/cluster-api-addon-provider-helm/releases/latest/addon-components.yaml'],
  ['eitco-cdk8s', 'AddonProvider', 'https://github.com/eitco/cluster-api-addon-provider-cdk8s/releases/latest/addon-components.yaml'],
  ['nutanix', 'RuntimeExtensionProvider', 'https://github.com/nutanix-cloud-native/cluster-api-runtime-extensions-nutanix/releases/latest/runtime-extensions-components.yaml'],
];

/** The 66 built-in providers, in clusterctl's source order (not sorted; `listProviders` sorts). */
export const builtinProviders: readonly Readonly<ProviderConfig>[] = Object.freeze(
  rows.map(([name, type, url]) => Object.freeze({ name, type, url })),
);

/** The cert-manager pseudo-provider clusterctl feeds through the repository factory (label `cert-manager`). */
export const certManagerProviderName = 'cert-manager';
