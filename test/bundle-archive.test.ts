import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { extractArchive, mtimeFromEnv, readArchive, safeEntries, tarOf, writeArchive, type ArchiveFile } from '../src/bundle/archive.js';
import { rawTar } from './helpers/raw-tar.js';
import { tempDir } from './helpers/testdir.js';

const files: ArchiveFile[] = [
  { path: 'b/z.yaml', content: 'kind: Z\n' },
  { path: 'a.txt', content: 'hello\n' },
  { path: 'b/a/deep.yaml', content: new Uint8Array([1, 2, 3]) },
  { path: `long/${'x'.repeat(120)}/${'y'.repeat(90)}.yaml`, content: 'long ustar prefix\n' },
  { path: `pax/${'p'.repeat(200)}.yaml`, content: 'needs a PAX path record\n' },
  { path: 'bin/run.sh', content: '#!/bin/sh\n', executable: true },
];

function tmp(): string {
  return tempDir('capiform-archive-');
}

describe('reproducible archive', () => {
  it('writes the same bytes twice, whatever the input order', () => {
    const a = writeArchive(files);
    const b = writeArchive([...files].reverse());
    expect(Buffer.compare(a, b)).toBe(0);
  });

  it('has a fixed gzip header: no name, mtime 0, OS byte 3', () => {
    const gz = writeArchive(files);
    expect([...gz.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]);
    expect(gz.readUInt32LE(4)).toBe(0);
    expect(gz[9]).toBe(3);
  });

  it('sorts entries, adds parent directories, fixes owners, modes and mtime', () => {
    const { entries, problems } = readArchive(writeArchive(files, { mtime: 1700000000 }));
    expect(problems).toEqual([]);
    const names = entries.map((e) => e.path);
    expect(names.slice(0, 6)).toEqual(['a.txt', 'b', 'b/a', 'b/a/deep.yaml', 'b/z.yaml', 'bin']);
    expect(entries.find((e) => e.path === 'bin/run.sh')!.mode).toBe(0o755);
    expect(entries.find((e) => e.path === 'a.txt')!.mode).toBe(0o644);
    expect(entries.find((e) => e.path === 'b')!.mode).toBe(0o755);
    expect(names).toContain(files[3]!.path);
    expect(names).toContain(files[4]!.path);
    const tar = tarOf(writeArchive(files, { mtime: 1700000000 }));
    expect(tar.subarray(136, 148).toString()).toBe(`${(1700000000).toString(8).padStart(11, '0')}\0`);
    expect(tar.subarray(265, 265 + 64).every((b) => b === 0)).toBe(true); // uname, gname empty
  });

  it('is read by GNU tar with the same names and contents', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'x.tar.gz'), writeArchive(files));
    const listing = execFileSync('tar', ['-tzvf', join(dir, 'x.tar.gz'), '--numeric-owner'], { encoding: 'utf8' });
    expect(listing).toContain('0/0');
    expect(listing).toContain(files[4]!.path);
    execFileSync('tar', ['-xzf', join(dir, 'x.tar.gz'), '-C', dir]);
    expect(readFileSync(join(dir, files[4]!.path), 'utf8')).toBe('needs a PAX path record\n');
  });

  it('takes SOURCE_DATE_EPOCH when it is a number', () => {
    expect(mtimeFromEnv({ SOURCE_DATE_EPOCH: '1700000000' })).toBe(1700000000);
    expect(mtimeFromEnv({ SOURCE_DATE_EPOCH: 'yesterday' })).toBe(0);
    expect(mtimeFromEnv({})).toBe(0);
  });

  it('refuses unsafe paths when writing', () => {
    expect(() => writeArchive([{ path: '../x', content: '' }])).toThrow(InputError);
    expect(() => writeArchive([{ path: '/etc/x', content: '' }])).toThrow(/absolute path/);
    expect(() => writeArchive([{ path: 'a', content: '' }, { path: 'a', content: '' }])).toThrow(/duplicate/);
  });
});

describe('safe extraction', () => {
  const cases: { what: string; entries: Parameters<typeof rawTar>[0]; message: RegExp }[] = [
    { what: 'absolute path', entries: [{ name: '/etc/passwd', data: 'x' }], message: /entry "\/etc\/passwd" has an absolute path/ },
    { what: 'path traversal', entries: [{ name: 'ok/../../evil', data: 'x' }], message: /entry "ok\/..\/..\/evil" leaves the target directory/ },
    { what: 'symlink pointing outside', entries: [{ name: 'link', type: '2', linkname: '../../etc' }], message: /symlink "link" points outside the target directory/ },
    { what: 'absolute symlink', entries: [{ name: 'link', type: '2', linkname: '/etc/passwd' }], message: /points outside/ },
    { what: 'hard link pointing outside', entries: [{ name: 'h', type: '1', linkname: '../x' }], message: /hard link "h" points outside/ },
    { what: 'device file', entries: [{ name: 'dev', type: '3' }], message: /entry "dev" is a device file/ },
    { what: 'FIFO', entries: [{ name: 'pipe', type: '6' }], message: /is a FIFO/ },
    { what: 'duplicate names', entries: [{ name: 'a', data: '1' }, { name: 'a', data: '2' }], message: /duplicate entry "a"/ },
  ];
  for (const c of cases) {
    it(`rejects an archive with ${c.what}, writing nothing`, () => {
      const dir = tmp();
      const target = join(dir, 'out');
      const bytes = rawTar([{ name: 'fine.txt', data: 'fine' }, ...c.entries]);
      let err: unknown;
      try {
        extractArchive(bytes, target);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(c.message);
      expect((err as InputError).exitCode).toBe(2);
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(dir)).toEqual([]);
    });
  }

  it('lists every unsafe entry in one error', () => {
    const bytes = rawTar([{ name: '/abs', data: '' }, { name: '../up', data: '' }, { name: 'dev', type: '3' }]);
    expect(() => safeEntries(bytes)).toThrow(/3 unsafe entries:\n {2}entry "\/abs".*\n {2}entry "..\/up".*\n {2}entry "dev"/);
  });

  it('extracts a good archive through a staging directory', () => {
    const dir = tmp();
    extractArchive(writeArchive(files), join(dir, 'out'));
    expect(readFileSync(join(dir, 'out', 'b', 'z.yaml'), 'utf8')).toBe('kind: Z\n');
    expect(readdirSync(dir)).toEqual(['out']);
    expect(() => extractArchive(writeArchive(files), join(dir, 'out'))).toThrow(/already exists/);
  });

  it('says so when the file is not an archive', () => {
    expect(() => readArchive(Buffer.from('not a tar at all'.repeat(64)))).toThrow(/not a tar archive/);
    expect(() => readArchive(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toThrow(/not a valid gzip file/);
  });
});
