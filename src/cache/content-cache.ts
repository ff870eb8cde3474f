/**
 * The content-addressed cache: every downloaded byte is stored once, named by its sha256, and checked again on every
 * read. Writes go to a temp file in the same directory tree and are renamed into place, so concurrent runs (two
 * `capiform` processes, parallel CI jobs) never see a half-written blob: the last rename wins and both wrote the same
 * bytes. No fsync: a blob lost in a crash is fetched again, a wrong one is caught by the check on read.
 *
 * Layout under the cache dir (see cache-root.ts for where it is):
 *   blobs/sha256/<2 hex>/<64 hex>     the bytes
 *   http/<sha256 of key>.json         HTTP listing metadata: ETag, status, selected headers, blob digest
 *   tmp/                              temp files (same filesystem as blobs, so rename is atomic)
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { IntegrityError, UsageError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { defaultCacheDir } from './cache-root.js';
import { sha256Hex } from './hash.js';

/** What the HTTP layer remembers about a listing it fetched (for `If-None-Match` and offline reuse). */
export interface HttpCacheEntry {
  /** The request URL (redacted) the entry answers. */
  url: string;
  etag?: string;
  lastModified?: string;
  status: number;
  /** Headers worth replaying (content-type, link). */
  headers: Record<string, string>;
  /** sha256 of the body, stored as a blob. */
  sha256: string;
  storedAt: string;
}

const hexDigest = /^[0-9a-f]{64}$/;

/** Buffers are Uint8Arrays with extras; hand out plain views so callers compare and serialise them uniformly. */
function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The cache folder (or the first part of its path that exists) must be a folder: a file there would otherwise
 * surface as an internal error deep inside a download.
 */
function checkCacheDir(dir: string): void {
  for (let p = dir; ; p = dirname(p)) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      if (dirname(p) === p) return;
      continue;
    }
    if (isDir) return;
    throw new UsageError(`the cache folder ${dir} cannot be used: ${p === dir ? 'it is a file' : `${p} is a file`}, not a folder`, {
      where: p,
      hint: 'point CAPIFORM_CACHE_DIR at a folder (or unset it to use $XDG_CACHE_HOME/capiform or ~/.cache/capiform)',
    }, 'E_CACHE_DIR');
  }
}

export class ContentCache {
  readonly dir: string;

  constructor(dir: string = defaultCacheDir()) {
    this.dir = dir;
    checkCacheDir(dir);
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): ContentCache {
    return new ContentCache(defaultCacheDir(env));
  }

  /** Where the blob with this digest lives (whether or not it exists). */
  blobPath(sha256: string): string {
    if (!hexDigest.test(sha256)) throw new TypeError(`not a sha256 hex digest: ${sha256}`);
    return join(this.dir, 'blobs', 'sha256', sha256.slice(0, 2), sha256);
  }

  /**
   * The bytes stored under `sha256`, or `null` when the cache does not have them. Bytes that no longer hash to their
   * name (disk corruption, tampering) raise an IntegrityError naming the file and both digests; the bad blob is
   * removed so the next online run fetches it again.
   */
  async get(sha256: string): Promise<Uint8Array | null> {
    const path = this.blobPath(sha256);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    this.verify(path, sha256, bytes);
    return plain(bytes);
  }

  getSync(sha256: string): Uint8Array | null {
    const path = this.blobPath(sha256);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    this.verify(path, sha256, bytes);
    return plain(bytes);
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.get(sha256)) !== null;
  }

  /**
   * Stores `bytes` and returns their sha256. With `expectedSha256`, bytes that do not match are refused with an
   * IntegrityError and nothing is written.
   */
  async put(bytes: Uint8Array, expectedSha256?: string, what = 'download'): Promise<string> {
    const sha = sha256Hex(bytes);
    if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== sha) {
      throw new IntegrityError(`sha256 mismatch for ${what}: expected ${expectedSha256.toLowerCase()}, got ${sha}`, {
        hint: 'the download is truncated or was changed upstream; nothing was written to the cache',
      });
    }
    this.store(this.blobPath(sha), bytes);
    return sha;
  }

  putSync(bytes: Uint8Array): string {
    const sha = sha256Hex(bytes);
    this.store(this.blobPath(sha), bytes);
    return sha;
  }

  /**
   * The bytes pinned by a lock entry: from the cache when present (no request at all), else from `fetch`, checked
   * against `sha256` before they are stored. `null` when `fetch` finds nothing. Without a pin (`sha256` undefined, a
   * cold `lock`), whatever `fetch` returns is stored.
   */
  async getOrFetch(
    sha256: string | undefined,
    fetch: () => Promise<Uint8Array | null>,
    what = 'download',
  ): Promise<Uint8Array | null> {
    if (sha256 !== undefined) {
      const cached = await this.get(sha256);
      if (cached) return cached;
    }
    const bytes = await fetch();
    if (bytes === null) return null;
    await this.put(bytes, sha256, what);
    return bytes;
  }

  private metaPath(key: string): string {
    return join(this.dir, 'http', `${sha256Hex(key)}.json`);
  }

  /** The HTTP metadata stored for `key` (a URL plus whatever varies the answer, e.g. the token identity). */
  async getHttpEntry(key: string): Promise<HttpCacheEntry | null> {
    try {
      const entry = JSON.parse(await readFile(this.metaPath(key), 'utf8')) as HttpCacheEntry;
      return typeof entry.sha256 === 'string' && hexDigest.test(entry.sha256) ? entry : null;
    } catch {
      return null;
    }
  }

  async putHttpEntry(key: string, entry: HttpCacheEntry): Promise<void> {
    this.store(this.metaPath(key), `${JSON.stringify(entry, null, 2)}\n`);
  }

  /** Every write of the cache: atomic, its temporary file in `tmp/` so the blob folders hold only finished blobs. */
  private store(path: string, data: Uint8Array | string): void {
    writeFileAtomic(path, data, { tempDir: join(this.dir, 'tmp') });
  }

  private verify(path: string, expected: string, bytes: Uint8Array): void {
    const actual = sha256Hex(bytes);
    if (actual !== expected) {
      rmSync(path, { force: true });
      throw new IntegrityError(`cached file ${path} is corrupt: expected sha256 ${expected}, got ${actual}`, {
        where: path,
        hint: 'the corrupt file was removed; run the command again online to fetch it again',
      });
    }
  }
}
