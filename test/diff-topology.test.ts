/**
 * The diff's ClusterClass review: both sides' topology Clusters expanded and compared by role, in the JSON, text and
 * markdown reports, replacing the "may roll" of a class change. On the embedded example: its rendered tree with
 * the class edited, and `diff --render` after editing the class in the example repository and re-locking.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { git, repoRoot } from './helpers/diff-fixtures.js';
import { tempDir } from './helpers/testdir.js';

const classFile = join('clusterclasses', 'team-a', 'quick-start', 'clusterclass.yaml');

/** A copy of the example's rendered tree. */
function exampleTree(): string {
  const dir = tempDir();
  for (const d of ['providers', 'clusterclasses', 'clusters']) cpSync(join(repoRoot, d), join(dir, d), { recursive: true });
  return dir;
}

/** The pull request: the worker machine template gets a second mount, edited in place under the same name. */
function addWorkerMount(text: string): string {
  const mount = '      - containerPath: /var/run/docker.sock\n        hostPath: /var/run/docker.sock\n';
  const at = text.indexOf(mount, text.indexOf('kind: DockerMachineTemplate\nmetadata:\n  name: quick-start-default-worker-machinetemplate'));
  expect(at).toBeGreaterThan(0);
  return `${text.slice(0, at + mount.length)}      - containerPath: /var/lib/containerd\n        hostPath: /var/lib/containerd\n${text.slice(at + mount.length)}`;
}

function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

describe('diff: the ClusterClass review per topology Cluster', () => {
  it('a worker template spec change under the same name: the review says what CAPI would do, the update itself is rejected', async () => {
    const base = exampleTree();
    const head = exampleTree();
    edit(join(head, classFile), addWorkerMount);
    const r = await runCli(['diff', '--format', 'json', base, head]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.topology?.clusters.map((c) => [c.cluster, c.status, c.impact, c.controlPlaneRolls, c.workersRoll])).toEqual([
      ['team-a/dev-1', 'changed', 'worker-rollout', false, ['md-0']],
      ['team-a/dev-2', 'changed', 'worker-rollout', false, ['md-0']],
    ]);
    const dev1 = report.topology!.clusters[0]!;
    expect(dev1.changes.map((c) => [c.role, c.action])).toEqual([
      ['machineDeployment/md-0', 'changed'],
      ['machineDeploymentInfrastructureTemplate/md-0', 'rotated'],
    ]);
    expect(dev1.changes[1]!.fields).toEqual([
      { path: '.spec.template.spec.extraMounts[1]', action: 'added', new: { containerPath: '/var/lib/containerd', hostPath: '/var/lib/containerd' } },
    ]);
    expect(report.topology!.warnings).toEqual([expect.stringContaining('DockerMachineTemplate team-a/quick-start-default-worker-machinetemplate: spec changed under the same name')]);
    // CAPD's webhook refuses the template update, so nothing of it lands: the clusters read rejected, not "may roll".
    expect(report.clusters.map((c) => [c.cluster, c.impact, c.possibleRollout, c.workersRoll])).toEqual([
      ['team-a/dev-1', 'rejected', false, []],
      ['team-a/dev-2', 'rejected', false, []],
    ]);
    expect(report.changes.find((c) => c.kind === 'DockerMachineTemplate')?.impacts.map((i) => [i.kind, i.cluster, i.rule])).toEqual([
      ['rejected', 'team-a/dev-1', 'immutable/DockerMachineTemplate'],
      ['rejected', 'team-a/dev-2', 'immutable/DockerMachineTemplate'],
    ]);
    expect(report.changes.flatMap((c) => c.impacts).filter((i) => i.possible)).toEqual([]);

    const md = await runCli(['diff', '--format', 'markdown', base, head]);
    expect(md.stdout).toContain('#### ClusterClass topology');
    expect(md.stdout).toContain('<details><summary>🧩 <b>team-a/dev-1</b> (ClusterClass <code>team-a/quick-start</code>) — worker rollout</summary>');
    expect(md.stdout).toMatch(/\| machineDeploymentInfrastructureTemplate\/md-0 \| DockerMachineTemplate <code>dev-1-md-0-\w+<\/code> \(was <code>dev-1-md-0-\w+<\/code>\) \| rotated \| \*\*template rotation\*\*/);
    const text = await runCli(['diff', base, head]);
    expect(text.stdout).toContain('ClusterClass topology\n  team-a/dev-1 (ClusterClass team-a/quick-start) changed: worker-rollout; workers roll (md-0)\n');
  });

  it('a ClusterClass change that leaves the desired objects alone is a no-op for its Clusters', async () => {
    const base = exampleTree();
    const head = exampleTree();
    edit(join(head, classFile), (t) => t.replace('description: Sets the imageRepository used for the KubeadmControlPlane.', 'description: Sets the image repository of the control plane.'));
    const report = JSON.parse((await runCli(['diff', '--format', 'json', base, head])).stdout) as DiffReport;
    expect(report.topology).toBeUndefined();
    expect(report.clusters.map((c) => [c.cluster, c.impact, c.possibleRollout])).toEqual([
      ['team-a/dev-1', 'no-op', false],
      ['team-a/dev-2', 'no-op', false],
    ]);
    expect(report.summary.text).toBe('no rollout: only no-op changes');
  });

  it('a Kubernetes upgrade of one Cluster: control plane first, then md-0; the other Cluster is not expanded into the report', async () => {
    const base = exampleTree();
    const head = exampleTree();
    edit(join(head, 'clusters', 'team-a', 'dev-1', 'cluster.yaml'), (t) => t.replace('version: v1.33.1', 'version: v1.34.0'));
    const report = JSON.parse((await runCli(['diff', '--format', 'json', base, head])).stdout) as DiffReport;
    expect(report.topology?.clusters.map((c) => [c.cluster, c.upgrade])).toEqual([['team-a/dev-1', { from: 'v1.33.1', to: 'v1.34.0', hops: [], order: ['controlPlane', 'md-0'] }]]);
    expect(report.topology!.clusters[0]).toMatchObject({ controlPlaneRolls: true, workersRoll: ['md-0'] });
  });

  it('diff --render on the embedded example after editing its ClusterClass in the example repository and re-locking', async () => {
    const dir = tempDir();
    for (const f of ['capi.config.ts', 'capi.lock.yaml', 'examples']) cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
    // A plain object export: under vitest a `capiform` import would make the config loader transpile all of src/.
    edit(join(dir, 'capi.config.ts'), (t) => t.replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), CAPIFORM_DIFF_SALT: 'test-salt' };
    edit(join(dir, 'examples', 'repository', 'infrastructure-docker', 'v1.12.4', 'clusterclass-quick-start.yaml'), addWorkerMount);
    expect((await runCli(['lock', '--upgrade'], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.topology?.clusters.map((c) => [c.cluster, c.workersRoll, c.changes.map((x) => `${x.role} ${x.action}`)])).toEqual([
      ['team-a/dev-1', ['md-0'], ['machineDeployment/md-0 changed', 'machineDeploymentInfrastructureTemplate/md-0 rotated']],
      ['team-a/dev-2', ['md-0'], ['machineDeployment/md-0 changed', 'machineDeploymentInfrastructureTemplate/md-0 rotated']],
    ]);
  });
});
