/**
 * `--bundle FILE` for the pipeline commands (`render`, `lock`, `diff`, `plan upgrade`): one option and one wrapper,
 * so each command adds two lines. The wrapper opens the bundle (verify, safe extraction) and hands the pipeline a
 * repository factory over the bundle and an empty cache; the temporary directory is removed afterwards.
 */
import { join, resolve as resolvePath } from 'node:path';
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
export async function withBundle<T>(io: CliIO, file: string | undefined, configDir: string, fn: (opts: Partial<BundlePipelineOptions>, bundle?: BundleSource) => Promise<T>): Promise<T> {
  if (file === undefined) return fn({});
  // Loaded only with --bundle: a render or lock without one never reads an archive.
  const { archiveLimitsFromEnv, openBundle } = await import('../../bundle/index.js');
  const src = await openBundle(resolvePath(io.cwd, file), configDir, { limits: archiveLimitsFromEnv(io.env), source: file });
  try {
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
