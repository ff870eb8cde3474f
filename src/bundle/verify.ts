/**
 * `capiform bundle verify`: every problem of a bundle, not just the first — unsafe entries (traversal, links,
 * devices, duplicates), SHA256SUMS digests, files missing from or extra to SHA256SUMS, and the lock against the
 * repository files it pins.
 */
import { CapiformError } from '../errors.js';
import type { ArchiveLimits } from './archive-limits.js';
import { readArchive, readArchiveFile, type ReadResult, type TarEntry } from './archive.js';
import { lockFile, lockedFiles, parseSums, repositoryDir, sumsFile } from './layout.js';
import { lockFileFromBytes, releaseLock } from '../lock/index.js';
import { checkProvenance, provenanceFile } from './provenance.js';

export interface VerifyResult {
  /** The bundle's top-level directory ('' when the archive has none). */
  readonly root: string;
  /** Regular files checked. */
  readonly files: number;
  readonly problems: readonly string[];
  /** The bundle's provenance.intoto.json, when it has one. */
  readonly provenance?: Uint8Array;
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

/** SHA256SUMS and the lock sit at the bundle root (or one folder down); only they are kept in memory. */
export function keepBundleIndex(path: string): boolean {
  const segs = path.split('/');
  return segs.length <= 2 && (segs.at(-1) === sumsFile || segs.at(-1) === lockFile || segs.at(-1) === provenanceFile);
}

/** Verifies in-memory bundle bytes (archives just written, tests). */
export function verifyBundle(bytes: Uint8Array): VerifyResult {
  return checkBundle(readArchive(bytes, { keep: keepBundleIndex }));
}

/** Verifies a bundle file in one streaming pass; memory stays small whatever its size. */
export async function verifyBundleFile(file: string, opts: { limits?: ArchiveLimits; source?: string } = {}): Promise<VerifyResult> {
  return checkBundle(await readArchiveFile(file, { keep: keepBundleIndex, ...opts }));
}

/** Every problem of a read archive: its unsafe entries, SHA256SUMS and the lock against the digests read. */
export function checkBundle(read: ReadResult): VerifyResult {
  const { entries, problems: unsafe } = read;
  const problems = unsafe.map((p) => p.message);
  const root = bundleRoot(entries);
  const digests = new Map<string, string>();
  const files = new Map<string, Uint8Array>();
  for (const e of entries) {
    if (e.type !== 'file') continue;
    const path = root ? e.path.slice(root.length + 1) : e.path;
    digests.set(path, e.sha256);
    if (path === sumsFile || path === lockFile || path === provenanceFile) files.set(path, e.data);
  }

  const sumsBytes = files.get(sumsFile);
  if (!sumsBytes) {
    problems.push(`${sumsFile} is missing: the files cannot be checked`);
  } else {
    const { sums, problems: bad } = parseSums(Buffer.from(sumsBytes).toString('utf8'));
    problems.push(...bad);
    for (const [path, expected] of sums) {
      const actual = digests.get(path);
      if (actual === undefined) problems.push(`missing file ${path} (listed in ${sumsFile})`);
      else if (actual !== expected) problems.push(`${path}: sha256 ${actual} does not match ${sumsFile} (${expected})`);
    }
    for (const path of digests.keys()) {
      if (path !== sumsFile && !sums.has(path)) problems.push(`extra file ${path} (not in ${sumsFile})`);
    }
  }

  const lockBytes = files.get(lockFile);
  if (!lockBytes) {
    problems.push(`${lockFile} is missing: the repository files cannot be checked against it`);
  } else {
    try {
      const lock = releaseLock(lockFileFromBytes(lockBytes, lockFile).lock, lockFile);
      const pinned = new Set<string>();
      for (const l of lockedFiles(lock)) {
        pinned.add(l.path);
        const actual = digests.get(l.path);
        if (actual === undefined) problems.push(`missing file ${l.path} (pinned by ${lockFile} for ${l.label} ${l.version})`);
        else if (actual !== l.file.sha256) {
          problems.push(`${l.path}: sha256 ${actual} does not match ${lockFile} (${l.file.sha256}) for ${l.label} ${l.version}`);
        }
      }
      for (const path of digests.keys()) {
        if (path.startsWith(`${repositoryDir}/`) && !pinned.has(path)) problems.push(`extra file ${path} (not pinned by ${lockFile})`);
      }
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push(`${lockFile}: ${err.message}`);
    }
  }
  // Bundles written before provenance existed have none; one that is there must match every file.
  const provenance = files.get(provenanceFile);
  if (provenance) problems.push(...checkProvenance(provenance, digests, new Set([sumsFile, provenanceFile])));
  return { root, files: digests.size, problems, ...(provenance ? { provenance } : {}) };
}
