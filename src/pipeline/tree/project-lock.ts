/**
 * One writer at a time per project: the commands that write the tree or capi.lock.yaml hold `.capiform/writer.lock`
 * while they run, and before anything else finish or roll back a write an earlier run left unfinished.
 */
import { join } from 'node:path';
import { withProcessLock } from '../../cache/index.js';
import { checkTreePaths } from './tree-paths.js';
import { crashHook, repairTree, stateDir } from './tree-writer.js';

/** How long a writing command waits for another one by default (`--lock-timeout`). */
export const defaultLockTimeoutSeconds = 60;
export const projectLockFile = `${stateDir}/writer.lock`;

export interface ProjectLockOptions {
  /** Recorded in the lock for other processes' waiting notice: `capiform render`. */
  command: string;
  timeoutSeconds: number;
  /** The waiting notice, printed once when another process holds the lock. */
  notice?: (line: string) => void;
  /** Carries the crash-test hook (CAPIFORM_CRASH_AT). */
  env?: NodeJS.ProcessEnv;
  /** Leave an unfinished write for the caller to refuse instead of repairing it (a command that only reads the tree). */
  noRepair?: boolean;
}

export type Repair = ReturnType<typeof repairTree>;

/** Runs `fn` holding the project's writer lock, after repairing an interrupted write (what was done is passed on). */
export async function withProjectLock<T>(dir: string, opts: ProjectLockOptions, fn: (repaired: Repair) => Promise<T>): Promise<T> {
  // The lock lives in the state folder: a file in its way is reported as the tree writer would, before anything else.
  checkTreePaths(dir, []);
  return withProcessLock(
    {
      file: join(dir, projectLockFile),
      what: 'capi.lock.yaml/tree',
      command: opts.command,
      timeoutSeconds: opts.timeoutSeconds,
      timeoutFlag: '--lock-timeout',
      ...(opts.notice ? { onWait: opts.notice } : {}),
    },
    async () => {
      const hook = crashHook(opts.env ?? {});
      const repaired = opts.noRepair ? 'none' : repairTree(dir, hook);
      hook('recovered');
      return fn(repaired);
    },
  );
}
