/**
 * `--bundle FILE` for the pipeline commands (`render`, `lock`, `diff`, `plan upgrade`): one option and one wrapper,
 * so each command adds two lines. The wrapper opens the bundle (verify, safe extraction) and hands the pipeline a
 * repository factory over the bundle and an empty cache; the temporary directory is removed afterwards.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { UsageError } from '../../errors.js';
import type { Command } from 'commander';
import { sha256Hex } from '../../cache/index.js';
import type { BundleSource } from '../../bundle/index.js';
import type { CliIO } from '../context.js';

export function addBundleOption(cmd: Command): Command {
  return cmd.option('--bundle <file>', 'read every provider release from this air-gapped bundle (no network, no cache)');
}

/** What to spread into the pipeline options: `repositories` and an empty, write-nowhere `cache`. */
export interface BundlePipelineOptions {
  repositories: BundleSource['repositories'];
  cache: { get(sha256: string): Promise<Uint8Array | null>; put(bytes: Uint8Array): Promise<string> };
}

/** Runs `fn` with the bundle's pipeline options, or with none when `file` is undefined. */
export async function withBundle<T>(
  io: CliIO,
  file: string | undefined,
  configDir: string,
  fn: (opts: Partial<BundlePipelineOptions>, bundle?: BundleSource) => Promise<T>,
  key?: string,
): Promise<T> {
  if (file === undefined) {
    if (key !== undefined) throw new UsageError('--key verifies a bundle: give it with --bundle <file>');
    return fn({});
  }
  // Loaded only with --bundle: a render or lock without one never reads an archive.
  const { archiveLimitsFromEnv, checkSignedProvenance, openBundle, provenanceFile, verifyBundleSignature } = await import('../../bundle/index.js');
  const path = resolvePath(io.cwd, file);
  // The signature is checked before a byte of the bundle is extracted or read.
  const signed = key !== undefined && existsSync(path) ? await verifyBundleSignature(path, resolvePath(io.cwd, key), file, key) : undefined;
  const src = await openBundle(path, configDir, { limits: archiveLimitsFromEnv(io.env), source: file });
  try {
    if (signed !== undefined) {
      const inBundle = join(src.dir, provenanceFile);
      checkSignedProvenance(signed, existsSync(inBundle) ? readFileSync(inBundle) : undefined, file);
    }
    return await fn(
      {
        repositories: src.repositories,
        cache: { get: async () => null, put: async (bytes) => sha256Hex(bytes) },
      },
      src,
    );
  } finally {
    src.cleanup();
  }
}

/**
 * For commands that take a local repository directory (`plan upgrade --repository`): runs `fn` with the bundle's
 * extracted `repository/` folder, or with `fallback` when no bundle is given.
 */
export async function withBundleRepository<T>(io: CliIO, file: string | undefined, fallback: string | undefined, fn: (repositoryDir: string | undefined) => Promise<T> | T): Promise<T> {
  if (file === undefined) return fn(fallback);
  const { archiveLimitsFromEnv, openBundle, repositoryDir } = await import('../../bundle/index.js');
  const src = await openBundle(resolvePath(io.cwd, file), io.cwd, { limits: archiveLimitsFromEnv(io.env), source: file });
  try {
    return await fn(join(src.dir, repositoryDir));
  } finally {
    src.cleanup();
  }
}
