import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listVariables, substitute } from '../src/envsubst/index.js';
import { featureGateFindings, featureGateFindingsByTree, managerGatesOf, readManifest, type Finding, type SourceObject } from '../src/validate/index.js';
import { splitDocuments } from '../src/yaml/index.js';
import { sharedDir } from './helpers/shared.js';

const corpus = sharedDir('corpus');
const repo = join(corpus.path, 'repository');

/** The manager Deployment of a corpus release, rendered with `variables` (clusterctl's substitution, defaults for the rest). */
function manager(release: string, file: string, variables: Record<string, string> = {}, tree = ''): SourceObject[] {
  const text = substitute(readFileSync(join(repo, release, file), 'utf8'), variables);
  return splitDocuments(text, file)
    .map((c) => text.slice(c.start, c.end))
    .filter((d) => /^kind: Deployment\s*$/m.test(d))
    .flatMap((d) => readManifest(d, `${tree}providers/${release.split('/')[0]}/components.yaml`).objects);
}

/** A corpus template's objects, every variable filled with a placeholder (its default where it has one). */
function template(release: string, file: string, tree = ''): SourceObject[] {
  const text = readFileSync(join(repo, release, file), 'utf8');
  const values = Object.fromEntries(listVariables(text).map((v) => [v.name, v.default ?? (v.name === 'NAMESPACE' ? 'default' : 'dev')]));
  return readManifest(substitute(text, values), `${tree}clusters/default/dev/cluster.yaml`).objects;
}

function objects(yaml: string, file = 'clusters/default/dev/cluster.yaml'): SourceObject[] {
  return readManifest(yaml, file).objects;
}

const capi = (variables: Record<string, string> = {}, version = 'v1.13.5', tree = ''): SourceObject[] => [
  ...manager(`cluster-api/${version}`, 'core-components.yaml', variables, tree),
  ...manager(`bootstrap-kubeadm/${version}`, 'bootstrap-components.yaml', variables, tree),
  ...manager(`control-plane-kubeadm/${version}`, 'control-plane-components.yaml', variables, tree),
  ...manager(`infrastructure-docker/${version}`, 'infrastructure-components-development.yaml', variables, tree),
];

const brief = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.kind} ${f.name} ${f.field} [${f.rule}]`);

describe.skipIf(!corpus.present)(`feature gates of the rendered managers decide what their webhooks accept${corpus.skipped}`, () => {
  const quickStart = [...template('infrastructure-docker/v1.13.5', 'clusterclass-quick-start.yaml'), ...template('infrastructure-docker/v1.13.5', 'cluster-template-development.yaml')];

  it("CAPD's development flavor needs ClusterTopology in core, KCP and CAPD: each refusal names the object, gate, provider and config key", () => {
    const managers = managerGatesOf(capi());
    expect(managers.map((m) => `${m.provider} ClusterTopology=${m.gates.get('ClusterTopology') ?? '-'}`)).toEqual([
      'cluster-api ClusterTopology=false',
      'bootstrap-kubeadm ClusterTopology=-',
      'control-plane-kubeadm ClusterTopology=false',
      'infrastructure-docker ClusterTopology=false',
    ]);
    const findings = featureGateFindings(quickStart, managers, { 'cluster-api': 'providers.core', 'infrastructure-docker': 'providers.infrastructure[0]' });
    expect(brief(findings)).toEqual([
      'ClusterClass quick-start spec [gate/ClusterTopology]',
      'DockerClusterTemplate quick-start-cluster spec [gate/ClusterTopology]',
      'KubeadmControlPlaneTemplate quick-start-control-plane spec [gate/ClusterTopology]',
      'Cluster dev spec.topology [gate/ClusterTopology]',
    ]);
    const cluster = findings[3]!;
    expect(cluster.message).toContain('spec.topology: Forbidden: can be set only if the ClusterTopology feature flag is enabled (feature gate ClusterTopology is off in the cluster-api manager');
    expect(cluster.message).toContain('kubernetes-sigs/cluster-api internal/webhooks/cluster.go');
    expect(cluster.hint).toContain("providers.core.variables.CLUSTER_TOPOLOGY: 'true'");
    expect(cluster.hint).toContain('providers.core.manager.featureGates.ClusterTopology: true');
    // The template's webhook runs in its own provider's manager, so the fix names that provider.
    expect(findings[1]!.message).toContain('off in the infrastructure-docker manager');
    expect(findings[1]!.hint).toContain('providers.infrastructure[0].variables.CLUSTER_TOPOLOGY');
    expect(findings[2]!.message).toContain('off in the control-plane-kubeadm manager');
    expect(findings[2]!.hint).toContain("providers.controlPlane[name: 'kubeadm'].manager.featureGates.ClusterTopology");

    expect(featureGateFindings(quickStart, managerGatesOf(capi({ CLUSTER_TOPOLOGY: 'true' })))).toEqual([]);
    // A provider that is not installed (or held as an operator object) decides nothing.
    expect(featureGateFindings(quickStart, [])).toEqual([]);
  });

  it('MachinePool, RuntimeSDK (ExtensionConfig, external patches), MachinePool taints and kubeadm Ignition follow their own gates', () => {
    const refused = objects(`apiVersion: cluster.x-k8s.io/v1beta2
kind: MachinePool
metadata: { name: pool, namespace: default }
spec:
  clusterName: dev
  template:
    spec:
      clusterName: dev
      taints: [{ key: dedicated, value: gpu, effect: NoSchedule, propagation: Always }]
      bootstrap: { dataSecretName: s }
      infrastructureRef: { apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachinePool, name: pool }
---
apiVersion: runtime.cluster.x-k8s.io/v1beta2
kind: ExtensionConfig
metadata: { name: ext }
spec: { clientConfig: { url: 'https://ext.example.com' } }
---
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: { name: cc, namespace: default }
spec:
  patches:
    - name: inline
      definitions: []
    - name: ext
      external: { generatePatchesExtension: generate.ext }
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: { name: workers, namespace: default }
spec: { template: { spec: { format: ignition } } }
`);
    const defaults = brief(featureGateFindings(refused, managerGatesOf(capi({ CLUSTER_TOPOLOGY: 'true' }))));
    expect(defaults).toEqual([
      'MachinePool pool spec.taints [gate/MachineTaintPropagation]',
      'ExtensionConfig ext spec [gate/RuntimeSDK]',
      'ClusterClass cc spec.patches[1].external [gate/RuntimeSDK]',
      'KubeadmConfigTemplate workers spec.template.spec.format [gate/KubeadmBootstrapFormatIgnition]',
    ]);
    const off = featureGateFindings(refused, managerGatesOf(capi({ CLUSTER_TOPOLOGY: 'true', EXP_MACHINE_POOL: 'false' })));
    expect(brief(off)[0]).toBe('MachinePool pool spec [gate/MachinePool]');
    expect(off[0]!.hint).toContain("variables.EXP_MACHINE_POOL: 'true'");
    const on = { CLUSTER_TOPOLOGY: 'true', EXP_RUNTIME_SDK: 'true', EXP_MACHINE_TAINT_PROPAGATION: 'true', EXP_KUBEADM_BOOTSTRAP_FORMAT_IGNITION: 'true' };
    expect(featureGateFindings(refused, managerGatesOf(capi(on)))).toEqual([]);
  });

  it('ClusterResourceSets need their gate where the release has one (v1.10), not where it is gone (v1.13)', () => {
    const crs = objects(`apiVersion: addons.cluster.x-k8s.io/v1beta1
kind: ClusterResourceSet
metadata: { name: cni, namespace: default }
spec: { clusterSelector: { matchLabels: { cni: calico } } }
`);
    expect(brief(featureGateFindings(crs, managerGatesOf(capi({ EXP_CLUSTER_RESOURCE_SET: 'false' }, 'v1.10.10'))))).toEqual(['ClusterResourceSet cni spec [gate/ClusterResourceSet]']);
    expect(featureGateFindings(crs, managerGatesOf(capi({}, 'v1.10.10')))).toEqual([]);
    expect(featureGateFindings(crs, managerGatesOf(capi({ EXP_CLUSTER_RESOURCE_SET: 'false' })))).toEqual([]);
  });

  it("CAPA's and CAPZ's kinds follow the provider's own gates", () => {
    const aws = (v: Record<string, string> = {}): SourceObject[] =>
      manager('infrastructure-aws/v2.11.1', 'infrastructure-components.yaml', { AWS_B64ENCODED_CREDENTIALS: 'Zm9v', ...v });
    const eks = objects(`apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: AWSManagedControlPlane
metadata: { name: eks, namespace: default }
spec: { region: eu-west-1 }
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: AWSMachinePool
metadata: { name: pool, namespace: default }
spec: { minSize: 1, maxSize: 3 }
`);
    expect(brief(featureGateFindings(eks, managerGatesOf(aws())))).toEqual(['AWSMachinePool pool spec [gate/MachinePool]']);
    const noEks = featureGateFindings(eks, managerGatesOf(aws({ CAPA_EKS: 'false', EXP_MACHINE_POOL: 'true' })), { 'infrastructure-aws': 'providers.infrastructure[0]' });
    expect(brief(noEks)).toEqual(['AWSManagedControlPlane eks spec [gate/EKS]']);
    expect(noEks[0]!.message).toContain('registers this kind\'s webhook only when the EKS feature gate is enabled');
    expect(noEks[0]!.hint).toContain("providers.infrastructure[0].variables.CAPA_EKS: 'true'");

    const azure = (v: Record<string, string> = {}): SourceObject[] => manager('infrastructure-azure/v1.26.0', 'infrastructure-components.yaml', v);
    const aso = objects(`apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: AzureASOManagedCluster
metadata: { name: aks, namespace: default }
spec: { resources: [] }
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: AzureCluster
metadata: { name: edge, namespace: default }
spec: { location: westus, extendedLocation: { name: losangeles, type: EdgeZone } }
`);
    expect(brief(featureGateFindings(aso, managerGatesOf(azure())))).toEqual(['AzureCluster edge spec.extendedLocation [gate/EdgeZone]']);
    expect(brief(featureGateFindings(aso, managerGatesOf(azure({ EXP_ASO_API: 'false', EXP_EDGEZONE: 'true' }))))).toEqual(['AzureASOManagedCluster aks spec [gate/ASOAPI]']);
  });

  it("a fleet's objects are judged by their own management cluster's managers", () => {
    const east = 'targets/east/';
    const west = 'targets/west/';
    const objs = [...template('infrastructure-docker/v1.13.5', 'cluster-template-development.yaml', east), ...template('infrastructure-docker/v1.13.5', 'cluster-template-development.yaml', west)];
    const managers = [...capi({ CLUSTER_TOPOLOGY: 'true' }, 'v1.13.5', east), ...capi({}, 'v1.13.5', west)];
    const findings = featureGateFindingsByTree(objs, managers, (tree) => ({ 'cluster-api': tree === west ? 'managementClusters.west.providers.core' : 'providers.core' }));
    expect(findings.map((f) => `${f.file} ${f.kind} ${f.rule}`)).toEqual([`${west}clusters/default/dev/cluster.yaml Cluster gate/ClusterTopology`]);
    expect(findings[0]!.hint).toContain("managementClusters.west.providers.core.variables.CLUSTER_TOPOLOGY: 'true'");
  });

  it('a gate value the manager cannot parse stops it at start: an error on its Deployment', () => {
    const findings = featureGateFindings(quickStart, managerGatesOf(capi({ CLUSTER_TOPOLOGY: 'yes' })));
    const bad = findings.filter((f) => f.kind === 'Deployment');
    expect(bad.map((f) => `${f.name} ${f.rule}`)).toEqual(['capi-controller-manager gate/ClusterTopology', 'capi-kubeadm-control-plane-controller-manager gate/ClusterTopology', 'capd-controller-manager gate/ClusterTopology']);
    expect(bad[0]!.message).toContain('invalid value of ClusterTopology: yes');
  });
});

describe.skipIf(!corpus.present)(`CAPV's supervisor webhooks refuse the multi-network fields while MultiNetworks is off${corpus.skipped}`, () => {
  const file = 'infrastructure-components-supervisor.yaml';
  const required = listVariables(readFileSync(join(repo, 'infrastructure-vsphere/v1.16.1', file), 'utf8')).filter((v) => v.default === null);
  const vsphere = (v: Record<string, string> = {}): SourceObject[] => manager('infrastructure-vsphere/v1.16.1', file, { ...Object.fromEntries(required.map((r) => [r.name, 'placeholder'])), ...v });
  // internal/webhooks/vmware/vspherecluster_test.go and vspheremachinetemplate_test.go, as objects.
  const supervisor = objects(`apiVersion: vmware.infrastructure.cluster.x-k8s.io/v1beta2
kind: VSphereCluster
metadata: { name: subnet-set-false, namespace: default }
spec: { network: { nsxVPC: { createSubnetSet: false } } }
---
apiVersion: vmware.infrastructure.cluster.x-k8s.io/v1beta2
kind: VSphereCluster
metadata: { name: no-subnet-set, namespace: default }
spec: { network: { nsxVPC: {} } }
---
apiVersion: vmware.infrastructure.cluster.x-k8s.io/v1beta2
kind: VSphereMachineTemplate
metadata: { name: two-networks, namespace: default }
spec:
  template:
    spec:
      network:
        interfaces:
          primary: { network: { apiVersion: crd.nsx.vmware.com/v1alpha1, kind: SubnetSet, name: primary } }
---
apiVersion: vmware.infrastructure.cluster.x-k8s.io/v1beta2
kind: VSphereMachine
metadata: { name: empty-interfaces, namespace: default }
spec: { network: { interfaces: { primary: {} } } }
`);

  it('the release names MultiNetworks off; createSubnetSet (even false) and interfaces are refused, naming the variable', () => {
    const findings = featureGateFindings(supervisor, managerGatesOf(vsphere()), { 'infrastructure-vsphere': 'providers.infrastructure[0]' });
    expect(brief(findings)).toEqual([
      'VSphereCluster subnet-set-false spec.network.nsxVPC.createSubnetSet [gate/MultiNetworks]',
      'VSphereMachineTemplate two-networks spec.template.spec.network.interfaces [gate/MultiNetworks]',
    ]);
    expect(findings[0]!.message).toContain('createSubnetSet can only be set when MultiNetworks feature gate is enabled');
    expect(findings[0]!.message).toContain('kubernetes-sigs/cluster-api-provider-vsphere internal/webhooks/vmware/vspherecluster.go');
    expect(findings[1]!.hint).toContain("providers.infrastructure[0].variables.EXP_MULTI_NETWORKS: 'true'");
    expect(featureGateFindings(supervisor, managerGatesOf(vsphere({ EXP_MULTI_NETWORKS: 'true' })))).toEqual([]);
  });
});
