/**
 * An OCI repository of provider releases: one artifact per version, tagged with the version (`v1.12.4`), its files
 * as titled layers (artifact.ts). Versions are the repository's tags; a URL with a tag offers that one version.
 * The lock records each file's layer digest (its sha256) and, in the file's location, the manifest digest the tag
 * pointed at (`oci://<registry>/<repository>:<tag>@sha256:<manifest>#<file>`): when capi.lock.yaml pins a release
 * and the tag now points at another manifest (re-pushed), reading it is an integrity error.
 */
import { IntegrityError, ResolutionError } from '../../errors.js';
import type { ProviderRepository } from '../repository.js';
import { PromiseMemo } from '../memo.js';
import { checkLayerTitles, layerTitle, maxLayerBytes, parseOciManifest, releaseNameOf, titlesFor, type OciManifest, type ReleaseIdentity } from './artifact.js';
import type { OciStore } from './registry.js';

interface LoadedManifest {
  readonly digest: string;
  readonly manifest: OciManifest;
}

const pinnedDigest = /@(sha256:[0-9a-f]{64})#/;

export class OciRepository implements ProviderRepository {
  readonly kind = 'oci' as const;
  readonly url: string;
  readonly componentsFile: string;
  readonly defaultVersion: string;
  readonly rootPath = '.';
  private readonly manifests = new PromiseMemo<string, LoadedManifest>();
  private readonly digests = new Map<string, string>();
  private readonly pins = new Map<string, string>();
  private readonly files = new PromiseMemo<string, Uint8Array | null>();

  constructor(
    url: string,
    private readonly store: OciStore,
    private readonly identity: ReleaseIdentity,
    private readonly tag: string | undefined,
  ) {
    this.url = url;
    this.componentsFile = identity.componentsFile;
    this.defaultVersion = tag ?? 'latest';
  }

  async listVersions(): Promise<string[]> {
    return this.tag !== undefined ? [this.tag] : this.store.tags();
  }

  fileLocation(version: string, file: string): string {
    const digest = this.digests.get(version) ?? this.pins.get(version);
    return `${this.store.location}:${version}${digest ? `@${digest}` : ''}#${file}`;
  }

  /**
   * capi.lock.yaml pins `file` at `location` (written by `fileLocation`): the manifest digest in it is the one the
   * tag must still point at when the release is read again.
   */
  pinLocation(version: string, location: string): void {
    const digest = pinnedDigest.exec(location)?.[1];
    if (digest) this.pins.set(version, digest);
  }

  async listFiles(version: string): Promise<string[]> {
    const { manifest } = await this.manifest(version);
    const names = manifest.layers.map((l) => layerTitle(l)).filter((t): t is string => t !== undefined);
    return [...new Set(names.map((t) => releaseNameOf(t, this.identity, version)))].sort();
  }

  getFile(version: string, file: string): Promise<Uint8Array | null> {
    const key = `${version}\n${file}`;
    return this.files.get(key, () => this.readFile(version, file));
  }

  private async readFile(version: string, file: string): Promise<Uint8Array | null> {
    const { manifest } = await this.manifest(version);
    const titled = new Map<string, (typeof manifest.layers)[number]>();
    for (const l of manifest.layers) {
      const t = layerTitle(l);
      if (t !== undefined && !titled.has(t)) titled.set(t, l);
    }
    const layer = titlesFor(file, this.identity, version)
      .map((t) => titled.get(t))
      .find((l) => l !== undefined);
    if (!layer) return null;
    const what = `${layerTitle(layer)} of ${this.store.location}:${version}`;
    if (layer.size > maxLayerBytes) {
      throw new ResolutionError(`${what} is ${layer.size} bytes, more than the ${maxLayerBytes} capiform reads for one release file`, {
        where: this.fileLocation(version, file),
      });
    }
    return this.store.blob(layer.digest, layer.size, what);
  }

  private manifest(version: string): Promise<LoadedManifest> {
    return this.manifests.get(version, () => this.loadManifest(version));
  }

  private async loadManifest(version: string): Promise<LoadedManifest> {
    const where = `${this.store.location}:${version}`;
    const got = await this.store.manifest(version);
    if (got === null) {
      throw new ResolutionError(`${this.store.location} has no tag ${JSON.stringify(version)}`, {
        where,
        hint: this.tag !== undefined ? 'push the release under that tag, or change the tag in the url' : 'push the release under that tag, or choose a version the repository has',
      });
    }
    const pinned = this.pins.get(version);
    if (pinned !== undefined && pinned !== got.digest) {
      throw new IntegrityError(
        `${where} now points at manifest ${got.digest}, but capi.lock.yaml pins ${pinned}: the tag was pushed again with other content`,
        {
          where,
          hint: 'if the release was re-published on purpose, run `capiform lock --upgrade <provider>` to pin the new artifact; otherwise restore the tag (its old manifest is still addressable by digest)',
        },
      );
    }
    const manifest = parseOciManifest(got.bytes, where, got.contentType);
    checkLayerTitles(manifest, where);
    this.digests.set(version, got.digest);
    return { digest: got.digest, manifest };
  }
}
