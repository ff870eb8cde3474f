/**
 * The first stage: read the project as it is (the config's sources, the lock on disk) and explain how the lock differs
 * from the config. Frozen runs stop here on any difference; bad `--upgrade`/`--contract` requests stop here too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir } from '../cache/index.js';
import { CapiformError, UsageError } from '../errors.js';
import {
  checkContractPin,
  formatLock,
  isFleetLock,
  lockDrift,
  lockFileName,
  LockStaleError,
  readLockFile,
  staleLockError,
  type Lock,
  type LockDocument,
  type LockDrift,
  type LockedSource,
  type LockFileDocument,
} from '../lock/index.js';
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
  const file = existsSync(lockPath) ? readLockFile(lockPath, lockPath, ctx.env ? defaultCacheDir(ctx.env) : undefined) : undefined;
  const existingDocument = file && lockDocumentFor(file, config.target, ctx);
  const existing = existingDocument?.lock;
  if (ctx.frozen && !existing) {
    if (file && config.target !== undefined) {
      throw new LockStaleError(`it has no section for management cluster "${config.target}"`, `targets.${config.target}`, 'run `capiform lock` and commit capi.lock.yaml');
    }
    if (file) throw new LockStaleError('it holds a fleet\'s sections, the config one management cluster', 'targets', 'run `capiform lock` and commit capi.lock.yaml');
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
  const section = config.target === undefined ? '' : ` (${config.target})`;
  for (const d of drift) ctx.log(`capi.lock.yaml${section}: ${d.reason}: ${d.detail}`);
  return { lockPath, existingDocument, existing, certManager, drift };
}

/**
 * The part of the lock file this run resolves against: the whole lock, or a fleet target's section (as its own text,
 * so "did it change" compares like with like). A lock of the other form pins nothing for this config: the config moved
 * between one management cluster and a fleet, and the next lock is written in the config's form.
 */
function lockDocumentFor(file: LockFileDocument, target: string | undefined, ctx: PipelineContext): LockDocument | undefined {
  if (target === undefined) {
    if (!isFleetLock(file.lock)) return { text: file.text, lock: file.lock };
    ctx.log('capi.lock.yaml: it holds sections per management cluster; the config has one: the lock is resolved afresh');
    return undefined;
  }
  if (!isFleetLock(file.lock)) {
    ctx.log(`capi.lock.yaml: it is a single management cluster's lock; "${target}" is resolved afresh`);
    return undefined;
  }
  const section = file.lock.targets.get(target);
  return section && { text: formatLock(section), lock: section };
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
