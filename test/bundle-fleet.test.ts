/**
 * Bundles of a fleet: each management cluster's providers live under `targets/<name>/providers/<label>/`, so the Zarf
 * package and the Cluster API Operator form are built from there — per management cluster in a whole-fleet bundle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../src/bundle/archive.js';
import { verifyBundle, bundleContents } from '../src/bundle/verify.js';
import { decodeYaml } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { fixtureRepository } from './helpers/pipeline-fixtures.js';
import { testdir } from './helpers/testdir.js';

/**
 * Two management clusters on the same releases (so one bundle can carry the whole fleet); eu-west pulls CAPD from its
 * own mirror.
 */
const fleetConfig = (extra = ''): string => `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: '~1.12.0', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: '~1.12.0', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repo' }],
  },
  certManager: { version: 'v1.18.2', url: './repo' },
  variables: { DOCKER_REGION: 'shared' },
  ${extra}
  managementClusters: {
    'eu-west': {
      images: { 'infrastructure-docker': { repository: 'registry.internal/eu' } },
      clusters: [{ name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' }],
    },
    'us-east': {
      clusters: [{ name: 'plain', namespace: 'team-b', infrastructure: 'docker', kubernetesVersion: 'v1.33.1' }],
    },
  },
};
`;

interface ZarfComponent {
  name: string;
  required: boolean;
  images?: string[];
  manifests: { name: string; files: string[] }[];
}

const labels = ['cert-manager', 'cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm', 'infrastructure-docker'];

async function renderedFleet(extra?: string): Promise<string> {
  const dir = testdir({ 'capi.config.mjs': fleetConfig(extra) });
  fixtureRepository(dir);
  const r = await runCli(['render'], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return dir;
}

async function bundle(dir: string, args: string[]): Promise<{ text: (path: string) => string; paths: string[] }> {
  const out = join(testdir({}), 'b.tar.gz');
  const r = await runCli(['bundle', ...args, '--out', out], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const bytes = readFileSync(out);
  expect(verifyBundle(bytes).problems).toEqual([]);
  expect((await runCli(['bundle', 'verify', out], { cwd: dir })).code).toBe(0);
  const { files } = bundleContents(readArchive(bytes).entries);
  return { text: (p) => Buffer.from(files.get(p)!).toString('utf8'), paths: [...files.keys()] };
}

function zarfComponents(text: string): ZarfComponent[] {
  return (decodeYaml(text) as { components: ZarfComponent[] }).components;
}

describe('bundle of a fleet', () => {
  it('--target: Zarf components and operator files come from targets/<name>/providers/', { timeout: 240_000 }, async () => {
    const dir = await renderedFleet();
    const { text, paths } = await bundle(dir, ['--target', 'eu-west', '--zarf', '--operator']);
    const components = zarfComponents(text('zarf.yaml'));
    expect(components.map((c) => [c.name, c.required])).toEqual([...labels.map((l) => [l, true]), ['clusters', false]]);
    for (const c of components.slice(0, labels.length)) {
      const files = c.manifests[0]!.files;
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(f.startsWith(`tree/targets/eu-west/providers/${c.name}/`)).toBe(true);
      for (const f of files) expect(paths).toContain(f);
      expect(c.images?.length).toBeGreaterThan(0);
    }
    // Zarf pulls the upstream source; the manifests name the mirror.
    expect(components.find((c) => c.name === 'infrastructure-docker')!.images).toEqual(['registry.k8s.io/cluster-api/capd-controller:v0.0.0']);
    expect(text('images.txt')).toContain('registry.k8s.io/cluster-api/capd-controller:v0.0.0 registry.internal/eu/capd-controller:v0.0.0\n');
    expect(components.find((c) => c.name === 'clusters')!.manifests[0]!.files).toEqual(['tree/targets/eu-west/clusters/team-b/namespace.yaml', 'tree/targets/eu-west/clusters/team-b/plain/cluster.yaml']);

    const capd = text('operator/infrastructure-docker.yaml');
    expect(capd).toContain('kind: InfrastructureProvider');
    expect(capd).toMatch(/name: docker\n {2}namespace: capd-system\n/);
    expect(capd).toContain('imageUrl: registry.internal/eu/capd-controller:v0.0.0');
    expect(paths.filter((p) => p.startsWith('operator/')).sort()).toEqual(labels.slice(1).map((l) => `operator/${l}.yaml`).sort());
  });

  it('the whole fleet: optional components and operator files per management cluster', { timeout: 240_000 }, async () => {
    const dir = await renderedFleet();
    const { text, paths } = await bundle(dir, ['--zarf', '--operator']);
    const components = zarfComponents(text('zarf.yaml'));
    const perTarget = (t: string): string[] => [...labels.map((l) => `${t}-${l}`), `${t}-clusters`];
    expect(components.map((c) => c.name)).toEqual([...perTarget('eu-west'), ...perTarget('us-east')]);
    expect(components.every((c) => !c.required)).toBe(true);
    for (const t of ['eu-west', 'us-east']) {
      const docker = components.find((c) => c.name === `${t}-infrastructure-docker`)!;
      expect(docker.manifests[0]!.files.length).toBeGreaterThan(0);
      for (const f of docker.manifests[0]!.files) expect(f.startsWith(`tree/targets/${t}/providers/infrastructure-docker/`)).toBe(true);
      expect(docker.images).toEqual(['registry.k8s.io/cluster-api/capd-controller:v0.0.0']);
    }
    // Each management cluster's provider object carries its own images: relocation.
    expect(text('operator/eu-west/infrastructure-docker.yaml')).toContain('imageUrl: registry.internal/eu/capd-controller:v0.0.0');
    expect(text('operator/us-east/infrastructure-docker.yaml')).not.toContain('registry.internal/eu');
    expect(paths.filter((p) => p.startsWith('operator/')).length).toBe(2 * (labels.length - 1));
  });

  it('--operator on a fleet rendered in operator form carries the tree’s operator.yaml', { timeout: 240_000 }, async () => {
    const dir = await renderedFleet("output: 'operator',");
    const { text } = await bundle(dir, ['--target', 'eu-west', '--operator']);
    for (const l of labels.slice(1)) {
      const tree = readFileSync(join(dir, 'targets', 'eu-west', 'providers', l, 'operator.yaml'), 'utf8');
      expect(tree.startsWith('# generated by capiform')).toBe(true);
      expect(text(`operator/${l}.yaml`)).toBe(tree.slice(tree.indexOf('\n') + 1));
    }
    expect(text('operator/infrastructure-docker.yaml')).toContain('imageUrl: registry.internal/eu/capd-controller:v0.0.0');
  });
});
