/**
 * `capiform plan topology` through the CLI, on the embedded example's rendered tree (ClusterClass quick-start and
 * its two Clusters team-a/dev-1 and team-a/dev-2): the text by role, the `--json` shape, one file per object with
 * `--output-directory`, `--cluster`, and the error paths with their exit codes.
 */
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifests } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { repoRoot } from './helpers/diff-fixtures.js';
import { tempDir } from './helpers/testdir.js';

/** A copy of the example's rendered ClusterClasses and Clusters (the tree `capiform render` writes). */
function exampleTree(): string {
  const dir = tempDir();
  for (const d of ['clusterclasses', 'clusters']) cpSync(join(repoRoot, d), join(dir, d), { recursive: true });
  return dir;
}

const roles = [
  'cluster',
  'infrastructureCluster',
  'controlPlaneInfrastructureMachineTemplate',
  'controlPlane',
  'machineDeployment/md-0',
  'machineDeploymentBootstrapTemplate/md-0',
  'machineDeploymentInfrastructureTemplate/md-0',
];

interface PlanJson {
  clusters: { cluster: string; class: string; objects: { role: string; object: Record<string, unknown> }[]; warnings: string[] }[];
}

describe('capiform plan topology', () => {
  it('prints, per Cluster, its desired objects by role with kind and name (the rendered tree by default)', async () => {
    const r = await runCli(['plan', 'topology'], { cwd: exampleTree() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const blocks = r.stdout.split('\n\n');
    expect(blocks.map((b) => b.split('\n')[0])).toEqual(['Cluster team-a/dev-1 (ClusterClass team-a/quick-start)', 'Cluster team-a/dev-2 (ClusterClass team-a/quick-start)']);
    const dev1 = blocks[0]!.split('\n');
    expect(dev1[1]).toMatch(/^ {2}ROLE +KIND +NAME$/);
    expect(dev1.slice(2, 9).map((l) => l.trim().split(/ +/))).toEqual([
      ['cluster', 'Cluster', 'dev-1'],
      ['infrastructureCluster', 'DockerCluster', expect.stringMatching(/^dev-1-[a-z0-9]{5}$/)],
      ['controlPlaneInfrastructureMachineTemplate', 'DockerMachineTemplate', expect.stringMatching(/^dev-1-[a-z0-9]{5}$/)],
      ['controlPlane', 'KubeadmControlPlane', expect.stringMatching(/^dev-1-[a-z0-9]{5}$/)],
      ['machineDeployment/md-0', 'MachineDeployment', expect.stringMatching(/^dev-1-md-0-[a-z0-9]{5}$/)],
      ['machineDeploymentBootstrapTemplate/md-0', 'KubeadmConfigTemplate', expect.stringMatching(/^dev-1-md-0-[a-z0-9]{5}$/)],
      ['machineDeploymentInfrastructureTemplate/md-0', 'DockerMachineTemplate', expect.stringMatching(/^dev-1-md-0-[a-z0-9]{5}$/)],
    ]);
    // What the class's patches set, and which patch set it: customImage from the topology version, the PodSecurity admission config.
    expect(dev1[9]).toBe('  Values set by the class patches:');
    expect(dev1).toContain('    controlPlaneInfrastructureMachineTemplate .spec.template.spec.customImage: kindest/node:v1.33.1  [patch customImage]');
    expect(dev1).toContain('    machineDeploymentInfrastructureTemplate/md-0 .spec.template.spec.customImage: kindest/node:v1.33.1  [patch customImage]');
    expect(dev1.some((l) => l.startsWith('    controlPlane .spec.kubeadmConfigSpec.files: [{"content":"apiVersion: apiserver.config.k8s.io/v1'))).toBe(true);
  });

  it('--json: { clusters: [ { cluster, class, objects: [ { role, object } ], warnings } ] }, the same objects on every run', async () => {
    const dir = exampleTree();
    const r = await runCli(['plan', 'topology', '--json', 'clusterclasses', 'clusters'], { cwd: dir });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as PlanJson;
    expect(Object.keys(doc)).toEqual(['clusters']);
    expect(doc.clusters.map((c) => Object.keys(c))).toEqual([
      ['cluster', 'class', 'objects', 'warnings'],
      ['cluster', 'class', 'objects', 'warnings'],
    ]);
    expect(doc.clusters.map((c) => [c.cluster, c.class, c.objects.map((o) => o.role)])).toEqual([
      ['team-a/dev-1', 'team-a/quick-start', roles],
      ['team-a/dev-2', 'team-a/quick-start', roles],
    ]);
    const md = doc.clusters[0]!.objects.find((o) => o.role === 'machineDeployment/md-0')!.object as { spec: { replicas: number; clusterName: string } };
    expect(md.spec).toMatchObject({ clusterName: 'dev-1', replicas: 2 });
    expect((await runCli(['plan', 'topology', '--json', 'clusterclasses', 'clusters'], { cwd: dir })).stdout).toBe(r.stdout);
  });

  it('--output-directory writes <namespace>/<cluster>/<role, "/" as "_">.yaml, one object each', async () => {
    const dir = exampleTree();
    const out = join(tempDir(), 'plan');
    const r = await runCli(['plan', 'topology', '--output-directory', out], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`Wrote 14 objects to ${out}\n`);
    expect(readdirSync(join(out, 'team-a', 'dev-1')).sort()).toEqual(roles.map((role) => `${role.replace('/', '_')}.yaml`).sort());
    const [md] = parseManifests(readFileSync(join(out, 'team-a', 'dev-1', 'machineDeployment_md-0.yaml'), 'utf8'));
    expect(md).toMatchObject({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { namespace: 'team-a' } });
  });

  it('--cluster NS/NAME keeps one Cluster; an unknown one exits 2 naming the Clusters found', async () => {
    const dir = exampleTree();
    const one = await runCli(['plan', 'topology', '--json', '--cluster', 'team-a/dev-2'], { cwd: dir });
    expect((JSON.parse(one.stdout) as PlanJson).clusters.map((c) => c.cluster)).toEqual(['team-a/dev-2']);
    const unknown = await runCli(['plan', 'topology', '--cluster', 'team-a/dev-9'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('--cluster team-a/dev-9: no topology Cluster team-a/dev-9 in the input (found: team-a/dev-1, team-a/dev-2)');
  });

  it('unreadable input exits 2: a missing path, a folder without a rendered tree', async () => {
    const missing = await runCli(['plan', 'topology', 'nothere.yaml'], { cwd: tempDir() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory');
    const empty = await runCli(['plan', 'topology'], { cwd: tempDir() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to plan: no clusterclasses/ or clusters/ directory');
    const dir = tempDir();
    writeFileSync(join(dir, 'broken.yaml'), 'kind: Cluster\n  bad: [\n');
    const broken = await runCli(['plan', 'topology', 'broken.yaml'], { cwd: dir });
    expect(broken.code).toBe(2);
  });

  it('a Cluster that cannot be expanded is shown with its error and the command exits 2', async () => {
    const dir = exampleTree();
    const file = join(dir, 'clusters', 'team-a', 'dev-2', 'cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('class: default-worker', 'class: no-such-worker'));
    const r = await runCli(['plan', 'topology', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as PlanJson;
    const dev2 = doc.clusters.find((c) => c.cluster === 'team-a/dev-2')!;
    expect(dev2.objects).toEqual([]);
    expect(dev2.warnings.join('\n')).toMatch(/^error: .*no-such-worker/m);
    expect(r.stderr).toContain('team-a/dev-2 cannot be expanded');
  });

  it('a variable of the wrong type: stderr names the variable, the rule and the value, as render does', async () => {
    const dir = exampleTree();
    const file = join(dir, 'clusters', 'team-a', 'dev-1', 'cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled: true', 'enabled: "yes"'));
    const r = await runCli(['plan', 'topology'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "Error: Cluster team-a/dev-1 cannot be expanded with ClusterClass team-a/quick-start (CAPI's webhooks would reject it):\n" +
        '  spec.topology.variables[podSecurityStandard].value.enabled: Invalid value: "{\\"enabled\\":\\"yes\\",\\"enforce\\":\\"baseline\\"}": enabled in body must be of type boolean: "string"\n',
    );
    expect(r.stdout).toContain('Cluster team-a/dev-2 (ClusterClass team-a/quick-start)');
  });
});
