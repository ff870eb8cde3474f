/**
 * Paths that are the wrong kind of thing — a file where the tree, a tree folder, the cache, --repository or an output's
 * folder should be, a folder where the lock or an output file should be, a tree that cannot be written — are an error
 * naming the path (exit 2): never an internal error with a stack, never exit 0, and never a user's file replaced.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsUserError } from '../src/cli/fs-error.js';
import { bundleProject } from './helpers/bundle-project.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { testdir } from './helpers/testdir.js';

/** A project whose render writes providers/, clusters/ and argocd/ (and would rewrite the lock). */
function project(): string {
  return bundleProject({
    'capi.config.ts': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.12.0', url: './repository' },
    infrastructure: [{ name: 'docker', version: '~1.12.0', url: './repository' }],
  },
  certManager: { version: 'v1.18.2', url: './repository' },
  clusters: [{ name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', variables: { SIDECAR_IMAGE: 'sidecar:v1' } }],
  argocd: { repoURL: 'https://git.example.com/fleet.git' },
};
`,
  });
}

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: testdir(), ...extra };
}

/** Runs `argv` in `dir` and checks it failed as a user error that changed nothing in `dir`. */
async function refused(dir: string, argv: string[], code: number, message: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const before = snapshotDir(dir);
  const r = await runCli(argv, { cwd: dir, env: env(extraEnv) });
  expect(r.stderr).toContain(message);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stderr).not.toMatch(/\n\s+at .*\(/);
  expect(r.code).toBe(code);
  expect(snapshotDir(dir)).toEqual(before);
  return r;
}

function replaceWithFile(dir: string, rel: string): void {
  rmSync(join(dir, rel), { recursive: true, force: true });
  writeFileSync(join(dir, rel), 'my own notes, not a folder\n');
}

describe('the tree', () => {
  for (const folder of ['providers', 'clusters', 'argocd']) {
    it(`a regular file named ${folder} is an error naming it (exit 2), for render and render --check; neither it nor the lock is replaced`, async () => {
      const dir = project();
      replaceWithFile(dir, folder);
      const message = `Error: cannot write the tree: ${folder} is a file, where capiform writes the folder ${folder}/`;
      const r = await refused(dir, ['render'], 2, message);
      expect(r.stderr).toContain(`  at: ${join(dir, folder)}`);
      expect(r.stderr).toContain('  fix: move or rename your own files there; capiform owns providers/, clusterclasses/, clusters/ and argocd/');
      await refused(dir, ['render', '--check'], 2, message);
    });
  }

  it('a file where a deeper folder of the tree goes, and a folder where a rendered file goes, are listed together', async () => {
    const dir = project();
    replaceWithFile(dir, 'providers/cluster-api');
    rmSync(join(dir, 'clusters/team-a/dev-1/cluster.yaml'));
    mkdirSync(join(dir, 'clusters/team-a/dev-1/cluster.yaml'));
    await refused(
      dir,
      ['render'],
      2,
      'Error: cannot write the tree (2 paths are in the way):\n  clusters/team-a/dev-1/cluster.yaml is a folder, where capiform writes a file\n  providers/cluster-api is a file, where capiform writes the folder providers/cluster-api/\n',
    );
  });

  it('a folder named capi.lock.yaml is an error naming it (exit 2) for render and lock', async () => {
    const dir = project();
    rmSync(join(dir, 'capi.lock.yaml'));
    mkdirSync(join(dir, 'capi.lock.yaml'));
    for (const argv of [['render'], ['lock'], ['render', '--check']]) {
      await refused(dir, argv, 2, `Error: ${join(dir, 'capi.lock.yaml')} is a folder, where capiform keeps the lock file`);
    }
  });

  it.skipIf(process.getuid?.() === 0)('a read-only project folder is an error naming the path (exit 2), not a stack (root writes anyway)', async () => {
    const dir = project();
    chmodSync(dir, 0o555);
    try {
      await refused(dir, ['render'], 2, 'permission denied');
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('file-system errors nothing else handled (read-only, full disk, wrong kind) become a user error naming the path', () => {
    const erofs = Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS', syscall: 'open', path: '/srv/fleet/providers/x.yaml' });
    const e = fsUserError(erofs)!;
    expect([e.message, e.where, e.exitCode]).toEqual(['cannot write /srv/fleet/providers/x.yaml: the file system is read-only', '/srv/fleet/providers/x.yaml', 2]);
    const eacces = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'scandir', path: '/srv/fleet/clusters' });
    expect(fsUserError(eacces)!.message).toBe('cannot read /srv/fleet/clusters: permission denied');
    expect(fsUserError(Object.assign(new Error('x'), { code: 'EISDIR', syscall: 'read', path: '/p/capi.lock.yaml' }))!.message).toBe('/p/capi.lock.yaml is a folder, where a file is expected');
    expect(fsUserError(new TypeError('a bug'))).toBeUndefined();
    expect(fsUserError(Object.assign(new Error('no path'), { code: 'EACCES' }))).toBeUndefined();
  });

  it.runIf(process.platform === 'linux' && existsSync('/sys/kernel'))('a real unwritable place (/sys) is reported with its path (exit 2), even as root', async () => {
    const dir = project();
    await runCli(['render'], { cwd: dir, env: env() });
    const r = await runCli(['bundle', '--out', '/sys/capiform-test.tar.gz'], { cwd: dir, env: env() });
    expect(r.stderr).toMatch(/^Error: cannot write \/sys\/\S+: (permission denied|the file system is read-only|operation not permitted)\n/);
    expect(r.code).toBe(2);
  });
});

describe('the cache', () => {
  it('CAPIFORM_CACHE_DIR naming a file is an error naming it (exit 2)', async () => {
    const dir = project();
    writeFileSync(join(dir, 'cache'), 'not a folder\n');
    const r = await refused(dir, ['render'], 2, `Error: the cache folder ${join(dir, 'cache')} cannot be used: it is a file, not a folder`, { CAPIFORM_CACHE_DIR: join(dir, 'cache') });
    expect(r.stderr).toContain('fix: point CAPIFORM_CACHE_DIR at a folder');
    await refused(dir, ['render'], 2, `cannot be used: ${join(dir, 'cache')} is a file, not a folder`, { CAPIFORM_CACHE_DIR: join(dir, 'cache', 'sub') });
  });
});

describe('folders named on the command line', () => {
  it('`plan upgrade --repository <a file>` is an error (exit 2), not a plan', async () => {
    const dir = project();
    writeFileSync(join(dir, 'repo.txt'), 'x\n');
    const r = await refused(dir, ['plan', 'upgrade', '--repository', 'repo.txt'], 2, 'Error: --repository repo.txt is a file, not a folder');
    expect(r.stdout).toBe('');
  });

  it('`images --tree` and `diff --root` naming a file are errors naming the flag (exit 2)', async () => {
    const dir = project();
    writeFileSync(join(dir, 'tree.txt'), 'x\n');
    await refused(dir, ['images', '--tree', 'tree.txt'], 2, 'Error: --tree tree.txt is a file, not a folder');
    await refused(dir, ['diff', '--root', 'tree.txt'], 2, 'Error: --root tree.txt is a file, not a folder');
  });
});

describe('outputs', () => {
  it('`bundle --out` into a file used as a folder, or onto a folder, is an error naming it (exit 2)', async () => {
    const dir = project();
    await runCli(['render'], { cwd: dir, env: env() });
    writeFileSync(join(dir, 'dist'), 'my file\n');
    await refused(dir, ['bundle', '--out', 'dist/b.tar.gz'], 2, `Error: --out dist/b.tar.gz: ${join(dir, 'dist')} is a file, not a folder`);
    await refused(dir, ['bundle'], 2, `${join(dir, 'dist')} is a file, not a folder`);
    mkdirSync(join(dir, 'b.tar.gz'));
    await refused(dir, ['bundle', '--out', 'b.tar.gz'], 2, 'Error: --out b.tar.gz is a folder, not a file');
  });

  it('`generate cluster --write-to` and `diff --json-out` onto a folder or under a file are errors naming the flag (exit 2)', async () => {
    const dir = project();
    writeFileSync(join(dir, 'notes'), 'x\n');
    mkdirSync(join(dir, 'out'));
    const gen = ['generate', 'cluster', 'dev-1', '--from', 'clusters/team-a/dev-1/cluster.yaml', '-n', 'team-a'];
    const vars = { SIDECAR_IMAGE: 'sidecar:v1' };
    await refused(dir, [...gen, '--write-to', 'notes/c.yaml'], 2, `Error: --write-to notes/c.yaml: ${join(dir, 'notes')} is a file, not a folder`, vars);
    await refused(dir, [...gen, '--write-to', 'out'], 2, 'Error: --write-to out is a folder, not a file', vars);
    await refused(dir, ['diff', dir, dir, '--json-out', 'out'], 2, 'Error: --json-out out is a folder, not a file');
  });

  it('`generate cluster --write-to` into a folder that does not exist fails as clusterctl does (exit 2), creating nothing', async () => {
    const dir = project();
    const gen = ['generate', 'cluster', 'dev-1', '--from', 'clusters/team-a/dev-1/cluster.yaml', '-n', 'team-a'];
    const r = await refused(dir, [...gen, '--write-to', 'no-such-folder/c.yaml'], 2, `Error: failed to write ${join(dir, 'no-such-folder/c.yaml')}: ENOENT: no such file or directory`, { SIDECAR_IMAGE: 'sidecar:v1' });
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });

  it('`--config` naming a folder says so (exit 2)', async () => {
    const dir = project();
    mkdirSync(join(dir, 'conf'));
    await refused(dir, ['render', '--config', 'conf'], 2, 'Error: config file "conf" is a folder, not a file');
  });
});
