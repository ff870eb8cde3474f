/**
 * `capi.lock.yaml` has one reader and one writer (src/lock): every command that reads a lock — render, plan upgrade,
 * bundle, bundle verify, --bundle — refuses the same broken file the same way, and the lock is written only as
 * `formatLock` prints it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArchive, writeArchive } from '../src/bundle/archive.js';
import { formatSums, sumsFile } from '../src/bundle/layout.js';
import { bundleContents, verifyBundle } from '../src/bundle/verify.js';
import { formatLock, lockFromBytes, parseLock, readLock, readLockDocument, writeLock } from '../src/lock/index.js';
import { runCli } from './helpers/cli.js';
import { bundleProject } from './helpers/bundle-project.js';
import { tempDir, writeFile, writeRepository } from './helpers/plan-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { thrown } from './helpers/thrown.js';

const lockName = 'capi.lock.yaml';

/** A bundle built from the fixture project, with its lock replaced by `lock` and SHA256SUMS made to match. */
async function bundleWithLock(dir: string, lock: (text: string) => Uint8Array): Promise<Buffer> {
  const r = await runCli(['bundle', '--out', 'dist/b.tar.gz'], { cwd: dir });
  expect(r.stderr).toBe('');
  const { root, files } = bundleContents(readArchive(readFileSync(join(dir, 'dist', 'b.tar.gz'))).entries);
  files.set(lockName, lock(Buffer.from(files.get(lockName)!).toString('utf8')));
  files.delete(sumsFile);
  const listed = [...files].map(([path, content]) => ({ path, content }));
  files.set(sumsFile, Buffer.from(formatSums(listed)));
  return writeArchive([...files].map(([path, content]) => ({ path: `${root}/${path}`, content })));
}

/** `text` with one byte that is not UTF-8 inside the top-level `contract` value. */
function notUtf8(text: string): Uint8Array {
  const at = text.indexOf('contract: v1beta2') + 'contract: v1'.length;
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff]), Buffer.from(text.slice(at))]);
}

describe('the lock reader', () => {
  it('reads what the writer wrote, byte for byte, and keeps the exact text', () => {
    const dir = bundleProject();
    const path = join(dir, lockName);
    const doc = readLockDocument(path);
    expect(doc.text).toBe(readFileSync(path, 'utf8'));
    expect(readLock(path)).toEqual(doc.lock);

    const out = join(tempDir(), lockName);
    expect(writeLock(out, doc.lock)).toBe(formatLock(doc.lock));
    expect(readFileSync(out, 'utf8')).toBe(formatLock(doc.lock));
    expect(readLock(out)).toEqual(doc.lock);
    // One atomic rename: no temporary file is left beside the lock.
    expect(readdirSync(dirname(out))).toEqual([lockName]);
  });

  it('keeps a byte order mark in the text (it is part of the file) and reads the same lock', () => {
    const text = readFileSync(join(bundleProject(), lockName), 'utf8');
    const doc = lockFromBytes(Buffer.from(`\uFEFF${text}`), lockName);
    expect(doc.text).toBe(`\uFEFF${text}`);
    expect(doc.lock).toEqual(parseLock(text, lockName));
  });

  it('names the version it reads when a lock is too new, and says how to start over when it is not a version it knows', () => {
    const text = readFileSync(join(bundleProject(), lockName), 'utf8');
    const newer = thrown(() => parseLock(text.replace('lockfileVersion: 1', 'lockfileVersion: 2'), lockName));
    expect(newer.message).toBe('capi.lock.yaml has lockfileVersion 2, written by a newer capiform; this one reads version 1');
    expect(newer.hint).toBe('upgrade capiform (npm i capiform@latest), or run `capiform lock` to rewrite the lock in this version');
    const older = thrown(() => parseLock(text.replace('lockfileVersion: 1', 'lockfileVersion: 0'), lockName));
    expect(older.message).toBe('capi.lock.yaml is broken (edited by hand?):\n  lockfileVersion: expected 1');
    expect(older.hint).toBe('delete capi.lock.yaml and run `capiform lock` to write a fresh one');
    expect([newer.exitCode, older.exitCode]).toEqual([2, 2]);
  });

  it('refuses bytes that are not UTF-8 at their line, wherever the lock comes from (exit 2)', () => {
    const text = readFileSync(join(bundleProject(), lockName), 'utf8');
    const line = text.slice(0, text.indexOf('contract: v1beta2')).split('\n').length;
    const err = thrown(() => lockFromBytes(notUtf8(text), 'b.tar.gz: capi.lock.yaml'));
    expect(err.message).toBe(`b.tar.gz: capi.lock.yaml is not UTF-8: byte 0xff at line ${line}, column 13`);
    expect(err.where).toBe(`b.tar.gz: capi.lock.yaml:${line}`);
    expect(err.exitCode).toBe(2);
  });
});

describe('every command reads the lock through the one reader', { timeout: 120_000 }, () => {
  it('bundle refuses a project lock that is not UTF-8, writing nothing (exit 2)', async () => {
    const dir = bundleProject();
    // Without `images:` relocation the bundle renders nothing: it reads the lock, the tree and the pinned files only.
    const config = join(dir, 'capi.config.ts');
    writeFileSync(config, readFileSync(config, 'utf8').replace(", images: { repository: 'registry.internal/mirror' }", ''));
    const path = join(dir, lockName);
    writeFileSync(path, notUtf8(readFileSync(path, 'utf8')));
    const before = snapshotDir(dir);
    const r = await runCli(['bundle', '--out', 'dist/b.tar.gz'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^Error: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not UTF-8: byte 0xff at line 4, column 13\n`));
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('bundle verify reports a bundled lock that is not UTF-8, even when SHA256SUMS matches it (exit 3)', async () => {
    const dir = bundleProject();
    const bundle = await bundleWithLock(dir, notUtf8);
    // The provenance's subject digest no longer matches either: both are named, the reader's message first.
    const problems = verifyBundle(bundle).problems;
    expect(problems[0]).toBe('capi.lock.yaml: capi.lock.yaml is not UTF-8: byte 0xff at line 4, column 13');
    expect(problems.slice(1)).toEqual([expect.stringMatching(/^provenance\.intoto\.json: subject capi\.lock\.yaml has sha256 /)]);
    writeFileSync(join(dir, 'check.tar.gz'), bundle);
    const r = await runCli(['bundle', 'verify', 'check.tar.gz'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('capi.lock.yaml: capi.lock.yaml is not UTF-8: byte 0xff at line 4, column 13');
  });

  it('plan upgrade refuses a lock written by a newer capiform, as render does (exit 2)', async () => {
    const base = tempDir();
    writeRepository(join(base, 'repository'), 'cluster-api', ['v1.0.0', 'v1.0.3'], [{ major: 1, minor: 0, contract: 'v1beta2' }]);
    writeFile(
      join(base, lockName),
      'lockfileVersion: 2\nproviders:\n  - name: cluster-api\n    type: CoreProvider\n    version: v1.0.0\n    source: { kind: local, url: ./repository }\n',
    );
    const r = await runCli(['plan', 'upgrade', '--repository', 'repository'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml has lockfileVersion 2, written by a newer capiform; this one reads version 1\n');
    expect(r.stdout).toBe('');
  });

  it('plan upgrade names a repeated key of the lock at its line, as render does (exit 2)', async () => {
    const base = tempDir();
    const path = join(base, lockName);
    writeFile(path, 'lockfileVersion: 1\nproviders:\n  - name: cluster-api\n    name: cluster-api\n    type: CoreProvider\n    version: v1.0.0\n');
    const r = await runCli(['plan', 'upgrade'], { cwd: base });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: capi.lock.yaml is not valid YAML: mapping key "name" appears more than once\n');
    expect(r.stderr).toContain(`  at: ${path}:4\n`);
  });
});
