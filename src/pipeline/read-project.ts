/**
 * The first stage: read the project as it is (the config's sources, the lock on disk) and explain how the lock differs
 * from the config. Frozen runs stop here on any difference; bad `--upgrade`/`--contract` requests stop here too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir } from '../cache/index.js';
import { CapiformError, UsageError } from '../errors.js';
import { checkContractPin, lockDrift, lockFileName, LockStaleError, readLockDocument, staleLockError, type Lock, type LockDocument, type LockDrift, type LockedSource } from '../lock/index.js';
import { aggregate, type Problem } from '../render/index.js';
import { checkLockPath } from './tree/index.js';
import { certManagerLabel, certManagerRepository, providerLocation, type RepositoryRef } from '../resolve/index.js';
import type { PipelineContext } from './context.js';

export interface ProjectState {
  lockPath: string;
  /** The lock on disk with its text (undefined: there is none yet). */
  existingDocument: LockDocument | undefined;
  existing: Lock | undefined;
  certManager: RepositoryRef | undefined;
  drift: LockDrift[];
}

export async function readProject(ctx: PipelineContext): Promise<ProjectState> {
  const { config } = ctx;
  const lockPath = join(config.dir, lockFileName);
  checkLockPath(lockPath);
  const existingDocument = existsSync(lockPath) ? readLockDocument(lockPath, lockPath, ctx.env ? defaultCacheDir(ctx.env) : undefined) : undefined;
  const existing = existingDocument?.lock;
  if (ctx.frozen && !existing) {
    throw new LockStaleError('there is no capi.lock.yaml', '(missing)', 'run `capiform lock` and commit capi.lock.yaml');
  }
  checkUpgradeRequest(ctx);

  // Sources (every unknown provider at once), then how the lock differs from the config.
  const problems: Problem[] = [];
  const sources = new Map<string, LockedSource>();
  for (const p of config.providers) {
    try {
      sources.set(p.label, providerLocation(p, config.dir).source);
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push({ where: p.configPath, error: err });
    }
  }
  if (problems.length > 0) throw aggregate(problems, config);
  const certManager = await certManagerRepository(config, ctx.repositories);
  if (certManager) sources.set('cert-manager', certManager.source);
  const drift = existing ? lockDrift(config, existing, sources) : [];
  if (ctx.frozen && drift.length > 0) throw staleLockError(drift);
  for (const d of drift) ctx.log(`capi.lock.yaml: ${d.reason}: ${d.detail}`);
  return { lockPath, existingDocument, existing, certManager, drift };
}

function checkUpgradeRequest(ctx: PipelineContext): void {
  const { config, contract, upgrade } = ctx;
  if (contract !== undefined) {
    if (upgrade !== 'all') throw new UsageError('--contract needs --upgrade (without provider names): a contract upgrade moves every provider', { hint: `capiform lock --upgrade --contract ${contract}` });
    checkContractPin(config, contract);
  }
  if (upgrade && upgrade !== 'all') {
    for (const n of upgrade) {
      if (n === certManagerLabel && config.certManager) continue;
      if (!config.providers.some((p) => p.name === n || p.label === n)) {
        throw new UsageError(`--upgrade ${n}: no such provider in the config`, {
          hint: `use a name or label of: ${[...config.providers.map((p) => p.label), ...(config.certManager ? [certManagerLabel] : [])].join(', ')}`,
        });
      }
    }
  }
}
