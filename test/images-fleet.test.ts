/**
 * A fleet's tree holds each management cluster's folders under `targets/<name>/`: `capiform images` and a bundle's
 * `images.txt` list the images of every one of them, with the same rules as the single form's top-level folders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../src/bundle/archive.js';
import { imagesOfTree } from '../src/bundle/index.js';
import { bundleContents } from '../src/bundle/verify.js';
import { runCli } from './helpers/cli.js';
import { fixtureRepository } from './helpers/pipeline-fixtures.js';
import { testdir } from './helpers/testdir.js';

const deployment = (image: string): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: capd-controller-manager\n  namespace: capd-system\nspec:\n  template:\n    spec:\n      containers:\n      - name: manager\n        image: ${image}\n`;

const kubeadmClass = `apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: quick-start
  namespace: team-a
spec:
  controlPlane:
    templateRef:
      kind: KubeadmControlPlaneTemplate
      name: quick-start-control-plane
`;

const topologyCluster = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: dev-1
  namespace: team-a
spec:
  topology:
    classRef:
      name: quick-start
    version: v1.33.1
`;

describe('images of a fleet', () => {
  it("lists each management cluster's provider images, and kubeadm's for a Cluster whose own target has the class", () => {
    const images = imagesOfTree([
      { path: 'targets/eu-west/providers/infrastructure-docker/components.yaml', content: deployment('registry.k8s.io/capd-manager:v1.12.4') },
      { path: 'targets/us-east/providers/infrastructure-docker/components.yaml', content: deployment('registry.k8s.io/capd-manager:v1.13.1') },
      { path: 'targets/eu-west/clusterclasses/team-a/quick-start/clusterclass.yaml', content: kubeadmClass },
      { path: 'targets/eu-west/clusters/team-a/dev-1/cluster.yaml', content: topologyCluster },
      // The same Cluster in us-east, whose tree has no such class: no kubeadm images from it.
      { path: 'targets/us-east/clusters/team-a/dev-1/cluster.yaml', content: topologyCluster.replace('v1.33.1', 'v1.32.5') },
      { path: 'targets/eu-west/argocd/root.yaml', content: deployment('not-an-image-source:v1') },
    ]);
    const providers = images.filter((r) => r.usedBy.some((u) => u.file.includes('/providers/')));
    expect(providers.map((r) => [r.image, r.usedBy.map((u) => u.file)])).toEqual([
      ['registry.k8s.io/capd-manager:v1.12.4', ['targets/eu-west/providers/infrastructure-docker/components.yaml']],
      ['registry.k8s.io/capd-manager:v1.13.1', ['targets/us-east/providers/infrastructure-docker/components.yaml']],
    ]);
    expect(images.map((r) => r.image)).toContain('registry.k8s.io/kube-apiserver:v1.33.1');
    expect(images.map((r) => r.image).filter((i) => i.includes('v1.32.5'))).toEqual([]);
    expect(images.map((r) => r.image)).not.toContain('not-an-image-source:v1');
  });

  it('capiform images and bundle --target on the fleet fixture', { timeout: 240_000 }, async () => {
    const dir = testdir({ 'capi.config.mjs': readFileSync(new URL('./fixtures/fleet/capi.config.mjs', import.meta.url), 'utf8') });
    fixtureRepository(dir);
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    const list = await runCli(['images'], { cwd: dir });
    expect(list.stderr).toBe('');
    expect(list.stdout).toBe(
      [
        'quay.io/jetstack/cert-manager-controller:v1.18.2',
        'registry.k8s.io/cluster-api/capd-controller:v0.0.0',
        'registry.k8s.io/cluster-api/capi-controller:v0.0.0',
        'registry.k8s.io/cluster-api/capi-kubeadm-bootstrap-controller:v0.0.0',
        'registry.k8s.io/cluster-api/capi-kubeadm-control-plane-controller:v0.0.0',
        '',
      ].join('\n'),
    );
    const out = join(testdir({}), 'eu-west.tar.gz');
    expect((await runCli(['bundle', '--target', 'eu-west', '--out', out], { cwd: dir })).code).toBe(0);
    const { files } = bundleContents(readArchive(readFileSync(out)).entries);
    expect(Buffer.from(files.get('images.txt')!).toString('utf8')).toBe(list.stdout);
  });
});
