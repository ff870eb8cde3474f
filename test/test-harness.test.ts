/**
 * The test harness itself: the reference material beside the repository is found or reported, never silently
 * missed, and a run leaves the temporary folder as it found it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MissingSharedDirError, sharedDir } from './helpers/shared.js';
import { registryAvailability } from './helpers/oci-registry.js';
import { removeTempDirs, tempDir, testdir } from './helpers/testdir.js';
import { thrown } from './helpers/thrown.js';
import { setup as tmpdirGuard } from './setup/tmpdir-guard.js';

describe('sharedDir', () => {
  it('reads CAPIFORM_CORPUS_DIR, relative to the repository root, and finds a corpus with a repository/ folder', () => {
    const dir = testdir({ 'repository/cluster-api/': null });
    expect(sharedDir('corpus', { CAPIFORM_CORPUS_DIR: dir })).toEqual({ path: dir, present: true, skipped: '' });
    expect(sharedDir('corpus', { CAPIFORM_CORPUS_DIR: 'examples' }).path).toBe(join(import.meta.dirname, '..', 'examples'));
  });

  it('defaults to ../shared beside the repository', () => {
    expect(sharedDir('vectors', {}).path).toBe(join(import.meta.dirname, '..', '..', 'shared', 'vectors'));
  });

  it('without the folder: not present, and the reason to put in the skipped test name', () => {
    const dir = join(tempDir(), 'nowhere');
    expect(sharedDir('corpus', { CAPIFORM_CORPUS_DIR: dir })).toEqual({
      path: dir,
      present: false,
      skipped: ` (skipped: no corpus at ${dir}; set CAPIFORM_CORPUS_DIR)`,
    });
  });

  it('a corpus folder without repository/ does not count', () => {
    const dir = testdir({ 'README.md': 'half a copy' });
    expect(sharedDir('corpus', { CAPIFORM_CORPUS_DIR: dir }).present).toBe(false);
  });

  it('under CAPIFORM_REQUIRE_SHARED=1 a missing folder throws, naming it and the variable', () => {
    const dir = join(tempDir(), 'nowhere');
    const err = thrown(() => sharedDir('vectors', { CAPIFORM_VECTORS_DIR: dir, CAPIFORM_REQUIRE_SHARED: '1' }), MissingSharedDirError);
    expect(err.message).toBe(
      `vectors not found at ${dir}, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping: put ../shared beside the repository or set CAPIFORM_VECTORS_DIR`,
    );
  });
});

describe('every test finds ../shared through sharedDir', () => {
  // A path of its own is how diff-corpus.test.ts came to look one folder too high and pass without running.
  const own = /process\.env\.CAPIFORM_(CORPUS|VECTORS)_DIR|['"`](\.\.\/)+shared\/|'shared', '(corpus|vectors)'/;
  const allowed: Record<string, string> = {
    'test/helpers/shared.ts': 'the one lookup',
    'test/test-harness.test.ts': 'tests the lookup',
  };
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  const root = join(import.meta.dirname, '..');

  it('no other test file resolves the corpus or the vectors itself', () => {
    const offenders = files(join(root, 'test'))
      .map((f) => relative(root, f).split('\\').join('/'))
      .filter((f) => !(f in allowed))
      .filter((f) => readFileSync(join(root, f), 'utf8').split('\n').some((line) => !/^\s*(\*|\/\/)/.test(line) && own.test(line)));
    expect(offenders).toEqual([]);
  });
});

describe('temporary folders', () => {
  it('tempDir and testdir folders are gone after removeTempDirs, read-only parts included', () => {
    const a = tempDir();
    const b = testdir({ 'x/y.yaml': 'kind: K\n', 'empty/': null });
    mkdirSync(join(a, 'locked'), { mode: 0o500 });
    removeTempDirs();
    expect([existsSync(a), existsSync(b)]).toEqual([false, false]);
  });

  describe('the run guard', () => {
    const outer = { ...process.env };
    afterEach(() => {
      for (const k of ['TMPDIR', 'HOME', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME']) {
        if (outer[k] === undefined) delete process.env[k];
        else process.env[k] = outer[k];
      }
      process.exitCode = 0;
      vi.restoreAllMocks();
    });

    it('gives the run its own folder and HOME, and a clean run passes and removes both', () => {
      process.env.TMPDIR = tempDir();
      process.env.XDG_CACHE_HOME = '/somewhere/else';
      const teardown = tmpdirGuard();
      const run = process.env.TMPDIR;
      expect(run).toMatch(/capiform-vitest-/);
      expect([process.env.HOME, process.env.XDG_CACHE_HOME]).toEqual([join(run, 'home'), undefined]);
      writeFileSync(join(run, 'home', 'cache-entry'), 'a cache may fill the home');
      teardown();
      expect(process.env.XDG_CACHE_HOME).toBe('/somewhere/else');
      expect(existsSync(run)).toBe(false);
      expect(process.exitCode ?? 0).toBe(0);
    });

    it('fails the run, naming what was left, and still removes it', () => {
      process.env.TMPDIR = tempDir();
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const teardown = tmpdirGuard();
      const run = process.env.TMPDIR;
      writeFileSync(join(run, 'left-behind.txt'), 'abc');
      teardown();
      expect(process.exitCode).toBe(1);
      expect(errors.mock.calls[0]?.[0]).toContain('the tests left 1 entry (3 bytes) in the temporary folder: left-behind.txt.');
      expect(existsSync(run)).toBe(false);
    });
  });
});

describe('the OCI registry the tests start', () => {
  it('a missing registry binary skips with a notice, and fails under CAPIFORM_REQUIRE_SHARED=1 (CI installs it)', () => {
    const missing = { CAPIFORM_DOCKER_REGISTRY: '/nonexistent/docker-registry' };
    expect(registryAvailability(missing)).toEqual({ present: false, skipped: ' (skipped: no /nonexistent/docker-registry; apt-get install docker-registry apache2-utils)' });
    expect(() => registryAvailability({ ...missing, CAPIFORM_REQUIRE_SHARED: '1' })).toThrow(
      'the distribution registry (/nonexistent/docker-registry) or htpasswd (/usr/bin/htpasswd) is missing, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping',
    );
  });
});
