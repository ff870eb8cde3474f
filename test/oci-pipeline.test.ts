/**
 * A whole project on an OCI registry: providers and cert-manager pushed as `oras push` artifacts to a real registry
 * (started here), `capiform lock` pins every layer and manifest digest, `render` writes the tree, a frozen render
 * with an empty cache reads and verifies every byte again, an air-gapped bundle carries it all, and a tag pushed
 * again with other bytes is refused (exit 3) without touching the project.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { registryAvailability, TestRegistry, type PushedArtifact } from './helpers/oci-registry.js';
import { tempDir, testdir } from './helpers/testdir.js';

const available = registryAvailability();
const skopeo = '/usr/bin/skopeo';
if (!existsSync(skopeo) && process.env.CAPIFORM_REQUIRE_SHARED === '1') {
  throw new Error(`skopeo (${skopeo}) is missing, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping: apt-get install -y skopeo (.ci/run does)`);
}
const exampleRepo = join(import.meta.dirname, '..', 'examples', 'repository');
const release = (label: string, version: string, files: string[]): Record<string, Uint8Array> =>
  Object.fromEntries(files.map((f) => [f, readFileSync(join(exampleRepo, label, version, f))]));

describe.skipIf(!available.present)(`a project whose providers live on an OCI registry${available.skipped}`, () => {
  let registry: TestRegistry;
  let core: PushedArtifact;
  let dir: string;
  /** The connected machine's cache: what `render` downloaded, and what `bundle` packs. */
  const cache = tempDir();
  const env = (cacheDir: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: cacheDir });

  beforeAll(async () => {
    registry = await TestRegistry.start();
    core = await registry.pushRelease('capi/cluster-api', 'v1.12.4', release('cluster-api', 'v1.12.4', ['metadata.yaml', 'core-components.yaml']));
    await registry.pushRelease('capi/cluster-api', 'v1.13.1', release('cluster-api', 'v1.13.1', ['metadata.yaml', 'core-components.yaml']));
    // The operator's own naming: <type>-<name>-<version>-metadata.yaml and -components.yaml.
    const docker = release('infrastructure-docker', 'v1.12.4', ['metadata.yaml', 'infrastructure-components.yaml', 'cluster-template.yaml']);
    await registry.pushRelease('capi/infrastructure-docker', 'v1.12.4', {
      'infrastructure-docker-v1.12.4-metadata.yaml': docker['metadata.yaml']!,
      'infrastructure-docker-v1.12.4-components.yaml': docker['infrastructure-components.yaml']!,
      'cluster-template.yaml': docker['cluster-template.yaml']!,
    });
    await registry.pushRelease('capi/cert-manager', 'v1.18.2', release('cert-manager', 'v1.18.2', ['cert-manager.yaml']));
    const host = registry.host;
    dir = testdir({
      'capi.config.ts': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: 'oci://${host}/capi/cluster-api' },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: 'oci://${host}/capi/infrastructure-docker' }],
  },
  certManager: { version: 'v1.18.2', url: 'oci://${host}/capi/cert-manager' },
};
`,
    });
  }, 60_000);
  afterAll(async () => {
    await registry?.stop();
  });

  it('lock pins the manifest and layer digests; render writes the tree; a frozen render with an empty cache verifies it all', async () => {
    const lock = await runCli(['lock'], { cwd: dir, env: env(cache) });
    expect(lock.stderr).toBe('');
    expect(lock.code).toBe(0);
    const text = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    expect(text).toContain(`  source:\n    kind: oci\n    url: oci://${registry.host}/capi/cluster-api\n`);
    const coreLayer = core.layers['core-components.yaml']!.slice('sha256:'.length);
    expect(text).toContain(
      `  - name: core-components.yaml\n    url: oci://${registry.host}/capi/cluster-api:v1.12.4@${core.manifestDigest}#core-components.yaml\n    sha256: ${coreLayer}\n`,
    );
    expect(text).toContain('version: v1.12.4');
    // The catalog's components file for docker, read from the operator-named layer.
    expect(text).toMatch(
      /name: infrastructure-components-development\.yaml\n {4}url: oci:\/\/[^\n]*capi\/infrastructure-docker:v1\.12\.4@sha256:[0-9a-f]{64}#infrastructure-components-development\.yaml\n/,
    );

    const render = await runCli(['render'], { cwd: dir, env: env(cache) });
    expect(render.code, render.stderr).toBe(0);
    expect(readFileSync(join(dir, 'providers/cluster-api/components.yaml'), 'utf8')).toContain('kind: CustomResourceDefinition');

    const frozen = await runCli(['render', '--check', '--frozen'], { cwd: dir, env: env(tempDir()) });
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(text);
  });

  it("validate judges the config's variables from the lock and the cache, never the registry; a cache without the locked files skips the check once", async () => {
    await registry.stop();
    try {
      const warm = await runCli(['validate'], { cwd: dir, env: env(cache) });
      expect(warm.stderr).not.toContain('unused-variables');
      const cold = await runCli(['validate'], { cwd: dir, env: env(tempDir()) });
      expect(cold.code).toBe(warm.code);
      const notes = cold.stderr.split('\n').filter((l) => l.startsWith('note: unused-variables check skipped:'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain('is not in the cache');
      expect(notes[0]).toContain('`capiform render` or `capiform lock` fills the cache');
    } finally {
      registry = await TestRegistry.restart(registry);
    }
  });

  it('an air-gapped bundle made from the OCI-sourced lock renders the same tree without the registry', async () => {
    const bundle = await runCli(['bundle', '--out', 'dist/providers.tar.gz'], { cwd: dir, env: env(cache) });
    expect(bundle.code, bundle.stderr).toBe(0);
    const verify = await runCli(['bundle', 'verify', 'dist/providers.tar.gz'], { cwd: dir, env: env(tempDir()) });
    expect(verify.code, verify.stderr).toBe(0);
    await registry.stop();
    try {
      const check = await runCli(['render', '--bundle', 'dist/providers.tar.gz', '--check'], { cwd: dir, env: env(tempDir()) });
      expect(check.code, check.stderr).toBe(0);
    } finally {
      registry = await TestRegistry.restart(registry);
    }
  });

  it.skipIf(!existsSync(skopeo))('bundle --oci-layout writes layouts skopeo copies into a registry; a project locked from the copies renders the same tree', async () => {
    const first = await runCli(['bundle', '--out', 'dist/layout-a.tar.gz', '--oci-layout', 'dist/oci-a', '--json'], { cwd: dir, env: env(cache) });
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(['bundle', '--out', 'dist/layout-b.tar.gz', '--oci-layout', 'dist/oci-b'], { cwd: dir, env: env(cache) });
    expect(again.code, again.stderr).toBe(0);
    // Deterministic: the same inputs give the same bytes, so the same digests.
    expect(snapshotDir(join(dir, 'dist/oci-b'))).toEqual(snapshotDir(join(dir, 'dist/oci-a')));
    const artifacts = (JSON.parse(first.stdout) as { ociLayout: { artifacts: { ref: string; digest: string }[] } }).ociLayout.artifacts;
    expect(artifacts.map((a) => a.ref)).toEqual(['cert-manager:v1.18.2', 'cluster-api:v1.12.4', 'infrastructure-docker:v1.12.4']);
    const index = JSON.parse(readFileSync(join(dir, 'dist/oci-a/cluster-api/index.json'), 'utf8')) as { manifests: { annotations: Record<string, string> }[] };
    expect(index.manifests.map((m) => m.annotations['org.opencontainers.image.ref.name'])).toEqual(['v1.12.4']);
    const policy = join(tempDir(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ default: [{ type: 'insecureAcceptAnything' }] }));
    for (const a of artifacts) {
      const [label, version] = a.ref.split(':') as [string, string];
      const r = spawnSync(
        skopeo,
        ['copy', '--policy', policy, '--dest-tls-verify=false', `oci:${join(dir, 'dist/oci-a', label)}:${version}`, `docker://${registry.host}/copied/${label}:${version}`],
        { encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      // The registry holds the manifest as written: same digest.
      const head = await fetch(`${registry.base}/v2/copied/${label}/manifests/${version}`, { headers: { accept: 'application/vnd.oci.image.manifest.v1+json' } });
      expect(head.headers.get('docker-content-digest')).toBe(a.digest);
    }
    const host = registry.host;
    const copied = testdir({
      'capi.config.ts': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: 'oci://${host}/copied/cluster-api' },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: 'oci://${host}/copied/infrastructure-docker' }],
  },
  certManager: { version: 'v1.18.2', url: 'oci://${host}/copied/cert-manager' },
};
`,
    });
    const lock = await runCli(['lock'], { cwd: copied, env: { ...env(tempDir()), HOME: copied } });
    expect(lock.code, lock.stderr).toBe(0);
    const render = await runCli(['render'], { cwd: copied, env: { ...env(tempDir()), HOME: copied } });
    expect(render.code, render.stderr).toBe(0);
    expect(snapshotDir(join(copied, 'providers'))).toEqual(snapshotDir(join(dir, 'providers')));
  }, 60_000);

  it('bundle --oci-layout refuses a folder that holds anything but earlier layouts (exit 2), before writing anything', async () => {
    const target = testdir({ 'notes.txt': 'mine\n' });
    const before = snapshotDir(dir);
    const out = join(tempDir(), 'refused.tar.gz');
    const r = await runCli(['bundle', '--out', out, '--oci-layout', target], { cwd: dir, env: env(cache) });
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).toContain(`Error: --oci-layout ${target} holds notes.txt, which is not an OCI layout capiform wrote; refusing to replace the folder`);
    expect(snapshotDir(dir)).toEqual(before);
    expect(snapshotDir(target)).toEqual({ 'notes.txt': expect.any(String) as unknown as string });
  });

  it('a tag pushed again with other bytes: the frozen render is an integrity error (exit 3) and nothing changes', async () => {
    const files = release('cluster-api', 'v1.12.4', ['metadata.yaml', 'core-components.yaml']);
    files['core-components.yaml'] = Buffer.concat([files['core-components.yaml']!, Buffer.from('# re-pushed\n')]);
    const repushed = await registry.pushRelease('capi/cluster-api', 'v1.12.4', files);
    const before = snapshotDir(dir);
    const r = await runCli(['render', '--check', '--frozen'], { cwd: dir, env: env(tempDir()) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `Error: oci://${registry.host}/capi/cluster-api:v1.12.4 now points at manifest ${repushed.manifestDigest}, but capi.lock.yaml pins ${core.manifestDigest}: the tag was pushed again with other content`,
    );
    expect(r.stderr).toContain('fix: if the release was re-published on purpose, run `capiform lock --upgrade');
    expect(snapshotDir(dir)).toEqual(before);
  });
});
