/**
 * Image lists for a mirror job: every image with its upstream source beside the name the stack pulls it by (after
 * the config's `images:` relocation), the images a ClusterResourceSet installs relocated like the providers', and
 * kubeadm's own images of each cluster's Kubernetes version.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubeadmImages } from '../src/bundle/kubeadm-images.js';
import { runCli } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

const cni = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kindnet
  namespace: kube-system
spec:
  template:
    spec:
      containers:
      - name: kindnet-cni
        image: docker.io/kindest/kindnetd:v20250512
`;

/** A flavor with a kubeadm control plane and a CNI installed by a ClusterResourceSet (ConfigMap and Secret). */
const crsFlavor = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: \${CLUSTER_NAME}
  labels:
    cni: kindnet
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlane
metadata:
  name: \${CLUSTER_NAME}-control-plane
spec:
  version: \${KUBERNETES_VERSION}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cni-kindnet
data:
  kindnet.yaml: |
${cni.replace(/^/gm, '    ').trimEnd()}
---
apiVersion: v1
kind: Secret
metadata:
  name: cni-extra
data:
  extra.yaml: ${Buffer.from(cni.replace('kindnet-cni', 'extra').replace('kindnetd:v20250512', 'kindnetd:v20250513')).toString('base64')}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: not-applied
data:
  other.yaml: |
    image: quay.io/left/alone:v1
---
apiVersion: addons.cluster.x-k8s.io/v1beta2
kind: ClusterResourceSet
metadata:
  name: cni
spec:
  clusterSelector:
    matchLabels:
      cni: kindnet
  resources:
  - kind: ConfigMap
    name: cni-kindnet
  - kind: Secret
    name: cni-extra
`;

const clusters = `{ name: 'w1', namespace: 'team-a', infrastructure: 'docker', flavor: 'crs', kubernetesVersion: 'v1.33.1' }`;

function project(images: string, k8s = 'v1.33.1'): string {
  const dir = fixtureProject({ clusters: clusters.replace('v1.33.1', k8s), extra: images }, 'plain');
  for (const v of ['v1.12.4', 'v1.13.1']) writeFileSync(join(dir, 'repo', 'infrastructure-docker', v, 'cluster-template-crs.yaml'), crsFlavor);
  return dir;
}

const env = (dir: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: join(dir, '.cache') });

const relocating = "images: { all: { repository: 'mirror.internal/capi' } },";

const kubeadm133 = [
  'registry.k8s.io/coredns/coredns:v1.12.0',
  'registry.k8s.io/etcd:3.5.21-0',
  'registry.k8s.io/kube-apiserver:v1.33.1',
  'registry.k8s.io/kube-controller-manager:v1.33.1',
  'registry.k8s.io/kube-proxy:v1.33.1',
  'registry.k8s.io/kube-scheduler:v1.33.1',
  'registry.k8s.io/pause:3.10',
];

describe('image sources and relocation', () => {
  it('lists `<source> <relocated>` for every relocated image, ClusterResourceSet content and kubeadm images included', async () => {
    const dir = project(relocating);
    const r = await runCli(['render'], { cwd: dir, env: env(dir) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    // The CRS content is relocated in the tree: the workload cluster pulls its CNI from the mirror too.
    const cluster = readFileSync(join(dir, 'clusters/team-a/w1/cluster.yaml'), 'utf8');
    expect(cluster).toContain('image: mirror.internal/capi/kindnetd:v20250512');
    expect(cluster).not.toContain('docker.io/kindest/kindnetd:v20250512');
    expect(cluster).toContain('image: quay.io/left/alone:v1'); // not referenced by a ClusterResourceSet
    const secret = /extra\.yaml: (\S+)/.exec(cluster)![1]!;
    expect(Buffer.from(secret, 'base64').toString('utf8')).toContain('image: mirror.internal/capi/kindnetd:v20250513');

    const list = await runCli(['images'], { cwd: dir, env: env(dir) });
    expect(list.stderr).toBe('');
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toContain('docker.io/kindest/kindnetd:v20250512 mirror.internal/capi/kindnetd:v20250512');
    expect(lines).toContain('docker.io/kindest/kindnetd:v20250513 mirror.internal/capi/kindnetd:v20250513');
    expect(lines).toContain('registry.k8s.io/cluster-api/capd-controller:v0.0.0 mirror.internal/capi/capd-controller:v0.0.0');
    expect(lines).toContain('quay.io/jetstack/cert-manager-controller:v1.19.1 mirror.internal/capi/cert-manager-controller:v1.19.1');
    for (const k of kubeadm133) expect(lines).toContain(`${k} mirror.internal/capi/${k.slice(k.lastIndexOf('/') + 1)}`);
    expect(lines.every((l) => l.split(' ').length === 2)).toBe(true);

    const json = JSON.parse((await runCli(['images', '--json'], { cwd: dir, env: env(dir) })).stdout) as {
      images: { image: string; source: string; usedBy: { file: string; object: string; container: string }[] }[];
    };
    const etcd = json.images.find((i) => i.source === 'registry.k8s.io/etcd:3.5.21-0')!;
    expect(etcd.image).toBe('mirror.internal/capi/etcd:3.5.21-0');
    expect(etcd.usedBy).toEqual([{ file: 'clusters/team-a/w1/cluster.yaml', object: 'KubeadmControlPlane team-a/w1-control-plane', container: 'kubeadm:etcd' }]);

    // --relocate plans the copy from upstream, not from the name the config already relocated to.
    const plan = await runCli(['images', '--relocate', 'other.registry/x'], { cwd: dir, env: env(dir) });
    expect(plan.stdout).toContain('docker.io/kindest/kindnetd:v20250512 other.registry/x/kindnetd:v20250512\n');

    const b = await runCli(['bundle', '--out', 'dist/b.tar.gz', '--hauler', '--zarf'], { cwd: dir, env: env(dir) });
    expect(b.stderr).toBe('');
    const x = join(dir, 'x');
    mkdirSync(x);
    execFileSync('tar', ['-xzf', join(dir, 'dist', 'b.tar.gz'), '-C', x]);
    const imagesTxt = readFileSync(join(x, 'b', 'images.txt'), 'utf8');
    expect(imagesTxt).toBe(list.stdout);
    // Hauler and Zarf pull from the source: the relocated names do not exist upstream.
    const hauler = readFileSync(join(x, 'b', 'hauler.yaml'), 'utf8');
    expect(hauler).toContain('- name: "docker.io/kindest/kindnetd:v20250512"');
    expect(hauler).toContain('- name: "registry.k8s.io/etcd:3.5.21-0"');
    expect(hauler).not.toContain('mirror.internal');
    const zarf = readFileSync(join(x, 'b', 'zarf.yaml'), 'utf8');
    expect(zarf).toContain('- "registry.k8s.io/cluster-api/capd-controller:v0.0.0"');
    expect(zarf).toContain('- "registry.k8s.io/kube-apiserver:v1.33.1"');
    expect(zarf).not.toContain('mirror.internal');
  });

  it('without relocation each image is listed once, by its own name, and the tree stays clusterctl-exact', async () => {
    const dir = project('');
    expect((await runCli(['render'], { cwd: dir, env: env(dir) })).code).toBe(0);
    expect(readFileSync(join(dir, 'clusters/team-a/w1/cluster.yaml'), 'utf8')).toContain(`        image: docker.io/kindest/kindnetd:v20250512\n`);
    const list = await runCli(['images'], { cwd: dir, env: env(dir) });
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toContain('docker.io/kindest/kindnetd:v20250512');
    for (const k of kubeadm133) expect(lines).toContain(k);
    expect(lines.every((l) => !l.includes(' '))).toBe(true);
  });

  it('adding a relocation re-renders the cluster: the tree cache keys clusters by the `images:` they follow', async () => {
    const dir = project('');
    expect((await runCli(['render'], { cwd: dir, env: env(dir) })).code).toBe(0);
    const config = readFileSync(join(dir, 'capi.config.ts'), 'utf8');
    writeFileSync(join(dir, 'capi.config.ts'), config.replace('  certManager:', `  ${relocating}\n  certManager:`));
    const check = await runCli(['render', '--check'], { cwd: dir, env: env(dir) });
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain('clusters/team-a/w1/cluster.yaml');
    expect((await runCli(['render'], { cwd: dir, env: env(dir) })).code).toBe(0);
    expect(readFileSync(join(dir, 'clusters/team-a/w1/cluster.yaml'), 'utf8')).toContain('image: mirror.internal/capi/kindnetd:v20250512');
  });

  it('a Kubernetes minor whose kubeadm images capiform does not know is an input error (exit 2), not a guess', async () => {
    const dir = project('', 'v1.20.15');
    // CAPI v1.12 does not support v1.20 workload clusters, so validation would stop render; images is asked anyway.
    expect((await runCli(['render', '--no-validate'], { cwd: dir, env: env(dir) })).code).toBe(0);
    const r = await runCli(['images'], { cwd: dir, env: env(dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capiform does not know which etcd, CoreDNS and pause images kubeadm uses for Kubernetes v1.20.15');
    expect(r.stderr).toContain('at: clusters/team-a/w1/cluster.yaml');
    expect(r.stderr).toContain('fix: it knows the minors 1.29, 1.30, 1.31, 1.32, 1.33, 1.34');
    expect(r.stdout).toBe('');
  });
});

describe('kubeadmImages', () => {
  it("gives kubeadm's images for a version, per minor", () => {
    expect(kubeadmImages('v1.32.5').map((i) => i.image)).toEqual([
      'registry.k8s.io/kube-apiserver:v1.32.5',
      'registry.k8s.io/kube-controller-manager:v1.32.5',
      'registry.k8s.io/kube-scheduler:v1.32.5',
      'registry.k8s.io/kube-proxy:v1.32.5',
      'registry.k8s.io/etcd:3.5.16-0',
      'registry.k8s.io/coredns/coredns:v1.11.3',
      'registry.k8s.io/pause:3.10',
    ]);
    expect(kubeadmImages('v1.34.0').slice(4).map((i) => i.image)).toEqual(['registry.k8s.io/etcd:3.6.4-0', 'registry.k8s.io/coredns/coredns:v1.12.1', 'registry.k8s.io/pause:3.10.1']);
    expect(() => kubeadmImages('latest')).toThrow('"latest" is not a Kubernetes version');
  });
});
