/**
 * The work meter of template executions (../bounds.ts): what the functions of a template handle, and its scrypt calls.
 * An execution meters itself unless it runs inside {@link withTemplateMeter}, which makes every execution in it (all
 * templates the ClusterClass patches of one Cluster run) share one meter, so many small templates cannot add up to an
 * unbounded run either.
 */
import { BoundExceededError } from '../../errors.js';
import { workBoundEnv, workBounds } from '../bounds.js';
import { Iface, type RV } from './rv.js';

export interface TemplateMeter {
  work: number;
  scrypt: number;
}

let active: TemplateMeter | null = null;

/** Runs `fn` with a meter of its own, shared by every template execution inside it. */
export function withTemplateMeter<T>(fn: () => T): T {
  const outer = active;
  active = { work: 0, scrypt: 0 };
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** Runs one execution: on the enclosing scope's meter, else on a fresh one. */
export function metered<T>(fn: () => T): T {
  return active === null ? withTemplateMeter(fn) : fn();
}

/** A bound a template function passed; the executor adds where in the template, the caller whose template it is. */
export class TemplateBoundError extends BoundExceededError {}

/** Elements of a value a function takes or returns (a string's UTF-16 units, a list's or dict's entries). */
function sizeOf(v: RV): number {
  if (v instanceof Iface) return sizeOf(v.v);
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  return 0;
}

/** Charges what a function call handles: its arguments before it runs, its result after. */
export function chargeValues(values: readonly RV[]): void {
  const m = active;
  if (m === null) return;
  for (const v of values) m.work += sizeOf(v);
  const bound = workBounds().templateWork;
  if (m.work > bound) {
    throw new TemplateBoundError(
      `the template's functions handled more than ${bound} units of work (bytes of strings and elements of lists and dicts they take or return), the bound of ${workBoundEnv.templateWork}`,
      workBoundEnv.templateWork,
    );
  }
}

/** Charges one scrypt run (`derivePassword`), before it runs. */
export function chargeScrypt(): void {
  const m = active;
  if (m === null) return;
  m.scrypt++;
  const bound = workBounds().templateScryptCalls;
  if (m.scrypt > bound) {
    throw new TemplateBoundError(`the template calls derivePassword (scrypt) more than ${bound} times, the bound of ${workBoundEnv.templateScryptCalls}`, workBoundEnv.templateScryptCalls);
  }
}
