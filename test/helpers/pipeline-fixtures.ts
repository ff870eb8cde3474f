/**
 * Fixture trees for pipeline tests, built from plain objects: `testdir({ 'a/b.yaml': '…' })` and a small provider
 * repository in clusterctl's local layout (core, kubeadm bootstrap/control plane, docker with a ClusterClass flavor,
 * cert-manager) with two versions each.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './testdir.js';

export function testdir(files: Record<string, string>, root = tempDir('capiform-')): string {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
  return root;
}

export function metadata(series: readonly (readonly [number, number, string])[]): string {
  return `apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3
kind: Metadata
releaseSeries:
${series.map(([ma, mi, c]) => `- major: ${ma}\n  minor: ${mi}\n  contract: ${c}`).join('\n')}
`;
}

/** Provider components: a namespace, a CRD (labelled with `contract` when given, as `diff` reads it) and the controller. */
export function components(ns: string, prefix: string, group: string, extra = '', contract?: string): string {
  return `apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.${group}${contract ? `\n  labels:\n    cluster.x-k8s.io/${contract}: ${contract}` : ''}
spec:
  group: ${group}
  names:
    kind: Thing
    plural: things
  scope: Namespaced
  versions:
  - name: v1beta2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${prefix}-controller-manager
  namespace: ${ns}
spec:
  replicas: 1
  selector:
    matchLabels:
      control-plane: ${prefix}
  template:
    metadata:
      labels:
        control-plane: ${prefix}
    spec:
      containers:
      - name: manager
        image: registry.k8s.io/cluster-api/${prefix}-controller:v0.0.0
        args:
        - --leader-elect
        - --diagnostics-address=\${CAPI_DIAGNOSTICS_ADDRESS:=:8443}
${extra}`;
}

const series12: [number, number, string][] = [
  [1, 12, 'v1beta2'],
  [1, 11, 'v1beta2'],
  [1, 10, 'v1beta1'],
];
const series13: [number, number, string][] = [[1, 13, 'v1beta2'], ...series12];

const clusterTemplate = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
  namespace: \${NAMESPACE}
spec:
  topology:
    classRef:
      name: quick-start
    version: \${KUBERNETES_VERSION}
    controlPlane:
      replicas: \${CONTROL_PLANE_MACHINE_COUNT}
    workers:
      machineDeployments:
      - class: default-worker
        name: md-0
        replicas: \${WORKER_MACHINE_COUNT}
`;

const plainTemplate = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
spec:
  infrastructureRef:
    apiGroup: infrastructure.cluster.x-k8s.io
    kind: DockerCluster
    name: \${CLUSTER_NAME}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerCluster
metadata:
  name: \${CLUSTER_NAME}
spec:
  region: \${DOCKER_REGION}
`;

const clusterClass = `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: quick-start
spec:
  infrastructure:
    templateRef:
      apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
      kind: DockerClusterTemplate
      name: quick-start-cluster
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerClusterTemplate
metadata:
  name: quick-start-cluster
spec:
  template:
    spec: {}
`;

const credentialsSecret = `---
apiVersion: v1
kind: Secret
metadata:
  name: capd-manager-bootstrap-credentials
  namespace: capd-system
type: Opaque
data:
  credentials: \${DOCKER_B64ENCODED_CREDENTIALS:=""}
`;

const certManager = `apiVersion: v1
kind: Namespace
metadata:
  name: cert-manager
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cert-manager
  namespace: cert-manager
spec:
  template:
    spec:
      containers:
      - name: cert-manager-controller
        image: quay.io/jetstack/cert-manager-controller:VERSION
`;

/**
 * Components as a release publishes them: every object labelled `cluster.x-k8s.io/provider: <label>`, as the provider
 * contract asks (`capiform lock` lints it).
 */
function labelled(label: string, text: string): string {
  return text.replace(/^metadata:\n {2}name: (.*)\n(?: {2}labels:\n)?/gm, (_, name: string) => `metadata:\n  name: ${name}\n  labels:\n    cluster.x-k8s.io/provider: ${label}\n`);
}

/** A local provider repository under `<root>/repo`. */
export function fixtureRepository(root: string): void {
  const files: Record<string, string> = {};
  for (const [v, series] of [
    ['v1.12.4', series12],
    ['v1.13.1', series13],
  ] as const) {
    files[`repo/cluster-api/${v}/core-components.yaml`] = labelled('cluster-api', components('capi-system', 'capi', 'cluster.x-k8s.io'));
    files[`repo/cluster-api/${v}/metadata.yaml`] = metadata(series);
    files[`repo/bootstrap-kubeadm/${v}/bootstrap-components.yaml`] = labelled('bootstrap-kubeadm', components('capi-kubeadm-bootstrap-system', 'capi-kubeadm-bootstrap', 'bootstrap.cluster.x-k8s.io'));
    files[`repo/bootstrap-kubeadm/${v}/metadata.yaml`] = metadata(series);
    files[`repo/control-plane-kubeadm/${v}/control-plane-components.yaml`] = labelled('control-plane-kubeadm', components('capi-kubeadm-control-plane-system', 'capi-kubeadm-control-plane', 'controlplane.cluster.x-k8s.io'));
    files[`repo/control-plane-kubeadm/${v}/metadata.yaml`] = metadata(series);
    files[`repo/infrastructure-docker/${v}/infrastructure-components.yaml`] = labelled('infrastructure-docker', components('capd-system', 'capd', 'infrastructure.cluster.x-k8s.io', credentialsSecret));
    files[`repo/infrastructure-docker/${v}/metadata.yaml`] = metadata(series);
    files[`repo/infrastructure-docker/${v}/cluster-template.yaml`] = plainTemplate;
    files[`repo/infrastructure-docker/${v}/cluster-template-development.yaml`] = clusterTemplate;
    files[`repo/infrastructure-docker/${v}/clusterclass-quick-start.yaml`] = clusterClass;
  }
  // A v1beta1-only infrastructure provider, for contract conflicts (v1.10 only).
  files['repo/infrastructure-old/v1.10.0/infrastructure-components.yaml'] = labelled('infrastructure-old', components('old-system', 'old', 'old.cluster.x-k8s.io'));
  files['repo/infrastructure-old/v1.10.0/metadata.yaml'] = metadata([[1, 10, 'v1alpha4']]);
  files['repo/cert-manager/v1.18.2/cert-manager.yaml'] = certManager.replace('VERSION', 'v1.18.2');
  files['repo/cert-manager/v1.19.1/cert-manager.yaml'] = certManager.replace('VERSION', 'v1.19.1');
  testdir(files, root);
}

export interface FixtureConfigOptions {
  core?: string;
  infra?: string;
  clusters?: string;
  extra?: string;
}

/** The config object literal of {@link fixtureConfig}, as source text. */
function configObject(o: FixtureConfigOptions): string {
  return `{
  providers: {
    core: { name: 'cluster-api', version: '${o.core ?? '~1.13.0'}', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: 'latest', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: 'latest', url: './repo' }],
    infrastructure: [${o.infra ?? `{ name: 'docker', version: '^1.12', url: './repo' }`}],
  },
  certManager: { version: 'v1.19.1', url: './repo' },
  clusters: [${
    o.clusters ??
    `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1', workerMachineCount: 2 },
    { name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' } },
  `
  }],
  ${o.extra ?? ''}
}`;
}

/** A capi.config.ts using the fixture repository. */
export function fixtureConfig(o: FixtureConfigOptions = {}): string {
  return `import { defineConfig } from 'capiform';

export default defineConfig(${configObject(o)});
`;
}

/**
 * The same config as a plain object (`export default { … }`, no `capiform` import). A `capiform` import makes jiti
 * transpile all of capiform's sources each time the config is loaded (5-8 s under vitest, 2 s in a spawned process);
 * without it a load takes milliseconds. For tests that render many times and are not about config loading.
 */
export function fixtureConfigPlain(o: FixtureConfigOptions = {}): string {
  return `export default ${configObject(o)};
`;
}

/** How a fixture's capi.config.ts is written: as users write it (`defineConfig` from 'capiform'), or plain (fast). */
export type FixtureConfigStyle = 'capiform' | 'plain';

/** Writes the fixture config for `o` as `<root>/capi.config.ts`. */
export function writeFixtureConfig(root: string, o: FixtureConfigOptions = {}, style: FixtureConfigStyle = 'capiform'): void {
  writeFileSync(join(root, 'capi.config.ts'), style === 'capiform' ? fixtureConfig(o) : fixtureConfigPlain(o));
}

/** A fixture project (repository + config) in a fresh temporary directory. */
export function fixtureProject(o: FixtureConfigOptions = {}, style: FixtureConfigStyle = 'capiform'): string {
  const root = testdir({});
  writeFixtureConfig(root, o, style);
  fixtureRepository(root);
  return root;
}

/** test/fixtures/fleet/capi.config.mjs: two management clusters, `eu-west` and `us-east`, sharing most settings. */
export const fleetFixtureConfig = readFileSync(new URL('../fixtures/fleet/capi.config.mjs', import.meta.url), 'utf8');

/** A fleet project: `config` (default: the fleet fixture) as capi.config.mjs beside the fixture repository. */
export function fleetProject(config = fleetFixtureConfig): string {
  const dir = testdir({ 'capi.config.mjs': config });
  fixtureRepository(dir);
  return dir;
}
