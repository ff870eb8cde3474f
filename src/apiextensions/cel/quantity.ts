/**
 * Kubernetes resource quantities (`1Gi`, `500m`, `1e3`) as exact fractions, for the CEL quantity library: parsing
 * with apimachinery's grammar and its error text, comparison and arithmetic.
 */
export interface Quantity {
  readonly num: bigint;
  readonly den: bigint;
}

const binary: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a || 1n;
}

export function normalize(q: Quantity): Quantity {
  const g = gcd(q.num, q.den);
  const sign = q.den < 0n ? -1n : 1n;
  return { num: (sign * q.num) / g, den: (sign * q.den) / g };
}

export function parseQuantity(text: string): Quantity | undefined {
  const m = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(.*)$/.exec(text);
  if (!m) return undefined;
  const [, sign, digits, suffix] = m as unknown as [string, string, string, string];
  let num: bigint;
  let den = 1n;
  const [intPart, frac = ''] = digits.split('.');
  num = BigInt((intPart || '0') + frac);
  den = 10n ** BigInt(frac.length);
  if (suffix in binary) num *= binary[suffix]!;
  else if (suffix in decimal) {
    const exp = decimal[suffix]!;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  } else {
    const e = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (!e) return undefined;
    const exp = Number(e[1]);
    if (Math.abs(exp) > 1000) return undefined;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  if (sign === '-') num = -num;
  return normalize({ num, den });
}

export function compareQuantity(a: Quantity, b: Quantity): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function addQuantity(a: Quantity, b: Quantity, sign: 1n | -1n): Quantity {
  return normalize({ num: a.num * b.den + sign * b.num * a.den, den: a.den * b.den });
}
