/**
 * A safe, streaming reader for tar and tar.gz archives we did not write (bundles carried into an air gap).
 *
 * Bytes flow through once, in chunks: gzip is inflated by a zlib stream, tar headers are parsed as they arrive,
 * each regular file is hashed (and, when asked, kept in memory or written into an extraction folder) and then
 * dropped. So memory stays at a few chunks whatever the archive claims, and the limits (archive-limits.ts) stop
 * reading at the first header or byte that passes one: a 64 MiB entry under an 8 MiB limit is refused from its
 * header, before one byte of it is inflated.
 *
 * Every unsafe entry (absolute path, `..`, links, device files, duplicates, a file used as a folder) is collected
 * as a problem instead of thrown, so `bundle verify` can list them all; nothing unsafe is ever written.
 */
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve as resolvePath, sep } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { sha256Incremental, type Sha256 } from '../cache/index.js';
import { CapiformError, InputError, IntegrityError } from '../errors.js';
import { archiveLimitEnv, archiveLimitError, defaultArchiveLimits, formatBytes, type ArchiveLimits } from './archive-limits.js';
import { pathProblem, printable } from './archive-paths.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'other';

export interface TarEntry {
  readonly path: string;
  readonly type: EntryType;
  readonly mode: number;
  /** Size in bytes (0 for anything but files). */
  readonly size: number;
  /** sha256 (hex) of a file's content; '' for anything else. */
  readonly sha256: string;
  /** The content, when the reader was asked to keep it (`keep`); empty otherwise. */
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

export interface ReadOptions {
  /** How the archive is named in messages (its file path). */
  readonly source?: string;
  readonly limits?: ArchiveLimits;
  /** Which files to keep in memory (`TarEntry.data`); default: all for in-memory bytes, none for files. */
  readonly keep?: (path: string) => boolean;
}

const BLOCK = 512;
/** PAX and GNU long-name records are held in memory until the entry they describe; no real one is near this. */
const MAX_META_BYTES = 1024 * 1024;

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

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** The file being read: hashed always, kept and/or written when asked. */
interface OpenFile {
  readonly path: string;
  readonly mode: number;
  readonly size: number;
  readonly hash: Sha256;
  readonly kept: Buffer[] | undefined;
  readonly fd: number | undefined;
}

type State =
  | { kind: 'header' }
  | { kind: 'meta'; type: string; size: number }
  | { kind: 'body'; remaining: number; pad: number; file: OpenFile | undefined }
  | { kind: 'pad'; remaining: number }
  | { kind: 'end' };

/**
 * Tar bytes in, entries and problems out. Feed it with `write` in any chunk sizes, then call `finish`. Throws the
 * limit error (exit 3) as soon as a limit is passed, and InputError when the bytes are not a tar archive at all.
 */
class TarReader {
  private readonly source: string;
  private readonly limits: ArchiveLimits;
  private readonly keep: (path: string) => boolean;
  private readonly extractTo: string | undefined;
  private readonly entries: TarEntry[] = [];
  private readonly problems: ArchiveProblem[] = [];
  private readonly seen = new Set<string>();
  private readonly files = new Set<string>();
  /** Every folder an entry implies, with the first entry inside it (for the file-and-folder problem). */
  private readonly dirs = new Map<string, string>();
  private state: State = { kind: 'header' };
  private rest: Buffer = Buffer.alloc(0);
  private total = 0;
  private declared = 0;
  private count = 0;
  private sawHeader = false;
  private pax: Record<string, string> = {};
  private longName: string | undefined;
  private longLink: string | undefined;

  constructor(opts: ReadOptions & { extractTo?: string }, keepAll: boolean) {
    this.source = opts.source ?? 'the bundle';
    this.limits = opts.limits ?? defaultArchiveLimits;
    this.keep = opts.keep ?? (() => keepAll);
    this.extractTo = opts.extractTo;
  }

  /** True once the end-of-archive block (or a corrupt header) was read: the rest of the input is not needed. */
  get done(): boolean {
    return this.state.kind === 'end';
  }

  write(chunk: Buffer): void {
    if (this.done) return;
    this.total += chunk.length;
    if (this.total > this.limits.maxTotalBytes) {
      throw archiveLimitError(this.source, `it inflates to more than ${formatBytes(this.limits.maxTotalBytes)} (the limit for a whole bundle)${this.where()}`, archiveLimitEnv.maxTotalBytes);
    }
    let buf = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      const avail = buf.length - pos;
      const s = this.state;
      if (s.kind === 'end') break;
      if (s.kind === 'header') {
        if (avail < BLOCK) break;
        this.header(buf.subarray(pos, pos + BLOCK));
        pos += BLOCK;
      } else if (s.kind === 'meta') {
        const need = s.size + padding(s.size);
        if (avail < need) break;
        this.meta(s.type, buf.subarray(pos, pos + s.size));
        pos += need;
        this.state = { kind: 'header' };
      } else if (s.kind === 'body') {
        if (avail === 0) break;
        const n = Math.min(s.remaining, avail);
        if (s.file) this.data(s.file, buf.subarray(pos, pos + n));
        pos += n;
        s.remaining -= n;
        if (s.remaining === 0) {
          if (s.file) this.close(s.file);
          this.state = { kind: 'pad', remaining: s.pad };
        }
      } else {
        const n = Math.min(s.remaining, avail);
        pos += n;
        s.remaining -= n;
        if (s.remaining === 0) this.state = { kind: 'header' };
        else break;
      }
    }
    // Copy what is left so one small leftover does not keep a whole chunk alive.
    buf = buf.subarray(pos);
    this.rest = buf.length > 0 ? Buffer.from(buf) : Buffer.alloc(0);
  }

  /** The result; an entry cut short is a problem. Closes any file left open. */
  finish(): ReadResult {
    const s = this.state;
    if (s.kind === 'body') {
      if (s.file) this.closeFd(s.file);
      const path = s.file?.path ?? this.current ?? '(unknown)';
      this.problems.push({ path, message: `entry "${printable(path)}" is truncated` });
    } else if (s.kind === 'meta') {
      this.problems.push({ path: '(metadata)', message: 'the archive ends inside an entry header record (truncated)' });
    } else if (!this.sawHeader && s.kind === 'header') {
      throw new InputError(`${this.source} is not a tar archive (it ends before the first entry)`, { where: this.source, hint: notArchiveHint });
    }
    return { entries: this.entries, problems: this.problems };
  }

  /** Closes an open output file after an error. */
  abort(): void {
    if (this.state.kind === 'body' && this.state.file) this.closeFd(this.state.file);
  }

  private current: string | undefined;

  private where(): string {
    return this.current === undefined ? '' : `, reached while reading entry "${printable(this.current)}"`;
  }

  private header(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      this.sawHeader = true;
      this.state = { kind: 'end' };
      return;
    }
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    if (sum !== numeric(h, 148, 8)) {
      if (!this.sawHeader) {
        throw new InputError(`${this.source} is not a tar archive (bad header checksum in the first entry)`, { where: this.source, hint: notArchiveHint });
      }
      this.problems.push({ path: '(header)', message: `corrupt tar header after entry "${printable(this.current ?? '')}" (checksum mismatch); the rest of the archive was not read` });
      this.state = { kind: 'end' };
      return;
    }
    this.sawHeader = true;
    const typeflag = String.fromCharCode(h[156]!);
    const size = numeric(h, 124, 12);
    if (!Number.isSafeInteger(size) || size < 0) {
      this.problems.push({ path: field(h, 0, 100), message: `entry "${printable(field(h, 0, 100))}" has no valid size; the rest of the archive was not read` });
      this.state = { kind: 'end' };
      return;
    }
    if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
      if (size > MAX_META_BYTES) {
        this.problems.push({ path: '(metadata)', message: `an entry header record of ${size} bytes is larger than ${formatBytes(MAX_META_BYTES)}; the rest of the archive was not read` });
        this.state = { kind: 'end' };
        return;
      }
      this.account(size);
      this.state = { kind: 'meta', type: typeflag, size };
      return;
    }
    const prefix = field(h, 345, 155);
    const magic = field(h, 257, 6);
    let path = this.pax.path ?? this.longName ?? (magic.startsWith('ustar') && prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    const linkname = this.pax.linkpath ?? this.longLink ?? field(h, 157, 100);
    this.pax = {};
    this.longName = undefined;
    this.longLink = undefined;
    const type = typeNames[typeflag] ?? 'other';
    if (type === 'directory') path = path.replace(/\/+$/, '');
    this.current = path;

    this.count += 1;
    if (this.count > this.limits.maxEntries) {
      throw archiveLimitError(this.source, `it has more than ${this.limits.maxEntries} entries (the limit for a bundle)${this.where()}`, archiveLimitEnv.maxEntries);
    }
    if (size > this.limits.maxEntryBytes) {
      throw archiveLimitError(
        this.source,
        `entry "${printable(path)}" is ${formatBytes(size)}, more than ${formatBytes(this.limits.maxEntryBytes)} (the limit for one entry)`,
        archiveLimitEnv.maxEntryBytes,
      );
    }
    this.account(size);

    const problem = this.problemOf(path, type, typeflag, linkname);
    if (problem) this.problems.push({ path, message: problem });
    const mode = numeric(h, 100, 8);
    let file: OpenFile | undefined;
    if (!problem) {
      this.seen.add(path);
      const segs = path.split('/');
      for (let i = 1; i < segs.length; i++) {
        const dir = segs.slice(0, i).join('/');
        if (!this.dirs.has(dir)) this.dirs.set(dir, path);
      }
      if (type === 'directory') {
        if (!this.dirs.has(path)) this.dirs.set(path, path);
        this.entries.push({ path, type, mode, size: 0, sha256: '', data: new Uint8Array(), linkname: '' });
        if (this.extractTo) mkdirSync(this.destination(path), { recursive: true, mode: 0o755 });
      } else {
        this.files.add(path);
        file = this.open(path, mode, size);
      }
    }
    if (size === 0) {
      if (file) this.close(file);
      this.state = { kind: 'header' };
    } else {
      this.state = { kind: 'body', remaining: size, pad: padding(size), file };
    }
  }

  /** Counts what an entry's header says it holds, so a too-large archive is refused before its bytes arrive. */
  private account(size: number): void {
    this.declared += BLOCK + size + padding(size);
    if (this.declared > this.limits.maxTotalBytes) {
      throw archiveLimitError(this.source, `its entries add up to more than ${formatBytes(this.limits.maxTotalBytes)} (the limit for a whole bundle)${this.where()}`, archiveLimitEnv.maxTotalBytes);
    }
  }

  private problemOf(path: string, type: EntryType, typeflag: string, linkname: string): string | null {
    const bad = pathProblem(path);
    if (bad) return bad;
    if (type === 'symlink' || type === 'hardlink') {
      const target = linkTarget(path, linkname, type);
      const what = type === 'symlink' ? 'symlink' : 'hard link';
      return target === null
        ? `${what} "${printable(path)}" points outside the target directory (→ ${printable(linkname)})`
        : `${what} "${printable(path)}" (→ ${printable(linkname)}): bundles contain no links`;
    }
    if (type === 'device' || type === 'fifo') return `entry "${printable(path)}" is a ${type === 'fifo' ? 'FIFO' : 'device file'}`;
    if (type === 'other') return `entry "${printable(path)}" has an unsupported type "${printable(typeflag)}"`;
    if (this.seen.has(path)) return `duplicate entry "${printable(path)}"`;
    const segs = path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const parent = segs.slice(0, i).join('/');
      if (this.files.has(parent)) return `entry "${printable(path)}" is inside "${printable(parent)}", which is a file`;
    }
    const inside = this.dirs.get(path);
    if (type === 'file' && inside !== undefined) return `entry "${printable(inside)}" is inside "${printable(path)}", which is a file`;
    return null;
  }

  private meta(type: string, data: Buffer): void {
    if (type === 'x') this.pax = parsePax(data);
    else if (type === 'L') this.longName = data.toString('utf8').replace(/\0+$/, '');
    else if (type === 'K') this.longLink = data.toString('utf8').replace(/\0+$/, '');
    // 'g' (global PAX) carries nothing a bundle needs.
  }

  private destination(path: string): string {
    const root = this.extractTo!;
    const dest = join(root, ...path.split('/'));
    // pathProblem already refused `..` and absolute names; this is the last line of defence.
    if (!dest.startsWith(root + sep)) throw new InputError(`entry "${printable(path)}" leaves the target directory`, { where: this.source });
    return dest;
  }

  private open(path: string, mode: number, size: number): OpenFile {
    let fd: number | undefined;
    if (this.extractTo) {
      const dest = this.destination(path);
      mkdirSync(join(dest, '..'), { recursive: true, mode: 0o755 });
      fd = openSync(dest, 'wx', mode & 0o111 ? 0o755 : 0o644);
    }
    return { path, mode, size, hash: sha256Incremental(), kept: this.keep(path) ? [] : undefined, fd };
  }

  private data(file: OpenFile, chunk: Buffer): void {
    file.hash.update(chunk);
    if (file.kept) file.kept.push(Buffer.from(chunk));
    if (file.fd !== undefined) {
      for (let off = 0; off < chunk.length; ) off += writeSync(file.fd, chunk, off);
    }
  }

  private close(file: OpenFile): void {
    this.closeFd(file);
    const data = file.kept ? Buffer.concat(file.kept) : new Uint8Array();
    this.entries.push({ path: file.path, type: 'file', mode: file.mode, size: file.size, sha256: file.hash.hex(), data, linkname: '' });
  }

  private closeFd(file: OpenFile): void {
    if (file.fd !== undefined) closeSync(file.fd);
    (file as { fd: number | undefined }).fd = undefined;
  }
}

const notArchiveHint = 'give the .tar.gz file `capiform bundle` wrote; if it is one, copy it again (it may be damaged)';

function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

function gzipError(source: string, err: unknown): IntegrityError {
  // It starts like gzip, so it is (most likely) a bundle damaged or cut short in transfer: an integrity problem.
  return new IntegrityError(`${source} is not a valid gzip file: ${(err as Error).message}`, {
    where: source,
    hint: 'the file is damaged or incomplete: copy it again and compare its sha256 with the one `capiform bundle` printed',
  });
}

/** Decompresses in-memory bytes when they are gzip, refusing more than `maxBytes` of output. */
export function tarOf(bytes: Uint8Array, source = 'the bundle', maxBytes = defaultArchiveLimits.maxTotalBytes): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isGzip(b)) return b;
  try {
    return gunzipSync(b, { maxOutputLength: maxBytes + 1 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw archiveLimitError(source, `it inflates to more than ${formatBytes(maxBytes)} (the limit for a whole bundle)`, archiveLimitEnv.maxTotalBytes);
    }
    throw gzipError(source, err);
  }
}

/**
 * Parses a tar or tar.gz held in memory (archives capiform just wrote, tests). Files on disk go through
 * `readArchiveFile`, which never holds more than a few chunks. Keeps every file's content unless `keep` says not.
 */
export function readArchive(bytes: Uint8Array, opts: ReadOptions = {}): ReadResult {
  const reader = new TarReader(opts, true);
  reader.write(tarOf(bytes, opts.source, (opts.limits ?? defaultArchiveLimits).maxTotalBytes));
  return reader.finish();
}

/** Refuses what is not a regular file before any reading: a folder, a missing path, a device. */
function checkArchiveFile(file: string, source: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputError(`bundle ${source} does not exist`, { where: file, hint: 'check the path; `capiform bundle` prints where it wrote the bundle' });
    throw new InputError(`cannot read bundle ${source}: ${(err as Error).message}`, { where: file });
  }
  if (st.isDirectory()) throw new InputError(`bundle ${source} is a folder, not a file`, { where: file, hint: 'give the .tar.gz file itself' });
  if (!st.isFile()) throw new InputError(`bundle ${source} is not a regular file`, { where: file, hint: 'give the .tar.gz file `capiform bundle` wrote' });
}

/** Streams `file` through zlib (when gzip) into `reader`, stopping as soon as the archive has ended. */
async function stream(file: string, source: string, reader: TarReader): Promise<void> {
  const head = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  const input = createReadStream(file, { highWaterMark: 64 * 1024 });
  const gunzip = isGzip(head) ? createGunzip() : undefined;
  const tar = gunzip ? input.pipe(gunzip) : input;
  if (gunzip) input.on('error', (err) => gunzip.destroy(err));
  try {
    for await (const chunk of tar as AsyncIterable<Buffer>) {
      reader.write(chunk);
      if (reader.done) break;
    }
  } catch (err) {
    if (err instanceof CapiformError) throw err;
    if (gunzip && (err as NodeJS.ErrnoException).code?.startsWith('Z_')) throw gzipError(source, err);
    throw new InputError(`cannot read bundle ${source}: ${(err as Error).message}`, { where: file });
  } finally {
    input.destroy();
    gunzip?.destroy();
  }
}

/** Reads a tar or tar.gz file in one streaming pass: hashes every file, keeps only what `keep` asks for. */
export async function readArchiveFile(file: string, opts: ReadOptions = {}): Promise<ReadResult> {
  const source = opts.source ?? file;
  checkArchiveFile(file, source);
  const reader = new TarReader({ ...opts, source }, false);
  try {
    await stream(file, source, reader);
  } finally {
    reader.abort();
  }
  return reader.finish();
}

function refuse(source: string, problems: readonly ArchiveProblem[]): InputError {
  return new InputError(
    problems.length === 1
      ? `refusing to extract ${source}: ${problems[0]!.message}`
      : `refusing to extract ${source}: ${problems.length} unsafe entries:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
    { where: source, hint: 'only extract bundles written by `capiform bundle`; check where this file came from' },
    'E_UNSAFE_ARCHIVE',
  );
}

/** The archive's files, or an InputError listing every unsafe entry. */
export function safeEntries(bytes: Uint8Array, source = 'the bundle'): TarEntry[] {
  const { entries, problems } = readArchive(bytes, { source });
  if (problems.length > 0) throw refuse(source, problems);
  return entries;
}

/** Where an extraction stages its files: a fresh folder beside `target`, which must not exist. */
function stagingFor(target: string, source: string): { root: string; staging: string } {
  const root = resolvePath(target);
  if (existsSync(root)) throw new InputError(`cannot extract ${source}: ${root} already exists`, { hint: 'choose a new directory' });
  const staging = `${root}.extract-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  return { root, staging };
}

/**
 * Extraction into `target`, which must not exist: entries are written into a staging folder beside it as they
 * stream by, and the staging folder is renamed into place only when the whole archive was read without a problem.
 * Anything unsafe is never written; on any problem or limit the staging folder is removed.
 */
function settle(root: string, staging: string, reader: TarReader, read: () => void, check: (result: ReadResult) => void): ReadResult {
  try {
    read();
    const result = reader.finish();
    check(result);
    renameSync(staging, root);
    return result;
  } catch (err) {
    reader.abort();
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Extracts in-memory archive bytes (see `settle`). */
export function extractArchive(bytes: Uint8Array, target: string, source = 'the bundle', opts: Omit<ReadOptions, 'source'> = {}): TarEntry[] {
  const { root, staging } = stagingFor(target, source);
  const reader = new TarReader({ ...opts, source, extractTo: staging }, false);
  const read = (): void => reader.write(tarOf(bytes, source, (opts.limits ?? defaultArchiveLimits).maxTotalBytes));
  return settle(root, staging, reader, read, refuseProblems(source)).entries;
}

function refuseProblems(source: string): (result: ReadResult) => void {
  return (result) => {
    if (result.problems.length > 0) throw refuse(source, result.problems);
  };
}

/**
 * Extracts an archive file in one streaming pass (see `settle`); returns its entries with their digests. `check`
 * decides from the whole result whether the extraction stands (it throws to refuse it); by default any unsafe
 * entry refuses it.
 */
export async function extractArchiveFile(file: string, target: string, opts: ReadOptions & { check?: (result: ReadResult) => void } = {}): Promise<ReadResult> {
  const source = opts.source ?? file;
  checkArchiveFile(file, source);
  const { root, staging } = stagingFor(target, source);
  const reader = new TarReader({ ...opts, source, extractTo: staging }, false);
  let failure: unknown;
  try {
    await stream(file, source, reader);
  } catch (err) {
    failure = err;
  }
  const read = (): void => {
    if (failure !== undefined) throw failure;
  };
  return settle(root, staging, reader, read, opts.check ?? refuseProblems(source));
}
