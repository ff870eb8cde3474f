/** A run's context: the config and what the stages read with, fixed once so no stage looks at the options again. */
import type { ResolvedConfig } from '../config/index.js';
import type { ArtifactCache } from '../lock/index.js';
import { repositoryFactory, type RepositoryFactory } from '../resolve/index.js';
import type { ContractPlanner, PipelineRequest } from './types.js';

export interface PipelineContext {
  config: ResolvedConfig;
  /** As given: without an environment there is no tree cache. */
  env: NodeJS.ProcessEnv | undefined;
  repositories: RepositoryFactory;
  /** Default: the content cache of `env`. */
  cache: ArtifactCache | undefined;
  log: (line: string) => void;
  frozen: boolean;
  upgrade: 'all' | readonly string[] | undefined;
  contract: string | undefined;
  planContract: ContractPlanner | undefined;
}

export function pipelineContext(opts: PipelineRequest): PipelineContext {
  return {
    config: opts.config,
    env: opts.env,
    repositories:
      opts.repositories ??
      repositoryFactory({ env: opts.env ?? {}, offline: opts.offline ?? false, project: opts.config.dir, onProgress: opts.onProgress, ...(opts.http ? { http: opts.http } : {}) }),
    cache: opts.cache,
    log: opts.log ?? (() => {}),
    frozen: opts.frozen ?? false,
    upgrade: opts.upgrade,
    contract: opts.contract,
    planContract: opts.planContract,
  };
}
