/**
 * The template kinds whose validating webhook refuses a spec change under the same name (an update of the object),
 * read from the webhooks of CAPI and of the providers the corpus ships. `templates.hashNames` renames exactly these
 * (plus KubeadmConfigTemplates, whose webhook lets updates through but whose existing Machines never pick a change
 * up), and `diff` reports an in-place edit of one as rejected.
 *
 * Looked at and left out because their webhook accepts spec updates: KubeadmConfigTemplate
 * (bootstrap/kubeadm/internal/webhooks/kubeadmconfigtemplate.go validates the new object only), Metal3MachineTemplate
 * and Metal3ClusterTemplate (metal3-io/cluster-api-provider-metal3 internal/webhooks/v1beta2/*_webhook.go), and
 * DockerMachinePoolTemplate (CAPD registers no webhook for it).
 */

export interface ImmutableTemplate {
  /** API group of the kind. */
  readonly group: string;
  readonly kind: string;
  /** Who serves the webhook, as a user names the provider. */
  readonly provider: string;
  /** The field path the webhook reports, as it prints it. */
  readonly field: string;
  /** The part of the object compared (dotted path from the object's root). */
  readonly compared: readonly string[];
  /** The webhook's message, without the Go diff it appends. */
  readonly message: string;
  /** `owner/repo path` of the webhook, and the releases it was read at. */
  readonly source: string;
  /**
   * Fields (relative to `compared`) the webhook copies from the new object when the old one leaves them unset, so
   * setting them for the first time is accepted.
   */
  readonly adoptedWhenUnset?: readonly string[];
  /**
   * Values older releases defaulted (paths relative to `compared`): the webhook accepts a new object that leaves the
   * field unset over an old object holding exactly that value.
   */
  readonly previousDefaults?: readonly { readonly path: readonly string[]; readonly value: unknown }[];
  /**
   * Defaults the webhook applies to both the old and the new object before comparing (paths relative to `compared`),
   * so leaving the field unset on one side and setting it to exactly that value on the other is no change.
   */
  readonly appliedDefaults?: readonly { readonly path: readonly string[]; readonly value: unknown }[];
}

const capi = 'kubernetes-sigs/cluster-api';
const machineTemplateSpec = ['spec', 'template', 'spec'] as const;

export const immutableTemplates: readonly ImmutableTemplate[] = [
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'DockerMachineTemplate',
    provider: 'infrastructure-docker',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'DockerMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: `${capi} test/infrastructure/docker/internal/webhooks/dockermachinetemplate.go (v1.10–v1.13)`,
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'DockerClusterTemplate',
    provider: 'infrastructure-docker',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'DockerClusterTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: `${capi} test/infrastructure/docker/internal/webhooks/dockerclustertemplate.go (v1.10–v1.13)`,
    // ValidateUpdate runs defaultDockerClusterSpec on both objects first: an unset port is 6443.
    appliedDefaults: [{ path: ['controlPlaneEndpoint', 'port'], value: 6443 }],
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'DevMachineTemplate',
    provider: 'infrastructure-docker',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'DevMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: `${capi} test/infrastructure/docker/internal/webhooks/devmachinetemplate.go (v1.12–v1.13)`,
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'DevClusterTemplate',
    provider: 'infrastructure-docker',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'DevClusterTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: `${capi} test/infrastructure/docker/internal/webhooks/devclustertemplate.go (v1.12–v1.13)`,
  },
  {
    group: 'controlplane.cluster.x-k8s.io',
    kind: 'KubeadmControlPlaneTemplate',
    provider: 'control-plane-kubeadm',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'KubeadmControlPlaneTemplate spec.template.spec field is immutable. Please create new resource instead.',
    source: `${capi} controlplane/kubeadm/internal/webhooks/kubeadmcontrolplanetemplate.go (v1.10–v1.13)`,
    // CAPI < v1.11 defaulted the rollout strategy; v1.11+ accepts dropping that default (v1beta2 and v1beta1 paths).
    previousDefaults: [
      { path: ['rollout', 'strategy'], value: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
      { path: ['rolloutStrategy'], value: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
    ],
    // defaulting.ApplyPreviousKubeadmConfigDefaults (CAPI v1.11+): the defaults older releases wrote.
    appliedDefaults: [
      { path: ['kubeadmConfigSpec', 'format'], value: 'cloud-config' },
      { path: ['kubeadmConfigSpec', 'initConfiguration', 'nodeRegistration', 'imagePullPolicy'], value: 'IfNotPresent' },
      { path: ['kubeadmConfigSpec', 'joinConfiguration', 'nodeRegistration', 'imagePullPolicy'], value: 'IfNotPresent' },
    ],
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AWSMachineTemplate',
    provider: 'infrastructure-aws',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'AWSMachineTemplate.Spec is immutable',
    source: 'kubernetes-sigs/cluster-api-provider-aws webhooks/awsmachinetemplate_webhook.go (v2.11; api/v1beta2/awsmachinetemplate_webhook.go in v2.10)',
    adoptedWhenUnset: ['instanceMetadataOptions'],
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AWSClusterTemplate',
    provider: 'infrastructure-aws',
    field: 'spec',
    compared: ['spec'],
    message: 'AWSClusterTemplate.Spec is immutable',
    source: 'kubernetes-sigs/cluster-api-provider-aws webhooks/awsclustertemplate_webhook.go (v2.11; api/v1beta2/awsclustertemplate_webhook.go in v2.10)',
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AzureMachineTemplate',
    provider: 'infrastructure-azure',
    field: 'AzureMachineTemplate.spec.template.spec',
    compared: machineTemplateSpec,
    message: 'AzureMachineTemplate spec.template.spec field is immutable. Please create new resource instead. ref doc: https://cluster-api.sigs.k8s.io/tasks/updating-machine-templates.html',
    source: 'kubernetes-sigs/cluster-api-provider-azure internal/webhooks/azuremachinetemplate_webhook.go (v1.25–v1.26)',
    // The webhook defaults the old object before comparing; the one default a rendered tree can lack is the key.
    adoptedWhenUnset: ['sshPublicKey'],
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'AzureClusterTemplate',
    provider: 'infrastructure-azure',
    field: 'AzureClusterTemplate.spec.template.spec',
    compared: machineTemplateSpec,
    message: 'AzureClusterTemplate spec.template.spec field is immutable. Please create new resource instead. ref doc: https://cluster-api.sigs.k8s.io/tasks/experimental-features/cluster-class/change-clusterclass.html',
    source: 'kubernetes-sigs/cluster-api-provider-azure internal/webhooks/azureclustertemplate_webhook.go (v1.25–v1.26)',
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'VSphereMachineTemplate',
    provider: 'infrastructure-vsphere',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'VSphereMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: 'kubernetes-sigs/cluster-api-provider-vsphere internal/webhooks/vspheremachinetemplate.go (v1.15–v1.16)',
  },
  {
    group: 'vmware.infrastructure.cluster.x-k8s.io',
    kind: 'VSphereMachineTemplate',
    provider: 'infrastructure-vsphere',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'VSphereMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    source: 'kubernetes-sigs/cluster-api-provider-vsphere internal/webhooks/vmware/vspheremachinetemplate.go (v1.15–v1.16)',
  },
  {
    group: 'infrastructure.cluster.x-k8s.io',
    kind: 'VSphereClusterTemplate',
    provider: 'infrastructure-vsphere',
    field: 'spec.template.spec',
    compared: machineTemplateSpec,
    message: 'VSphereClusterTemplate spec is immutable',
    source: 'kubernetes-sigs/cluster-api-provider-vsphere internal/webhooks/vsphereclustertemplate.go (v1.15–v1.16)',
  },
];

const byGroupKind = new Map(immutableTemplates.map((t) => [`${t.group}/${t.kind}`, t]));

/** The immutability rule of a kind (`apiVersion` as the object states it), if its webhook has one. */
export function immutableTemplateOf(apiVersion: unknown, kind: unknown): ImmutableTemplate | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  return byGroupKind.get(`${slash < 0 ? '' : apiVersion.slice(0, slash)}/${kind}`);
}
