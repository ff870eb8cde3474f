/**
 * Per-cluster overrides in capi.config.ts: a cluster's own template file and its RFC 6902 patches, applied after the
 * template, validated with config paths in errors, and part of the tree cache's key for the cluster's directory.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureRepository, testdir, writeFixtureConfig } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';
import { loadConfig } from '../src/config/index.js';
import { memoryCache } from '../src/lock/index.js';
import { renderProject } from '../src/pipeline/index.js';

const edgeTemplate = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
  labels:
    site: edge
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
  region: \${DOCKER_REGION:=edge-1}
`;

const regionPatch = `patches: [{ target: { kind: 'DockerCluster', name: 'plain' }, patch: [{ op: 'replace', path: '/spec/region', value: 'us' }, { op: 'add', path: '/metadata/labels', value: { tier: 'gold' } }] }]`;

function project(clusters: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = testdir({ 'templates/edge.yaml': edgeTemplate });
  writeFixtureConfig(dir, { clusters }, 'plain');
  fixtureRepository(dir);
  const cache = tempDir('capiform-cache-');
  return { dir, env: { CAPIFORM_CACHE_DIR: cache, HOME: cache } };
}

const plain = (extra = ''): string => `{ name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' }${extra} }`;
const edge = (extra = ''): string => `{ name: 'edge-1', namespace: 'edge', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', template: 'templates/edge.yaml'${extra} }`;

async function render(p: { dir: string; env: NodeJS.ProcessEnv }) {
  return renderProject({ config: await loadConfig({ cwd: p.dir, env: p.env }), cache: memoryCache(), env: p.env });
}

const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

describe('per-cluster overrides', { timeout: 120_000 }, () => {
  it('a cluster rendered from its own template file; editing the file renders the directory again', async () => {
    const p = project(`${plain()}, ${edge()}`);
    await render(p);
    expect(read(p.dir, 'clusters/edge/edge-1/cluster.yaml')).toContain('site: edge');
    expect(read(p.dir, 'clusters/edge/edge-1/cluster.yaml')).toContain('region: edge-1');
    expect(read(p.dir, 'clusters/team-b/plain/cluster.yaml')).not.toContain('site: edge');

    writeFileSync(join(p.dir, 'templates/edge.yaml'), edgeTemplate.replace('site: edge', 'site: edge-v2'));
    const again = await render(p);
    expect(again.changes!.changed).toEqual(['clusters/edge/edge-1/cluster.yaml']);
    expect(read(p.dir, 'clusters/edge/edge-1/cluster.yaml')).toContain('site: edge-v2');
  });

  it('patches apply after the template, to the objects their target selects; a changed patch renders the directory again', async () => {
    const p = project(plain(`, ${regionPatch}`));
    await render(p);
    const yaml = read(p.dir, 'clusters/team-b/plain/cluster.yaml');
    expect(yaml).toContain('region: us');
    expect(yaml).toContain('tier: gold');
    expect(yaml).not.toContain('region: eu');

    writeFixtureConfig(p.dir, { clusters: plain(`, ${regionPatch.replace("value: 'us'", "value: 'ap'")}`) }, 'plain');
    const again = await render(p);
    expect(again.changes!.changed).toEqual(['clusters/team-b/plain/cluster.yaml']);
    expect(read(p.dir, 'clusters/team-b/plain/cluster.yaml')).toContain('region: ap');
  });

  it('a patch whose target selects nothing, or whose operation fails, names the config path', async () => {
    const none = project(plain(`, patches: [{ target: { kind: 'DockerCluster', name: 'other' }, patch: [{ op: 'remove', path: '/spec' }] }]`));
    await expect(render(none)).rejects.toMatchObject({ message: expect.stringContaining('matches no object of cluster team-b/plain') });
    const failing = project(plain(`, patches: [{ target: { kind: 'Cluster' }, patch: [{ op: 'remove', path: '/spec/nothing' }] }]`));
    const err = (await render(failing).catch((e: unknown) => e)) as Error & { where?: string };
    expect(`${err.message} ${err.where ?? ''}`).toContain('clusters[0].patches[0]');
  });

  it('template is validated: a path inside the project, a YAML file, not with a flavor, and it must exist', async () => {
    for (const [extra, message] of [
      [`, template: '../outside.yaml'`, 'must be a path inside the project'],
      [`, template: 'templates/edge.txt'`, 'is not a YAML file'],
      [`, template: 'templates/edge.yaml', flavor: 'development'`, 'set either template or flavor'],
    ] as const) {
      const p = project(plain(extra));
      const err = (await loadConfig({ cwd: p.dir, env: p.env }).catch((e: unknown) => e)) as Error;
      expect(err.message, extra).toContain('clusters[0].template');
      expect(err.message, extra).toContain(message);
    }
    const missing = project(plain(`, template: 'templates/missing.yaml'`));
    await expect(render(missing)).rejects.toMatchObject({ code: 'E_CONFIG', where: expect.stringContaining('clusters[0].template') });
  });
});
