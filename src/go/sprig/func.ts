/** Small helpers the sprig function tables share: declaring a GoFunc and raising Go errors and panics. */
import { GoFuncError, goFunc, type GoFunc, type GoValue } from '../template/index.js';

export type FuncTable = Record<string, GoFunc>;

/** A sprig function with Go's parameter and result types: the engine's own constructor. */
export { goFunc as fn };

/** A Go error result or a recovered panic: the engine reports it as `error calling <name>: <message>`. */
export function goError(message: string): never {
  throw new GoFuncError(message);
}

/** The panic of calling a method on a nil reflect.Type (`reflect.TypeOf(nil).Kind()`). */
export const nilDereference = 'runtime error: invalid memory address or nil pointer dereference';

/** Arguments arrive already converted by the engine; these read them with the JavaScript type the Go type maps to. */
export function str(v: GoValue | undefined): string {
  return typeof v === 'string' ? v : '';
}
export function int(v: GoValue | undefined): number {
  return typeof v === 'bigint' ? Number(v) : 0;
}
export function bigint(v: GoValue | undefined): bigint {
  return typeof v === 'bigint' ? v : 0n;
}
export function map(v: GoValue | undefined): Map<string, GoValue> | null {
  return v instanceof Map ? v : null;
}

/** Largest slice or string (in elements or UTF-16 units) a sprig function builds; beyond it Go would exhaust memory. */
export const maxOutputElements = 10_000_000;
export function checkSize(n: number, what: string): void {
  if (n > maxOutputElements) goError(`capiform: ${what} would hold ${n} elements, more than the limit of ${maxOutputElements}`);
}
