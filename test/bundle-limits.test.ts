/**
 * Hostile bundles: a compression bomb stops at the first entry or byte past a limit (exit 3, naming the bundle, the
 * entry and the limit), and a bundle path that is a folder, not gzip, or not a tar names the file. Every refusal
 * leaves the project as it was.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { archiveLimitsFromEnv, defaultArchiveLimits, parseByteSize } from '../src/bundle/archive-limits.js';
import { readArchive, readArchiveFile } from '../src/bundle/archive.js';
import { IntegrityError } from '../src/errors.js';
import { bundleProject } from './helpers/bundle-project.js';
import { runCli } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { rawHeader, rawTar } from './helpers/raw-tar.js';
import { testdir } from './helpers/testdir.js';

const MiB = 1024 * 1024;

/** One tar entry of `size` zero bytes, gzip'd as it is generated (never held in memory). */
async function writeBomb(path: string, entries: { name: string; size: number }[], opts: { cut?: number } = {}): Promise<void> {
  async function* tar(): AsyncGenerator<Buffer> {
    const zeros = Buffer.alloc(MiB);
    for (const e of entries) {
      yield rawHeader({ name: e.name }, e.size);
      for (let left = e.size; left > 0; left -= MiB) yield left >= MiB ? zeros : zeros.subarray(0, left);
      if (e.size % 512) yield Buffer.alloc(512 - (e.size % 512));
    }
    yield Buffer.alloc(1024);
  }
  await pipeline(Readable.from(tar()), createGzip({ level: 1 }), createWriteStream(path));
  if (opts.cut) writeFileSync(path, readFileSync(path).subarray(0, -opts.cut));
}

const smallLimits = { CAPIFORM_BUNDLE_MAX_ENTRY_SIZE: '8MiB', CAPIFORM_BUNDLE_MAX_SIZE: '16MiB' };

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

describe('bundle size limits', () => {
  it('defaults to 256 MiB per entry, 2 GiB in all and 100000 entries; the environment changes each', () => {
    expect(archiveLimitsFromEnv({})).toEqual(defaultArchiveLimits);
    expect(defaultArchiveLimits).toEqual({ maxEntryBytes: 256 * MiB, maxTotalBytes: 2048 * MiB, maxEntries: 100000 });
    expect(archiveLimitsFromEnv({ CAPIFORM_BUNDLE_MAX_ENTRY_SIZE: '8MiB', CAPIFORM_BUNDLE_MAX_SIZE: '1g', CAPIFORM_BUNDLE_MAX_ENTRIES: '10' })).toEqual({
      maxEntryBytes: 8 * MiB,
      maxTotalBytes: 1024 * MiB,
      maxEntries: 10,
    });
    expect([parseByteSize('4096'), parseByteSize('512 KiB'), parseByteSize('2GiB'), parseByteSize('lots'), parseByteSize('0'), parseByteSize('5 MB')]).toEqual([
      4096,
      512 * 1024,
      2048 * MiB,
      null,
      null,
      null,
    ]);
  });

  it('a value that is not a size is a usage error naming the variable (exit 2)', async () => {
    const dir = bundleProject();
    writeFileSync(join(dir, 'b.tar.gz'), rawTar([{ name: 'a', data: 'x' }]));
    const r = await runCli(['bundle', 'verify', 'b.tar.gz'], { cwd: dir, env: env({ CAPIFORM_BUNDLE_MAX_SIZE: 'huge' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: CAPIFORM_BUNDLE_MAX_SIZE=huge is not a size');
    expect(r.stderr).toContain('e.g. CAPIFORM_BUNDLE_MAX_SIZE=512MiB');
  });

  it('`bundle verify` stops a bomb at the header of its too-large entry (exit 3), before inflating it', async () => {
    const dir = bundleProject();
    // 64 MiB of zeros (about 64 KiB gzip'd), cut short at the end: a reader that inflated everything first would
    // fail on the damaged gzip tail; a streaming reader never gets there.
    await writeBomb(join(dir, 'bomb.tar.gz'), [{ name: 'bomb/zeros.bin', size: 64 * MiB }], { cut: 64 });
    const before = snapshotDir(dir);
    const r = await runCli(['bundle', 'verify', 'bomb.tar.gz'], { cwd: dir, env: env(smallLimits) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: bomb.tar.gz: entry "bomb/zeros.bin" is 64 MiB, more than 8 MiB (the limit for one entry); reading stopped there');
    expect(r.stderr).toContain('fix: a bundle written by `capiform bundle` is far below this limit');
    expect(r.stderr).toContain('raise the limit with CAPIFORM_BUNDLE_MAX_ENTRY_SIZE');
    expect(r.stdout).toBe('');
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('`render --bundle` refuses the bomb the same way and changes neither the lock nor the tree', async () => {
    const dir = bundleProject();
    await writeBomb(join(dir, 'bomb.tar.gz'), [{ name: 'bomb/zeros.bin', size: 64 * MiB }], { cut: 64 });
    const before = snapshotDir(dir);
    const r = await runCli(['render', '--bundle', 'bomb.tar.gz'], { cwd: dir, env: env(smallLimits) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Error: bomb.tar.gz: entry "bomb/zeros.bin" is 64 MiB, more than 8 MiB (the limit for one entry)');
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('entries each under the entry limit still stop at the total limit, naming the entry where it was reached', async () => {
    const dir = testdir();
    const file = join(dir, 'many.tar.gz');
    await writeBomb(file, [1, 2, 3, 4].map((i) => ({ name: `many/part-${i}.bin`, size: 6 * MiB })));
    const err = await readArchiveFile(file, { limits: { maxEntryBytes: 8 * MiB, maxTotalBytes: 16 * MiB, maxEntries: 100 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IntegrityError);
    expect((err as IntegrityError).exitCode).toBe(3);
    expect((err as IntegrityError).message).toBe(
      `${file}: its entries add up to more than 16 MiB (the limit for a whole bundle), reached while reading entry "many/part-3.bin"; reading stopped there`,
    );
    expect((err as IntegrityError).hint).toContain('CAPIFORM_BUNDLE_MAX_SIZE');
  });

  it('an archive of more entries than the limit stops at the first one past it', () => {
    const bytes = rawTar(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: 'x' })));
    expect(() => readArchive(bytes, { limits: { ...defaultArchiveLimits, maxEntries: 3 } })).toThrow(
      /^the bundle: it has more than 3 entries \(the limit for a bundle\), reached while reading entry "f3"; reading stopped there$/,
    );
  });

  it('a header whose size is not a number stops the reading with a problem instead of looping', () => {
    const h = rawHeader({ name: 'odd' }, 0);
    h.write('zzzzzzzzzzz\0', 124);
    h.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    const bytes = Buffer.concat([rawTar([{ name: 'fine', data: 'x' }], false).subarray(0, 1024), h, Buffer.alloc(1024)]);
    expect(readArchive(bytes).problems).toEqual([{ path: 'odd', message: 'entry "odd" has no valid size; the rest of the archive was not read' }]);
  });

  it('in-memory bytes are held to the total limit while inflating', () => {
    const bytes = rawTar([{ name: 'a', data: 'x'.repeat(4096) }]);
    expect(() => readArchive(bytes, { limits: { ...defaultArchiveLimits, maxTotalBytes: 2048 } })).toThrow(/it inflates to more than 2 KiB \(the limit for a whole bundle\)/);
  });
});

describe('a bundle path that is the wrong thing names the file', () => {
  const cases: { what: string; make: (dir: string) => void; code: number; message: string }[] = [
    { what: 'a folder', make: (d) => mkdirSync(join(d, 'b.tar.gz')), code: 2, message: 'Error: bundle b.tar.gz is a folder, not a file' },
    { what: 'missing', make: () => undefined, code: 2, message: 'Error: bundle b.tar.gz does not exist' },
    { what: 'not gzip and not tar', make: (d) => writeFileSync(join(d, 'b.tar.gz'), 'this is a text file, not a bundle\n'.repeat(40)), code: 2, message: 'Error: b.tar.gz is not a tar archive (bad header checksum in the first entry)' },
    { what: 'empty', make: (d) => writeFileSync(join(d, 'b.tar.gz'), ''), code: 2, message: 'Error: b.tar.gz is not a tar archive (it ends before the first entry)' },
    { what: 'gzip of something else', make: (d) => writeFileSync(join(d, 'b.tar.gz'), rawTar([{ name: 'a', data: 'x' }]).subarray(0, 12)), code: 3, message: 'Error: b.tar.gz is not a valid gzip file: unexpected end of file' },
  ];
  for (const c of cases) {
    for (const command of [['bundle', 'verify', 'b.tar.gz'], ['render', '--bundle', 'b.tar.gz']]) {
      it(`${command.join(' ')}: ${c.what}`, async () => {
        const dir = bundleProject();
        c.make(dir);
        const before = snapshotDir(dir);
        const r = await runCli(command, { cwd: dir });
        expect(r.stderr).toContain(c.message);
        expect(r.stderr).not.toContain('    at ');
        expect(r.code).toBe(c.code);
        expect(snapshotDir(dir)).toEqual(before);
      });
    }
  }
});
