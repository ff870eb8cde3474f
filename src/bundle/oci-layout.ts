/**
 * The bundle's provider releases as OCI artifacts in OCI image layouts
 * (https://github.com/opencontainers/image-spec/blob/main/image-layout.md), one layout folder per provider
 * (`<label>/`: `oci-layout`, `index.json`, `blobs/sha256/<hex>`), one artifact per release, tagged with its version,
 * so a site copies each into its registry with `skopeo copy oci:<dir>/<label>:<version> docker://…` or
 * `oras cp --from-oci-layout <dir>/<label>:<version> …`. A folder per provider because tags are versions, and two
 * providers of one layout would both want `v1.12.4` (skopeo refuses a layout whose `ref.name` is ambiguous).
 *
 * Each artifact is what `oras push <ref> <files…>` writes and what capiform's OCI resolver and cluster-api-operator's
 * `fetchConfig.oci` read (src/resolve/oci/artifact.ts, operator `internal/controller/oci_source.go`): an OCI image
 * manifest with oras's default `artifactType`, the empty config, and one `application/vnd.oci.image.layer.v1.tar`
 * layer per release file titled with `org.opencontainers.image.title`. The components file is titled with the
 * operator's full name (`infrastructure-docker-v1.12.4-components.yaml`), which both read whatever the release's own
 * file name (CAPD's `infrastructure-components-development.yaml`); metadata is `metadata.yaml`, templates and
 * ClusterClass files keep their names, cert-manager's release keeps `cert-manager.yaml`.
 *
 * Pure data: same lock and bytes, same blobs and digests (no creation time, layers in name order, fixed key order).
 * The caller writes the files.
 */
import { sha256Hex } from '../cache/index.js';
import type { Lock, LockedFile } from '../lock/index.js';
import {
  ociEmptyConfig,
  ociIndexMediaType,
  ociLayerMediaType,
  ociManifestMediaType,
  operatorProviderType,
  orasArtifactType,
  titleAnnotation,
} from '../resolve/oci/index.js';
import { componentsFileOf } from './layout.js';
import { lockedFiles } from './locked-files.js';

export const refNameAnnotation = 'org.opencontainers.image.ref.name';
export const ociLayoutFile = 'oci-layout';
export const ociLayoutIndex = 'index.json';

export interface OciLayoutFile {
  /** Relative to the layout root: `cluster-api/index.json`, `cluster-api/blobs/sha256/<hex>`. */
  readonly path: string;
  readonly content: Uint8Array;
}

export interface OciLayoutArtifact {
  /** The provider's label: the layout folder (`infrastructure-docker`). */
  readonly label: string;
  /** The tag (`org.opencontainers.image.ref.name`). */
  readonly version: string;
  readonly manifestDigest: string;
  /** Layer title → release file name. */
  readonly layers: readonly { readonly title: string; readonly file: string; readonly digest: string }[];
}

export interface OciLayout {
  readonly files: readonly OciLayoutFile[];
  readonly artifacts: readonly OciLayoutArtifact[];
}

interface Release {
  label: string;
  version: string;
  /** The title of each file, by file name. */
  title: (file: string) => string;
  files: LockedFile[];
}

const encode = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

/** The releases of `lock`, by label and version, with the title each file gets. */
function releases(lock: Lock): Release[] {
  const byKey = new Map<string, Release>();
  const titles = new Map<string, (file: string) => string>();
  for (const p of lock.providers) {
    const kind = operatorProviderType(p.type);
    const components = componentsFileOf(p);
    titles.set(p.label, (file) => (kind !== undefined && file === components ? `${kind}-${p.name}-${p.version}-components.yaml` : file));
  }
  for (const { label, version, file } of lockedFiles(lock)) {
    const key = `${label}\0${version}`;
    let r = byKey.get(key);
    if (!r) {
      const title = titles.get(label);
      // A template pin's release holds templates only: their names are their titles.
      const installed = lock.providers.find((p) => p.label === label)?.version === version;
      byKey.set(key, (r = { label, version, title: installed && title ? title : (f) => f, files: [] }));
    }
    r.files.push(file);
  }
  return [...byKey.values()];
}

/** The layouts of every release `lock` pins; `read` gives a locked file's bytes (checked against the lock by the caller). */
export function ociLayoutFiles(lock: Lock, read: (label: string, version: string, file: LockedFile) => Uint8Array): OciLayout {
  const blobs = new Map<string, Map<string, Uint8Array>>();
  const manifests = new Map<string, { digest: string; size: number; version: string }[]>();
  const artifacts: OciLayoutArtifact[] = [];
  const addBlob = (label: string, bytes: Uint8Array): { digest: string; size: number } => {
    const hex = sha256Hex(bytes);
    let m = blobs.get(label);
    if (!m) blobs.set(label, (m = new Map()));
    m.set(hex, bytes);
    return { digest: `sha256:${hex}`, size: bytes.byteLength };
  };
  for (const r of releases(lock)) {
    const config = addBlob(r.label, new TextEncoder().encode(ociEmptyConfig.bytes));
    const layers = r.files
      .map((f) => ({ file: f, title: r.title(f.name) }))
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      .map(({ file, title }) => ({ title, file: file.name, ...addBlob(r.label, read(r.label, r.version, file)) }));
    const manifest = encode({
      schemaVersion: 2,
      mediaType: ociManifestMediaType,
      artifactType: orasArtifactType,
      config: { mediaType: ociEmptyConfig.mediaType, ...config, data: Buffer.from(ociEmptyConfig.bytes).toString('base64') },
      layers: layers.map((l) => ({ mediaType: ociLayerMediaType, digest: l.digest, size: l.size, annotations: { [titleAnnotation]: l.title } })),
    });
    const m = addBlob(r.label, manifest);
    let list = manifests.get(r.label);
    if (!list) manifests.set(r.label, (list = []));
    list.push({ ...m, version: r.version });
    artifacts.push({ label: r.label, version: r.version, manifestDigest: m.digest, layers: layers.map(({ title, file, digest }) => ({ title, file, digest })) });
  }
  const files: OciLayoutFile[] = [];
  for (const label of [...blobs.keys()].sort()) {
    files.push({ path: `${label}/${ociLayoutFile}`, content: encode({ imageLayoutVersion: '1.0.0' }) });
    const index = {
      schemaVersion: 2,
      mediaType: ociIndexMediaType,
      manifests: manifests
        .get(label)!
        .sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0))
        .map((m) => ({ mediaType: ociManifestMediaType, digest: m.digest, size: m.size, annotations: { [refNameAnnotation]: m.version } })),
    };
    files.push({ path: `${label}/${ociLayoutIndex}`, content: encode(index) });
    for (const hex of [...blobs.get(label)!.keys()].sort()) files.push({ path: `${label}/blobs/sha256/${hex}`, content: blobs.get(label)!.get(hex)! });
  }
  return { files, artifacts: artifacts.sort((a, b) => (a.label === b.label ? (a.version < b.version ? -1 : 1) : a.label < b.label ? -1 : 1)) };
}
