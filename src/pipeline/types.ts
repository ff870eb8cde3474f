/** What a pipeline run is asked for and what it returns, shared by every composition (render, check, lock, memory). */
import type { ResolvedConfig } from '../config/index.js';
import type { ArtifactCache, Lock, LockDrift, LockFile } from '../lock/index.js';
import type { OmittedObject, Shard, TreeChanges, TreeFile, UnusedVariable } from '../render/index.js';
import type { HttpClient, ProgressListener, RepositoryFactory, RepositoryRef } from '../resolve/index.js';
import type { Finding } from '../validate/index.js';

export type { OmittedObject } from '../render/index.js';

/**
 * `render` writes the lock and the tree; `check` writes nothing and compares with the tree on disk; `lock` resolves
 * and records artifacts only; `memory` writes nothing and returns every file with its contents (`diff --render`).
 */
export type PipelineMode = 'render' | 'check' | 'lock' | 'memory';

/** A provider-contract finding of `lock`; in a fleet, the management cluster whose section resolved the provider. */
export type ContractFinding = Finding & { readonly target?: string };

/** What every composition takes. */
export interface PipelineRequest {
  config: ResolvedConfig;
  /**
   * A fleet's management cluster: `render`, `check` and a render in memory render only it (its `targets/<name>/` and
   * lock section; the other sections stay as on disk); `lock --upgrade` re-resolves only its section.
   */
  target?: string;
  /** Never change the lock; fail, naming the entry, when the config no longer matches it. */
  frozen?: boolean;
  /** Re-resolve all providers, or those named (by name or label). */
  upgrade?: 'all' | readonly string[];
  /**
   * With `upgrade: 'all'`: move every provider to the versions `plan upgrade` proposes for this contract (the lock
   * then records it as the management contract).
   */
  contract?: string;
  /** With `contract`: the versions to move to (`plan upgrade`'s proposal, ./contract-upgrade.ts). */
  planContract?: ContractPlanner;
  cache?: ArtifactCache;
  /** Where provider releases come from; default: local folders and remote repositories over `http`. */
  repositories?: RepositoryFactory;
  env?: NodeJS.ProcessEnv;
  /** `--offline`: remote repositories answer from the cache only (no socket is opened); a missing item fails, named. */
  offline?: boolean;
  /** Download progress (the CLI's `progressReporter`). */
  onProgress?: ProgressListener | undefined;
  /** The HTTP client for remote repositories (tests count its requests); default: one for this run. */
  http?: HttpClient;
  /** Progress and notes (already redacted). */
  log?: (line: string) => void;
  /** `render --no-validate`: write the tree without checking the rendered objects against their CRDs. */
  validate?: boolean;
  /**
   * `--shard I/N`: render, check or write only the paths this shard owns (its clusters; shard 1 also everything that
   * is not a cluster directory), leaving the rest of the tree as it is.
   */
  shard?: Shard;
}

export interface PipelineOptions extends PipelineRequest {
  mode: PipelineMode;
}

/** Version pins by provider label for a contract upgrade, and notes (upgrade-path warnings) to print. */
export type ContractPlanner = (
  config: ResolvedConfig,
  lock: Lock,
  repositories: ReadonlyMap<string, RepositoryRef>,
  contract: string,
) => Promise<{ pinned: Map<string, string>; notes: string[] }>;

export interface PipelineResult {
  /** One management cluster's lock, or a fleet's sections. */
  lock: LockFile;
  /** A fleet: its management clusters in name order (file paths begin with `targets/<name>/`). */
  targets?: string[];
  lockChanged: boolean;
  lockWritten: boolean;
  drift: LockDrift[];
  files: TreeFile[];
  changes: TreeChanges | undefined;
  omitted: OmittedObject[];
  repaired: 'none' | 'discarded' | 'completed';
  /** `render`: the variables the config sets that nothing rendered reads (warnings; none from a shard other than 1). */
  unusedVariables?: UnusedVariable[];
  /** `lock`: the provider-contract findings of the providers it resolved (none with `contractLint: "off"`). */
  contractFindings?: ContractFinding[];
}
