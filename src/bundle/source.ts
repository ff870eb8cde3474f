/**
 * `--bundle FILE` for `render`, `lock`, `diff` and `plan upgrade`: the bundle is verified, extracted safely into a
 * temporary directory, and its `repository/` serves every provider and cert-manager as a local repository. The one
 * seam into the pipeline is a repository factory (the pipeline's `repositories` option): each repository keeps the
 * kind and file locations of the source the config names, so the lock and the tree come out exactly as in a
 * connected run, while every byte is read from the bundle. No network, no cache.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { IntegrityError } from '../errors.js';
import type { ProviderRepository, RepositoryKind } from '../resolve/index.js';
import type { ArchiveLimits } from './archive-limits.js';
import { extractArchiveFile } from './archive.js';
import { componentsFileOf, lockFile, repositoryDir } from './layout.js';
import { readLockFile, releaseLock, type Lock } from '../lock/index.js';
import { bundleRoot, checkBundle, keepBundleIndex } from './verify.js';

/** What the pipeline's repository factory is called with (src/resolve/resolve-config.ts `RepositoryFactory`). */
export interface RepositoryRequest {
  readonly name: string;
  readonly type: string;
  readonly url: string;
  readonly label: string;
  readonly componentsFile: string;
  readonly kind: RepositoryKind;
}

export interface BundleSource {
  /** The extracted bundle root (holds repository/, capi.lock.yaml, tree/ …). */
  readonly dir: string;
  readonly lock: Lock;
  readonly lockText: string;
  /** Pass as the pipeline's `repositories` option. */
  readonly repositories: (p: RepositoryRequest) => ProviderRepository;
  /** Removes the temporary directory. */
  cleanup(): void;
}

const semverDir = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * The components file the bundle's releases ship. The request's name was guessed from the config's url, which for a
 * repository root (`./repository`) looks at a folder that is not there on the air-gapped side, so it falls back to
 * the type's conventional name; CAPD ships `infrastructure-components-development.yaml` instead. The lock records the
 * real name; for a version the lock does not pin (`lock --upgrade --bundle`), the bundle's own folders tell.
 */
function bundleComponentsFile(base: string, entry: { type?: string; files: readonly { name: string }[] } | undefined, requested: string): string {
  if (entry?.type !== undefined) {
    const locked = componentsFileOf({ type: entry.type, files: entry.files });
    if (entry.files.some((f) => f.name === locked)) return locked;
  }
  const shipped = existsSync(base) ? readdirSync(base).flatMap((v) => (statSync(join(base, v)).isDirectory() ? readdirSync(join(base, v)) : [])) : [];
  if (shipped.length === 0 || shipped.includes(requested)) return requested;
  const stem = requested.replace(/\.yaml$/, '');
  return shipped.filter((f) => f.startsWith(`${stem}-`) && f.endsWith('.yaml')).sort()[0] ?? requested;
}

/** A provider's releases inside an extracted bundle, presented as the repository the config names. */
export function bundleRepository(bundleDir: string, lock: Lock, configDir: string, p: RepositoryRequest): ProviderRepository {
  const base = join(bundleDir, repositoryDir, p.label);
  const entry = p.label === 'cert-manager' && lock.certManager ? { version: lock.certManager.version, files: lock.certManager.files } : lock.providers.find((x) => x.label === p.label);
  const original = (version: string, file: string): string | undefined => {
    const files = entry && entry.version === version ? entry.files : lock.templatePins?.find((t) => t.label === p.label && t.version === version)?.files;
    const f = files?.find((x) => x.name === file);
    if (!f) return undefined;
    return f.path !== undefined ? resolvePath(configDir, f.path) : f.url;
  };
  return {
    kind: p.kind,
    url: p.url,
    componentsFile: bundleComponentsFile(base, entry, p.componentsFile),
    defaultVersion: entry?.version ?? 'latest',
    rootPath: '.',
    async listVersions() {
      if (!existsSync(base)) return [];
      return readdirSync(base).filter((v) => semverDir.test(v) && statSync(join(base, v)).isDirectory());
    },
    async getFile(version, file) {
      // The version may come from a lock someone edited: only release folder names are looked up.
      if (!semverDir.test(version) || file.includes('/') || file.includes('\\') || file.includes('..')) return null;
      const path = join(base, version, file);
      if (!existsSync(path) || !statSync(path).isFile()) return null;
      return readFileSync(path);
    },
    fileLocation(version, file) {
      return original(version, file) ?? join(base, version, file);
    },
    async listFiles(version) {
      if (!semverDir.test(version)) return null;
      const dir = join(base, version);
      return existsSync(dir) ? readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile()).sort() : null;
    },
  };
}

/**
 * Extracts `file` in one streaming pass and verifies it from the digests taken on the way; integrity problems and
 * unsafe entries stop here (exit 3) and leave nothing behind, as does a bundle that passes a size limit.
 */
export async function openBundle(file: string, configDir: string, opts: { limits?: ArchiveLimits; source?: string } = {}): Promise<BundleSource> {
  const name = opts.source ?? file;
  const tmp = mkdtempSync(join(tmpdir(), 'capiform-bundle-'));
  try {
    const check = (result: Parameters<typeof checkBundle>[0]): void => {
      const { problems } = checkBundle(result);
      if (problems.length === 0) return;
      throw new IntegrityError(`bundle ${name} is not intact (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p}`).join('\n')}`, {
        where: file,
        hint: 'run `capiform bundle verify` on it for details; build and transfer the bundle again',
      });
    };
    const { entries } = await extractArchiveFile(file, join(tmp, 'x'), { keep: keepBundleIndex, check, source: name, ...(opts.limits ? { limits: opts.limits } : {}) });
    const root = bundleRoot(entries);
    const dir = root ? join(tmp, 'x', root) : join(tmp, 'x');
    const doc = readLockFile(join(dir, lockFile), `${name}: ${lockFile}`);
    const lockText = doc.text;
    const lock = releaseLock(doc.lock, `${name}: ${lockFile}`);
    return {
      dir,
      lock,
      lockText,
      repositories: (p) => bundleRepository(dir, lock, configDir, p),
      cleanup: () => rmSync(tmp, { recursive: true, force: true }),
    };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
