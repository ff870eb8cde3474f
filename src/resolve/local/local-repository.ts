/**
 * A provider repository on the local filesystem, in clusterctl's layout (`client/repository/repository_local.go`):
 * `[file://]{basepath}/{provider-label}/{version}/{components file}`. Versions are the sub-folders of
 * `{basepath}/{provider-label}` whose names pass ParseSemantic; `latest` resolves to the newest release that
 * implements the v1beta2 contract.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, posix, relative, resolve, sep } from 'node:path';
import { CapiformError, ConfigError, InputError, ResolutionError } from '../../errors.js';
import { readConfinedFile } from '../../yaml/index.js';
import { parseGoUrl, goQuote, tryParseSemantic } from '../../go/index.js';
import { currentContract } from '../metadata.js';
import { manifestLabel } from '../../capi/index.js';
import type { ProviderRepository } from '../repository.js';
import { latestContractRelease, latestRelease } from '../versions.js';

export const latestVersionTag = 'latest';

export interface LocalProvider {
  name: string;
  type: string;
  url: string;
  /**
   * The project the config lives in. A repository inside it is the pull request's to change, links included, so
   * its files must also stay inside the project once links are resolved; one outside it was named by the user.
   */
  project?: string;
}

function layoutHint(label: string): string {
  return `use an absolute path of the form /abs/path/${label}/<version|latest>/<components file>`;
}

/** The parts of a local provider URL, validated like `newLocalRepository` (without resolving `latest`). */
export function parseLocalUrl(provider: LocalProvider): {
  basepath: string;
  label: string;
  version: string;
  componentsFile: string;
} {
  const label = manifestLabel(provider.name, provider.type);
  let path: string;
  try {
    path = parseGoUrl(provider.url).path;
  } catch (err) {
    throw new ConfigError(`invalid url: ${(err as Error).message}`, { hint: layoutHint(label) });
  }
  if (!posix.isAbsolute(path)) {
    throw new ConfigError(`invalid path: path ${goQuote(provider.url)} must be an absolute path`, {
      hint: `${layoutHint(label)} (capiform's own config resolves relative paths; clusterctl.yaml needs absolute ones)`,
    });
  }
  const urlSplit = provider.url.split('/');
  if (urlSplit.length < 3) {
    throw new ConfigError(
      `invalid path: path ${goQuote(provider.url)} must be in the format {basepath}/{provider-name}/{version}/{components.yaml}`,
      { hint: layoutHint(label) },
    );
  }
  const componentsFile = urlSplit[urlSplit.length - 1] ?? '';
  const version = urlSplit[urlSplit.length - 2] ?? '';
  if (version !== latestVersionTag && !tryParseSemantic(version)) {
    throw new ConfigError(
      `invalid version: ${goQuote(version)}. Version must obey the syntax and semantics of the "Semantic Versioning" specification (http://semver.org/) and path format {basepath}/{provider-name}/{version}/{components.yaml}`,
      { hint: `name the version folder like v1.2.3, or use ${latestVersionTag}; ${layoutHint(label)}` },
    );
  }
  const providerID = urlSplit[urlSplit.length - 3] ?? '';
  if (providerID !== label) {
    throw new ConfigError(
      `invalid path: path ${goQuote(provider.url)} must contain provider ${goQuote(label)} in the format {basepath}/{provider-label}/{version}/{components.yaml}`,
      { hint: `the folder above the version must be named ${label}; ${layoutHint(label)}` },
    );
  }
  const suffix = posix.join(providerID, version, componentsFile);
  const base = path.endsWith(suffix) ? path.slice(0, path.length - suffix.length) : path;
  return { basepath: posix.normalize(base === '' ? '.' : base).replace(/(.)\/$/, '$1'), label, version, componentsFile };
}

export class LocalRepository implements ProviderRepository {
  readonly kind = 'local' as const;
  readonly url: string;
  readonly componentsFile: string;
  readonly rootPath = '.';
  readonly basepath: string;
  readonly providerLabel: string;
  /** The URL's version segment; after `create`, `latest` is already resolved. */
  defaultVersion: string;
  /** The project, when the repository lies inside it (see LocalProvider.project). */
  private readonly project: string | undefined;

  /** Validates the URL (clusterctl's messages) without touching the filesystem; `latest` stays unresolved. */
  constructor(provider: LocalProvider) {
    const parts = parseLocalUrl(provider);
    this.url = provider.url;
    this.componentsFile = parts.componentsFile;
    this.basepath = parts.basepath;
    this.providerLabel = parts.label;
    this.defaultVersion = parts.version;
    const rel = provider.project === undefined ? '..' : relative(resolve(provider.project), resolve(this.basepath));
    this.project = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? provider.project : undefined;
  }

  /** `newLocalRepository`: validates the URL and resolves `latest` with `latestContractRelease(…, "v1beta2")`. */
  static async create(provider: LocalProvider): Promise<LocalRepository> {
    const repo = new LocalRepository(provider);
    if (repo.defaultVersion === latestVersionTag) {
      try {
        repo.defaultVersion = await latestContractRelease(repo, currentContract);
      } catch (err) {
        if (err instanceof Error) err.message = `failed to get latest version: ${err.message}`;
        throw err;
      }
    }
    return repo;
  }

  /** `{basepath}/{provider-label}`: the folder holding one sub-folder per version. */
  get releasesPath(): string {
    return join(this.basepath, this.providerLabel);
  }

  async listVersions(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.releasesPath, { withFileTypes: true });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new ResolutionError(`failed to list release directories: open ${this.releasesPath}: ${osMessage(e)}`, {
        where: this.releasesPath,
        hint: `check that ${this.releasesPath} exists and is readable; a local repository is laid out as {basepath}/${this.providerLabel}/{version}/{files}`,
        cause: err,
      });
    }
    const versions: string[] = [];
    for (const f of entries) {
      if (!f.isDirectory()) continue;
      if (!tryParseSemantic(f.name)) continue;
      versions.push(f.name);
    }
    return versions.sort();
  }

  private resolveVersion(version: string): Promise<string> | string {
    if (version === latestVersionTag) {
      return latestRelease(this).catch((err: unknown) => {
        if (err instanceof Error) err.message = `failed to get the latest release: ${err.message}`;
        throw err;
      });
    }
    return version === '' ? this.defaultVersion : version;
  }

  fileLocation(version: string, file: string): string {
    return normalize(join(this.basepath, this.providerLabel, version === '' ? this.defaultVersion : version, file));
  }

  async getFile(version: string, file: string): Promise<Uint8Array | null> {
    const v = await this.resolveVersion(version);
    const abs = this.fileLocation(v, file);
    let st;
    try {
      st = await stat(abs);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw new ResolutionError(`failed to read file ${goQuote(abs)} from local release ${v}: ${osMessage(e)}`, {
        where: abs,
        hint: 'check the permissions of the repository folder',
        cause: err,
      });
    }
    if (st.isDirectory()) {
      throw new InputError(`invalid path: file ${goQuote(file)} is actually a directory ${goQuote(abs)}`, {
        where: abs,
        hint: 'the components file must be a file, not a folder',
      });
    }
    await this.checkInsideRoot(abs);
    try {
      const confine = this.project === undefined ? { root: this.basepath, rootName: `the local repository ${this.basepath}` } : { root: this.project, rootName: 'the project' };
      return new Uint8Array(readConfinedFile(abs, { ...confine, what: `${file} of ${this.providerLabel} ${v}` }));
    } catch (err) {
      if (err instanceof CapiformError) throw err;
      throw new ResolutionError(
        `failed to read file ${goQuote(abs)} from local release ${v}: ${osMessage(err as NodeJS.ErrnoException)}`,
        { where: abs, hint: 'check that the file is readable', cause: err },
      );
    }
  }

  /**
   * A symlink in the repository (the file, or a folder on its way) may point anywhere on the machine; what it points
   * to would be rendered and pinned in the lock as if it were the release's. Only links that stay inside the
   * repository root are followed.
   */
  private async checkInsideRoot(abs: string): Promise<void> {
    const [target, root] = await Promise.all([realpath(abs), realpath(this.basepath)]);
    if (target === root || target.startsWith(root.endsWith(sep) ? root : root + sep)) return;
    throw new ResolutionError(`refusing to read ${abs}: it is a symlink (or inside one) to ${target}, outside the local repository ${root}`, {
      where: abs,
      hint: 'copy the file into the repository instead of linking it, or point the provider url at the folder that holds it',
    }, 'E_SYMLINK_OUTSIDE_REPOSITORY');
  }

  async listFiles(version: string): Promise<string[] | null> {
    const v = await this.resolveVersion(version);
    try {
      const entries = await readdir(join(this.releasesPath, v), { withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
    } catch {
      return null;
    }
  }
}

/** The OS error text Go prints (`no such file or directory`, `permission denied`). */
function osMessage(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a directory';
    default:
      return e.message;
  }
}
