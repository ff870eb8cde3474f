import { goQuote } from './quote.js';

/** Go `strconv.Atoi` for a 64-bit int, with its error text. */
export function goAtoi(s: string): number {
  const m = /^[+-]?[0-9]+$/.exec(s);
  if (!m) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > 2n ** 63n - 1n || v < -(2n ** 63n)) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(v);
}
