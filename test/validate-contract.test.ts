/**
 * The provider-contract lint (spec/provider-contract.md): each rule on a small release that breaks it, and what the
 * real provider releases of the corpus violate, recorded as data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractRules, lintProviderRelease, type ProviderRelease } from '../src/validate/index.js';
import { sharedDir } from './helpers/shared.js';

const metadata = `apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3
kind: Metadata
releaseSeries:
- major: 1
  minor: 2
  contract: v1beta2
`;

const crd = (kind: string, opts: { plural?: string; scope?: string; labels?: string; status?: boolean; providerID?: boolean; group?: string } = {}): string => {
  const group = opts.group ?? 'infrastructure.cluster.x-k8s.io';
  const plural = opts.plural ?? `${kind.toLowerCase()}s`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
  labels:
    cluster.x-k8s.io/provider: infrastructure-acme
${opts.labels ?? '    cluster.x-k8s.io/v1beta2: v1beta2'}
spec:
  group: ${group}
  names: { kind: ${kind}, listKind: ${kind}List, plural: ${plural} }
  scope: ${opts.scope ?? 'Namespaced'}
  versions:
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ${opts.providerID === false ? 'image' : 'providerID'}: { type: string }
          status:
            type: object
            properties:
              ${opts.status === false ? 'phase' : 'initialization'}: { type: object }
`;
};

const namespace = `apiVersion: v1
kind: Namespace
metadata:
  name: acme-system
  labels:
    cluster.x-k8s.io/provider: infrastructure-acme
`;

const deployment = (container = 'manager'): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: acme-controller-manager
  namespace: acme-system
  labels:
    cluster.x-k8s.io/provider: infrastructure-acme
spec:
  template:
    spec:
      containers:
      - name: ${container}
        image: acme/controller:v1.2.0
        args: ["--v=\${ACME_LOGLEVEL:=0}"]
`;

/** A release that follows every rule: the base each test breaks once. */
const goodComponents = [
  namespace,
  deployment(),
  crd('AcmeCluster'),
  crd('AcmeClusterTemplate'),
  crd('AcmeMachine'),
  crd('AcmeMachineTemplate'),
].join('---\n');

const release = (files: Record<string, string>, over: Partial<ProviderRelease> = {}): ProviderRelease => ({
  label: 'infrastructure-acme',
  version: 'v1.2.0',
  files: Object.entries({ 'metadata.yaml': metadata, 'infrastructure-components.yaml': goodComponents, ...files }).map(([name, text]) => ({ name, text })),
  ...over,
});

const lint = (files: Record<string, string>, over: Partial<ProviderRelease> = {}): string[] =>
  lintProviderRelease(release(files, over)).map((f) => `${f.severity} ${f.rule}: ${f.message}`);

const cluster = (ns: string, cls?: string): string => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
  namespace: ${ns}
spec:
${cls ? `  topology:\n    classRef:\n      name: ${cls}\n    version: v1.34.0\n` : '  paused: false\n'}`;

describe('provider-contract rules', () => {
  it('a release that follows the contract has no findings', () => {
    expect(lint({ 'cluster-template.yaml': cluster('ns'), 'cluster-template-topology.yaml': cluster('ns', 'quick'), 'clusterclass-quick.yaml': 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata:\n  name: quick\n' })).toEqual([]);
  });

  it('repo.metadata: a version folder that is no semantic version, a series metadata.yaml lacks, no metadata.yaml', () => {
    expect(lint({}, { version: 'latest' })).toEqual(['error repo.metadata: version folder "latest" is not a valid semantic version']);
    expect(lint({}, { version: 'v1.3.0' })).toEqual(['error repo.metadata: releaseSeries has no entry for 1.3, the series of v1.3.0']);
    expect(lint({ 'metadata.yaml': '' }).length).toBe(1);
  });

  it('repo.components-name: components under another name', () => {
    const files = release({}).files.map((f) => (f.name === 'infrastructure-components.yaml' ? { ...f, name: 'infrastructure-components-dev.yaml' } : f));
    expect(lintProviderRelease({ ...release({}), files }).map((f) => `${f.severity} ${f.rule}`)).toEqual(['warning repo.components-name']);
  });

  it("repo.components-name: the file clusterctl's catalog names for the provider is the right one (CAPD's -development)", () => {
    const docker = { ...release({}), label: 'infrastructure-docker' };
    const renamed = (name: string) => docker.files.map((f) => (f.name === 'infrastructure-components.yaml' ? { ...f, name } : f));
    const rules = (name: string) => lintProviderRelease({ ...docker, files: renamed(name) }).map((f) => `${f.severity} ${f.rule}`).filter((r) => r.endsWith('components-name'));
    expect(rules('infrastructure-components-development.yaml')).toEqual([]);
    expect(rules('infrastructure-components-dev.yaml')).toEqual(['warning repo.components-name']);
  });

  it('repo.template-name: a ClusterClass or Cluster in a file named otherwise', () => {
    expect(lint({ 'my-class.yaml': 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata:\n  name: c\n' })).toEqual([
      'error repo.template-name: "my-class.yaml" holds a ClusterClass but is not named clusterclass-<name>.yaml',
    ]);
  });

  it('components.namespace-count, components.namespaced, components.manager-container, components.provider-label', () => {
    const components = [deployment('controller').replace('namespace: acme-system', 'namespace: other'), crd('AcmeCluster'), crd('AcmeClusterTemplate')].join('---\n');
    expect(lint({ 'infrastructure-components.yaml': components })).toEqual([
      'warning components.namespace-count: the components hold 0 Namespace objects; clusterctl expects exactly one (the target namespace)',
      'error components.manager-container: the Deployment has no container named "manager" (clusterctl sets image overrides and flags on it)',
    ]);
    const wrongNs = [namespace, deployment().replace('namespace: acme-system', 'namespace: other').replace('    cluster.x-k8s.io/provider: infrastructure-acme\n', '')].join('---\n');
    expect(lint({ 'infrastructure-components.yaml': wrongNs })).toEqual([
      'error components.namespaced: Deployment is in namespace "other", not the provider\'s target namespace "acme-system"',
      'warning components.provider-label: missing label cluster.x-k8s.io/provider: infrastructure-acme',
    ]);
  });

  it('components.variables-prefixed: a variable without the provider prefix', () => {
    expect(lint({ 'infrastructure-components.yaml': goodComponents.replace('ACME_LOGLEVEL', 'LOGLEVEL') })).toEqual([
      "warning components.variables-prefixed: variable LOGLEVEL is not prefixed with the provider's name (ACME_…)",
    ]);
  });

  it('crd.contract-label, crd.name, crd.namespaced', () => {
    const components = [
      namespace,
      deployment(),
      crd('AcmeCluster', { labels: '    cluster.x-k8s.io/v1beta1: v1beta1' }),
      crd('AcmeClusterTemplate', { plural: 'acmeclustertemplate' }),
      crd('AcmeMachine', { scope: 'Cluster' }),
      crd('AcmeMachineTemplate'),
    ].join('---\n');
    expect(lint({ 'infrastructure-components.yaml': components })).toEqual([
      "error crd.contract-label: CRD acmeclusters.infrastructure.cluster.x-k8s.io has no cluster.x-k8s.io/v1beta2 label for the release's contract",
      'error crd.contract-label: label cluster.x-k8s.io/v1beta1 names version "v1beta1", which CRD acmeclusters.infrastructure.cluster.x-k8s.io does not serve',
      'error crd.name: CRD name is "acmeclustertemplate.infrastructure.cluster.x-k8s.io"; CAPI expects "acmeclustertemplates.infrastructure.cluster.x-k8s.io" for kind AcmeClusterTemplate',
      'error crd.namespaced: CRD acmemachines.infrastructure.cluster.x-k8s.io is Cluster scoped; CAPI-facing types must be Namespaced',
    ]);
  });

  it('crd.template-pair and crd.spec-status', () => {
    const components = [namespace, deployment(), crd('AcmeCluster', { status: false }), crd('AcmeClusterTemplate'), crd('AcmeMachine', { providerID: false })].join('---\n');
    expect(lint({ 'infrastructure-components.yaml': components })).toEqual([
      'error crd.spec-status: InfraCluster AcmeCluster v1beta2 has neither status.ready nor status.initialization',
      'warning crd.template-pair: InfraMachine kind AcmeMachine has no AcmeMachineTemplate kind for ClusterClasses',
      'error crd.spec-status: InfraMachine AcmeMachine v1beta2 has no spec.providerID',
    ]);
  });

  it('crd.rbac-aggregation: types outside *.cluster.x-k8s.io need an aggregated ClusterRole', () => {
    const foreign = crd('Widget', { group: 'acme.io', labels: '' });
    const role = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: acme-aggregated
  labels:
    cluster.x-k8s.io/provider: infrastructure-acme
    cluster.x-k8s.io/aggregate-to-manager: "true"
rules:
- apiGroups: [acme.io]
  resources: ['*']
  verbs: ['*']
`;
    expect(lint({ 'infrastructure-components.yaml': `${goodComponents}---\n${foreign}` })).toEqual([
      'error crd.rbac-aggregation: no ClusterRole labelled cluster.x-k8s.io/aggregate-to-manager: "true" grants the core controllers access to API group acme.io',
    ]);
    expect(lint({ 'infrastructure-components.yaml': `${goodComponents}---\n${foreign}---\n${role}` })).toEqual([]);
  });

  it('template.single-namespace and template.topology-class', () => {
    expect(lint({ 'cluster-template.yaml': `${cluster('a')}---\n${cluster('b', 'missing')}` })).toEqual([
      "error template.single-namespace: the template's objects are in 2 namespaces (a, b); a template deploys into one",
      'error template.topology-class: the Cluster uses class "missing", but the release has no clusterclass-missing.yaml',
    ]);
    // The files a lock pins are only part of the release: a class file it does not pin may still be there.
    expect(lint({ 'cluster-template.yaml': cluster('b', 'missing') }, { partial: true })).toEqual([]);
  });

  it('every rule of the spec has a strength', () => {
    const spec = sharedDir('corpus').present ? readFileSync(join(sharedDir('corpus').path, '..', 'spec', 'provider-contract.md'), 'utf8') : '';
    const ids = [...spec.matchAll(/^- `([a-z.-]+)` (MUST|SHOULD)/gm)].map((m) => [m[1], m[2] === 'MUST' ? 'error' : 'warning']);
    if (ids.length > 0) expect(Object.entries(contractRules).sort()).toEqual(ids.sort());
  });
});

const corpus = sharedDir('corpus');

/**
 * What real releases violate, by rule (counts of findings). CAPA's identity CRDs label contract versions they no
 * longer serve (v1alpha3/v1alpha4) and ROSACluster has no template; CAPA and CAPZ ship ClusterClasses as
 * `cluster-template-*-clusterclass.yaml` and CAPA's templates use classes the release does not ship; CAPD's v1.13
 * DevMachinePool labels v1beta1 it does not serve;
 * metal3 uses unprefixed variables; ipam-metal3 ships no aggregated ClusterRole for ipam.metal3.io; cert-manager is
 * no CAPI provider (no metadata.yaml).
 */
const corpusFindings: Record<string, Record<string, number>> = {
  'bootstrap-kubeadm/v1.10.10': {},
  'bootstrap-kubeadm/v1.11.11': {},
  'bootstrap-kubeadm/v1.12.11': {},
  'bootstrap-kubeadm/v1.13.5': {},
  'cert-manager/v1.16.1': { 'repo.metadata': 1 },
  'cert-manager/v1.19.4': { 'repo.metadata': 1 },
  'cluster-api/v1.10.10': {},
  'cluster-api/v1.11.11': {},
  'cluster-api/v1.12.11': {},
  'cluster-api/v1.13.5': {},
  'control-plane-kubeadm/v1.10.10': {},
  'control-plane-kubeadm/v1.11.11': {},
  'control-plane-kubeadm/v1.12.11': {},
  'control-plane-kubeadm/v1.13.5': {},
  'infrastructure-aws/v2.10.3': { 'components.variables-prefixed': 6, 'crd.contract-label': 63, 'crd.template-pair': 1, 'repo.template-name': 3, 'template.topology-class': 2 },
  'infrastructure-aws/v2.11.1': { 'components.variables-prefixed': 6, 'crd.contract-label': 69, 'crd.template-pair': 1, 'repo.template-name': 4, 'template.topology-class': 2 },
  'infrastructure-azure/v1.25.1': { 'repo.template-name': 4 },
  'infrastructure-azure/v1.26.0': { 'repo.template-name': 4 },
  // CAPD's `infrastructure-components-development.yaml` is the file clusterctl's catalog names: no finding.
  'infrastructure-docker/v1.10.10': {},
  'infrastructure-docker/v1.11.11': {},
  'infrastructure-docker/v1.12.11': {},
  'infrastructure-docker/v1.13.5': { 'crd.contract-label': 2 },
  'infrastructure-metal3/v1.12.7': { 'components.variables-prefixed': 2 },
  'infrastructure-metal3/v1.13.2': { 'components.variables-prefixed': 1 },
  'infrastructure-vsphere/v1.15.3': {},
  'infrastructure-vsphere/v1.16.1': { 'components.variables-prefixed': 1 },
  'ipam-metal3/v1.12.6': { 'components.variables-prefixed': 1, 'crd.rbac-aggregation': 1 },
  'ipam-metal3/v1.13.2': { 'crd.rbac-aggregation': 1 },
};

describe.skipIf(!corpus.present)(`the provider releases of the corpus${corpus.skipped}`, () => {
  const root = join(corpus.path, 'repository');
  const releases = readdirSync(root)
    .sort()
    .flatMap((label) => readdirSync(join(root, label)).sort().map((version) => ({ label, version })));

  it.each(releases)('$label $version', ({ label, version }) => {
    const dir = join(root, label, version);
    const files = readdirSync(dir)
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
    const counts: Record<string, number> = {};
    for (const f of lintProviderRelease({ label, version, files })) counts[f.rule ?? 'unreadable'] = (counts[f.rule ?? 'unreadable'] ?? 0) + 1;
    expect(counts).toEqual(corpusFindings[`${label}/${version}`] ?? 'a release this test has no record for');
  });
});
