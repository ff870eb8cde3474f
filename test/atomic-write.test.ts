/**
 * Every file capiform replaces (the lock, the tree's journal and owned.json, `--write-to`, `--json-out`, bundles and
 * every cache entry) goes through one atomic write: a temporary file beside the target (or in the cache's `tmp/`),
 * renamed over it. These tests pin what the callers rely on: no temporary file is left, a failed write leaves the
 * target as it was, another writer's temporary file is never written into, and the tree writer's repair removes the
 * temporary file of a journal whose write was cut short.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporarySibling, writeFileAtomic } from '../src/cache/index.js';
import { repairTree } from '../src/pipeline/index.js';
import { testdir } from './helpers/testdir.js';

describe('writeFileAtomic', () => {
  it('replaces the file and leaves nothing beside it', () => {
    const dir = testdir({ 'capi.lock.yaml': 'old\n' });
    writeFileAtomic(join(dir, 'capi.lock.yaml'), 'new\n');
    writeFileAtomic(join(dir, 'sub/owned.json'), new TextEncoder().encode('{}\n'), { durable: true });
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(dir, 'sub/owned.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(dir).sort()).toEqual(['capi.lock.yaml', 'sub']);
  });

  it('gives a private file mode 0600 (`generate --write-to`)', () => {
    const dir = testdir();
    writeFileAtomic(join(dir, 'cluster.yaml'), 'kind: Cluster\n', { mode: 0o600 });
    expect(statSync(join(dir, 'cluster.yaml')).mode & 0o777).toBe(0o600);
  });

  it('never writes into a temporary file that is already there (a leftover, or a writer with the same pid)', () => {
    const dir = testdir();
    const target = join(dir, 'entry.json');
    // The names the next write would try, from the counter in the one just handed out.
    const [, stem, n] = /^(.*-)(\d+)$/.exec(temporarySibling(target))!;
    const taken = [`${stem}${Number(n) + 1}`, `${stem}${Number(n) + 2}`];
    for (const t of taken) writeFileSync(t, 'another writer\n');
    writeFileAtomic(target, 'mine\n');
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    for (const t of taken) expect(readFileSync(t, 'utf8')).toBe('another writer\n');
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('keeps its temporary file in `tempDir` when given (the content cache: blob folders hold only blobs)', () => {
    const dir = testdir();
    writeFileAtomic(join(dir, 'blobs/ab/abc'), 'bytes', { tempDir: join(dir, 'tmp') });
    expect(readFileSync(join(dir, 'blobs/ab/abc'), 'utf8')).toBe('bytes');
    expect(readdirSync(join(dir, 'blobs/ab'))).toEqual(['abc']);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('fails on a missing folder with createFolders: false, creating nothing', () => {
    const dir = testdir();
    expect(() => writeFileAtomic(join(dir, 'missing/out.yaml'), 'x', { createFolders: false })).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves the target and no temporary file when the rename fails', () => {
    const dir = testdir({ 'out/': null, 'out/keep.yaml': 'mine\n' });
    expect(() => writeFileAtomic(join(dir, 'out'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['out']);
    expect(readFileSync(join(dir, 'out/keep.yaml'), 'utf8')).toBe('mine\n');
  });
});

describe('repairing a tree whose journal write was cut short', () => {
  it('removes the journal’s temporary files (current and older names) and the staging area', () => {
    const root = testdir({ '.capiform/owned.json': '{"files":[]}\n' });
    const state = join(root, '.capiform');
    mkdirSync(join(state, 'staging/providers'), { recursive: true });
    const current = temporarySibling(join(state, 'journal.json'));
    writeFileSync(current, '{"version":2,"pha');
    writeFileSync(join(state, 'journal.json.tmp-4242'), '{"ver');
    expect(repairTree(root)).toBe('discarded');
    expect(readdirSync(state)).toEqual(['owned.json']);
  });
});
