/**
 * `capiform bundle verify`: every problem of a bundle, not just the first — unsafe entries (traversal, links,
 * devices, duplicates), SHA256SUMS digests, files missing from or extra to SHA256SUMS, and the lock against the
 * repository files it pins.
 */
import { CapiformError } from '../errors.js';
import { readArchive, type TarEntry } from './archive.js';
import { lockFile, lockedFiles, parseSums, repositoryDir, sha256Hex, sumsFile } from './layout.js';
import { parseLock } from '../lock/format.js';

export interface VerifyResult {
  /** The bundle's top-level directory ('' when the archive has none). */
  readonly root: string;
  /** Regular files checked. */
  readonly files: number;
  readonly problems: readonly string[];
}

/** The common top-level directory of every entry, or ''. */
export function bundleRoot(entries: readonly TarEntry[]): string {
  const first = entries[0]?.path.split('/')[0];
  if (!first) return '';
  const all = entries.every((e) => e.path === first ? e.type === 'directory' : e.path.startsWith(`${first}/`));
  return all && entries.some((e) => e.path !== first) ? first : '';
}

/** Files by path relative to the bundle root. */
export function bundleContents(entries: readonly TarEntry[]): { root: string; files: Map<string, Uint8Array> } {
  const root = bundleRoot(entries);
  const files = new Map<string, Uint8Array>();
  for (const e of entries) {
    if (e.type !== 'file') continue;
    files.set(root ? e.path.slice(root.length + 1) : e.path, e.data);
  }
  return { root, files };
}

export function verifyBundle(bytes: Uint8Array): VerifyResult {
  const { entries, problems: unsafe } = readArchive(bytes);
  const problems = unsafe.map((p) => p.message);
  const { root, files } = bundleContents(entries);

  const sumsBytes = files.get(sumsFile);
  if (!sumsBytes) {
    problems.push(`${sumsFile} is missing: the files cannot be checked`);
  } else {
    const { sums, problems: bad } = parseSums(Buffer.from(sumsBytes).toString('utf8'));
    problems.push(...bad);
    for (const [path, expected] of sums) {
      const data = files.get(path);
      if (!data) problems.push(`missing file ${path} (listed in ${sumsFile})`);
      else {
        const actual = sha256Hex(data);
        if (actual !== expected) problems.push(`${path}: sha256 ${actual} does not match ${sumsFile} (${expected})`);
      }
    }
    for (const path of files.keys()) {
      if (path !== sumsFile && !sums.has(path)) problems.push(`extra file ${path} (not in ${sumsFile})`);
    }
  }

  const lockBytes = files.get(lockFile);
  if (!lockBytes) {
    problems.push(`${lockFile} is missing: the repository files cannot be checked against it`);
  } else {
    try {
      const lock = parseLock(Buffer.from(lockBytes).toString('utf8'), lockFile);
      const pinned = new Set<string>();
      for (const l of lockedFiles(lock)) {
        pinned.add(l.path);
        const data = files.get(l.path);
        if (!data) problems.push(`missing file ${l.path} (pinned by ${lockFile} for ${l.label} ${l.version})`);
        else if (sha256Hex(data) !== l.file.sha256) {
          problems.push(`${l.path}: sha256 ${sha256Hex(data)} does not match ${lockFile} (${l.file.sha256}) for ${l.label} ${l.version}`);
        }
      }
      for (const path of files.keys()) {
        if (path.startsWith(`${repositoryDir}/`) && !pinned.has(path)) problems.push(`extra file ${path} (not pinned by ${lockFile})`);
      }
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push(`${lockFile}: ${err.message}`);
    }
  }
  return { root, files: files.size, problems };
}
