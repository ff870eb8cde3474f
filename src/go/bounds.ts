/**
 * How much work one template execution and one JSON patch may do (threat T5 of docs/security.md: a pull request's
 * templates and patches must not hang the runner or exhaust its memory). Steps alone are no bound: one step can hash
 * 9 MB, run scrypt or copy a list of 100,000 elements, so templates are metered by what their functions handle and
 * patches by their operations and the size of what they build. The CLI sets the values from the environment
 * (`CAPIFORM_*`, docs/security-bounds.md) once per run; a library caller keeps the defaults or calls setWorkBounds.
 */
import { UsageError } from '../errors.js';

export interface WorkBounds {
  /** Steps (nodes walked, commands evaluated) of one template execution. */
  readonly templateSteps: number;
  /** Bytes one template execution may write. */
  readonly templateOutputBytes: number;
  /**
   * Work units the functions of one template execution (or of all templates a Cluster's ClusterClass patches run)
   * may handle: every byte of a string and every element of a list or dict a function takes or returns counts one.
   */
  readonly templateWork: number;
  /** Calls of scrypt (`derivePassword`, about 64 MiB and tens of milliseconds each) in the same scope. */
  readonly templateScryptCalls: number;
  /** Operations of one `patches` entry (a config patch) or of one ClusterClass patch's JSON patch. */
  readonly patchOperations: number;
  /** JSON size, in bytes, of one object after a patch. */
  readonly patchResultBytes: number;
}

const MiB = 1024 * 1024;

export const defaultWorkBounds: WorkBounds = {
  templateSteps: 10_000_000,
  templateOutputBytes: 8 * MiB,
  templateWork: 100_000_000,
  templateScryptCalls: 4,
  patchOperations: 10_000,
  patchResultBytes: 8 * MiB,
};

/** The environment variable that sets each bound. */
export const workBoundEnv = {
  templateSteps: 'CAPIFORM_TEMPLATE_MAX_STEPS',
  templateOutputBytes: 'CAPIFORM_TEMPLATE_MAX_OUTPUT',
  templateWork: 'CAPIFORM_TEMPLATE_MAX_WORK',
  templateScryptCalls: 'CAPIFORM_TEMPLATE_MAX_SCRYPT',
  patchOperations: 'CAPIFORM_PATCH_MAX_OPERATIONS',
  patchResultBytes: 'CAPIFORM_PATCH_MAX_SIZE',
} as const satisfies Record<keyof WorkBounds, string>;

/** Which bounds are sizes in bytes (the others are counts). */
export const workBoundIsSize: Readonly<Record<keyof WorkBounds, boolean>> = {
  templateSteps: false,
  templateOutputBytes: true,
  templateWork: false,
  templateScryptCalls: false,
  patchOperations: false,
  patchResultBytes: true,
};

let current: WorkBounds = defaultWorkBounds;

/** The bounds in force. */
export function workBounds(): WorkBounds {
  return current;
}

/** Sets the bounds in force: the defaults with `bounds` over them (a call replaces what an earlier one set). */
export function setWorkBounds(bounds: Partial<WorkBounds> = {}): void {
  current = { ...defaultWorkBounds, ...bounds };
}

const units: Record<string, number> = { '': 1, b: 1, k: 1024, kib: 1024, m: MiB, mib: MiB, g: 1024 * MiB, gib: 1024 * MiB };

/** `1048576`, `512KiB`, `8MiB`, `2G` (binary units, case-insensitive) → bytes; null when not a size. */
export function parseByteSize(text: string): number | null {
  const m = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const unit = units[m[2]!.toLowerCase()];
  if (unit === undefined) return null;
  const n = Number(m[1]) * unit;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The defaults with each bound the environment sets; a value that is not a count (or size) is a usage error naming it. */
export function workBoundsFromEnv(env: NodeJS.ProcessEnv): WorkBounds {
  const out: Record<keyof WorkBounds, number> = { ...defaultWorkBounds };
  for (const key of Object.keys(workBoundEnv) as (keyof WorkBounds)[]) {
    const name = workBoundEnv[key];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const size = workBoundIsSize[key];
    const value = size ? parseByteSize(raw) : /^\d+$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : null;
    if (value === null || !Number.isSafeInteger(value)) {
      throw new UsageError(`${name}=${raw} is not a ${size ? 'size' : 'positive whole number'}`, {
        where: name,
        hint: size
          ? `set ${name} to bytes or a size with a binary unit, e.g. ${name}=${key === 'patchResultBytes' ? '128MiB' : '16MiB'}`
          : `set ${name} to a number, e.g. ${name}=${defaultWorkBounds[key] * 2}`,
      });
    }
    out[key] = value;
  }
  return out;
}
