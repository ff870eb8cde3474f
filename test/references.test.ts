/**
 * Reference integrity on real providers: a reference that names no object in the tree is accepted by the API server
 * and then stops the controller, so `render` refuses it and `validate` reports it, naming both ends. Objects a
 * controller creates (a topology Cluster's, `<cluster>-kubeconfig`) and Secrets provisioned by other means are not
 * dangling.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest, referenceFindings, formatFinding } from '../src/validate/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const repository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

/** `init --infrastructure <infra>` with every required value set to `x`, locked. */
async function initProject(infra: string): Promise<string> {
  const dir = tempDir();
  expect((await runCli(['init', '--repository', repository, '--infrastructure', infra], { cwd: dir, env })).code).toBe(0);
  writeFileSync(join(dir, 'capi.config.ts'), read(dir, 'capi.config.ts').replace(/\/\/ ([A-Z0-9_]+): '', \/\/ required: .*$/gm, "$1: 'x',"));
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  return dir;
}

const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

describe.skipIf(!corpus.present)(`references on the corpus's providers${corpus.skipped}`, { timeout: 240_000 }, () => {
  it('render refuses a patch that points a MachineDeployment at a template the tree does not hold, and writes nothing', async () => {
    const dir = await initProject('azure');
    const patch = `patches: [{ target: { kind: 'MachineDeployment' }, patch: [{ op: 'replace', path: '/spec/template/spec/infrastructureRef/name', value: 'azure-example-md0' }] }],`;
    writeFileSync(join(dir, 'capi.config.ts'), read(dir, 'capi.config.ts').replace("workerMachineCount: 1,", `workerMachineCount: 1,\n      ${patch}`));
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /clusters\/default\/azure-example\/cluster\.yaml:\d+: error \[ref\/dangling\]: MachineDeployment default\/azure-example-md-0: spec\.template\.spec\.infrastructureRef: references AzureMachineTemplate default\/azure-example-md0 \(infrastructure\.cluster\.x-k8s\.io\), which does not exist \(the tree's AzureMachineTemplate objects: azure-example-control-plane, azure-example-md-0\)\n {4}hint: did you mean "azure-example-md-0"\?/,
    );
    expect(existsSync(join(dir, 'clusters'))).toBe(false);
  });

  it('validate names both ends of a dangling identityRef, and leaves controller-created Secrets alone', async () => {
    const dir = await initProject('azure');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const file = 'clusters/default/azure-example/cluster.yaml';
    expect((await runCli(['validate'], { cwd: dir, env })).stdout).not.toContain('[ref/');

    // The identity renamed in the tree, its reference left behind.
    const text = read(dir, file).replace(/(kind: AzureClusterIdentity\nmetadata:\n(?: {2}.*\n)*? {2}name: )x\n/, '$1x-renamed\n');
    expect(text).toContain('name: x-renamed');
    writeFileSync(join(dir, file), text);
    const r = await runCli(['validate'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `${file}:${lineOf(text, '\nkind: AzureCluster\n')}: error [ref/dangling]: AzureCluster default/azure-example: spec.identityRef: references AzureClusterIdentity default/x (infrastructure.cluster.x-k8s.io), which does not exist (the tree's AzureClusterIdentity objects: x-renamed)`,
    );
  });

  it("a topology Cluster's references are the controller's, its ClusterClass's templates are the tree's", async () => {
    const dir = await initProject('docker');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const clean = await runCli(['validate'], { cwd: dir, env });
    expect(clean.stdout).not.toContain('[ref/');

    const classFile = readdirSync(join(dir, 'clusterclasses', 'default'))[0]!;
    const path = join('clusterclasses', 'default', classFile, 'clusterclass.yaml');
    const objects = readManifest(read(dir, path), path).objects;
    // Without its templates the class points nowhere.
    const classOnly = objects.filter((s) => s.object.kind === 'ClusterClass');
    const findings = referenceFindings(classOnly, classOnly).map(formatFinding);
    expect(findings.length).toBeGreaterThanOrEqual(5);
    expect(findings[0]).toMatch(/^clusterclasses\/default\/.*: error \[ref\/dangling\]: ClusterClass default\/.*: spec\.infrastructure\.templateRef: references DockerClusterTemplate default\/.*, which does not exist \(the tree holds no DockerClusterTemplate\)/);
    expect(referenceFindings(classOnly, objects)).toEqual([]);
  });
});

describe('references a controller or the secrets policy provides', () => {
  const src = (yaml: string) => readManifest(yaml, 'cluster.yaml').objects;
  const cluster = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: { name: c1, namespace: team-a }
spec:
  infrastructureRef: { apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerCluster, name: c1 }
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerCluster
metadata: { name: c1, namespace: team-a }
`;

  it('CAPI-created Secrets resolve; a Secret the tree lacks is a warning, one the policy left out is fine', () => {
    const crs = `---
apiVersion: addons.cluster.x-k8s.io/v1beta2
kind: ClusterResourceSet
metadata: { name: crs, namespace: team-a }
spec:
  clusterSelector: {}
  resources:
  - { kind: Secret, name: c1-kubeconfig }
  - { kind: Secret, name: cloud-credentials }
  - { kind: ConfigMap, name: calico }
`;
    const objects = src(cluster + crs);
    expect(referenceFindings(objects, objects).map((f) => `${f.severity} ${f.rule} ${f.field}: ${f.message}`)).toEqual([
      'warning ref/secret-not-in-tree spec.resources[1]: spec.resources[1]: references Secret team-a/cloud-credentials, which is not in the tree: the controller waits until it exists',
      'error ref/dangling spec.resources[2]: spec.resources[2]: references ConfigMap team-a/calico, which does not exist (the tree holds no ConfigMap)',
    ]);
    expect(referenceFindings(objects, objects, { omittedSecrets: new Set(['team-a/cloud-credentials']) }).map((f) => f.field)).toEqual(['spec.resources[2]']);
  });

  it('a MachineDeployment with a bootstrap dataSecretName follows no configRef', () => {
    const md = `---
apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata: { name: md, namespace: team-a }
spec:
  clusterName: c1
  template:
    spec:
      clusterName: c1
      bootstrap: { dataSecretName: user-data }
      infrastructureRef: { apiGroup: infrastructure.cluster.x-k8s.io, kind: DockerMachineTemplate, name: md }
`;
    const objects = src(cluster + md);
    expect(referenceFindings(objects, objects).map((f) => f.field)).toEqual(['spec.template.spec.infrastructureRef']);
  });
});
