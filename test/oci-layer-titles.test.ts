/**
 * A layer title becomes a file name (in the lock, the tree, a bundle), so an artifact on a real registry whose
 * titles could not be release file names — `../x`, `/etc/passwd`, `a/../../b`, empty, with a NUL, the same title on
 * two layers — is refused before anything is read from its layers: exit 3 naming the repository and the layer's
 * digest, and the project and the cache's blobs unchanged.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { registryAvailability, TestRegistry } from './helpers/oci-registry.js';
import { tempDir, testdir } from './helpers/testdir.js';

const available = registryAvailability();
const exampleRepo = join(import.meta.dirname, '..', 'examples', 'repository');
const file = (label: string, version: string, name: string): Uint8Array => readFileSync(join(exampleRepo, label, version, name));
const digestOf = (bytes: string | Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const blobPath = (cache: string, digest: string): string => join(cache, 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7));

describe.skipIf(!available.present)(`hostile OCI layer titles on a real registry${available.skipped}`, () => {
  let registry: TestRegistry;
  const metadata = file('cluster-api', 'v1.12.4', 'metadata.yaml');
  const components = file('cluster-api', 'v1.12.4', 'core-components.yaml');

  beforeAll(async () => {
    registry = await TestRegistry.start();
    await registry.pushRelease('capi/infrastructure-docker', 'v1.12.4', {
      'metadata.yaml': file('infrastructure-docker', 'v1.12.4', 'metadata.yaml'),
      'infrastructure-components.yaml': file('infrastructure-docker', 'v1.12.4', 'infrastructure-components.yaml'),
    });
    await registry.pushRelease('capi/cert-manager', 'v1.18.2', { 'cert-manager.yaml': file('cert-manager', 'v1.18.2', 'cert-manager.yaml') });
  }, 30_000);
  afterAll(async () => {
    await registry?.stop();
  });

  const project = (repository: string): string =>
    testdir({
      'capi.config.ts': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: 'oci://${registry.host}/${repository}' },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: 'oci://${registry.host}/capi/infrastructure-docker' }],
  },
  certManager: { version: 'v1.18.2', url: 'oci://${registry.host}/capi/cert-manager' },
};
`,
    });

  it.each([
    ['../x', 'leaves the release folder ("..")'],
    ['/etc/passwd', 'is an absolute path'],
    ['a/../../b', 'leaves the release folder ("..")'],
    ['templates/cluster-template.yaml', 'names a folder (a release file name has no / or \\)'],
    ['', 'is empty'],
    ['cluster-template\u0000.yaml', 'has a NUL or control character'],
    ['..\\windows\\x', 'leaves the release folder ("..")'],
    ['C:x.yaml', 'is an absolute path'],
  ])('title %j: lock and render refuse the release (exit 3) and write nothing', async (title, why) => {
    const repository = `hostile/t${Math.random().toString(36).slice(2, 10)}`;
    const pushed = await registry.pushArtifact(repository, 'v1.12.4', [
      { title: 'metadata.yaml', content: metadata },
      { title: 'core-components.yaml', content: components },
      { title, content: 'kind: Cluster # hostile\n' },
    ]);
    const dir = project(repository);
    const cache = tempDir();
    const env = { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: cache };
    const before = snapshotDir(dir);
    const hostileDigest = digestOf('kind: Cluster # hostile\n');
    for (const argv of [['lock'], ['render']]) {
      const r = await runCli(argv, { cwd: dir, env });
      expect(r.code, r.stderr).toBe(3);
      const shown = JSON.stringify(title);
      expect(r.stderr).toContain(
        `Error: oci://${registry.host}/${repository}:v1.12.4: layer ${hostileDigest} has title ${shown}, which ${why}: it cannot be a release file name`,
      );
      expect(r.stderr).toContain('fix: push the release files by their file names only');
      expect(snapshotDir(dir)).toEqual(before);
    }
    // No layer of the refused artifact was downloaded.
    expect(existsSync(blobPath(cache, pushed.layers['core-components.yaml']!))).toBe(false);
    expect(existsSync(blobPath(cache, hostileDigest))).toBe(false);
  });

  it('the same title on two layers is refused, naming both layers', async () => {
    const pushed = await registry.pushArtifact('hostile/duplicate', 'v1.12.4', [
      { title: 'metadata.yaml', content: metadata },
      { title: 'core-components.yaml', content: components },
      { title: 'core-components.yaml', content: 'kind: Namespace # the other one\n' },
    ]);
    const dir = project('hostile/duplicate');
    const before = snapshotDir(dir);
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(
      `Error: oci://${registry.host}/hostile/duplicate:v1.12.4: layers ${digestOf(components)} and ${pushed.layers['core-components.yaml']} both have title "core-components.yaml": a release has one file of each name`,
    );
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a layer without a title is not a file and is skipped, as oras does', async () => {
    await registry.pushArtifact('hostile/untitled', 'v1.12.4', [
      { title: 'metadata.yaml', content: metadata },
      { title: 'core-components.yaml', content: components },
      { content: 'an untitled layer\n' },
    ]);
    const dir = project('hostile/untitled');
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(0);
  });
});
