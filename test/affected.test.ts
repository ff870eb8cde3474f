/**
 * `capiform affected --base REF`: the clusters whose rendered output or topology-expanded state changes between a git
 * ref and the working tree. Real git, a local provider repository fixture, no network.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectedClusters, formatAffected, type AffectedReport } from '../src/plan/affected/index.js';
import type { RenderedTree } from '../src/plan/diff/index.js';
import { readTreeFromDir } from '../src/pipeline/review/index.js';
import { runCli } from './helpers/cli.js';
import { git, repoRoot } from './helpers/diff-fixtures.js';
import { fixtureConfigPlain, fixtureRepository, testdir } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

const tree = (label: string, files: Record<string, string> | Map<string, string>): RenderedTree => ({ label, files: new Map(files instanceof Map ? files : Object.entries(files)) });

/** The embedded example's rendered tree: ClusterClass team-a/quick-start, its Clusters dev-1 and dev-2, and prod-1. */
const example = (): RenderedTree => readTreeFromDir(repoRoot, 'main');
const classFile = 'clusterclasses/team-a/quick-start/clusterclass.yaml';

/** A copy of `t` with `file` edited (the edit must apply). */
function edited(t: RenderedTree, file: string, change: (text: string) => string, label = 'working tree'): RenderedTree {
  const files = new Map(t.files);
  const before = files.get(file);
  expect(before, file).toBeDefined();
  const after = change(before!);
  expect(after, `${file}: the edit applies`).not.toBe(before);
  files.set(file, after);
  return tree(label, files);
}

/** `from` → `to` in a text that holds it exactly once. */
const once = (from: string, to: string) => (text: string): string => {
  expect(text.split(from).length, from).toBe(2);
  return text.replace(from, to);
};

const rows = (report: AffectedReport): [string, string[]][] => report.clusters.map((c) => [c.key, c.reasons]);

describe('affectedClusters', () => {
  it('a cluster is affected when its directory is added, removed or changed; other changes are shared', () => {
    const base = tree('main', {
      'clusters/b/three/cluster.yaml': 'kind: Cluster\n',
      'clusters/b/gone/cluster.yaml': 'kind: Cluster\n',
      'clusters/b/same/cluster.yaml': 'kind: Cluster\n',
      'providers/cluster-api/core-components.yaml': 'a: 1\n',
    });
    const head = tree('working tree', {
      'clusters/b/three/cluster.yaml': 'kind: Cluster\nspec: {}\n',
      'clusters/b/new/cluster.yaml': 'kind: Cluster\n',
      'clusters/b/same/cluster.yaml': 'kind: Cluster\n',
      'providers/cluster-api/core-components.yaml': 'a: 2\n',
    });
    const report = affectedClusters(base, head);
    expect(rows(report)).toEqual([
      ['/b/gone', ['removed']],
      ['/b/new', ['added']],
      ['/b/three', ['rendered output changed']],
    ]);
    expect(report.shared).toEqual(['providers/cluster-api/core-components.yaml']);
    expect(report.targets).toEqual([]);
    expect(formatAffected(report)).toBe(
      'b/gone\tremoved\nb/new\tadded\nb/three\trendered output changed\n(shared: 1 changed file outside cluster directories: providers, ClusterClasses, Argo CD glue)\n',
    );
  });

  it('a ClusterClass patch only one Cluster enables affects that Cluster alone', () => {
    // dev-1 sets podSecurityStandard.enabled: true, dev-2 false: the patch's enabledIf is false for dev-2.
    const base = example();
    const head = edited(base, classFile, once('enforce-version: "latest"', 'enforce-version: "v1.33"'));
    const report = affectedClusters(base, head);
    expect(rows(report)).toEqual([['/team-a/dev-1', ['topology-expanded state changed: controlPlane']]]);
    expect(report.shared).toEqual([classFile]);
    expect(formatAffected(report)).toBe(
      'team-a/dev-1\ttopology-expanded state changed: controlPlane\n(shared: 1 changed file outside cluster directories: providers, ClusterClasses, Argo CD glue)\n',
    );
  });

  it('a worker template change affects every Cluster of the class, naming the roles', () => {
    const base = example();
    const head = edited(base, classFile, once('kindest/node:{{ .builtin.machineDeployment.version', 'registry.example.com/kindest/node:{{ .builtin.machineDeployment.version'));
    const roles = 'topology-expanded state changed: machineDeployment/md-0, machineDeploymentInfrastructureTemplate/md-0';
    expect(rows(affectedClusters(base, head))).toEqual([
      ['/team-a/dev-1', [roles]],
      ['/team-a/dev-2', [roles]],
    ]);
  });

  it('a class edit that changes no desired object (a description, a patch no Cluster enables) affects no cluster', () => {
    const base = example();
    // Both Clusters set imageRepository to "", so the imageRepository patch (enabledIf ne "") is off for both.
    const head = edited(
      edited(base, classFile, once('description: Sets the imageRepository used for the KubeadmControlPlane.', 'description: Sets the image repository of the control plane.')),
      classFile,
      once('path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository', 'path: /spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepositoryOverride'),
    );
    const report = affectedClusters(base, head);
    expect(report.clusters).toEqual([]);
    expect(report.shared).toEqual([classFile]);
  });

  it('a variable default change affects the Clusters that use the default, not one that sets the value', () => {
    // Both enable the Pod Security Standard; dev-1 leaves `enforce` to the class's default, dev-2 sets it.
    const start = edited(
      edited(example(), 'clusters/team-a/dev-1/cluster.yaml', once('        enabled: true\n        enforce: baseline\n', '        enabled: true\n'), 'main'),
      'clusters/team-a/dev-2/cluster.yaml',
      once('        enabled: false\n', '        enabled: true\n'),
      'main',
    );
    const head = edited(start, classFile, once('            default: baseline\n', '            default: restricted\n'));
    // The Cluster role changes too: CAPI's webhook writes the defaulted value into the Cluster.
    expect(rows(affectedClusters(start, head))).toEqual([['/team-a/dev-1', ['topology-expanded state changed: cluster, controlPlane']]]);
  });

  it('a class change that fails to expand affects its Clusters with the reason', () => {
    const base = example();
    const head = edited(base, classFile, once('    name: quick-start-cluster\n', '    name: quick-start-infra\n'));
    const report = affectedClusters(base, head);
    expect(report.clusters.map((c) => c.key)).toEqual(['/team-a/dev-1', '/team-a/dev-2']);
    expect(report.clusters[0]!.reasons).toEqual([
      expect.stringMatching(/^topology expansion failed: spec\.infrastructure\.templateRef: Not found: "DockerClusterTemplate\/quick-start-infra"/),
    ]);
  });

  it('a Cluster whose own file changed is affected by its output and, when it differs, by its expanded state', () => {
    const base = example();
    const head = edited(base, 'clusters/team-a/dev-2/cluster.yaml', once('        replicas: 1\n', '        replicas: 3\n'));
    expect(rows(affectedClusters(base, head))).toEqual([['/team-a/dev-2', ['rendered output changed', 'topology-expanded state changed: cluster, machineDeployment/md-0']]]);
  });

  it('fleet: each management cluster expands its own classes; a target is affected by its clusters and shared paths', () => {
    const fleet = (t: RenderedTree, label: string): RenderedTree => {
      const files = new Map<string, string>();
      for (const target of ['eu', 'us']) for (const [p, text] of t.files) files.set(`targets/${target}/${p}`, text);
      return tree(label, files);
    };
    const base = fleet(example(), 'main');
    const head = edited(base, `targets/eu/${classFile}`, once('enforce-version: "latest"', 'enforce-version: "v1.33"'));
    const report = affectedClusters(base, head);
    expect(report.clusters).toEqual([{ target: 'eu', namespace: 'team-a', name: 'dev-1', key: 'eu/team-a/dev-1', reasons: ['topology-expanded state changed: controlPlane'] }]);
    expect(report.targets).toEqual(['eu']);
    expect(report.shared).toEqual([`targets/eu/${classFile}`]);
    expect(formatAffected(report)).toMatch(/^eu\/team-a\/dev-1\ttopology-expanded state changed: controlPlane\n/);

    // A shared path alone (a provider of us) makes the target affected, with no cluster.
    const providers = [...base.files.keys()].find((p) => p.startsWith('targets/us/providers/') && p.endsWith('.yaml'))!;
    const onlyShared = affectedClusters(base, edited(base, providers, (t) => `${t}# edited\n`));
    expect(onlyShared).toMatchObject({ clusters: [], targets: ['us'], shared: [providers] });
  });

  it('clusters of management-cluster targets carry their target', () => {
    const report = affectedClusters(tree('a', { 'targets/eu/clusters/a/one/cluster.yaml': 'x: 1\n' }), tree('b', { 'targets/eu/clusters/a/one/cluster.yaml': 'x: 2\n' }));
    expect(report.clusters).toEqual([{ target: 'eu', namespace: 'a', name: 'one', key: 'eu/a/one', reasons: ['rendered output changed'] }]);
    expect(report.targets).toEqual(['eu']);
  });
});

describe('capiform affected', { timeout: 240_000 }, () => {
  it('lists the clusters a working-tree change affects, from the config and lock of both sides', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    const clusters = (region: string): string => `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1', workerMachineCount: 2 },
    { name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: '${region}' } },
    { name: 'other', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' } },`;
    const dir = testdir({ 'capi.config.ts': fixtureConfigPlain({ clusters: clusters('eu') }), '.gitignore': '.capiform/\n' });
    fixtureRepository(dir);
    git(dir, 'init', '-q', '-b', 'main');
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');

    const none = await runCli(['affected', '--base', 'main'], { cwd: dir, env });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('no cluster is affected between main and the working tree');

    writeFileSync(join(dir, 'capi.config.ts'), fixtureConfigPlain({ clusters: clusters('us') }));
    const text = await runCli(['affected', '--base', 'main'], { cwd: dir, env });
    expect(text).toMatchObject({ code: 0, stdout: 'team-b/plain\trendered output changed\n' });
    const json = await runCli(['affected', '--base', 'main', '--json'], { cwd: dir, env });
    const report = JSON.parse(json.stdout) as AffectedReport;
    expect(report.clusters).toEqual([{ target: '', namespace: 'team-b', name: 'plain', key: '/team-b/plain', reasons: ['rendered output changed'] }]);
    expect(git(dir, 'status', '--porcelain')).toBe(' M capi.config.ts\n');
  });

  it('on the embedded example: a ClusterClass patch edited in the provider repository and re-locked affects the one Cluster that enables it', async () => {
    const dir = tempDir();
    for (const f of ['capi.config.ts', 'capi.lock.yaml', 'examples']) cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
    // A plain object export: under vitest a `capiform` import would make the config loader transpile all of src/.
    const configFile = join(dir, 'capi.config.ts');
    writeFileSync(configFile, readFileSync(configFile, 'utf8').replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    const cls = join(dir, 'examples', 'repository', 'infrastructure-docker', 'v1.12.4', 'clusterclass-quick-start.yaml');
    writeFileSync(cls, once('enforce-version: "latest"', 'enforce-version: "v1.33"')(readFileSync(cls, 'utf8')));
    expect((await runCli(['lock', '--upgrade'], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(['affected', '--base', 'main', '--json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as AffectedReport;
    expect(rows(report)).toEqual([['/team-a/dev-1', ['topology-expanded state changed: controlPlane']]]);
    expect(report.shared).toEqual(['clusterclasses/team-a/quick-start/clusterclass.yaml']);
  });

  it('a fleet: a variable of one management cluster affects its clusters and names its target', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    const fleet = readFileSync(new URL('./fixtures/fleet/capi.config.mjs', import.meta.url), 'utf8');
    const dir = testdir({ 'capi.config.mjs': fleet, '.gitignore': '.capiform/\n' });
    fixtureRepository(dir);
    git(dir, 'init', '-q', '-b', 'main');
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'base');
    writeFileSync(join(dir, 'capi.config.mjs'), once("variables: { DOCKER_REGION: 'us' }", "variables: { DOCKER_REGION: 'us-2' }")(fleet));
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(['affected', '--base', 'main', '--json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as AffectedReport;
    expect(report.clusters).toEqual([{ target: 'us-east', namespace: 'team-b', name: 'plain', key: 'us-east/team-b/plain', reasons: ['rendered output changed'] }]);
    expect(report.targets).toEqual(['us-east']);
    expect(report.shared.every((p) => p.startsWith('targets/us-east/'))).toBe(true);
    const text = await runCli(['affected', '--base', 'main'], { cwd: dir, env });
    expect(text.stdout.split('\n')[0]).toBe('us-east/team-b/plain\trendered output changed');
  });
});
