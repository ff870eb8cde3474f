/**
 * `capiform bundle`: the project's lock, tree and every release file it pins, verified against the lock, with the
 * images the tree uses, in one reproducible archive.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { sha256Hex, writeFileAtomic } from '../cache/index.js';
import { InputError } from '../errors.js';
import type { ResolvedConfig } from '../config/index.js';
import {
  dsseEnvelope,
  loadSigningKey,
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
}

/** Builds the bundle and writes it; reads the lock and the tree as they are on disk. */
export async function buildBundle(req: BundleRequest): Promise<BundleResult> {
  const { config } = req;
  const dir = config.dir;
  const key = req.signKey ? readSigningKey(req.signKey.file, req.signKey.shown) : undefined;
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
  return { file: out, name, bytes: archive.length, sha256: sha256Hex(archive), files: files.length, images: images.length, ...(signature ? { signature } : {}) };
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
