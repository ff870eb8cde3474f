/**
 * A PR's `patches` (per cluster and per provider) change fields of the objects they target; they cannot move an
 * object out of its cluster or provider. Changing kind, apiVersion, name or namespace would put the Cluster into
 * kube-system (and create folders there), make dev-1's file hold another cluster, or turn an object into RBAC. Each
 * is exit 2 naming the config path of the patch, and nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { fixtureProject } from '../helpers/pipeline-fixtures.js';
import { tempDir } from '../helpers/testdir.js';

const cluster = (patches: string): string =>
  `{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' }, patches: [${patches}] }`;

/** `capiform render` refused with exit 2, no stack, and the project exactly as it was. */
async function refused(dir: string): Promise<CliResult> {
  const cache = tempDir('capiform-cache-');
  const env = { PATH: process.env.PATH, HOME: cache, CAPIFORM_CACHE_DIR: cache };
  const before = snapshotDir(dir);
  const r = await runCli(['render'], { cwd: dir, env });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at .*\(/);
  expect(r.code).toBe(2);
  expect(snapshotDir(dir)).toEqual(before);
  return r;
}

describe('T1: nothing outside the project is read, written, moved or deleted — patches stay inside their cluster', { timeout: 120_000 }, () => {
  it('a cluster patch that moves the Cluster into kube-system is refused, naming clusters[0].patches[0]', async () => {
    const dir = fixtureProject({ clusters: cluster(`{ target: { kind: 'Cluster' }, patch: [{ op: 'add', path: '/metadata/namespace', value: 'kube-system' }] }`) }, 'plain');
    const r = await refused(dir);
    expect(r.stderr).toContain('clusters[0].patches[0] changes metadata.namespace of Cluster');
    expect(r.stderr).toContain('to "kube-system": a patch may not change the kind, apiVersion, name or namespace of an object');
    expect(r.stderr).toContain('\n  at: clusters[0] (team-a/dev-1): clusters[0].patches[0]\n');
  });

  it('renaming the Cluster (dev-1 holding prod-1) or turning an object into RBAC is refused the same way', async () => {
    for (const [op, field] of [
      [`{ op: 'replace', path: '/metadata/name', value: 'prod-1' }`, 'metadata.name'],
      [`{ op: 'replace', path: '/kind', value: 'ClusterRole' }`, 'kind'],
      [`{ op: 'replace', path: '/apiVersion', value: 'rbac.authorization.k8s.io/v1' }`, 'apiVersion'],
      [`{ op: 'remove', path: '/metadata/name' }`, 'metadata.name'],
    ] as const) {
      const dir = fixtureProject({ clusters: cluster(`{ target: { kind: 'DockerCluster' }, patch: [${op}] }`) }, 'plain');
      const r = await refused(dir);
      expect(r.stderr, op).toContain(`clusters[0].patches[0] changes ${field} of DockerCluster`);
    }
  });

  it('a patch that copies another value over the name is caught on the result, not on the path it writes', async () => {
    const dir = fixtureProject(
      { clusters: cluster(`{ target: { kind: 'Cluster' }, patch: [{ op: 'add', path: '/metadata/labels', value: { x: 'prod-1' } }, { op: 'copy', from: '/metadata/labels/x', path: '/metadata/name' }] }`) },
      'plain',
    );
    const r = await refused(dir);
    expect(r.stderr).toContain('clusters[0].patches[0] changes metadata.name of Cluster');
    expect(r.stderr).toContain('from "dev-1" to "prod-1"');
  });

  it('a provider patch that moves its Deployment to another namespace is refused, naming the provider entry', async () => {
    const dir = fixtureProject(
      {
        infra: `{ name: 'docker', version: '^1.12', url: './repo', patches: [{ target: { kind: 'Deployment' }, patch: [{ op: 'replace', path: '/metadata/namespace', value: 'kube-system' }] }] }`,
        clusters: '',
      },
      'plain',
    );
    const r = await refused(dir);
    expect(r.stderr).toContain('providers.infrastructure[0].patches[0] changes metadata.namespace of Deployment capd-system/');
  });
});
