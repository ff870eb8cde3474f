/**
 * How much a bundle may inflate to. A gzip stream compresses zeros about 1000:1, so a 1.5 MB file can claim 1.5 GB;
 * the reader stops at the first entry or byte that passes a limit instead of finding out after the memory is gone.
 * The defaults leave a wide margin over real bundles (provider releases are a few MiB each).
 */
import { IntegrityError, UsageError } from '../errors.js';
import { parseByteSize } from '../go/index.js';

export interface ArchiveLimits {
  /** Largest size of one entry, in bytes. */
  readonly maxEntryBytes: number;
  /** Largest decompressed size of the whole archive (the tar stream), in bytes. */
  readonly maxTotalBytes: number;
  /** Most entries (files, directories and anything else) in one archive. */
  readonly maxEntries: number;
}

const MiB = 1024 * 1024;

export const defaultArchiveLimits: ArchiveLimits = {
  maxEntryBytes: 256 * MiB,
  maxTotalBytes: 2048 * MiB,
  maxEntries: 100_000,
};

/** The environment variable that overrides each limit (docs/bundles.md "Limits and input checks"). */
export const archiveLimitEnv = {
  maxEntryBytes: 'CAPIFORM_BUNDLE_MAX_ENTRY_SIZE',
  maxTotalBytes: 'CAPIFORM_BUNDLE_MAX_SIZE',
  maxEntries: 'CAPIFORM_BUNDLE_MAX_ENTRIES',
} as const satisfies Record<keyof ArchiveLimits, string>;

export { parseByteSize };

/** `268435456` → `256 MiB`; sizes that are not a whole number of KiB stay in bytes. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [['GiB', 1024 * MiB], ['MiB', MiB], ['KiB', 1024]] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

/** The defaults, with each limit the environment sets; a value that is not a size is a usage error naming it. */
export function archiveLimitsFromEnv(env: NodeJS.ProcessEnv): ArchiveLimits {
  const out = { ...defaultArchiveLimits };
  for (const key of Object.keys(archiveLimitEnv) as (keyof ArchiveLimits)[]) {
    const name = archiveLimitEnv[key];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const value = key === 'maxEntries' ? (/^\d+$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : null) : parseByteSize(raw);
    if (value === null || !Number.isSafeInteger(value)) {
      throw new UsageError(`${name}=${raw} is not a ${key === 'maxEntries' ? 'positive whole number' : 'size'}`, {
        where: name,
        hint: key === 'maxEntries' ? `set ${name} to a number of entries, e.g. ${name}=200000` : `set ${name} to bytes or a size with a binary unit, e.g. ${name}=512MiB`,
      });
    }
    out[key] = value;
  }
  return out;
}

/** Exit 3: the archive passed a limit; reading stopped there. */
export function archiveLimitError(source: string, message: string, envName: string): IntegrityError {
  return new IntegrityError(`${source}: ${message}; reading stopped there`, {
    where: source,
    hint: `a bundle written by \`capiform bundle\` is far below this limit, so this file is most likely damaged or hostile: do not use it. If it is genuine, raise the limit with ${envName}`,
  }, 'E_ARCHIVE_LIMIT');
}
