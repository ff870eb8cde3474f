/** One vector as it appears in the shared JSON files. */
export interface Vector {
  id?: string;
  source?: unknown;
  what?: string;
  input: Record<string, unknown> & { op?: string; operation?: string };
  expected: Record<string, unknown>;
  [key: string]: unknown;
}

/** The file a vector came from, with its file-wide conventions. */
export interface VectorFile {
  /** `clusterctl`, `capi-plan` or `envsubst`. */
  folder: string;
  /** File name without `.json`, e.g. `fix-target-namespace`. */
  stem: string;
  path: string;
  doc: Record<string, unknown>;
}

/**
 * Runs one vector and asserts its expected result with vitest's `expect`. Registered per op key:
 * `clusterctl:<input.op>` or `capi-plan:<file stem>:<input.operation ?? "*">`.
 */
export type VectorHandler = (vector: Vector, file: VectorFile) => void | Promise<void>;
