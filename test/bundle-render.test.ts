import { createHash } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTree } from '../src/bundle/index.js';
import { runCli } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

/** sha256 over the rendered tree and the lock: path, NUL, content, per file in path order. */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of readTree(dir)) h.update(`${f.path}\0${f.content}\0`);
  h.update(`capi.lock.yaml\0`);
  return h.digest('hex');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('render --bundle', () => {
  it('gives the connected tree and lock with no network, a fresh cache and no repository on disk', async () => {
    const dir = fixtureProject();
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const b = await runCli(['bundle', '--out', 'dist/site.tar.gz'], { cwd: dir, env });
    expect(b.stderr).toBe('');
    const connected = treeHash(dir);

    // The air-gapped side: the config and the lock from git, the bundle, nothing else.
    const site = tempDir('capiform-site-');
    copyFileSync(join(dir, 'capi.config.ts'), join(site, 'capi.config.ts'));
    copyFileSync(join(dir, 'capi.lock.yaml'), join(site, 'capi.lock.yaml'));
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network disabled in this test'));
    const freshCache = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), GOPROXY: 'off' };
    const r = await runCli(['render', '--frozen', '--bundle', join(dir, 'dist', 'site.tar.gz')], { cwd: site, env: freshCache });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(site, 'repo'))).toBe(false);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(treeHash(site)).toBe(connected);
    const check = await runCli(['render', '--check', '--bundle', join(dir, 'dist', 'site.tar.gz')], { cwd: site, env: freshCache });
    expect(check.stdout).toBe('tree is up to date\n');
    const lock = await runCli(['lock', '--bundle', join(dir, 'dist', 'site.tar.gz')], { cwd: site, env: freshCache });
    expect(lock.stdout).toContain('capi.lock.yaml is up to date');
  });
});
