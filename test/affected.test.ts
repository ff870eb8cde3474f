/**
 * `capiform affected --base REF`: the clusters whose rendered output or topology-expanded state changes between a git
 * ref and the working tree. Real git, a local provider repository fixture, no network.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectedClusters, formatAffected, type AffectedReport } from '../src/plan/affected/index.js';
import { runCli } from './helpers/cli.js';
import { git } from './helpers/diff-fixtures.js';
import { fixtureConfigPlain, fixtureRepository, testdir } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

const topologyCluster = (name: string, ns: string, cls: string): string => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  topology:
    classRef:
      name: ${cls}
    version: v1.33.1
`;

const tree = (label: string, files: Record<string, string>): { label: string; files: Map<string, string> } => ({ label, files: new Map(Object.entries(files)) });

describe('affectedClusters', () => {
  it('a cluster is affected by its own files and by the ClusterClass its topology names; other changes are shared', () => {
    const base = tree('main', {
      'clusters/a/one/cluster.yaml': topologyCluster('one', 'a', 'quick-start'),
      'clusters/a/two/cluster.yaml': topologyCluster('two', 'a', 'other'),
      'clusters/b/three/cluster.yaml': 'kind: Cluster\n',
      'clusters/b/gone/cluster.yaml': 'kind: Cluster\n',
      'clusterclasses/a/quick-start/clusterclass.yaml': 'kind: ClusterClass\nspec: {v: 1}\n',
      'clusterclasses/a/other/clusterclass.yaml': 'kind: ClusterClass\n',
      'providers/cluster-api/core-components.yaml': 'a: 1\n',
    });
    const head = tree('working tree', {
      'clusters/a/one/cluster.yaml': topologyCluster('one', 'a', 'quick-start'),
      'clusters/a/two/cluster.yaml': topologyCluster('two', 'a', 'other'),
      'clusters/b/three/cluster.yaml': 'kind: Cluster\nspec: {}\n',
      'clusters/b/new/cluster.yaml': 'kind: Cluster\n',
      'clusterclasses/a/quick-start/clusterclass.yaml': 'kind: ClusterClass\nspec: {v: 2}\n',
      'clusterclasses/a/other/clusterclass.yaml': 'kind: ClusterClass\n',
      'providers/cluster-api/core-components.yaml': 'a: 2\n',
    });
    const report = affectedClusters(base, head);
    expect(report.clusters.map((c) => [c.key, c.reasons])).toEqual([
      ['/a/one', ['ClusterClass a/quick-start changed']],
      ['/b/gone', ['removed']],
      ['/b/new', ['added']],
      ['/b/three', ['rendered output changed']],
    ]);
    expect(report.shared).toEqual(['clusterclasses/a/quick-start/clusterclass.yaml', 'providers/cluster-api/core-components.yaml']);
    expect(report.targets).toEqual([]);
    expect(formatAffected(report)).toBe(
      'a/one\tClusterClass a/quick-start changed\nb/gone\tremoved\nb/new\tadded\nb/three\trendered output changed\n(shared: 2 changed files outside cluster directories: providers, ClusterClasses, Argo CD glue)\n',
    );
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
});
