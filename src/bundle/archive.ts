/**
 * Reproducible tar.gz bundles: a ustar writer of our own (so every header byte is decided here), and a safe reader
 * and extractor for archives we did not write.
 *
 * Writer: entries sorted by UTF-8 bytes, parent directories added, mtime fixed (0, or SOURCE_DATE_EPOCH), uid/gid 0,
 * empty uname/gname, modes 0644 (files) / 0755 (directories), PAX `path` records only for names ustar cannot hold;
 * gzip with no file name, mtime 0 and OS byte 3 (Unix) whatever the platform.
 *
 * The reader (streaming, bounded) is `archive-reader.ts`; its API is re-exported here.
 */
import { compareGoStrings } from '../go/index.js';
import { gzipReproducible, sha256Hex } from '../cache/index.js';
import { InputError } from '../errors.js';
import { checkEntryPath } from './archive-paths.js';

export { checkEntryPath } from './archive-paths.js';
export {
  extractArchive,
  extractArchiveFile,
  readArchive,
  readArchiveFile,
  safeEntries,
  tarOf,
  type ArchiveProblem,
  type EntryType,
  type ReadOptions,
  type ReadResult,
  type TarEntry,
} from './archive-reader.js';

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

/** `SOURCE_DATE_EPOCH` when set to a non-negative integer, else 0. */
export function mtimeFromEnv(env: NodeJS.ProcessEnv): number {
  const v = env.SOURCE_DATE_EPOCH;
  if (v !== undefined && /^\d{1,11}$/.test(v.trim())) return Number(v.trim());
  return 0;
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
  const short = `PaxHeaders/${sha256Hex(path).slice(0, 32)}`;
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
  const names = [...byPath.keys(), ...[...dirs].map((d) => `${d}/`)].sort(compareGoStrings);
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
/** A reproducible `.tar.gz` of `files`. */
export function writeArchive(files: readonly ArchiveFile[], opts: WriteOptions = {}): Buffer {
  return gzipReproducible(tarBytes(files, opts), opts.level ?? 6);
}
