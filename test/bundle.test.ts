import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive, writeArchive } from '../src/bundle/archive.js';
import { parseSums } from '../src/bundle/layout.js';
import { bundleContents, verifyBundle } from '../src/bundle/verify.js';
import { openBundle } from '../src/bundle/index.js';
import { IntegrityError } from '../src/errors.js';
import { ContentCache } from '../src/cache/index.js';
import { testdir } from './helpers/testdir.js';
import { runCli } from './helpers/cli.js';
import { bundleProject, projectImages } from './helpers/bundle-project.js';
import { rawHeader } from './helpers/raw-tar.js';
import { gunzipSync, gzipSync } from 'node:zlib';

async function makeBundle(dir: string, extra: string[] = []): Promise<Buffer> {
  const r = await runCli(['bundle', '--out', 'dist/b.tar.gz', ...extra], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return readFileSync(join(dir, 'dist', 'b.tar.gz'));
}

/** The bundle's files (relative to its top directory), changed by `edit`, written back as a bundle. */
function rewrite(bundle: Buffer, edit: (files: Map<string, Uint8Array>) => void): Buffer {
  const { root, files } = bundleContents(readArchive(bundle).entries);
  edit(files);
  return writeArchive([...files].map(([path, content]) => ({ path: `${root}/${path}`, content })));
}

/** Appends hand-made raw entries before the end-of-archive blocks. */
function appendRaw(bundle: Buffer, entries: { name: string; type?: string; linkname?: string; data?: string }[]): Buffer {
  const tar = gunzipSync(bundle);
  let end = tar.length;
  while (end >= 512 && tar.subarray(end - 512, end).every((b) => b === 0)) end -= 512;
  const parts: Buffer[] = [tar.subarray(0, end)];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    parts.push(rawHeader(e, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

async function verifyCli(dir: string, bytes: Buffer): Promise<{ code: number; stdout: string; stderr: string }> {
  writeFileSync(join(dir, 'check.tar.gz'), bytes);
  return runCli(['bundle', 'verify', 'check.tar.gz'], { cwd: dir });
}

describe('capiform bundle', () => {
  it('writes byte-identical bundles from the same inputs, with SOURCE_DATE_EPOCH honoured', async () => {
    const dir = bundleProject();
    const a = await makeBundle(dir);
    const b = await makeBundle(dir);
    expect(Buffer.compare(a, b)).toBe(0);
    const other = bundleProject();
    expect(Buffer.compare(await makeBundle(other), a)).toBe(0); // another directory, same inputs
    const dated = await runCli(['bundle', '--out', 'dist/c.tar.gz'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1700000000' } });
    expect(dated.code).toBe(0);
    const c = readFileSync(join(dir, 'dist', 'c.tar.gz'));
    expect(Buffer.compare(c, a)).not.toBe(0);
    expect(gunzipSync(c).subarray(136, 148).toString()).toBe(`${(1700000000).toString(8).padStart(11, '0')}\0`);
  });

  it('holds the release files in clusterctl layout, clusterctl.yaml, lock, config, tree, images.txt and SHA256SUMS', async () => {
    const dir = bundleProject();
    const { root, files } = bundleContents(readArchive(await makeBundle(dir)).entries);
    expect(root).toBe('b');
    expect([...files.keys()].sort()).toEqual([
      'SHA256SUMS',
      'capi.config.ts',
      'capi.lock.yaml',
      'clusterctl.yaml',
      'images.txt',
      'provenance.intoto.json',
      'repository/cert-manager/v1.18.2/cert-manager.yaml',
      'repository/cluster-api/v1.12.4/core-components.yaml',
      'repository/cluster-api/v1.12.4/metadata.yaml',
      'repository/infrastructure-docker/v1.12.4/cluster-template.yaml',
      'repository/infrastructure-docker/v1.12.4/infrastructure-components.yaml',
      'repository/infrastructure-docker/v1.12.4/metadata.yaml',
      'tree/clusters/team-a/dev-1/cluster.yaml',
      'tree/clusters/team-a/dev-1/kustomization.yaml',
      'tree/providers/cert-manager/cert-manager.yaml',
      'tree/providers/cluster-api/components.yaml',
      'tree/providers/cluster-api/kustomization.yaml',
      'tree/providers/infrastructure-docker/components.yaml',
    ]);
    const text = (p: string): string => Buffer.from(files.get(p)!).toString('utf8');
    expect(text('images.txt')).toBe(projectImages.map((i) => `${i}\n`).join(''));
    expect(text('repository/cluster-api/v1.12.4/core-components.yaml')).toBe(readFileSync(join(dir, 'repository/cluster-api/v1.12.4/core-components.yaml'), 'utf8'));
    expect(text('clusterctl.yaml')).toContain('- name: "cluster-api"\n  type: CoreProvider\n  url: "${PWD}/repository/cluster-api/v1.12.4/core-components.yaml"\n');
    expect(text('clusterctl.yaml')).toContain('images:\n  "infrastructure-docker": {repository: "registry.internal/mirror"}\n');
    expect(text('clusterctl.yaml')).toContain('cert-manager:\n  url: "${PWD}/repository/cert-manager/v1.18.2/cert-manager.yaml"\n  version: "v1.18.2"\n');
    const { sums, problems } = parseSums(text('SHA256SUMS'));
    expect(problems).toEqual([]);
    expect([...sums.keys()].sort()).toEqual([...files.keys()].filter((k) => k !== 'SHA256SUMS').sort());
  });

  it('adds the Hauler, Zarf and Cluster API Operator forms on request', async () => {
    const dir = bundleProject();
    const { files } = bundleContents(readArchive(await makeBundle(dir, ['--hauler', '--zarf', '--operator'])).entries);
    const text = (p: string): string => Buffer.from(files.get(p)!).toString('utf8');
    expect(text('hauler.yaml')).toContain('apiVersion: content.hauler.cattle.io/v1\nkind: Images\n');
    expect(text('hauler.yaml')).toContain('  - name: "registry.k8s.io/cluster-api/cluster-api-controller:v1.12.4"\n');
    expect(text('hauler.yaml')).toContain('kind: Files\n');
    expect(text('zarf.yaml')).toContain('kind: ZarfPackageConfig\n');
    expect(text('zarf.yaml')).toContain('- name: "cluster-api"\n  required: true\n  images:\n  - "registry.k8s.io/cluster-api/cluster-api-controller:v1.12.4"\n');
    const op = text('operator/cluster-api.yaml');
    expect(op).toContain('kind: CoreProvider\n');
    expect(op).toContain('  fetchConfig:\n    selector:\n      matchLabels:\n        provider.cluster.x-k8s.io/name: cluster-api\n        provider.cluster.x-k8s.io/type: core\n');
    expect(op).toContain('    provider.cluster.x-k8s.io/version: "v1.12.4"\n');
    expect(op).toContain('  namespace: "capi-system"\n');
    expect(verifyBundle(readFileSync(join(dir, 'dist', 'b.tar.gz'))).problems).toEqual([]);
  });

  it('fails with a hint when the tree was not rendered, and on a lock that no longer matches the repository', async () => {
    const dir = bundleProject();
    writeFileSync(join(dir, 'repository/cluster-api/v1.12.4/metadata.yaml'), 'tampered\n');
    const r = await runCli(['bundle'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: release files do not match capi.lock.yaml:\n  cluster-api v1.12.4 metadata.yaml: expected sha256');
    const noLock = bundleProject();
    rmSync(join(noLock, 'capi.lock.yaml'));
    const n = await runCli(['bundle'], { cwd: noLock });
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('Error: there is no capi.lock.yaml in');
    const noTree = bundleProject();
    rmSync(join(noTree, 'providers'), { recursive: true });
    const t = await runCli(['bundle'], { cwd: noTree });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('run `capiform render` first');
  });
});

describe('capiform bundle verify', () => {
  it('passes a good bundle', async () => {
    const dir = bundleProject();
    const r = await verifyCli(dir, await makeBundle(dir));
    expect(r.stdout).toBe('check.tar.gz: OK (18 files verified)\n');
    expect(r.code).toBe(0);
  });

  it('reports a changed byte (SHA256SUMS and lock), exit 3', async () => {
    const dir = bundleProject();
    const bad = rewrite(await makeBundle(dir), (f) => {
      const b = Buffer.from(f.get('repository/cluster-api/v1.12.4/metadata.yaml')!);
      b[0] = b[0]! ^ 1;
      f.set('repository/cluster-api/v1.12.4/metadata.yaml', b);
    });
    const r = await verifyCli(dir, bad);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: check.tar.gz: 3 problems:');
    expect(r.stderr).toMatch(/provenance.intoto.json: subject repository\/cluster-api\/v1.12.4\/metadata.yaml has sha256 \w+, the provenance says \w+/);
    expect(r.stderr).toMatch(/repository\/cluster-api\/v1.12.4\/metadata.yaml: sha256 \w+ does not match SHA256SUMS/);
    expect(r.stderr).toMatch(/repository\/cluster-api\/v1.12.4\/metadata.yaml: sha256 \w+ does not match capi.lock.yaml .* for cluster-api v1.12.4/);
  });

  it('reports an extra file and a missing file, each', async () => {
    const dir = bundleProject();
    const bad = rewrite(await makeBundle(dir), (f) => {
      f.set('repository/cluster-api/v1.12.4/extra.yaml', Buffer.from('x'));
      f.delete('tree/providers/cluster-api/components.yaml');
      f.delete('repository/infrastructure-docker/v1.12.4/metadata.yaml');
    });
    const r = await verifyCli(dir, bad);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('  extra file repository/cluster-api/v1.12.4/extra.yaml (not in SHA256SUMS)');
    expect(r.stderr).toContain('  extra file repository/cluster-api/v1.12.4/extra.yaml (not pinned by capi.lock.yaml)');
    expect(r.stderr).toContain('  missing file tree/providers/cluster-api/components.yaml (listed in SHA256SUMS)');
    expect(r.stderr).toContain('  missing file repository/infrastructure-docker/v1.12.4/metadata.yaml (pinned by capi.lock.yaml for infrastructure-docker v1.12.4)');
    expect(r.stderr).toContain('  provenance.intoto.json: subject tree/providers/cluster-api/components.yaml is not in the bundle');
    expect(r.stderr).toContain('  provenance.intoto.json: repository/cluster-api/v1.12.4/extra.yaml is in the bundle but not a subject of the provenance');
    expect(r.stderr).toContain('8 problems');
  });

  it('reports a path traversal entry and a symlink escape', async () => {
    const dir = bundleProject();
    const bad = appendRaw(await makeBundle(dir), [
      { name: 'b/../../escape.txt', data: 'x' },
      { name: 'b/repository/link', type: '2', linkname: '../../../etc/passwd' },
    ]);
    const r = await verifyCli(dir, bad);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('  entry "b/../../escape.txt" leaves the target directory ("..")');
    expect(r.stderr).toContain('  symlink "b/repository/link" points outside the target directory (→ ../../../etc/passwd)');
  });

  it('a damaged or truncated download is an integrity error (exit 3) with what to do, for verify and --bundle', async () => {
    const dir = bundleProject();
    const good = await makeBundle(dir);
    const r = await verifyCli(dir, good.subarray(0, Math.floor(good.length / 2)));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: check.tar.gz is not a valid gzip file: unexpected end of file');
    expect(r.stderr).toContain('fix: the file is damaged or incomplete: copy it again');
    const render = await runCli(['render', '--bundle', 'check.tar.gz', '--check'], { cwd: dir });
    expect(render.code).toBe(3);
    expect(render.stderr).toContain('Error: check.tar.gz is not a valid gzip file: unexpected end of file');
  });

  it('a missing file to verify is an input error', async () => {
    const r = await runCli(['bundle', 'verify', 'nope.tar.gz'], { cwd: bundleProject() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: bundle nope.tar.gz does not exist');
  });
});

describe('--bundle source', () => {
  it('serves every locked release from the bundle, keeping the configured kind and file locations', async () => {
    const dir = bundleProject();
    await makeBundle(dir);
    const elsewhere = testdir();
    const src = await openBundle(join(dir, 'dist', 'b.tar.gz'), elsewhere);
    try {
      const repo = src.repositories({ name: 'cluster-api', type: 'CoreProvider', url: '/nowhere', label: 'cluster-api', componentsFile: 'core-components.yaml', kind: 'github' });
      expect(repo.kind).toBe('github');
      expect(await repo.listVersions()).toEqual(['v1.12.4']);
      expect(Buffer.from((await repo.getFile('v1.12.4', 'metadata.yaml'))!).equals(readFileSync(join(dir, 'repository/cluster-api/v1.12.4/metadata.yaml')))).toBe(true);
      expect(await repo.getFile('v1.12.4', 'cluster-template.yaml')).toBeNull();
      expect(await repo.getFile('v1.12.4', '../../../capi.lock.yaml')).toBeNull();
      expect(await repo.getFile('../../..', 'capi.lock.yaml')).toBeNull();
      expect(await repo.listFiles!('../..')).toBeNull();
      expect(repo.fileLocation('v1.12.4', 'metadata.yaml')).toBe(join(elsewhere, 'repository/cluster-api/v1.12.4/metadata.yaml'));
      const cm = src.repositories({ name: 'cert-manager', type: '', url: 'x', label: 'cert-manager', componentsFile: 'cert-manager.yaml', kind: 'local' });
      expect(await cm.listFiles!('v1.18.2')).toEqual(['cert-manager.yaml']);
    } finally {
      src.cleanup();
    }
    expect(existsSync(src.dir)).toBe(false);
  });

  it('refuses a tampered bundle before extracting anything (exit 3)', async () => {
    const dir = bundleProject();
    const bad = rewrite(await makeBundle(dir), (f) => f.set('capi.lock.yaml', Buffer.from('lockfileVersion: 1\nproviders: []\n')));
    writeFileSync(join(dir, 'bad.tar.gz'), bad);
    await expect(openBundle(join(dir, 'bad.tar.gz'), dir)).rejects.toThrow(IntegrityError);
    await expect(openBundle(join(dir, 'missing.tar.gz'), dir)).rejects.toThrow(/bundle .*missing.tar.gz does not exist/);
  });

  it('bundles remote release files from the cache, and says what to do when one is missing', async () => {
    const cacheDir = testdir();
    const bytes = Buffer.from('remote metadata\n');
    const digest = createHash('sha256').update(bytes).digest('hex');
    new ContentCache(cacheDir).putSync(bytes);
    const dir = bundleProject();
    // This lock pins a remote metadata.yaml the local config cannot render from; with no `images:` relocation the
    // image sources need no render, so the bundle reads the tree and the pinned files only.
    const config = readFileSync(join(dir, 'capi.config.ts'), 'utf8');
    writeFileSync(join(dir, 'capi.config.ts'), config.replace(", images: { repository: 'registry.internal/mirror' }", ''));
    const lock = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8').replace(
      /  - name: metadata.yaml\n    path: repository\/cluster-api\/v1.12.4\/metadata.yaml\n    sha256: \w+\n    size: \d+\n/,
      `  - name: metadata.yaml\n    url: https://github.com/kubernetes-sigs/cluster-api/releases/download/v1.12.4/metadata.yaml\n    sha256: ${digest}\n    size: ${bytes.length}\n`,
    );
    writeFileSync(join(dir, 'capi.lock.yaml'), lock);
    const ok = await runCli(['bundle', '--out', 'dist/r.tar.gz'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: cacheDir } });
    expect(ok.stderr).toBe('');
    const { files } = bundleContents(readArchive(readFileSync(join(dir, 'dist', 'r.tar.gz'))).entries);
    expect(Buffer.from(files.get('repository/cluster-api/v1.12.4/metadata.yaml')!).toString()).toBe('remote metadata\n');
    const miss = await runCli(['bundle'], { cwd: dir, env: { CAPIFORM_CACHE_DIR: testdir() } });
    expect(miss.code).toBe(3);
    expect(miss.stderr).toContain('Error: cluster-api v1.12.4: metadata.yaml is not in the cache (https://github.com/');
    expect(miss.stderr).toContain('run `capiform render` on a connected machine first');
  });
});

describe('plan upgrade --bundle', () => {
  it('plans against the bundle’s releases exactly as against the same local repository', async () => {
    const dir = bundleProject();
    await makeBundle(dir);
    const fromRepo = await runCli(['plan', 'upgrade', '--repository', 'repository'], { cwd: dir });
    const fromBundle = await runCli(['plan', 'upgrade', '--bundle', 'dist/b.tar.gz'], { cwd: dir });
    expect(fromBundle.stderr).toBe('');
    expect(fromBundle.code).toBe(0);
    expect(fromBundle.stdout).toBe(fromRepo.stdout);
    const both = await runCli(['plan', 'upgrade', '--bundle', 'dist/b.tar.gz', '--repository', 'repository'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Error: pass either --bundle or --repository, not both');
  });
});
