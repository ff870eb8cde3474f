/**
 * What the rendered managers' feature gates let their webhooks accept. CAPI's and the providers' validating webhooks
 * refuse an object (or one of its fields) while the gate behind it is off in the manager that serves the webhook; a
 * provider that does not register a kind's webhook without its gate makes the API server refuse the object too (the
 * webhook call fails, `failurePolicy: Fail`). The gates are read from each provider's rendered `manager` container
 * (`--feature-gates` after variable substitution and `manager.featureGates`); rules are data, each with the
 * upstream file it is transcribed from.
 */
import { gunzipSync } from 'node:zlib';
import { featureGatesArg, manifestLabel, parseFeatureGates, parseGoBool } from '../../capi/index.js';
import { substitute } from '../../envsubst/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from '../findings.js';
import { defined } from './webhook-fields.js';

type Obj = Record<string, unknown>;

/** One provider's manager, as rendered: the gates its `--feature-gates` sets. */
export interface ManagerGates {
  /** The provider's label (`cluster-api`, `infrastructure-docker`), from `cluster.x-k8s.io/provider`. */
  readonly provider: string;
  /** Gate → value as written (`true`, `false`, or a value the manager cannot parse). */
  readonly gates: ReadonlyMap<string, string>;
  readonly source: SourceObject;
}

export interface GateRule {
  /** The label of the provider whose manager serves the webhook. */
  readonly provider: string;
  readonly gate: string;
  /** The variable the provider's release reads the gate from (`CLUSTER_TOPOLOGY`). */
  readonly variable: string;
  /** The gate's Go default, used when the manager's flag does not name it; undefined: not decidable then. */
  readonly default?: boolean;
  /** API group of the kinds. */
  readonly group: string;
  readonly kinds: readonly string[];
  /** The field paths the webhook forbids while the gate is off (`spec` for the whole object); none: allowed. */
  readonly forbids: (object: Obj) => string[];
  readonly message: string;
  /** `kubernetes-sigs/cluster-api internal/webhooks/cluster.go`, with the versions it applies to where that changed. */
  readonly source: string;
}

const capi = 'kubernetes-sigs/cluster-api';
const capa = 'kubernetes-sigs/cluster-api-provider-aws';
const capz = 'kubernetes-sigs/cluster-api-provider-azure';
const capv = 'kubernetes-sigs/cluster-api-provider-vsphere';

const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), o);
const nonEmpty = (v: unknown): boolean => (isRecord(v) ? Object.keys(v).length > 0 : Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== '');
const whole = (): string[] => ['spec'];
const flagMessage = (gate: string): string => `can be set only if the ${gate} feature flag is enabled`;
/** A kind whose webhook the provider registers only with the gate on. */
const unserved = (gate: string): string => `the provider registers this kind's webhook only when the ${gate} feature gate is enabled, so the API server refuses the object (failed calling webhook)`;

/** KubeadmConfigSpec.validateIgnition: `format: ignition` and `ignition` need KubeadmBootstrapFormatIgnition. */
function ignitionFields(spec: unknown, prefix: string): string[] {
  const out: string[] = [];
  if (at(spec, 'format') === 'ignition') out.push(`${prefix}.format`);
  if (nonEmpty(at(spec, 'ignition'))) out.push(`${prefix}.ignition`);
  return out;
}

export const gateRules: readonly GateRule[] = [
  {
    provider: 'cluster-api',
    gate: 'ClusterTopology',
    variable: 'CLUSTER_TOPOLOGY',
    default: false,
    group: 'cluster.x-k8s.io',
    kinds: ['Cluster'],
    forbids: (o) => (nonEmpty(at(o, 'spec', 'topology')) ? ['spec.topology'] : []),
    message: flagMessage('ClusterTopology'),
    source: `${capi} internal/webhooks/cluster.go (validateTopology)`,
  },
  {
    provider: 'cluster-api',
    gate: 'ClusterTopology',
    variable: 'CLUSTER_TOPOLOGY',
    default: false,
    group: 'cluster.x-k8s.io',
    kinds: ['ClusterClass'],
    forbids: whole,
    message: flagMessage('ClusterTopology'),
    source: `${capi} internal/webhooks/clusterclass.go (validate)`,
  },
  {
    provider: 'cluster-api',
    gate: 'RuntimeSDK',
    variable: 'EXP_RUNTIME_SDK',
    default: false,
    group: 'cluster.x-k8s.io',
    kinds: ['ClusterClass'],
    forbids: (o) => {
      const patches = at(o, 'spec', 'patches');
      return Array.isArray(patches) ? patches.flatMap((p, i) => (nonEmpty(at(p, 'external')) ? [`spec.patches[${i}].external`] : [])) : [];
    },
    message: 'patch.external can be used only if the RuntimeSDK feature flag is enabled',
    source: `${capi} internal/webhooks/patch_validation.go (validatePatch)`,
  },
  {
    provider: 'cluster-api',
    gate: 'RuntimeSDK',
    variable: 'EXP_RUNTIME_SDK',
    default: false,
    group: 'runtime.cluster.x-k8s.io',
    kinds: ['ExtensionConfig'],
    forbids: whole,
    message: flagMessage('RuntimeSDK'),
    source: `${capi} internal/webhooks/extensionconfig.go (v1.10: internal/webhooks/runtime/extensionconfig_webhook.go)`,
  },
  {
    provider: 'cluster-api',
    gate: 'MachinePool',
    variable: 'EXP_MACHINE_POOL',
    default: true,
    group: 'cluster.x-k8s.io',
    kinds: ['MachinePool'],
    forbids: whole,
    message: flagMessage('MachinePool'),
    source: `${capi} internal/webhooks/machinepool.go (v1.10: exp/internal/webhooks/machinepool.go)`,
  },
  {
    provider: 'cluster-api',
    gate: 'MachineTaintPropagation',
    variable: 'EXP_MACHINE_TAINT_PROPAGATION',
    // The gate exists from v1.12; a release that does not name it has no taints field either.
    group: 'cluster.x-k8s.io',
    kinds: ['MachinePool'],
    forbids: (o) => (nonEmpty(at(o, 'spec', 'template', 'spec', 'taints')) ? ['spec.taints'] : []),
    message: 'taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled',
    source: `${capi} internal/webhooks/machinepool.go (v1.12+)`,
  },
  {
    provider: 'cluster-api',
    gate: 'ClusterResourceSet',
    variable: 'EXP_CLUSTER_RESOURCE_SET',
    // GA and always on from v1.12, where the gate is gone: decided only where the flag names it.
    group: 'addons.cluster.x-k8s.io',
    kinds: ['ClusterResourceSet', 'ClusterResourceSetBinding'],
    forbids: whole,
    message: flagMessage('ClusterResourceSet'),
    source: `${capi} internal/webhooks/clusterresourceset_webhook.go, clusterresourcesetbinding_webhook.go (up to v1.11)`,
  },
  {
    provider: 'control-plane-kubeadm',
    gate: 'ClusterTopology',
    variable: 'CLUSTER_TOPOLOGY',
    default: false,
    group: 'controlplane.cluster.x-k8s.io',
    kinds: ['KubeadmControlPlaneTemplate'],
    forbids: whole,
    message: flagMessage('ClusterTopology'),
    source: `${capi} controlplane/kubeadm/internal/webhooks/kubeadmcontrolplanetemplate.go (ValidateCreate)`,
  },
  {
    provider: 'control-plane-kubeadm',
    gate: 'KubeadmBootstrapFormatIgnition',
    variable: 'EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION',
    default: false,
    group: 'controlplane.cluster.x-k8s.io',
    kinds: ['KubeadmControlPlane'],
    forbids: (o) => ignitionFields(at(o, 'spec', 'kubeadmConfigSpec'), 'spec.kubeadmConfigSpec'),
    message: 'can be set only if the KubeadmBootstrapFormatIgnition feature gate is enabled',
    source: `${capi} api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go (validateIgnition), from controlplane/kubeadm/internal/webhooks/kubeadmcontrolplane.go`,
  },
  {
    provider: 'control-plane-kubeadm',
    gate: 'KubeadmBootstrapFormatIgnition',
    variable: 'EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION',
    default: false,
    group: 'controlplane.cluster.x-k8s.io',
    kinds: ['KubeadmControlPlaneTemplate'],
    forbids: (o) => ignitionFields(at(o, 'spec', 'template', 'spec', 'kubeadmConfigSpec'), 'spec.template.spec.kubeadmConfigSpec'),
    message: 'can be set only if the KubeadmBootstrapFormatIgnition feature gate is enabled',
    source: `${capi} api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go (validateIgnition), from controlplane/kubeadm/internal/webhooks/kubeadmcontrolplanetemplate.go`,
  },
  {
    provider: 'bootstrap-kubeadm',
    gate: 'KubeadmBootstrapFormatIgnition',
    variable: 'EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION',
    default: false,
    group: 'bootstrap.cluster.x-k8s.io',
    kinds: ['KubeadmConfig'],
    forbids: (o) => ignitionFields(at(o, 'spec'), 'spec'),
    message: 'can be set only if the KubeadmBootstrapFormatIgnition feature gate is enabled',
    source: `${capi} api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go (validateIgnition), from bootstrap/kubeadm/internal/webhooks/kubeadmconfig.go`,
  },
  {
    provider: 'bootstrap-kubeadm',
    gate: 'KubeadmBootstrapFormatIgnition',
    variable: 'EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION',
    default: false,
    group: 'bootstrap.cluster.x-k8s.io',
    kinds: ['KubeadmConfigTemplate'],
    forbids: (o) => ignitionFields(at(o, 'spec', 'template', 'spec'), 'spec.template.spec'),
    message: 'can be set only if the KubeadmBootstrapFormatIgnition feature gate is enabled',
    source: `${capi} api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go (validateIgnition), from bootstrap/kubeadm/internal/webhooks/kubeadmconfigtemplate.go`,
  },
  {
    provider: 'infrastructure-docker',
    gate: 'ClusterTopology',
    variable: 'CLUSTER_TOPOLOGY',
    default: false,
    group: 'infrastructure.cluster.x-k8s.io',
    kinds: ['DockerClusterTemplate', 'DevClusterTemplate'],
    forbids: whole,
    message: flagMessage('ClusterTopology'),
    source: `${capi} test/infrastructure/docker/internal/webhooks/dockerclustertemplate.go, devclustertemplate.go (ValidateCreate)`,
  },
  // CAPA (main.go registers these webhooks only behind their gates; api/v1beta2/s3bucket.go checks s3Bucket).
  ...(
    [
      ['MachinePool', 'EXP_MACHINE_POOL', 'infrastructure.cluster.x-k8s.io', ['AWSMachinePool', 'AWSManagedMachinePool']],
      ['EKS', 'CAPA_EKS', 'infrastructure.cluster.x-k8s.io', ['AWSManagedMachinePool']],
      ['EKS', 'CAPA_EKS', 'controlplane.cluster.x-k8s.io', ['AWSManagedControlPlane', 'AWSManagedControlPlaneTemplate']],
      ['EKSFargate', 'EXP_EKS_FARGATE', 'infrastructure.cluster.x-k8s.io', ['AWSFargateProfile']],
      ['ROSA', 'EXP_ROSA', 'controlplane.cluster.x-k8s.io', ['ROSAControlPlane']],
      ['ROSA', 'EXP_ROSA', 'infrastructure.cluster.x-k8s.io', ['ROSAMachinePool', 'ROSANetwork', 'ROSARoleConfig']],
    ] as const
  ).map(
    // The release's flag names every one of these gates: decided from it, not from a Go default.
    ([gate, variable, group, kinds]): GateRule => ({
      provider: 'infrastructure-aws',
      gate,
      variable,
      group,
      kinds,
      forbids: whole,
      message: unserved(gate),
      source: `${capa} main.go (webhooks set up under feature.Gates.Enabled(feature.${gate}))`,
    }),
  ),
  {
    provider: 'infrastructure-aws',
    gate: 'BootstrapFormatIgnition',
    variable: 'EXP_BOOTSTRAP_FORMAT_IGNITION',
    group: 'infrastructure.cluster.x-k8s.io',
    kinds: ['AWSCluster'],
    forbids: (o) => (isRecord(at(o, 'spec', 's3Bucket')) ? ['spec.s3Bucket'] : []),
    message: 'can be set only if the BootstrapFormatIgnition feature gate is enabled',
    source: `${capa} api/v1beta2/s3bucket.go (Validate)`,
  },
  // CAPZ (main.go registerWebhooks; internal/webhooks/azureasomanaged*_webhook.go; azurecluster_validation.go).
  {
    provider: 'infrastructure-azure',
    gate: 'MachinePool',
    variable: 'EXP_MACHINE_POOL',
    group: 'infrastructure.cluster.x-k8s.io',
    kinds: [
      'AzureMachinePool',
      'AzureMachinePoolMachine',
      'AzureManagedMachinePool',
      'AzureManagedMachinePoolTemplate',
      'AzureManagedCluster',
      'AzureManagedClusterTemplate',
      'AzureManagedControlPlane',
      'AzureManagedControlPlaneTemplate',
    ],
    forbids: whole,
    message: unserved('MachinePool'),
    source: `${capz} main.go (registerWebhooks, under feature.Gates.Enabled(capifeature.MachinePool))`,
  },
  {
    provider: 'infrastructure-azure',
    gate: 'ASOAPI',
    variable: 'EXP_ASO_API',
    group: 'infrastructure.cluster.x-k8s.io',
    kinds: ['AzureASOManagedCluster', 'AzureASOManagedControlPlane', 'AzureASOManagedMachinePool'],
    forbids: whole,
    message: flagMessage('ASOAPI'),
    source: `${capz} internal/webhooks/azureasomanagedcluster_webhook.go, azureasomanagedcontrolplane_webhook.go, azureasomanagedmachinepool_webhook.go`,
  },
  {
    provider: 'infrastructure-azure',
    gate: 'EdgeZone',
    variable: 'EXP_EDGEZONE',
    group: 'infrastructure.cluster.x-k8s.io',
    kinds: ['AzureCluster'],
    forbids: (o) => (at(o, 'spec', 'extendedLocation') !== undefined && at(o, 'spec', 'extendedLocation') !== null ? ['spec.extendedLocation'] : []),
    message: flagMessage('EdgeZone'),
    source: `${capz} internal/webhooks/azurecluster_validation.go (validateClusterSpec)`,
  },
  // CAPV (v1.15, v1.16): the supervisor-mode webhooks refuse the multi-network fields while MultiNetworks is off.
  // CAPM3 (v1.12, v1.13) has no feature gates: its manager takes no --feature-gates flag.
  {
    provider: 'infrastructure-vsphere',
    gate: 'MultiNetworks',
    variable: 'EXP_MULTI_NETWORKS',
    default: false,
    group: 'vmware.infrastructure.cluster.x-k8s.io',
    kinds: ['VSphereCluster'],
    // `CreateSubnetSet != nil`: a pointer, so an explicit false counts as set.
    forbids: (o) => (at(o, 'spec', 'network', 'nsxVPC', 'createSubnetSet') !== undefined && at(o, 'spec', 'network', 'nsxVPC', 'createSubnetSet') !== null ? ['spec.network.nsxVPC.createSubnetSet'] : []),
    message: 'createSubnetSet can only be set when MultiNetworks feature gate is enabled',
    source: `${capv} internal/webhooks/vmware/vspherecluster.go (validateClusterNetwork)`,
  },
  {
    provider: 'infrastructure-vsphere',
    gate: 'MultiNetworks',
    variable: 'EXP_MULTI_NETWORKS',
    default: false,
    group: 'vmware.infrastructure.cluster.x-k8s.io',
    kinds: ['VSphereMachine'],
    forbids: (o) => (defined(at(o, 'spec', 'network', 'interfaces')) ? ['spec.network.interfaces'] : []),
    message: 'interfaces can only be set when feature gate MultiNetworks is enabled',
    source: `${capv} internal/webhooks/vmware/vspheremachine.go (validateNetwork)`,
  },
  {
    provider: 'infrastructure-vsphere',
    gate: 'MultiNetworks',
    variable: 'EXP_MULTI_NETWORKS',
    default: false,
    group: 'vmware.infrastructure.cluster.x-k8s.io',
    kinds: ['VSphereMachineTemplate'],
    forbids: (o) => (defined(at(o, 'spec', 'template', 'spec', 'network', 'interfaces')) ? ['spec.template.spec.network.interfaces'] : []),
    message: 'interfaces can only be set when feature gate MultiNetworks is enabled',
    source: `${capv} internal/webhooks/vmware/vspheremachinetemplate.go (validate, through validateNetwork)`,
  },
];

const providerLabel = 'cluster.x-k8s.io/provider';

function containers(o: Obj): Obj[] {
  const list = at(o, 'spec', 'template', 'spec', 'containers');
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

/** Each provider's variables by label (the config's global ones under the provider's own), as clusterctl reads them. */
export type ProviderVariables = Readonly<Record<string, Readonly<Record<string, string | undefined>>>>;

const operatorGroup = 'operator.cluster.x-k8s.io';
/** The Cluster API Operator's provider kinds are named after clusterctl's provider types. */
const operatorKinds = new Set(['CoreProvider', 'BootstrapProvider', 'ControlPlaneProvider', 'InfrastructureProvider', 'IPAMProvider', 'RuntimeExtensionProvider', 'AddonProvider']);
/** A provider ConfigMap's components are at most a ConfigMap's 1 MiB gzip-compressed; inflated, bounded like a manifest. */
const maxComponentsBytes = 64 * 1024 * 1024;

/** The release's components text a provider object selects (its `fetchConfig.selector` and `spec.version`), or undefined. */
function selectedComponents(provider: Obj, objects: readonly SourceObject[]): string | undefined {
  const want = at(provider, 'spec', 'fetchConfig', 'selector', 'matchLabels');
  const version = at(provider, 'spec', 'version');
  if (!isRecord(want)) return undefined;
  for (const { object: o } of objects) {
    if (o.kind !== 'ConfigMap' || o.apiVersion !== 'v1') continue;
    if (at(o, 'metadata', 'namespace') !== at(provider, 'metadata', 'namespace')) continue;
    const labels = at(o, 'metadata', 'labels');
    if (!isRecord(labels) || !Object.entries(want).every(([k, v]) => labels[k] === v)) continue;
    if (labels['provider.cluster.x-k8s.io/version'] !== undefined && labels['provider.cluster.x-k8s.io/version'] !== version) continue;
    const plain = at(o, 'data', 'components');
    if (typeof plain === 'string') return plain;
    const packed = at(o, 'binaryData', 'components');
    if (typeof packed !== 'string') return undefined;
    try {
      return gunzipSync(Buffer.from(packed, 'base64'), { maxOutputLength: maxComponentsBytes }).toString('utf8');
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The gates a Cluster API Operator provider object gives its manager: the release's `--feature-gates` default (in
 * the ConfigMap the object selects) after the variables its config Secret holds (the config's, else the defaults),
 * then `spec.manager.featureGates` merged over it, as the operator's component customizer does
 * (kubernetes-sigs/cluster-api-operator internal/controller/component_customizer.go: parseFeatureGates, then the
 * user's values win). Undefined when the object's release is not in the tree: nothing is decided then.
 */
function operatorManagerGates(src: SourceObject, objects: readonly SourceObject[], variables: ProviderVariables): ManagerGates | undefined {
  const o = src.object;
  const name = at(o, 'metadata', 'name');
  if (typeof name !== 'string' || typeof o.kind !== 'string') return undefined;
  const provider = manifestLabel(name, o.kind);
  const components = selectedComponents(o, objects);
  const flag = components === undefined ? undefined : /--feature-gates=([^\s"']*)/.exec(components)?.[1];
  if (flag === undefined) return undefined;
  let value: string;
  try {
    const own = variables[provider] ?? {};
    value = substitute(flag, new Map(Object.entries(own).filter((e): e is [string, string] => e[1] !== undefined)));
  } catch {
    return undefined;
  }
  const gates = new Map(parseFeatureGates(value));
  const set = at(o, 'spec', 'manager', 'featureGates');
  if (isRecord(set)) for (const [gate, v] of Object.entries(set)) if (typeof v === 'boolean') gates.set(gate, String(v));
  return { provider, gates, source: src };
}

/**
 * The `manager` container of every provider Deployment among `objects`, with the gates its flags set, and the
 * manager of every Cluster API Operator provider object (`output: 'operator'`).
 */
export function managerGatesOf(objects: readonly SourceObject[], variables: ProviderVariables = {}): ManagerGates[] {
  const out: ManagerGates[] = [];
  for (const src of objects) {
    if (!operatorKinds.has(String(src.object.kind)) || groupOf(src.object.apiVersion) !== operatorGroup) continue;
    const m = operatorManagerGates(src, objects, variables);
    if (m) out.push(m);
  }
  for (const src of objects) {
    const o = src.object;
    if (o.kind !== 'Deployment' || typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('apps/')) continue;
    const provider = at(o, 'metadata', 'labels', providerLabel);
    const manager = containers(o).find((c) => c.name === 'manager');
    if (typeof provider !== 'string' || !manager) continue;
    const args = Array.isArray(manager.args) ? manager.args.filter((a): a is string => typeof a === 'string') : [];
    const value = featureGatesArg(args);
    // Every release the rules know passes the flag; a manager without one (a test double, a hand-made Deployment) is
    // not judged by Go defaults.
    if (value === undefined) continue;
    out.push({ provider, gates: new Map(parseFeatureGates(value)), source: src });
  }
  return out;
}

/** Where the config sets a provider (`providers.core`), by label; the fix names it. */
export type ProviderConfigPaths = Readonly<Record<string, string>>;

/** A guess at the config entry when the caller does not know it: core is `providers.core`, the rest by kind. */
function configPathOf(provider: string, paths: ProviderConfigPaths): string {
  if (paths[provider]) return paths[provider];
  if (provider === 'cluster-api') return 'providers.core';
  const kind = /^(bootstrap|control-plane|infrastructure)-(.+)$/.exec(provider);
  if (!kind) return `the providers entry of ${provider}`;
  const list = kind[1] === 'control-plane' ? 'controlPlane' : kind[1];
  return `providers.${list}[name: '${kind[2]}']`;
}

function groupOf(apiVersion: unknown): string {
  return typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
}

let rulesByKind: Map<string, GateRule[]> | undefined;

/** Each object and field of `objects` that needs a gate on, whatever the managers say. */
export function gateRequirements(objects: readonly SourceObject[]): { rule: GateRule; object: SourceObject; fields: string[] }[] {
  if (!rulesByKind) {
    rulesByKind = new Map();
    for (const r of gateRules) for (const k of r.kinds) rulesByKind.set(k, [...(rulesByKind.get(k) ?? []), r]);
  }
  const out: { rule: GateRule; object: SourceObject; fields: string[] }[] = [];
  for (const src of objects) {
    const kind = src.object.kind;
    if (typeof kind !== 'string') continue;
    for (const rule of rulesByKind.get(kind) ?? []) {
      if (groupOf(src.object.apiVersion) !== rule.group) continue;
      const fields = rule.forbids(src.object);
      if (fields.length > 0) out.push({ rule, object: src, fields });
    }
  }
  return out;
}

/**
 * The objects a rendered manager's gates forbid: `gate/<Gate>` errors naming the object, the gate, the provider whose
 * manager serves the webhook and the config key that turns the gate on. A provider whose manager is not among
 * `managers` (not installed, or held as an operator object) decides nothing. A gate value the manager cannot parse
 * is an error on the Deployment: the manager exits at start.
 */
export function featureGateFindings(objects: readonly SourceObject[], managers: readonly ManagerGates[], paths: ProviderConfigPaths = {}): Finding[] {
  const findings: Finding[] = [];
  const byProvider = new Map<string, ManagerGates>();
  for (const m of managers) if (!byProvider.has(m.provider)) byProvider.set(m.provider, m);
  for (const m of byProvider.values()) {
    for (const [gate, value] of m.gates) {
      if (parseGoBool(value) !== undefined) continue;
      findings.push(
        findingAt(m.source, {
          severity: 'error',
          field: 'spec.template.spec.containers[manager].args',
          message: `--feature-gates: invalid value of ${gate}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax (the ${m.provider} manager exits at start)`,
          rule: `gate/${gate}`,
          hint: `set ${configPathOf(m.provider, paths)}.manager.featureGates.${gate} to true or false`,
        }),
      );
    }
  }
  for (const need of gateRequirements(objects)) {
    const { rule, object: src } = need;
    const manager = byProvider.get(rule.provider);
    if (!manager) continue;
    const written = manager.gates.get(rule.gate);
    const enabled = written === undefined ? rule.default : parseGoBool(written);
    if (enabled !== false) continue;
    const where = configPathOf(rule.provider, paths);
    for (const field of need.fields) {
      findings.push(
        findingAt(src, {
          severity: 'error',
          field,
          message: `${field}: Forbidden: ${rule.message} (feature gate ${rule.gate} is off in the ${rule.provider} manager${written === undefined ? ', its default' : ''}; ${rule.source})`,
          rule: `gate/${rule.gate}`,
          hint: `turn ${rule.gate} on for ${rule.provider}: set ${where}.variables.${rule.variable}: 'true' (or the global variables.${rule.variable}, which every provider reading it shares), or ${where}.manager.featureGates.${rule.gate}: true`,
        }),
      );
    }
  }
  return findings;
}

/**
 * `featureGateFindings` over a tree that may hold several management clusters: an object is judged by the managers
 * of its own tree (`targets/<name>/…` in a fleet, the project root otherwise).
 */
export function featureGateFindingsByTree(
  objects: readonly SourceObject[],
  managerSources: readonly SourceObject[],
  paths: (tree: string) => ProviderConfigPaths = () => ({}),
  variables: (tree: string) => ProviderVariables = () => ({}),
): Finding[] {
  const treeOf = (file: string): string => /^(targets\/[^/]+\/)/.exec(file)?.[1] ?? '';
  const managers = new Map<string, ManagerGates[]>();
  const sourcesByTree = new Map<string, SourceObject[]>();
  // Grouped in place: copying a tree's list for every object made a fleet of 10,000 clusters quadratic.
  const push = <T>(m: Map<string, T[]>, k: string, v: T): void => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const o of managerSources) push(sourcesByTree, treeOf(o.file), o);
  for (const m of [...sourcesByTree].flatMap(([t, srcs]) => managerGatesOf(srcs, variables(t)))) push(managers, treeOf(m.source.file), m);
  const byTree = new Map<string, SourceObject[]>();
  for (const o of objects) push(byTree, treeOf(o.file), o);
  return [...byTree].flatMap(([t, objs]) => featureGateFindings(objs, managers.get(t) ?? [], paths(t)));
}
