/**
 * A provider release as an OCI artifact, the shape `oras push <ref> metadata.yaml infrastructure-components.yaml …`
 * writes and cluster-api-operator's `fetchConfig.oci` reads (`internal/controller/oci_source.go`): an image manifest
 * whose layers are the release files, each named by its `org.opencontainers.image.title` annotation.
 *
 * The operator accepts the metadata as `<type>-<name>-<version>-metadata.yaml` or `metadata.yaml`, and the components
 * as `<type>-<name>-<version>-components.yaml`, `<type>-components.yaml` or `components.yaml`, in that order, where
 * `<type>` is its provider kind (`core`, `bootstrap`, `control-plane`, `infrastructure`, `ipam`, `addon`,
 * `runtimeextension`). Cluster templates and ClusterClass files keep their release names.
 */
import { InputError, ResolutionError } from '../../errors.js';

export const ociManifestMediaType = 'application/vnd.oci.image.manifest.v1+json';
export const dockerManifestMediaType = 'application/vnd.docker.distribution.manifest.v2+json';
export const ociIndexMediaType = 'application/vnd.oci.image.index.v1+json';
export const dockerListMediaType = 'application/vnd.docker.distribution.manifest.list.v2+json';
/** What `oras push` gives a file layer, and the artifact type it writes when none is given (OCI 1.1). */
export const ociLayerMediaType = 'application/vnd.oci.image.layer.v1.tar';
export const orasArtifactType = 'application/vnd.unknown.artifact.v1';
export const ociEmptyConfig = { mediaType: 'application/vnd.oci.empty.v1+json', bytes: '{}' } as const;
export const titleAnnotation = 'org.opencontainers.image.title';

/** The manifest size distribution accepts (4 MiB); larger is not a provider release. */
export const maxManifestBytes = 4 * 1024 * 1024;
/** The largest release file read from a layer (the biggest known components file is ~10 MB). */
export const maxLayerBytes = 256 * 1024 * 1024;

export interface OciDescriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface OciManifest {
  readonly mediaType: string;
  readonly artifactType?: string;
  readonly config: OciDescriptor;
  readonly layers: readonly OciDescriptor[];
}

const digestPattern = /^sha256:[0-9a-f]{64}$/;

/** The operator's provider kind for a clusterctl provider type (`GetType()` of its provider wrappers). */
export function operatorProviderType(type: string): string | undefined {
  const kinds: Record<string, string> = {
    CoreProvider: 'core',
    BootstrapProvider: 'bootstrap',
    ControlPlaneProvider: 'control-plane',
    InfrastructureProvider: 'infrastructure',
    IPAMProvider: 'ipam',
    AddonProvider: 'addon',
    RuntimeExtensionProvider: 'runtimeextension',
  };
  return kinds[type];
}

export interface ReleaseIdentity {
  /** clusterctl provider type (`InfrastructureProvider`); empty for cert-manager. */
  readonly type: string;
  readonly name: string;
  /** The file the pipeline reads as the components (`infrastructure-components.yaml`). */
  readonly componentsFile: string;
}

/** The layer titles that hold `file` of a release, in the operator's order of preference. */
export function titlesFor(file: string, id: ReleaseIdentity, version: string): string[] {
  const kind = operatorProviderType(id.type);
  if (file === 'metadata.yaml') return [...(kind ? [`${kind}-${id.name}-${version}-metadata.yaml`] : []), 'metadata.yaml'];
  if (file === id.componentsFile) {
    const out = kind ? [`${kind}-${id.name}-${version}-components.yaml`, `${kind}-components.yaml`] : [];
    return [...new Set([file, ...out, 'components.yaml'])];
  }
  return [file];
}

/** The release file a layer title stands for (the inverse of `titlesFor`), so listings name files as releases do. */
export function releaseNameOf(title: string, id: ReleaseIdentity, version: string): string {
  for (const file of ['metadata.yaml', id.componentsFile]) if (titlesFor(file, id, version).includes(title)) return file;
  return title;
}

function descriptor(v: unknown, where: string, what: string): OciDescriptor {
  const d = v as Partial<OciDescriptor> | null;
  if (d === null || typeof d !== 'object' || typeof d.mediaType !== 'string' || typeof d.digest !== 'string' || typeof d.size !== 'number') {
    throw new InputError(`${where}: ${what} is not an OCI descriptor (mediaType, digest, size)`, { where });
  }
  if (!digestPattern.test(d.digest)) throw new InputError(`${where}: ${what} has digest ${JSON.stringify(d.digest)}; capiform reads sha256 digests only`, { where });
  if (!Number.isSafeInteger(d.size) || d.size < 0) throw new InputError(`${where}: ${what} has size ${d.size}`, { where });
  const annotations = d.annotations;
  if (annotations !== undefined && (annotations === null || typeof annotations !== 'object')) {
    throw new InputError(`${where}: ${what} has annotations that are not a string map`, { where });
  }
  return { mediaType: d.mediaType, digest: d.digest, size: d.size, ...(annotations ? { annotations } : {}) };
}

/** An image manifest from its bytes; an index (a multi-platform image) or anything else is refused, naming `where`. */
export function parseOciManifest(bytes: Uint8Array, where: string, contentType?: string): OciManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new InputError(`${where}: the manifest is not JSON (${(err as Error).message})`, { where });
  }
  const m = raw as { mediaType?: unknown; schemaVersion?: unknown; artifactType?: unknown; config?: unknown; layers?: unknown } | null;
  if (m === null || typeof m !== 'object') throw new InputError(`${where}: the manifest is not a JSON object`, { where });
  const mediaType = typeof m.mediaType === 'string' ? m.mediaType : contentType?.split(';')[0]?.trim() ?? ociManifestMediaType;
  if (mediaType === ociIndexMediaType || mediaType === dockerListMediaType) {
    throw new InputError(`${where} is an image index (${mediaType}), not a provider release artifact`, {
      where,
      hint: 'push the release files as one artifact: oras push <registry>/<repository>:<version> metadata.yaml <type>-components.yaml …',
    });
  }
  if (mediaType !== ociManifestMediaType && mediaType !== dockerManifestMediaType) {
    throw new InputError(`${where}: unsupported manifest media type ${JSON.stringify(mediaType)}`, { where });
  }
  if (m.schemaVersion !== 2) throw new InputError(`${where}: the manifest's schemaVersion is ${JSON.stringify(m.schemaVersion)}, not 2`, { where });
  if (!Array.isArray(m.layers)) throw new InputError(`${where}: the manifest has no layers`, { where });
  return {
    mediaType,
    ...(typeof m.artifactType === 'string' ? { artifactType: m.artifactType } : {}),
    config: descriptor(m.config, where, 'config'),
    layers: m.layers.map((l, i) => descriptor(l, where, `layers[${i}]`)),
  };
}

export function layerTitle(layer: OciDescriptor): string | undefined {
  const title: unknown = layer.annotations?.[titleAnnotation];
  return typeof title === 'string' ? title : undefined;
}

/** The longest layer title read as a release file name (a file name on every file system capiform writes to). */
export const maxTitleBytes = 255;

/** Why `title` cannot be a release file name, or null when it can. */
export function titleProblem(title: unknown): string | null {
  if (typeof title !== 'string') return 'is not a string';
  if (title === '') return 'is empty';
  if (/[\u0000-\u001f\u007f]/.test(title)) return 'has a NUL or control character';
  if (Buffer.byteLength(title) > maxTitleBytes) return `is longer than ${maxTitleBytes} bytes`;
  if (title.startsWith('/') || /^[A-Za-z]:/.test(title)) return 'is an absolute path';
  if (title.split(/[/\\]/).includes('..')) return 'leaves the release folder ("..")';
  if (title.includes('/') || title.includes('\\')) return 'names a folder (a release file name has no / or \\)';
  if (title === '.') return 'is "."';
  return null;
}

/**
 * Refuses a manifest whose layer titles could not be release file names: a title becomes a file name in the lock,
 * the cache, the rendered tree and a bundle, so `../x`, `/etc/passwd`, `a/../../b`, an empty title, one with a NUL
 * or control character, or the same title on two layers is a resolution error (exit 3) naming the repository and
 * the layer's digest, before anything is read or written. oras refuses the same on pull (oras-go
 * `content/file/file.go`: `ErrPathTraversalDisallowed`, `ErrDuplicateName`); cluster-api-operator reads only the
 * names it expects (`internal/controller/oci_source.go`, `mapStore`). Layers without a title are not files and are
 * skipped, as oras does.
 */
export function checkLayerTitles(manifest: OciManifest, where: string): void {
  const seen = new Map<string, string>();
  for (const layer of manifest.layers) {
    if (layer.annotations === undefined || !(titleAnnotation in layer.annotations)) continue;
    const title: unknown = layer.annotations[titleAnnotation];
    const problem = titleProblem(title);
    const shown = typeof title === 'string' ? JSON.stringify(title) : String(title);
    const hint = 'push the release files by their file names only (oras push <ref> metadata.yaml <type>-components.yaml …, run in the release folder); check who can push to this repository';
    if (problem !== null) {
      throw new ResolutionError(`${where}: layer ${layer.digest} has title ${shown}, which ${problem}: it cannot be a release file name`, { where, hint }, 'E_OCI_LAYER_TITLE');
    }
    const first = seen.get(title as string);
    if (first !== undefined) {
      throw new ResolutionError(`${where}: layers ${first} and ${layer.digest} both have title ${shown}: a release has one file of each name`, { where, hint }, 'E_OCI_LAYER_TITLE');
    }
    seen.set(title as string, layer.digest);
  }
}
