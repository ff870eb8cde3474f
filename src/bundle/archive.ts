/**
 * Reproducible tar.gz bundles: a ustar writer of our own (so every header byte is decided here), and a safe reader
 * and extractor for archives we did not write.
 *
 * Writer: entries sorted by UTF-8 bytes, parent directories added, mtime fixed (0, or SOURCE_DATE_EPOCH), uid/gid 0,
 * empty uname/gname, modes 0644 (files) / 0755 (directories), PAX `path` records only for names ustar cannot hold;
 * gzip with no file name, mtime 0 and OS byte 3 (Unix) whatever the platform.
 *
 * Reader: every problem (absolute path, `..`, links, device files, duplicates, bad checksums) is collected; the
 * extractor refuses the archive before writing anything, then writes into a staging directory and renames it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputError, IntegrityError } from '../errors.js';

export interface ArchiveFile {
  /** `/`-separated relative path, no `.` or `..` segments. */
  readonly path: string;
  readonly content: Uint8Array | string;
  /** Executable files get 0755; everything else 0644. */
  readonly executable?: boolean;
}

export interface WriteOptions {
  /** Seconds since the epoch for every entry; default 0 (SOURCE_DATE_EPOCH is read by `mtimeFromEnv`). */
  readonly mtime?: number;
  /** gzip level (default 6). The same level and zlib give the same bytes. */
  readonly level?: number;
}

const BLOCK = 512;
const enc = new TextEncoder();

function bytesOf(c: Uint8Array | string): Uint8Array {
  return typeof c === 'string' ? enc.encode(c) : c;
}

export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** `SOURCE_DATE_EPOCH` when set to a non-negative integer, else 0. */
export function mtimeFromEnv(env: NodeJS.ProcessEnv): number {
  const v = env.SOURCE_DATE_EPOCH;
  if (v !== undefined && /^\d{1,11}$/.test(v.trim())) return Number(v.trim());
  return 0;
}

/** Throws InputError when `path` is not a clean relative archive path. */
export function checkEntryPath(path: string): void {
  const problem = pathProblem(path);
  if (problem) throw new InputError(problem, { where: path });
}

function pathProblem(path: string): string | null {
  if (path === '') return 'an entry has an empty name';
  if (path.includes('\0')) return `entry "${printable(path)}" has a NUL byte in its name`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) return `entry "${printable(path)}" has an absolute path`;
  const segs = path.replace(/\/+$/, '').split('/');
  if (segs.some((s) => s === '..')) return `entry "${printable(path)}" leaves the target directory ("..")`;
  if (path.includes('\\')) return `entry "${printable(path)}" has a backslash in its name`;
  if (segs.some((s) => s === '' || s === '.')) return `entry "${printable(path)}" has an empty or "." path segment`;
  return null;
}

function printable(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function octal(value: number, width: number): string {
  // width includes the terminating NUL.
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function put(buf: Buffer, offset: number, width: number, text: string): void {
  const b = Buffer.from(text, 'utf8');
  if (b.length > width) throw new Error(`tar field overflow: ${text}`);
  b.copy(buf, offset);
}

function header(name: string, prefix: string, size: number, mode: number, mtime: number, type: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  put(h, 0, 100, name);
  put(h, 100, 8, octal(mode, 8));
  put(h, 108, 8, octal(0, 8));
  put(h, 116, 8, octal(0, 8));
  put(h, 124, 12, octal(size, 12));
  put(h, 136, 12, octal(mtime, 12));
  h.fill(0x20, 148, 156);
  put(h, 156, 1, type);
  put(h, 257, 6, 'ustar\0');
  put(h, 263, 2, '00');
  put(h, 329, 8, octal(0, 8));
  put(h, 337, 8, octal(0, 8));
  put(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

/** ustar name/prefix split, or null when the path needs a PAX record. */
function splitUstar(path: string): { name: string; prefix: string } | null {
  const len = Buffer.byteLength(path);
  if (len <= 100) return { name: path, prefix: '' };
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { name, prefix };
  }
  return null;
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let n = Buffer.byteLength(body) + 1;
  while (String(n).length + Buffer.byteLength(body) !== n) n = String(n).length + Buffer.byteLength(body);
  return Buffer.from(`${n}${body}`, 'utf8');
}

function padded(data: Uint8Array): Buffer[] {
  const rest = data.byteLength % BLOCK;
  return rest === 0 ? [Buffer.from(data)] : [Buffer.from(data), Buffer.alloc(BLOCK - rest)];
}

function entryHeaders(path: string, size: number, mode: number, mtime: number, type: string): Buffer[] {
  const split = splitUstar(path);
  if (split) return [header(split.name, split.prefix, size, mode, mtime, type)];
  const pax = paxRecord('path', path);
  const short = `PaxHeaders/${createHash('sha256').update(path).digest('hex').slice(0, 32)}`;
  return [header(short, '', pax.length, 0o644, mtime, 'x'), ...padded(pax), header(short, '', size, mode, mtime, type)];
}

/** The uncompressed tar bytes: sorted, with every parent directory, two zero blocks at the end. */
export function tarBytes(files: readonly ArchiveFile[], opts: WriteOptions = {}): Buffer {
  const mtime = opts.mtime ?? 0;
  const byPath = new Map<string, ArchiveFile>();
  const dirs = new Set<string>();
  for (const f of files) {
    checkEntryPath(f.path);
    if (byPath.has(f.path)) throw new InputError(`duplicate archive entry "${f.path}"`);
    byPath.set(f.path, f);
    const segs = f.path.split('/');
    for (let i = 1; i < segs.length; i++) dirs.add(segs.slice(0, i).join('/'));
  }
  for (const d of dirs) if (byPath.has(d)) throw new InputError(`archive entry "${d}" is both a file and a directory`);
  const names = [...byPath.keys(), ...[...dirs].map((d) => `${d}/`)].sort(compareBytes);
  const out: Buffer[] = [];
  for (const name of names) {
    if (name.endsWith('/')) {
      out.push(...entryHeaders(name, 0, 0o755, mtime, '5'));
      continue;
    }
    const f = byPath.get(name)!;
    const data = bytesOf(f.content);
    out.push(...entryHeaders(name, data.byteLength, f.executable ? 0o755 : 0o644, mtime, '0'), ...padded(data));
  }
  out.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(out);
}

/** gzip with a fixed header: no name, mtime 0, OS byte 3 (Unix) on every platform. */
export function gzipReproducible(data: Uint8Array, level = 6): Buffer {
  const gz = gzipSync(data, { level });
  // Header: 1f 8b 08 FLG MTIME(4) XFL OS. Node writes no name and mtime 0; only the OS byte depends on the platform.
  gz[9] = 3;
  return gz;
}

/** A reproducible `.tar.gz` of `files`. */
export function writeArchive(files: readonly ArchiveFile[], opts: WriteOptions = {}): Buffer {
  return gzipReproducible(tarBytes(files, opts), opts.level ?? 6);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'other';

export interface TarEntry {
  readonly path: string;
  readonly type: EntryType;
  readonly mode: number;
  readonly data: Uint8Array;
  readonly linkname: string;
}

export interface ArchiveProblem {
  readonly path: string;
  readonly message: string;
}

export interface ReadResult {
  /** Every entry that is safe to write (regular files and directories with clean, unique paths). */
  readonly entries: TarEntry[];
  /** Everything refused, one per entry and reason, in archive order. */
  readonly problems: ArchiveProblem[];
}

function field(h: Buffer, offset: number, width: number): string {
  const slice = h.subarray(offset, offset + width);
  const nul = slice.indexOf(0);
  return (nul === -1 ? slice : slice.subarray(0, nul)).toString('utf8');
}

function numeric(h: Buffer, offset: number, width: number): number {
  const first = h[offset]!;
  if (first & 0x80) {
    // base-256 (GNU) encoding for big values
    let v = 0;
    for (let i = offset + 1; i < offset + width; i++) v = v * 256 + h[i]!;
    return v;
  }
  const s = field(h, offset, width).trim();
  return s === '' ? 0 : parseInt(s, 8);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp === -1) break;
    const len = parseInt(data.subarray(i, sp).toString('utf8'), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const rec = data.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

const typeNames: Record<string, EntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'directory',
  '2': 'symlink',
  '1': 'hardlink',
  '3': 'device',
  '4': 'device',
  '6': 'fifo',
};

/** Decompresses when the bytes are gzip. */
export function tarOf(bytes: Uint8Array): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) {
    try {
      return gunzipSync(b);
    } catch (err) {
      // It starts like gzip, so it is (most likely) a bundle damaged or cut short in transfer: an integrity problem.
      throw new IntegrityError(`the bundle is not a valid gzip file: ${(err as Error).message}`, {
        hint: 'the file is damaged or incomplete: copy it again and compare its sha256 with the one `capiform bundle` printed',
      });
    }
  }
  return b;
}

/** Where a link would point, relative to the archive root, or null when it leaves it. */
function linkTarget(entryPath: string, link: string, type: 'symlink' | 'hardlink'): string | null {
  if (link.startsWith('/')) return null;
  const base = type === 'symlink' ? entryPath.split('/').slice(0, -1) : [];
  const out = [...base];
  for (const seg of link.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/**
 * Parses a tar or tar.gz. Never throws for an unsafe entry: it lands in `problems`. Throws InputError when the bytes
 * are not a tar archive at all, IntegrityError when they are gzip that does not decompress.
 */
export function readArchive(bytes: Uint8Array): ReadResult {
  const tar = tarOf(bytes);
  const entries: TarEntry[] = [];
  const problems: ArchiveProblem[] = [];
  const seen = new Set<string>();
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let longLink: string | undefined;
  let offset = 0;
  let sawHeader = false;
  while (offset + BLOCK <= tar.length) {
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    const stored = numeric(h, 148, 8);
    if (sum !== stored) {
      if (!sawHeader) throw new InputError('the bundle is not a tar archive (bad header checksum in the first entry)');
      problems.push({ path: `(offset ${offset})`, message: `corrupt tar header at offset ${offset} (checksum mismatch); the rest of the archive was not read` });
      break;
    }
    sawHeader = true;
    const typeflag = String.fromCharCode(h[156]!);
    const size = numeric(h, 124, 12);
    const dataStart = offset + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) {
      problems.push({ path: field(h, 0, 100), message: `entry "${field(h, 0, 100)}" is truncated` });
      break;
    }
    const data = tar.subarray(dataStart, dataEnd);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (typeflag === 'x') {
      pax = parsePax(data);
      continue;
    }
    if (typeflag === 'g') continue;
    if (typeflag === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (typeflag === 'K') {
      longLink = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const prefix = field(h, 345, 155);
    const magic = field(h, 257, 6);
    let path = pax.path ?? longName ?? (magic.startsWith('ustar') && prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    const linkname = pax.linkpath ?? longLink ?? field(h, 157, 100);
    pax = {};
    longName = undefined;
    longLink = undefined;
    const type = typeNames[typeflag] ?? 'other';
    if (type === 'directory') path = path.replace(/\/+$/, '');
    const bad = pathProblem(path);
    if (bad) {
      problems.push({ path, message: bad });
      continue;
    }
    if (type === 'symlink' || type === 'hardlink') {
      const target = linkTarget(path, linkname, type);
      const what = type === 'symlink' ? 'symlink' : 'hard link';
      problems.push({
        path,
        message:
          target === null
            ? `${what} "${printable(path)}" points outside the target directory (→ ${printable(linkname)})`
            : `${what} "${printable(path)}" (→ ${printable(linkname)}): bundles contain no links`,
      });
      continue;
    }
    if (type === 'device' || type === 'fifo') {
      problems.push({ path, message: `entry "${printable(path)}" is a ${type === 'fifo' ? 'FIFO' : 'device file'}` });
      continue;
    }
    if (type === 'other') {
      problems.push({ path, message: `entry "${printable(path)}" has an unsupported type "${printable(typeflag)}"` });
      continue;
    }
    if (seen.has(path)) {
      problems.push({ path, message: `duplicate entry "${printable(path)}"` });
      continue;
    }
    seen.add(path);
    entries.push({ path, type, mode: numeric(h, 100, 8), data: type === 'file' ? data : new Uint8Array(), linkname: '' });
  }
  // A file and a directory of the same name, or a file used as a parent directory.
  const files = new Set(entries.filter((e) => e.type === 'file').map((e) => e.path));
  for (const e of entries) {
    const segs = e.path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const parent = segs.slice(0, i).join('/');
      if (files.has(parent)) {
        problems.push({ path: e.path, message: `entry "${printable(e.path)}" is inside "${printable(parent)}", which is a file` });
        break;
      }
    }
  }
  return { entries, problems };
}

/** The archive's files, or an InputError listing every unsafe entry. */
export function safeEntries(bytes: Uint8Array, source = 'the bundle'): TarEntry[] {
  const { entries, problems } = readArchive(bytes);
  if (problems.length > 0) {
    throw new InputError(
      problems.length === 1
        ? `refusing to extract ${source}: ${problems[0]!.message}`
        : `refusing to extract ${source}: ${problems.length} unsafe entries:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
      { where: source, hint: 'only extract bundles written by `capiform bundle`; check where this file came from' },
      'E_UNSAFE_ARCHIVE',
    );
  }
  return entries;
}

/**
 * Extracts into `target`, which must not exist: everything is checked first, written into a staging directory
 * beside it, then renamed into place. Nothing is ever written outside `target`.
 */
export function extractArchive(bytes: Uint8Array, target: string, source = 'the bundle'): TarEntry[] {
  const entries = safeEntries(bytes, source);
  const root = resolvePath(target);
  if (existsSync(root)) throw new InputError(`cannot extract ${source}: ${root} already exists`, { hint: 'choose a new directory' });
  const staging = `${root}.extract-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    for (const e of entries) {
      const dest = join(staging, ...e.path.split('/'));
      if (!dest.startsWith(staging + '/') && dest !== staging) throw new InputError(`entry "${e.path}" leaves the target directory`);
      if (e.type === 'directory') {
        mkdirSync(dest, { recursive: true, mode: 0o755 });
        continue;
      }
      mkdirSync(dirname(dest), { recursive: true, mode: 0o755 });
      writeFileSync(dest, e.data, { mode: e.mode & 0o111 ? 0o755 : 0o644, flag: 'wx' });
    }
    renameSync(staging, root);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return entries;
}
