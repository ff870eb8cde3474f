/**
 * `capiform validate` against excerpts of real provider CRDs (CAPO, CAPI, RKE2, CAPG, in-cluster IPAM; each fixture
 * names its source): what the API server does to an object before it checks it (pruning nulls, applying defaults,
 * dropping `status` on create, CAPI's defaulting webhook), the messages of real CEL rules an object breaks, and the
 * provider-contract lint on a real provider's layout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFinding, lintProviderRelease, readManifest, validateManifests, type Finding } from '../src/validate/index.js';
import { repoRoot } from './helpers/diff-fixtures.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'validate-real-crds');
const crd = (name: string): string => readFileSync(join(fixtures, `${name}.crd.yaml`), 'utf8');

/** The findings of `objects`, checked against the named fixture CRDs. */
function findings(objects: string, crds: readonly string[]): Finding[] {
  return validateManifests({
    objects: readManifest(objects, 'cluster.yaml').objects,
    schemaObjects: crds.flatMap((c) => readManifest(crd(c), `${c}.crd.yaml`).objects),
  }).findings;
}

/** The errors found in `objects`, as `capiform validate` prints them. */
function check(objects: string, ...crds: string[]): string[] {
  return findings(objects, crds)
    // What the schema machinery decides: these fixtures are trimmed (no bootstrap), which CAPI's webhooks would refuse.
    .filter((f) => f.severity === 'error' && !f.rule?.startsWith('webhook/'))
    .map(formatFinding);
}

describe('what the API server does before checking an object', () => {
  it('applies the schema defaults a required field has (CAPO v1beta1 identityRef.type, allowAllInClusterTraffic)', () => {
    // As cluster-template-capi-v1beta1.yaml writes it: neither required field is set, both are defaulted.
    const cluster = `apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackCluster
metadata: { name: sample, namespace: default }
spec:
  externalNetwork: { id: 8a3c4e36-5f2b-4c5e-9a62-1f1d8e2b7c90 }
  identityRef: { cloudName: openstack, name: sample-cloud-config }
  managedSecurityGroups: {}
`;
    expect(check(cluster, 'capo-openstackcluster')).toEqual([]);
    // CAPO numbers its own API versions: its v1beta1 is not CAPI's v1beta1, and CAPI's conversion hint does not apply.
    expect(findings(cluster, ['capo-openstackcluster']).filter((f) => f.rule === 'capi.v1beta1-on-v1beta2')).toEqual([]);
  });

  it('drops a null the schema neither allows nor defaults (`matchLabels:` left empty)', () => {
    const md = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata: { name: sample-md-0, namespace: default }
spec:
  clusterName: sample
  selector:
    matchLabels:
  template:
    spec: { clusterName: sample, version: v1.32.0 }
`;
    expect(check(md, 'capi-machinedeployment')).toEqual([]);
  });

  it('fills the selector CAPI’s defaulting webhook fills, and ignores the status a create drops', () => {
    // cluster-api-provider-ibmcloud's templates leave the selector out; RKE2's examples write `status: {}`.
    const md = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata: { name: sample-md-0, namespace: default }
spec:
  clusterName: sample
  template:
    spec: { clusterName: sample }
status: {}
`;
    expect(check(md, 'capi-machinedeployment')).toEqual([]);
  });

  it('still reports what no default or webhook fills, and unknown fields under status', () => {
    const md = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata: { name: sample-md-0, namespace: default }
spec:
  template:
    spec: { clusterName: sample }
status: { replicas: 1, phase: Running }
`;
    expect(check(md, 'capi-machinedeployment')).toEqual([
      'cluster.yaml:1: error: MachineDeployment default/sample-md-0: unknown field "status.phase"',
      'cluster.yaml:1: error: MachineDeployment default/sample-md-0: spec.clusterName: Required value',
    ]);
  });

  it('defaults list items under allOf enums, then checks their bounds (CAPG firewall rules)', () => {
    const gcp = (rule: string): string => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: GCPCluster
metadata: { name: sample, namespace: default }
spec:
  project: my-project
  region: europe-west1
  network:
    firewall:
      firewallRules:
      - ${rule}
`;
    expect(check(gcp('{ name: allow-api, sourceRanges: [10.0.0.0/8, 192.168.1.7] }'), 'capg-gcpcluster')).toEqual([]);
    expect(check(gcp('{ name: allow-api, direction: Sideways, priority: 0 }'), 'capg-gcpcluster')).toEqual([
      // kube-openapi reports each allOf branch's error once (equal messages merge), then the allOf itself.
      'cluster.yaml:1: error: GCPCluster default/sample: spec.network.firewall.firewallRules[0].direction: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
      'cluster.yaml:1: error: GCPCluster default/sample: <nil>: Invalid value: "": "spec.network.firewall.firewallRules[0].direction" must validate all the schemas (allOf). None validated',
      'cluster.yaml:1: error: GCPCluster default/sample: spec.network.firewall.firewallRules[0].priority: Invalid value: 0: spec.network.firewall.firewallRules[0].priority in body should be greater than or equal to 1',
      'cluster.yaml:1: error: GCPCluster default/sample: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });
});

describe('real CEL rules an object breaks, with the API server’s message', () => {
  it('CAPO: a bastion is enabled by default and then needs a spec', () => {
    const cluster = (spec: string): string => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: OpenStackCluster
metadata: { name: sample, namespace: default }
spec:
${spec}`;
    expect(check(cluster('  bastion: { availabilityZone: nova }\n'), 'capo-openstackcluster')).toEqual([
      'cluster.yaml:1: error: OpenStackCluster default/sample: spec.bastion: Invalid value: spec is required if bastion is enabled',
    ]);
    expect(check(cluster('  bastion: { enabled: false }\n  managedRouter: {}\n'), 'capo-openstackcluster')).toEqual([
      'cluster.yaml:1: error: OpenStackCluster default/sample: spec.managedRouter: Invalid value: managedRouter must not be empty if set',
    ]);
  });

  it('RKE2: a file comes from a ConfigMap or a Secret, not both', () => {
    const config = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: RKE2Config
metadata: { name: sample, namespace: default }
spec:
  files:
  - path: /etc/motd
  - path: /etc/rancher/rke2/registries.yaml
    contentFrom:
      configMap: { name: registries, key: registries.yaml }
      secret: { name: registries, key: registries.yaml }
`;
    expect(check(config, 'rke2-config')).toEqual([
      'cluster.yaml:1: error: RKE2Config default/sample: spec.files[1].contentFrom: Invalid value: Only configMap or secret can be populated at once',
    ]);
  });

  it('CAPG: every source range is an IP or a CIDR', () => {
    const cluster = `apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: GCPCluster
metadata: { name: sample, namespace: default }
spec:
  project: my-project
  region: europe-west1
  network:
    firewall:
      firewallRules:
      - { name: allow-api, sourceRanges: [10.0.0.0/8, 10.0.0.0/33] }
`;
    expect(check(cluster, 'capg-gcpcluster')).toEqual([
      'cluster.yaml:1: error: GCPCluster default/sample: spec.network.firewall.firewallRules[0].sourceRanges: Invalid value: must be a valid IPv4/IPv6 address or CIDR/Prefix',
    ]);
  });
});

describe('rules the API server refuses to compile', () => {
  const machine = (image: string): string => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta3
kind: IBMPowerVSMachine
metadata: { name: m, namespace: default }
spec:
  image: ${image}
`;
  /** CRD and object applied together, as a rendered tree or a folder holds them. */
  const together = (crdText: string, object: string): string[] =>
    validateManifests({ objects: [...readManifest(crdText, 'crd.yaml').objects, ...readManifest(object, 'machine.yaml').objects] })
      .findings.map(formatFinding)
      .map((f) => f.split('\n')[0]!);

  it('CAPIBM: `self.import` does not compile (`import` is reserved: `self.__import__`); the CRD itself is refused', () => {
    const rule = `apiextensions.ValidationRule{Rule:"self.type == 'Import' ? has(self.import) : !has(self.import)", Message:"import configuration is required when type is Import, and forbidden otherwise", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
    expect(together(crd('capibm-ibmpowervsmachine'), machine('{ type: Reference, reference: { name: rhcos } }'))).toEqual([
      `crd.yaml:1: error: CustomResourceDefinition ibmpowervsmachines.infrastructure.cluster.x-k8s.io: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[image].x-kubernetes-validations[1].rule: Invalid value: ${rule}: compilation failed: ERROR: <input>:1:25: undefined field 'import'`,
      `machine.yaml:1: error: IBMPowerVSMachine default/m: spec.image: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:25: undefined field 'import'`,
    ]);
  });

  it('with the escaped name the rule compiles and checks the object', () => {
    const fixed = crd('capibm-ibmpowervsmachine').replaceAll('self.import', 'self.__import__');
    expect(together(fixed, machine('{ type: Reference, reference: { name: rhcos } }'))).toEqual([]);
    expect(together(fixed, machine('{ type: Import, reference: { name: rhcos } }'))).toEqual([
      'machine.yaml:1: error: IBMPowerVSMachine default/m: spec.image: Invalid value: reference configuration is required when type is Reference, and forbidden otherwise',
      'machine.yaml:1: error: IBMPowerVSMachine default/m: spec.image: Invalid value: import configuration is required when type is Import, and forbidden otherwise',
    ]);
  });
});

describe('the provider-contract lint on real providers', () => {
  it('an IPAM provider may ship a cluster-scoped pool (in-cluster IPAM’s GlobalInClusterIPPool)', () => {
    const metadata = 'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 1\n  contract: v1beta2\n';
    const findings = lintProviderRelease({
      label: 'ipam-in-cluster',
      version: 'v1.1.0',
      files: [
        { name: 'metadata.yaml', text: metadata },
        { name: 'ipam-components.yaml', text: readFileSync(join(fixtures, 'ipam-in-cluster.components.yaml'), 'utf8') },
      ],
    });
    expect(findings.map((f) => `${f.severity} ${f.rule}: ${f.message}`)).toEqual([]);
  });
});
