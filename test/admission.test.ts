/**
 * Admission as `render` and `validate` see it on real provider releases (the corpus): objects CAPI's validating
 * webhooks refuse and Kubernetes versions the locked CAPI release does not support stop the render before anything
 * is written, and `validate` reports them with the webhook's field path and message; the update rules see what the
 * webhooks refuse between two trees.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterVersionCeilingRule, kubernetesVersionFindings, webhookUpdateRules, type SourceObject } from '../src/validate/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const corpusRepository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

function edit(dir: string, change: (text: string) => string): void {
  const file = join(dir, 'capi.config.ts');
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

/** A project `init` made for `infrastructure`, locked. */
async function project(infrastructure: string): Promise<string> {
  const dir = tempDir();
  expect((await runCli(['init', '--repository', corpusRepository, '-i', infrastructure], { cwd: dir, env })).code).toBe(0);
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  return dir;
}

describe.skipIf(!corpus.present)(`render and validate refuse what the management cluster would refuse${corpus.skipped}`, () => {
  it('CAPD ClusterClass flavor: controlPlaneMachineCount 2 and Kubernetes v1.40.0 stop the render; validate names both', async () => {
    const dir = await project('docker');
    edit(dir, (t) => t.replace('controlPlaneMachineCount: 1', 'controlPlaneMachineCount: 2').replace("kubernetesVersion: 'v1.33.1'", "kubernetesVersion: 'v1.40.0'"));
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code).toBe(2);
    expect(render.stderr).toContain('the rendered objects are invalid (2 errors); nothing was written');
    // The KubeadmControlPlane the topology controller would create from the class, with the webhook's message.
    expect(render.stderr).toContain(
      'clusters/default/docker-example/cluster.yaml (topology controlPlane):1: error [webhook/KubeadmControlPlane.replicas-even-stacked-etcd]: KubeadmControlPlane default/docker-example-',
    );
    expect(render.stderr).toContain('spec.replicas: Forbidden: cannot be an even number when etcd is stacked');
    expect(render.stderr).toContain('hint: use an odd number of control plane machines (controlPlaneMachineCount: 1, 3 or 5), or an external etcd');
    expect(render.stderr).toContain(
      'error [k8s-version/unsupported]: Cluster default/docker-example: spec.topology.version: Kubernetes v1.40.0 is not supported by cluster-api v1.13.5: workload clusters run v1.30.x – v1.36.x (kubernetes-sigs/cluster-api docs/book/src/reference/versions.md at v1.13.5)',
    );
    expect(existsSync(join(dir, 'clusters'))).toBe(false);

    // Written anyway, `validate` reports the same two errors and exits 1.
    expect((await runCli(['render', '--no-validate'], { cwd: dir, env })).code).toBe(0);
    const validate = await runCli(['validate', '--json'], { cwd: dir, env });
    expect(validate.code).toBe(1);
    const report = JSON.parse(validate.stdout) as { findings: Array<{ rule?: string; field: string; severity: string }> };
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.field])).toEqual([
      ['k8s-version/unsupported', 'spec.topology.version'],
      ['webhook/KubeadmControlPlane.replicas-even-stacked-etcd', 'spec.replicas'],
    ]);
  });

  it('the same config with an odd count and a supported version renders clean', async () => {
    const dir = await project('docker');
    edit(dir, (t) => t.replace('controlPlaneMachineCount: 1', 'controlPlaneMachineCount: 3').replace("kubernetesVersion: 'v1.33.1'", "kubernetesVersion: 'v1.36.0'"));
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.stderr).toBe('');
    expect(render.code).toBe(0);
    expect((await runCli(['validate'], { cwd: dir, env })).code).toBe(0);
  });

  it("CAPD's ClusterClass: its KubeadmControlPlaneTemplate edited with a reserved taint and a naming template without .random is refused by validate", async () => {
    const dir = await project('docker');
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.stderr).toBe('');
    const classFile = join(dir, 'clusterclasses', 'default', 'quick-start', 'clusterclass.yaml');
    const text = readFileSync(classFile, 'utf8');
    const kcpt = text.indexOf('\nkind: KubeadmControlPlaneTemplate\n');
    const spec = text.indexOf('\n    spec:\n', kcpt);
    expect(kcpt).toBeGreaterThan(0);
    expect(spec).toBeGreaterThan(kcpt);
    const added = '      machineNaming:\n        template: "{{ .kubeadmControlPlane.name }}-cp"\n      machineTemplate:\n        spec:\n          taints:\n          - key: node-role.kubernetes.io/master\n            effect: NoSchedule\n';
    expect(text.slice(spec, text.indexOf('\n---', spec))).not.toContain('machineTemplate:');
    writeFileSync(classFile, `${text.slice(0, spec + 11)}${added}${text.slice(spec + 11)}`);
    const validate = await runCli(['validate', '--json'], { cwd: dir, env });
    expect(validate.code).toBe(1);
    const report = JSON.parse(validate.stdout) as { findings: Array<{ rule?: string; field: string; message: string; file: string; kind: string }> };
    expect(report.findings.filter((f) => f.rule?.startsWith('webhook/KubeadmControlPlaneTemplate')).map((f) => [f.file, f.kind, f.rule, f.message])).toEqual([
      [
        'clusterclasses/default/quick-start/clusterclass.yaml',
        'KubeadmControlPlaneTemplate',
        'webhook/KubeadmControlPlaneTemplate.machine-naming',
        'spec.template.spec.machineNaming.template: Invalid value: "{{ .kubeadmControlPlane.name }}-cp": invalid template, {{ .random }} is missing',
      ],
      [
        'clusterclasses/default/quick-start/clusterclass.yaml',
        'KubeadmControlPlaneTemplate',
        'webhook/KubeadmControlPlaneTemplate.taints',
        'spec.template.spec.machineTemplate.spec.taints[0].key: Invalid value: "node-role.kubernetes.io/master": taint is deprecated since 1.24 and should not be used anymore',
      ],
    ]);
  });

  it("CAPA's plain template: a v1beta1 KubeadmControlPlane with 4 replicas is refused at its own line", async () => {
    const dir = await project('aws');
    edit(dir, (t) =>
      t
        .replace("// AWS_CONTROL_PLANE_MACHINE_TYPE: ''", "AWS_CONTROL_PLANE_MACHINE_TYPE: 't3.large'")
        .replace("// AWS_NODE_MACHINE_TYPE: ''", "AWS_NODE_MACHINE_TYPE: 't3.large'")
        .replace("// AWS_REGION: ''", "AWS_REGION: 'eu-west-1'")
        .replace("// AWS_SSH_KEY_NAME: ''", "AWS_SSH_KEY_NAME: 'default'")
        .replace('controlPlaneMachineCount: 1', 'controlPlaneMachineCount: 4'),
    );
    const render = await runCli(['render'], { cwd: dir, env: { ...env, AWS_B64ENCODED_CREDENTIALS: 'Zm9v' } });
    expect(render.code).toBe(2);
    expect(render.stderr).toMatch(
      /clusters\/default\/aws-example\/cluster\.yaml:\d+: error \[webhook\/KubeadmControlPlane\.replicas-even-stacked-etcd\]: KubeadmControlPlane default\/aws-example-control-plane: spec\.replicas: Forbidden: cannot be an even number when etcd is stacked/,
    );
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
  });
});

const at = (object: Record<string, unknown>, file = 'clusters/team-a/dev/cluster.yaml'): SourceObject => ({ object, file, line: 1 });
const inventory = (version: string): SourceObject =>
  at({ apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3', kind: 'Provider', metadata: { name: 'cluster-api', namespace: 'capi-system' }, providerName: 'cluster-api', type: 'CoreProvider', version }, 'providers/cluster-api/inventory.yaml');
const topologyCluster = (version: string, annotations: Record<string, string> = {}): Record<string, unknown> => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'dev', namespace: 'team-a', annotations },
  spec: { topology: { classRef: { name: 'quick-start' }, version } },
});

describe('Kubernetes versions the locked CAPI release supports', () => {
  const findings = (k8s: string, capi: string) => kubernetesVersionFindings([at(topologyCluster(k8s))], [inventory(capi)]).map((f) => [f.severity, f.rule, f.message]);

  it('inside the matrix row: nothing; outside it: an error naming the range and its source', () => {
    expect(findings('v1.33.1', 'v1.13.5')).toEqual([]);
    expect(findings('v1.29.4', 'v1.13.5')).toEqual([
      ['error', 'k8s-version/unsupported', 'spec.topology.version: Kubernetes v1.29.4 is not supported by cluster-api v1.13.5: workload clusters run v1.30.x – v1.36.x (kubernetes-sigs/cluster-api docs/book/src/reference/versions.md at v1.13.5)'],
    ]);
    expect(findings('v1.29.4', 'v1.12.11')).toEqual([]);
    expect(findings('v1.34.0', 'v1.10.10')[0]?.[2]).toContain('workload clusters run v1.27.x – v1.33.x (kubernetes-sigs/cluster-api docs/book/src/reference/versions.md at v1.12.11)');
  });

  it('a Kubernetes minor a CAPI patch release added: refused on the patches before it', () => {
    expect(findings('v1.36.0', 'v1.13.1')).toEqual([]);
    expect(findings('v1.36.0', 'v1.13.0')).toEqual([
      ['error', 'k8s-version/unsupported', 'spec.topology.version: Kubernetes v1.36 is supported from cluster-api v1.13.1 on; the lock has v1.13.0 (kubernetes-sigs/cluster-api docs/book/src/reference/versions.md at v1.13.5)'],
    ]);
  });

  it('a release the matrix does not cover: a warning, not an error', () => {
    expect(findings('v1.33.1', 'v1.14.0')).toEqual([
      ['warning', 'k8s-version/unknown-release', 'spec.topology.version: Kubernetes v1.33.1 is not checked: capiform knows no support matrix for cluster-api v1.14.0 (known: v1.10, v1.11, v1.12, v1.13)'],
    ]);
  });
});

describe('webhook update rules (base tree → head tree)', () => {
  const update = (before: Record<string, unknown>, after: Record<string, unknown>) => webhookUpdateRules.flatMap((r) => r(at(before), at(after))).map((f) => [f.rule, f.message]);
  const kcp = (clusterConfiguration: Record<string, unknown>, version = 'v1.33.1'): Record<string, unknown> => ({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'dev-cp', namespace: 'team-a' },
    spec: { replicas: 3, version, kubeadmConfigSpec: { clusterConfiguration }, machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'cp' } } } },
  });

  it('KubeadmControlPlane: stacked etcd → external etcd, a field off the allow-list, a skipped minor', () => {
    expect(update(kcp({ etcd: { local: { dataDir: '/var/lib/etcd' } } }), kcp({ etcd: { external: { endpoints: ['https://etcd:2379'] } } }))).toEqual([
      ['webhook/KubeadmControlPlane.etcd', 'spec.kubeadmConfigSpec.clusterConfiguration.etcd.external: Forbidden: cannot change between external and local etcd'],
    ]);
    expect(update(kcp({ certificatesDir: '/a' }), kcp({ certificatesDir: '/b' }))).toEqual([
      ['webhook/KubeadmControlPlane.immutable', 'spec.kubeadmConfigSpec.clusterConfiguration.certificatesDir: Forbidden: cannot be modified'],
    ]);
    expect(update(kcp({}, 'v1.32.0'), kcp({}, 'v1.34.0'))).toEqual([['webhook/KubeadmControlPlane.version-skip', 'spec.version: Forbidden: cannot update Kubernetes version from v1.32.0 to v1.34.0']]);
    expect(update(kcp({ apiServer: { extraArgs: [] } }, 'v1.32.0'), kcp({ apiServer: { certSANs: ['x'] } }, 'v1.33.0'))).toEqual([]);
  });

  it('MachineDeployment: spec.clusterName moved', () => {
    const md = (cluster: string): Record<string, unknown> => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name: 'md-0', namespace: 'team-a' },
      spec: { clusterName: cluster, template: { spec: { clusterName: cluster, bootstrap: { dataSecretName: 's' } } } },
    });
    expect(update(md('dev'), md('prod'))).toEqual([['webhook/MachineDeployment.cluster-name-immutable', 'spec.clusterName: Forbidden: field is immutable']]);
  });

  it('Cluster: a downgrade; more than one minor only along the ClusterClass kubernetesVersions chain', () => {
    expect(update(topologyCluster('v1.33.1'), topologyCluster('v1.32.5'))).toEqual([
      ['webhook/Cluster.topology-version-decrease', 'spec.topology.version: Invalid value: "v1.32.5": version cannot be decreased from "1.33.1" to "1.32.5"'],
    ]);
    const plain = { spec: {} };
    const chained = { spec: { kubernetesVersions: ['v1.32.5', 'v1.33.1', 'v1.34.2'] } };
    const ceiling = (cls: Record<string, unknown>) => clusterVersionCeilingRule(() => cls)(at(topologyCluster('v1.32.5')), at(topologyCluster('v1.34.2'))).map((f) => f.message);
    expect(ceiling(plain)).toEqual(['spec.topology.version: Invalid value: "v1.34.2": version cannot be increased from "1.32.5" to "1.34.2"']);
    expect(ceiling(chained)).toEqual([]);
  });
});
