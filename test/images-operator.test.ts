/**
 * Operator form (`output: 'operator'`, `bundle --operator`): the tree holds each provider's upstream release in a
 * ConfigMap, yet `capiform images` and the bundle's image list still name every image the providers run — the
 * released ones after `images:` relocation and the operator's `imageUrl` and patches — because an air gap needs them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../src/bundle/archive.js';
import { imagesOfTree } from '../src/bundle/index.js';
import { bundleContents } from '../src/bundle/verify.js';
import { operatorManifests } from '../src/render/index.js';
import type { ResolvedConfig } from '../src/config/index.js';
import { runCli } from './helpers/cli.js';
import { fixtureRepository } from './helpers/pipeline-fixtures.js';
import { testdir } from './helpers/testdir.js';

const config = (output: string, core = ''): string => `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.13.0', url: './repo', manager: { verbosity: 4 }${core} },
    bootstrap: [{ name: 'kubeadm', version: 'latest', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: 'latest', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '^1.12', url: './repo' }],
  },
  certManager: { version: 'v1.19.1', url: './repo' },
  images: { 'infrastructure-docker': { repository: 'registry.internal/mirror' }, 'control-plane-kubeadm': { tag: 'v0.0.1' } },
  ${output}
};
`;

function project(output: string, core = ''): string {
  const dir = testdir({ 'capi.config.ts': config(output, core) }, 'capiform-operator-images-');
  fixtureRepository(dir);
  return dir;
}

interface Row {
  image: string;
  source: string;
  usedBy: { file: string; object: string; container: string }[];
}

async function imagesJson(dir: string): Promise<Row[]> {
  const r = await runCli(['images', '--json'], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { images: Row[] }).images;
}

/** The rows with the provider file named as the components form names it. */
const asComponents = (rows: Row[]): Row[] => rows.map((r) => ({ ...r, usedBy: r.usedBy.map((u) => ({ ...u, file: u.file.replace(/\/operator\.yaml$/, '/components.yaml') })) }));

const coreOverride = ", deployment: { containers: [{ name: 'manager', image: 'registry.example.com/capi/cluster-api-controller:v1.13.1-fix.1' }] }";

describe('capiform images in operator form', { timeout: 240_000 }, () => {
  it('lists the images the providers run, as in the components form with the same settings', async () => {
    const components = await imagesJson(project("output: 'components',"));
    const operatorDir = project("output: 'operator',");
    const operator = await imagesJson(operatorDir);
    expect(operator.map((r) => (r.source === r.image ? r.image : `${r.source} ${r.image}`))).toEqual([
      'quay.io/jetstack/cert-manager-controller:v1.19.1',
      'registry.k8s.io/cluster-api/capd-controller:v0.0.0 registry.internal/mirror/capd-controller:v0.0.0',
      'registry.k8s.io/cluster-api/capi-controller:v0.0.0',
      'registry.k8s.io/cluster-api/capi-kubeadm-bootstrap-controller:v0.0.0',
      'registry.k8s.io/cluster-api/capi-kubeadm-control-plane-controller:v0.0.0 registry.k8s.io/cluster-api/capi-kubeadm-control-plane-controller:v0.0.1',
    ]);
    expect(operator.find((r) => r.image.includes('capd'))!.usedBy).toEqual([
      { file: 'providers/infrastructure-docker/operator.yaml', object: 'Deployment capd-system/capd-controller-manager', container: 'manager' },
    ]);
    expect(asComponents(operator)).toEqual(components);

    // The rendered tree gives the same list as the render in memory.
    expect((await runCli(['render'], { cwd: operatorDir })).code).toBe(0);
    expect(readFileSync(join(operatorDir, 'providers/cluster-api/operator.yaml'), 'utf8')).toContain('kind: CoreProvider\n');
    expect(await imagesJson(operatorDir)).toEqual(operator);
  });

  it("a deployment image override is the image the operator runs (the provider object's imageUrl)", async () => {
    const components = await imagesJson(project("output: 'components',", coreOverride));
    const operator = await imagesJson(project("output: 'operator',", coreOverride));
    const core = operator.filter((r) => r.usedBy.some((u) => u.file === 'providers/cluster-api/operator.yaml'));
    expect(core).toEqual([
      {
        image: 'registry.example.com/capi/cluster-api-controller:v1.13.1-fix.1',
        source: 'registry.example.com/capi/cluster-api-controller:v1.13.1-fix.1',
        usedBy: [{ file: 'providers/cluster-api/operator.yaml', object: 'Deployment capi-system/capi-controller-manager', container: 'manager' }],
      },
    ]);
    expect(operator.map((r) => r.image)).not.toContain('registry.k8s.io/cluster-api/capi-controller:v0.0.0');
    expect(asComponents(operator)).toEqual(components);
  });

  it('bundle of an operator-form tree: images.txt lists the provider images and operator/ holds the rendered provider files', async () => {
    const dir = project("output: 'operator',", coreOverride);
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    const r = await runCli(['bundle', '--out', 'dist/b.tar.gz', '--operator'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { files } = bundleContents(readArchive(readFileSync(join(dir, 'dist', 'b.tar.gz'))).entries);
    const text = (p: string): string => Buffer.from(files.get(p)!).toString('utf8');
    expect(text('images.txt')).toContain('registry.k8s.io/cluster-api/capd-controller:v0.0.0 registry.internal/mirror/capd-controller:v0.0.0\n');
    expect(text('images.txt')).toContain('registry.example.com/capi/cluster-api-controller:v1.13.1-fix.1\n');
    expect(text('images.txt')).toContain('registry.k8s.io/cluster-api/capi-kubeadm-bootstrap-controller:v0.0.0\n');
    // The operator files are the tree's (namespace and relocated images from the render), without the tree's header.
    const tree = readFileSync(join(dir, 'providers/infrastructure-docker/operator.yaml'), 'utf8');
    expect(`# generated by capiform — do not edit\n${text('operator/infrastructure-docker.yaml')}`).toBe(tree);
    expect(text('operator/infrastructure-docker.yaml')).toContain('      imageUrl: registry.internal/mirror/capd-controller:v0.0.0\n');
    expect(text('operator/cluster-api.yaml')).toContain('  namespace: capi-system\n');
  });
});

describe('images of an operator-form provider file', () => {
  const components = (deployments: string, padding = 0): string =>
    `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: caps-system\n${'#'.repeat(padding)}\n${deployments}`;
  const deployment = (name: string, image: string, init = ''): string =>
    `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: caps-system\nspec:\n  template:\n    spec:\n${init}      containers:\n      - name: manager\n        image: ${image}\n`;
  const settings = (deploymentSpec: unknown, patches: unknown[] = []): Pick<ResolvedConfig, 'providers' | 'variables' | 'images'> => ({
    variables: {},
    images: {},
    providers: [{ name: 'sample', type: 'InfrastructureProvider', label: 'infrastructure-sample', deployment: deploymentSpec, patches } as unknown as ResolvedConfig['providers'][number]],
  });
  const file = (text: string, s: Pick<ResolvedConfig, 'providers' | 'variables' | 'images'>): string =>
    operatorManifests({ name: 'sample', type: 'InfrastructureProvider', label: 'infrastructure-sample', version: 'v1.0.0', namespace: 'caps-system', components: text, metadata: 'releaseSeries: []\n' }, s)!;
  const images = (content: string): string[] => imagesOfTree([{ path: 'providers/infrastructure-sample/operator.yaml', content }]).map((r) => `${r.usedBy[0]!.object} ${r.usedBy[0]!.container}: ${r.image}`);

  it('reads a compressed ConfigMap and applies imageUrl to the one Deployment, containers only', () => {
    const text = components(deployment('sample-manager', 'example.com/sample:v1', '      initContainers:\n      - name: manager\n        image: example.com/init:v1\n'), 1024 * 1024);
    const content = file(text, settings({ containers: [{ name: 'manager', image: 'mirror.example.com/sample:v1' }] }));
    expect(content).toContain('provider.cluster.x-k8s.io/compressed: "true"');
    expect(images(content)).toEqual(['Deployment caps-system/sample-manager init:manager: example.com/init:v1', 'Deployment caps-system/sample-manager manager: mirror.example.com/sample:v1']);
  });

  it("with several Deployments only ca*-controller-manager ones take imageUrl (the operator's rule); patches apply after", () => {
    const text = components(deployment('caps-controller-manager', 'example.com/sample:v1') + deployment('sample-webhook', 'example.com/webhook:v1'));
    const patches = [{ target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'sample-webhook' }, patch: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'example.com/webhook:v2' }] }];
    const content = file(text, settings({ containers: [{ name: 'manager', image: 'mirror.example.com/sample:v1' }] }, patches));
    expect(images(content)).toEqual(['Deployment caps-system/sample-webhook manager: example.com/webhook:v2', 'Deployment caps-system/caps-controller-manager manager: mirror.example.com/sample:v1']);
  });

  it('a provider object whose ConfigMap is missing is an error, not a silently shorter list', () => {
    const content = file(components(deployment('sample-manager', 'example.com/sample:v1')), settings(undefined)).replace('kind: ConfigMap', 'kind: Secret');
    expect(() => images(content)).toThrow(/InfrastructureProvider sample selects no ConfigMap holding the components of v1.0.0/);
  });
});
