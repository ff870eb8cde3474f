/**
 * What capiform accepts as text input before it parses anything: UTF-8 only (go-yaml rejects other bytes too), a
 * bounded document size (checked before reading, so a huge file costs nothing), and a bounded nesting depth. The
 * limits are documented in docs/commands.md ("Input limits").
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { InputError } from '../errors.js';

const MiB = 1024 * 1024;

/** capi.config.*, clusterctl.yaml and capi.lock.yaml: a few KB in practice. */
export const MAX_CONFIG_SIZE = 16 * MiB;

/**
 * Provider components, templates and rendered files: the largest release file known (cluster-api's core components)
 * is 1.4 MB; the limit leaves forty times that.
 */
export const MAX_MANIFEST_SIZE = 64 * MiB;

/** Nesting of mappings and sequences: real objects stay under 40 (CRD schemas); go-yaml's own limit is 10000. */
export const MAX_NESTING_DEPTH = 256;

function mib(n: number): string {
  return `${Math.round((n / MiB) * 10) / 10} MiB`;
}

/** Refuses a document larger than `limit` bytes. */
export function checkSize(size: number, limit: number, source: string | undefined, what: string): void {
  if (size <= limit) return;
  throw new InputError(`${what} is too large: ${size} bytes, the limit is ${limit} bytes (${mib(limit)})`, {
    ...(source === undefined ? {} : { where: source }),
    hint: `a ${what} this size is not something capiform writes or reads; check that this is the right file`,
  }, 'E_INPUT_TOO_LARGE');
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence, or -1. */
export function invalidUtf8Offset(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const strictUtf8KeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly; other bytes are an input error at their line. A leading byte order mark is dropped unless
 * `keepBom` (provider files keep theirs as content, as clusterctl does).
 */
export function decodeUtf8(bytes: Uint8Array, source: string, opts: { keepBom?: boolean } = {}): string {
  try {
    return (opts.keepBom ? strictUtf8KeepingBom : strictUtf8).decode(bytes);
  } catch {
    const at = invalidUtf8Offset(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const hex = (bytes[at] ?? 0).toString(16).padStart(2, '0');
    throw new InputError(`${source} is not UTF-8: byte 0x${hex} at line ${line}, column ${at - lineStart + 1}`, {
      where: `${source}:${line}`,
      hint: 'save the file as UTF-8 (YAML and JSON input must be UTF-8; convert with `iconv -t UTF-8`)',
    }, 'E_INPUT_NOT_UTF8');
  }
}

/**
 * What is at a path, in the words error messages use: a PR can commit a link to `/dev/zero` or put a FIFO where a
 * file belongs, and "is a file" there would send the user looking for the wrong thing.
 */
export function fileKindOf(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'>): string {
  if (st.isFile()) return 'a file';
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file or folder';
}

/** The error for something that is not a regular file where capiform reads one. */
export function notAFile(source: string, st: Parameters<typeof fileKindOf>[0]): InputError {
  return new InputError(`${source} is ${fileKindOf(st)}, where a file is expected`, {
    where: source,
    hint: 'capiform reads only regular files here: replace it with the file meant',
  }, 'E_NOT_A_FILE');
}

/**
 * Reads a text file: its size checked before reading it, then decoded as strict UTF-8. Only a regular file is read:
 * it is opened without blocking (opening a FIFO would wait for a writer) and checked on the open descriptor, so a
 * device (`/dev/zero` never ends) or a FIFO swapped in after a check is refused before a byte is read.
 */
export function readTextFile(file: string, limit: number, what: string, source = file): string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notAFile(source, st);
    checkSize(st.size, limit, source, what);
    return decodeUtf8(readFileSync(fd), source);
  } finally {
    closeSync(fd);
  }
}

/** 1-based line and column of a character offset in `text`. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

export function tooDeep(source: string | undefined, line: number | undefined): InputError {
  const where = source === undefined ? (line === undefined ? undefined : `line ${line}`) : line === undefined ? source : `${source}:${line}`;
  return new InputError(`nesting is deeper than ${MAX_NESTING_DEPTH} levels of mappings and sequences`, {
    ...(where === undefined ? {} : { where }),
    hint: 'flatten the document; Kubernetes objects nest far less deeply',
  }, 'E_INPUT_TOO_DEEP');
}
