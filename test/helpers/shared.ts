/**
 * The reference material that sits beside the repository in `../shared`: real provider releases (`corpus`) and
 * clusterctl/CAPI test vectors (`vectors`). Tests that read it go through `sharedDir` so a wrong path can never pass
 * unnoticed: without the folder a test is skipped with the path in its name, and under `CAPIFORM_REQUIRE_SHARED=1`
 * (CI sets it) the test file fails instead.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type SharedKind = 'corpus' | 'vectors';

/** The variable that points a run at another copy; relative values are read from the repository root. */
export const sharedDirVariable: Record<SharedKind, string> = {
  corpus: 'CAPIFORM_CORPUS_DIR',
  vectors: 'CAPIFORM_VECTORS_DIR',
};

/**
 * What must exist inside for the folder to count: every corpus test reads `repository/`, while a vectors folder may
 * hold any set of suites (a checker's own, say), so the folder itself is enough.
 */
const marker: Record<SharedKind, string> = { corpus: 'repository', vectors: '.' };

const repoRoot = resolve(import.meta.dirname, '..', '..');

export interface SharedDir {
  /** Absolute path of the folder (whether or not it exists). */
  path: string;
  present: boolean;
  /** `''` when present, else ` (skipped: …)`: appended to the name of what is skipped, so the report says why. */
  skipped: string;
}

export class MissingSharedDirError extends Error {}

/**
 * Where `kind` is. Call it at module level (a test file is collected before it runs): a missing folder under
 * `CAPIFORM_REQUIRE_SHARED=1` throws, which fails the whole file.
 */
export function sharedDir(kind: SharedKind, env: NodeJS.ProcessEnv = process.env): SharedDir {
  const variable = sharedDirVariable[kind];
  const path = resolve(repoRoot, env[variable] || join('..', 'shared', kind));
  const present = existsSync(join(path, marker[kind]));
  if (!present && env.CAPIFORM_REQUIRE_SHARED === '1') {
    throw new MissingSharedDirError(
      `${kind} not found at ${path}${marker[kind] === '.' ? '' : ` (no ${marker[kind]} inside)`}, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping: ` +
        `put ../shared beside the repository or set ${variable}`,
    );
  }
  return { path, present, skipped: present ? '' : ` (skipped: no ${kind} at ${path}; set ${variable})` };
}
