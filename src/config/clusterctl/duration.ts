/** Go `time.ParseDuration` and `Duration.String()`, in nanoseconds (bigint). */

const units: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5
  'μs': 1_000n, // U+03BC
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const maxDuration = (1n << 63n) - 1n;

/** Parses a Go duration (`10m`, `1h30m`, `1.5s`, `-2m`); returns nanoseconds, or null when Go would fail. */
export function parseGoDuration(input: string): bigint | null {
  let s = input;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return null;
  let total = 0n;
  while (s !== '') {
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(s);
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return null;
    s = s.slice((m?.[0] ?? '').length);
    const u = /^[^0-9.]+/.exec(s)?.[0] ?? '';
    if (u === '') return null;
    const unit = units[u];
    if (unit === undefined) return null;
    s = s.slice(u.length);
    let v = BigInt(intPart === '' ? '0' : intPart) * unit;
    if (fracPart) {
      // Go scales the fraction with float64 and truncates; exact enough for real inputs.
      const frac = Number(`0.${fracPart}`) * Number(unit);
      v += BigInt(Math.trunc(frac));
    }
    total += v;
    if (total > maxDuration + (neg ? 1n : 0n)) return null;
  }
  return neg ? -total : total;
}

function fmtFrac(v: bigint, prec: number): { frac: string; rest: bigint } {
  let digits = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const d = v % 10n;
    print = print || d !== 0n;
    if (print) digits = d.toString() + digits;
    v /= 10n;
  }
  return { frac: print ? `.${digits}` : '', rest: v };
}

/** Go `Duration.String()`: `10m0s`, `1h30m0s`, `1.5s`, `300ms`, `0s`. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    let prec: number;
    let unit: string;
    if (u < 1_000n) return `${neg ? '-' : ''}${u}ns`;
    if (u < 1_000_000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const { frac, rest } = fmtFrac(u, prec);
    out = `${rest}${frac}${unit}`;
  } else {
    const { frac, rest } = fmtFrac(u, 9);
    u = rest;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return (neg ? '-' : '') + out;
}
