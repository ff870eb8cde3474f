import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRelocations, relocateImage, relocations } from '../src/bundle/images.js';
import { runCli } from './helpers/cli.js';
import { bundleProject, projectImages } from './helpers/bundle-project.js';
import { testdir } from './helpers/testdir.js';

describe('capiform images', () => {
  it('lists every image once, sorted: providers, cert-manager, and explicit images of cluster manifests', async () => {
    const dir = bundleProject();
    const r = await runCli(['images'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(projectImages.map((i) => `${i}\n`).join(''));
  });

  it('--json says where each image is used (file, object, container), including ConfigMap-embedded manifests', async () => {
    const dir = bundleProject();
    const r = await runCli(['images', '--json'], { cwd: dir });
    const out = JSON.parse(r.stdout) as { images: { image: string; usedBy: { file: string; object: string; container: string }[] }[] };
    expect(out.images.map((i) => i.image)).toEqual(projectImages);
    expect(out.images[0]!.usedBy).toEqual([
      { file: 'clusters/team-a/dev-1/cluster.yaml', object: 'ConfigMap team-a/crs-cni » DaemonSet kube-system/kindnet', container: 'init:install' },
      { file: 'clusters/team-a/dev-1/cluster.yaml', object: 'ConfigMap team-a/crs-cni » DaemonSet kube-system/kindnet', container: 'kindnet-cni' },
    ]);
    expect(out.images.at(-1)!.usedBy).toEqual([
      { file: 'providers/cluster-api/components.yaml', object: 'Deployment capi-system/capi-controller-manager', container: 'manager' },
    ]);
  });

  it('--relocate prints source and destination with clusterctl `images.all.repository` semantics', async () => {
    const dir = bundleProject();
    const lines = await runCli(['images', '--relocate', 'registry.internal/mirror'], { cwd: dir });
    expect(lines.stdout.split('\n')[5]).toBe(
      'registry.k8s.io/cluster-api/cluster-api-controller:v1.12.4 registry.internal/mirror/cluster-api-controller:v1.12.4',
    );
    const skopeo = await runCli(['images', '--relocate', 'registry.internal/mirror', '--format', 'skopeo'], { cwd: dir });
    expect(skopeo.stdout.split('\n')[1]).toBe(
      'skopeo copy --all docker://gcr.io/k8s-staging-cluster-api/capd-manager:v1.12.4 docker://registry.internal/mirror/capd-manager:v1.12.4',
    );
    const crane = await runCli(['images', '--relocate', 'registry.internal/mirror/', '--format', 'crane'], { cwd: dir });
    expect(crane.stdout.split('\n')[2]).toBe('crane copy quay.io/jetstack/cert-manager-cainjector:v1.18.2 registry.internal/mirror/cert-manager-cainjector:v1.18.2');
    const yaml = await runCli(['images', '--relocate', 'registry.internal/mirror', '--format', 'yaml'], { cwd: dir });
    expect(yaml.stdout.startsWith('- source: docker.io/kindest/kindnetd:v20250512\n  destination: registry.internal/mirror/kindnetd:v20250512\n')).toBe(true);
    const json = await runCli(['images', '--json', '--relocate', 'registry.internal/mirror'], { cwd: dir });
    expect((JSON.parse(json.stdout) as { images: { destination: string }[] }).images[1]!.destination).toBe('registry.internal/mirror/capd-manager:v1.12.4');
  });

  it('keeps digests, and drops them only next to a tag', () => {
    const d = `sha256:${'a'.repeat(64)}`;
    expect(relocateImage(`quay.io/x/y@${d}`, 'r.io/m')).toBe(`r.io/m/y@${d}`);
    expect(relocateImage(`quay.io/x/y:v1@${d}`, 'r.io/m')).toBe('r.io/m/y:v1');
    expect(formatRelocations([], 'yaml')).toBe('[]\n');
    expect(relocateImage('nginx:1.27', 'r.io/m')).toBe('r.io/m/nginx:1.27');
    expect(relocateImage('kindest/node:v1.33.1', 'r.io/m')).toBe('r.io/m/node:v1.33.1');
    expect(() => relocateImage('Not/An:Image:x', 'r.io/m')).toThrow(/cannot relocate image "Not\/An:Image:x"/);
  });

  it('refuses a relocation where two images would collide', () => {
    expect(() => relocations(['a.io/x/app:v1', 'b.io/y/app:v1'], 'r.io/m')).toThrow(/r.io\/m\/app:v1 ← a.io\/x\/app:v1, b.io\/y\/app:v1/);
  });

  it('usage errors exit 2 with a message', async () => {
    const dir = bundleProject();
    const a = await runCli(['images', '--format', 'skopeo'], { cwd: dir });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('Error: --format skopeo needs --relocate <registry>');
    const b = await runCli(['images', '--relocate', 'r.io/m', '--format', 'docker'], { cwd: dir });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('Error: --format docker: unknown format');
    const c = await runCli(['images', '--relocate', ' ', '--format', 'lines'], { cwd: dir });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('is not a registry or repository');
  });

  it('without a rendered tree, lists the images of what the pipeline would render (writing nothing)', async () => {
    const dir = bundleProject();
    rmSync(join(dir, 'providers'), { recursive: true });
    rmSync(join(dir, 'clusters'), { recursive: true });
    const r = await runCli(['images'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('registry.internal/mirror/capd-manager:v1.12.4\n');
    expect(r.stdout).toContain('registry.k8s.io/cluster-api/cluster-api-controller:v1.12.4\n');
    expect(existsSync(join(dir, 'providers'))).toBe(false);
  });

  it("renames one image with a per-image `name` override, as the README's collision advice says", async () => {
    const dir = bundleProject({
      'capi.config.ts': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: './repository' },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repository' }],
  },
  images: { all: { repository: 'registry.internal/mirror' }, 'infrastructure-docker/capd-manager': { name: 'docker-manager' } },
};
`,
    });
    rmSync(join(dir, 'providers'), { recursive: true });
    rmSync(join(dir, 'clusters'), { recursive: true });
    const r = await runCli(['images'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('registry.internal/mirror/docker-manager:v1.12.4\n');
    expect(r.stdout).toContain('registry.internal/mirror/cluster-api-controller:v1.12.4\n');
  });

  it('a bad config, or none, is an input error', async () => {
    const none = await runCli(['images'], { cwd: testdir() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Error:');
    const t = await runCli(['images', '--tree', 'nowhere'], { cwd: testdir() });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('Error: --tree nowhere does not exist');
  });
});
