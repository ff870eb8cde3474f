/**
 * Every byte the pipeline reads from a provider repository goes through the ArtifactStore: files the lock knows are
 * served from the content-addressed cache (or fetched) and verified against the lock's sha256; files it does not know
 * are fetched and recorded, unless the run is frozen. The files read for the chosen versions become the new lock's
 * file lists.
 */
import { relative, sep } from 'node:path';
import { CapiformError, IntegrityError } from '../errors.js';
import type { ProviderRepository } from '../resolve/index.js';
import { sha256Hex } from '../cache/index.js';
import { LockStaleError } from './stale.js';
import type { LockedFile } from './model.js';

/** The content-addressed cache (src/cache/content-cache.ts implements it on disk). */
export interface ArtifactCache {
  get(sha256: string): Promise<Uint8Array | null>;
  put(bytes: Uint8Array): Promise<string>;
}

/** In-memory cache: the seam used until (and when) no disk cache is configured. */
export function memoryCache(): ArtifactCache {
  const m = new Map<string, Uint8Array>();
  return {
    get: async (sha) => m.get(sha) ?? null,
    put: async (bytes) => {
      const sha = sha256Hex(bytes);
      m.set(sha, bytes);
      return sha;
    },
  };
}

export interface ArtifactSource {
  /** Lock entry key: a provider label or `cert-manager`. */
  readonly label: string;
  readonly repo: ProviderRepository;
}

export interface ArtifactStoreOptions {
  configDir: string;
  /** Files pinned by the existing lock, by label, for the locked version. */
  locked: ReadonlyMap<string, { version: string; files: readonly LockedFile[] }>;
  /** Files pinned for other releases of a provider (template pins), by label and version. */
  lockedReleases?: readonly { label: string; version: string; files: readonly LockedFile[] }[];
  frozen: boolean;
  cache: ArtifactCache;
}

export class ArtifactStore {
  private readonly recorded = new Map<string, Map<string, LockedFile>>();
  private readonly memo = new Map<string, Promise<Uint8Array | null>>();

  constructor(private readonly opts: ArtifactStoreOptions) {}

  /** Bytes of `file` at `version`, verified; `null` when the repository has no such file. */
  read(source: ArtifactSource, version: string, file: string): Promise<Uint8Array | null> {
    const key = `${source.label}\0${version}\0${file}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.load(source, version, file);
      this.memo.set(key, p);
    }
    return p;
  }

  /**
   * The digest the lock pins for a file, marking the file as used (it stays in the lock) without reading it: a
   * directory rendered from these bytes before and still intact on disk does not need them again.
   */
  pinnedFile(label: string, version: string, file: string): LockedFile | null {
    const pinned = this.lockedFiles(label, version)?.find((f) => f.name === file);
    if (!pinned) return null;
    this.record(label, version, pinned);
    return pinned;
  }

  /**
   * Reads every file the lock pins for local repositories at the locked version and checks its sha256: every
   * mismatch (and every file that is gone) in one error. Local reads cost a few milliseconds; remote files are
   * verified when they are read (from the cache or the network).
   */
  async verifyLocal(sources: readonly { label: string; repo: ProviderRepository; version: string }[]): Promise<void> {
    const problems: string[] = [];
    const labels = new Set<string>();
    let where: string | undefined;
    for (const s of sources) {
      const locked = this.lockedFiles(s.label, s.version);
      if (s.repo.kind !== 'local' || !locked) continue;
      for (const f of locked) {
        const bytes = await s.repo.getFile(s.version, f.name);
        const path = this.location(s, s.version, f.name).path ?? f.name;
        if (bytes === null) {
          throw new LockStaleError(`${s.label} ${s.version}: ${f.name} is in capi.lock.yaml but the repository no longer has it`, `providers.${s.label}.files.${f.name}`);
        }
        const actual = sha256Hex(bytes);
        if (actual !== f.sha256) {
          problems.push(`${f.name} of ${s.label} ${s.version} does not match capi.lock.yaml: expected sha256 ${f.sha256}, got ${actual} (read from ${path})`);
          labels.add(s.label);
          where ??= s.repo.fileLocation(s.version, f.name);
        }
      }
    }
    if (problems.length > 0) {
      const message = problems.length === 1 ? problems[0]! : `${problems.length} local repository files do not match capi.lock.yaml:\n  ${problems.join('\n  ')}`;
      throw new IntegrityError(message, {
        ...(where ? { where } : {}),
        hint: `restore the repository (e.g. \`git checkout -- <file>\`), or if the change is intended re-pin it: capiform lock --upgrade ${[...labels].join(' ')}`,
      });
    }
  }

  /** Files read for `label` at `version`, sorted by name. */
  filesFor(label: string, version: string): LockedFile[] {
    const files = this.recorded.get(`${label}\0${version}`);
    return files ? [...files.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
  }

  /** The files the lock pins for `label` at `version`: its provider entry's, or a template pin's. */
  private lockedFiles(label: string, version: string): readonly LockedFile[] | undefined {
    const locked = this.opts.locked.get(label);
    if (locked && locked.version === version) return locked.files;
    return this.opts.lockedReleases?.find((r) => r.label === label && r.version === version)?.files;
  }

  private location(source: ArtifactSource, version: string, file: string): { path?: string; url?: string } {
    const loc = source.repo.fileLocation(version, file);
    if (source.repo.kind === 'local') return { path: relative(this.opts.configDir, loc).split(sep).join('/') };
    return { url: loc };
  }

  private async load(source: ArtifactSource, version: string, file: string): Promise<Uint8Array | null> {
    const pinned = this.lockedFiles(source.label, version)?.find((f) => f.name === file);
    const where = source.repo.fileLocation(version, file);
    if (pinned) {
      if (pinned.url !== undefined) source.repo.pinLocation?.(version, pinned.url);
      let bytes = await this.opts.cache.get(pinned.sha256);
      let from = 'the cache';
      if (bytes === null) {
        try {
          bytes = await source.repo.getFile(version, file);
        } catch (err) {
          // Offline, the repository names the listing it lacks; say which locked file needed it.
          if (err instanceof CapiformError && err.code === 'E_OFFLINE') err.message += `, needed for ${file} of ${source.label} ${version} (pinned by capi.lock.yaml)`;
          throw err;
        }
        from = where;
        if (bytes === null) {
          throw new LockStaleError(`${source.label} ${version}: ${file} is in capi.lock.yaml but the repository no longer has it`, `providers.${source.label}.files.${file}`);
        }
      }
      const actual = sha256Hex(bytes);
      if (actual !== pinned.sha256) {
        throw new IntegrityError(
          `${file} of ${source.label} ${version} does not match capi.lock.yaml: expected sha256 ${pinned.sha256}, got ${actual} (read from ${from})`,
          {
            where,
            hint: `if the release was re-published on purpose, run \`capiform lock --upgrade ${source.label}\`; otherwise the repository or the cache was tampered with`,
          },
        );
      }
      if (from !== 'the cache') await this.opts.cache.put(bytes);
      this.record(source.label, version, { name: file, ...this.location(source, version, file), sha256: actual, size: bytes.byteLength });
      return bytes;
    }
    if (this.opts.frozen) {
      throw new LockStaleError(`${source.label} ${version}: ${file} is not in capi.lock.yaml`, `providers.${source.label}`);
    }
    const bytes = await source.repo.getFile(version, file);
    if (bytes === null) return null;
    const sha = await this.opts.cache.put(bytes);
    this.record(source.label, version, { name: file, ...this.location(source, version, file), sha256: sha, size: bytes.byteLength });
    return bytes;
  }

  private record(label: string, version: string, file: LockedFile): void {
    const key = `${label}\0${version}`;
    let m = this.recorded.get(key);
    if (!m) this.recorded.set(key, (m = new Map()));
    m.set(file.name, file);
  }
}
