/**
 * `capiform bundle`: the project's lock, tree and every release file it pins, verified against the lock, with the
 * images the tree uses, in one reproducible archive.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sha256Hex, temporarySibling, writeFileAtomic } from '../cache/index.js';
import { InputError } from '../errors.js';
import type { ResolvedConfig } from '../config/index.js';
import {
  dsseEnvelope,
  loadSigningKey,
  ociLayoutFile,
  ociLayoutFiles,
  provenanceFile,
  signatureFiles,
  signBlob,
} from '../bundle/index.js';
import { capiformVersion } from '../version.js';
import { bundleFiles, checkLockedFiles, defaultBundleName, imagesOfTree, lockedFileReader, mtimeFromEnv, readProjectLock, readTree, writeArchive, type Extra } from '../bundle/index.js';
import type { LockedFile } from '../lock/index.js';
import type { OperatorSettings } from '../render/index.js';
import type { ProgressListener } from '../resolve/index.js';
import { checkTarget } from './compositions.js';
import { configImageOverrides, upstreamTree } from './images.js';

export interface BundleRequest {
  config: ResolvedConfig;
  env: NodeJS.ProcessEnv;
  /** `--out`: its name (without `.tar.gz`) names the bundle; default: named after the lock. */
  out: string | undefined;
  extras: readonly Extra[];
  onProgress: ProgressListener | undefined;
  /** A fleet: bundle this management cluster only (its lock section and `targets/<name>/`); default: every one. */
  managementCluster?: string;
  /** Where the archive of bundle `name` is written (checked by the caller just before the write). */
  target: (name: string) => string;
  /**
   * `--sign-key`: the PEM ECDSA P-256 private key (its path, and the name to show); `<bundle>.sig` and
   * `<bundle>.intoto.jsonl` are written beside the bundle. The key is read before any work and never stored.
   */
  signKey?: { file: string; shown: string };
  /**
   * `--oci-layout`: also write every locked release as an OCI artifact into OCI image layouts under this folder (its
   * absolute path, and the name to show), one layout per provider; see src/bundle/oci-layout.ts.
   */
  ociLayout?: { dir: string; shown: string };
}

export interface BundleResult {
  file: string;
  name: string;
  bytes: number;
  sha256: string;
  files: number;
  images: number;
  /** With `signKey`: the signature and the provenance envelope written beside the bundle. */
  signature?: { sig: string; envelope: string };
  /** With `ociLayout`: the folder, and each artifact in it (`<label>:<version>` and its manifest digest). */
  ociLayout?: { dir: string; artifacts: { ref: string; digest: string }[] };
}

/** Builds the bundle and writes it; reads the lock and the tree as they are on disk. */
export async function buildBundle(req: BundleRequest): Promise<BundleResult> {
  const { config } = req;
  const dir = config.dir;
  const key = req.signKey ? readSigningKey(req.signKey.file, req.signKey.shown) : undefined;
  if (req.ociLayout) checkLayoutTarget(req.ociLayout.dir, req.ociLayout.shown);
  // clusterctl.yaml gets the same `images:` the render applied: the global entries and each provider's own.
  const target = req.managementCluster;
  if (target !== undefined) checkTarget(config, target);
  const imageOverrides = configImageOverrides(target === undefined ? config : config.targets!.find((t) => t.target === target)!);
  const lock = readProjectLock(dir, target);
  const tree = readTree(dir, target);
  const providersDir = config.targets ? `targets/${target ?? config.targets[0]!.target!}/providers/` : 'providers/';
  if (!tree.some((f) => f.path.startsWith(providersDir))) {
    throw new InputError(`no rendered tree in ${dir} (${providersDir} is missing)`, { hint: 'run `capiform render` first' });
  }
  const name = req.out ? basename(req.out).replace(/\.tar\.gz$|\.tgz$/, '') : defaultBundleName(lock);
  // Release files are checked against the lock before anything renders from them (and read once).
  const read = memoized(lockedFileReader(dir, req.env));
  checkLockedFiles(lock.lock, read);
  const sources = await upstreamTree(config, { env: req.env, onProgress: req.onProgress });
  const images = imagesOfTree(tree, { ...(sources ? { sources } : {}), overrides: imageOverrides });
  const files = bundleFiles({
    name,
    lockText: lock.text,
    lock: lock.lock,
    config: { name: basename(config.file), content: readFileSync(config.file) },
    readLocked: read,
    tree,
    images,
    imageOverrides,
    extras: req.extras,
    // A fleet's provider objects carry each management cluster's own settings (its providers, variables, images).
    operator: (t) => operatorSettings(t === undefined ? config : config.targets?.find((c) => c.target === t)),
    capiformVersion: capiformVersion(),
  });
  const archive = writeArchive(
    files.map((f) => ({ ...f, path: `${name}/${f.path}` })),
    { mtime: mtimeFromEnv(req.env) },
  );
  const out = req.target(name);
  writeFileAtomic(out, archive);
  let signature: BundleResult['signature'];
  if (key) {
    const provenance = files.find((f) => f.path === provenanceFile)!.content;
    signature = signatureFiles(out);
    writeFileAtomic(signature.sig, signBlob(archive, key));
    writeFileAtomic(signature.envelope, dsseEnvelope(typeof provenance === 'string' ? Buffer.from(provenance) : provenance, key));
  }
  let ociLayout: BundleResult['ociLayout'];
  if (req.ociLayout) {
    const layout = ociLayoutFiles(lock.lock, read);
    writeLayoutFolder(req.ociLayout.dir, req.ociLayout.shown, layout.files);
    ociLayout = { dir: req.ociLayout.dir, artifacts: layout.artifacts.map((a) => ({ ref: `${a.label}:${a.version}`, digest: a.manifestDigest })) };
  }
  return {
    file: out,
    name,
    bytes: archive.length,
    sha256: sha256Hex(archive),
    files: files.length,
    images: images.length,
    ...(signature ? { signature } : {}),
    ...(ociLayout ? { ociLayout } : {}),
  };
}

/**
 * `--oci-layout DIR` replaces DIR only when it is missing, empty, or what an earlier `--oci-layout` wrote (folders that
 * each hold an `oci-layout` file): any other folder or a file there is refused before any work, so it never
 * deletes a user's files.
 */
function checkLayoutTarget(dir: string, shown: string): void {
  if (!existsSync(dir)) return;
  const fix = { where: dir, hint: 'give --oci-layout a new folder (or one an earlier `capiform bundle --oci-layout` wrote: it is replaced)' };
  if (!lstatSync(dir).isDirectory()) throw new InputError(`--oci-layout ${shown} is not a folder`, fix, 'E_OCI_LAYOUT_TARGET');
  for (const name of readdirSync(dir)) {
    const entry = join(dir, name);
    if (!lstatSync(entry).isDirectory() || !existsSync(join(entry, ociLayoutFile))) {
      throw new InputError(`--oci-layout ${shown} holds ${name}, which is not an OCI layout capiform wrote; refusing to replace the folder`, fix, 'E_OCI_LAYOUT_TARGET');
    }
  }
}

/**
 * Writes the layouts into a staging folder beside `dir` and renames it into place (the previous folder, if any, is
 * moved aside first and removed after), so a reader sees the old layouts or the new ones, never a part.
 */
function writeLayoutFolder(dir: string, shown: string, files: readonly { path: string; content: Uint8Array }[]): void {
  checkLayoutTarget(dir, shown);
  mkdirSync(dirname(dir), { recursive: true });
  const staging = temporarySibling(dir);
  try {
    for (const f of files) {
      mkdirSync(dirname(join(staging, f.path)), { recursive: true });
      writeFileSync(join(staging, f.path), f.content);
    }
    if (existsSync(dir)) {
      const old = temporarySibling(dir);
      renameSync(dir, old);
      renameSync(staging, dir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(staging, dir);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function readSigningKey(file: string, shown: string): ReturnType<typeof loadSigningKey> {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch {
    throw new InputError(`cannot read the signing key ${shown}`, { where: file, hint: 'give the path of a PEM ECDSA P-256 private key with --sign-key' });
  }
  return loadSigningKey(pem, shown);
}

function operatorSettings(config: ResolvedConfig | undefined): OperatorSettings | undefined {
  return config && { providers: config.providers, variables: config.variables, images: config.images };
}

function memoized(read: (label: string, version: string, file: LockedFile) => Uint8Array): (label: string, version: string, file: LockedFile) => Uint8Array {
  const seen = new Map<string, Uint8Array>();
  return (label, version, file) => {
    const key = `${label}\0${version}\0${file.name}`;
    let bytes = seen.get(key);
    if (!bytes) seen.set(key, (bytes = read(label, version, file)));
    return bytes;
  };
}
