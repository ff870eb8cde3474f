/**
 * What sprig needs beyond the template engine's fmt (`formatGoValue`, `goTypeName`): reflect kinds (kindOf), Go's
 * string order, and strconv's shortest float formatting in the 'e' and 'f' forms encoding/json and decimal use.
 */
import { GoNumber, GoObject, type GoValue } from '../template/index.js';

/** Shortest decimal digits that round-trip, with the decimal point position (`0.d1d2… × 10^dp`). */
function shortestDigits(x: number, bits: 32 | 64): { digits: string; dp: number } {
  let exp: string;
  if (bits === 32) {
    let s = '';
    for (let p = 1; p <= 9; p++) {
      s = x.toExponential(p - 1);
      if (Math.fround(Number(s)) === x) break;
    }
    exp = s;
  } else {
    exp = x.toExponential();
  }
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exp);
  if (!m) return { digits: '0', dp: 1 };
  let digits = (m[1] ?? '') + (m[2] ?? '');
  digits = digits.replace(/0+$/, '') || '0';
  return { digits, dp: Number(m[3]) + 1 };
}

/** strconv.FormatFloat(x, fmt, -1, bits) for fmt 'e', 'f' and 'g' (shortest representation). */
export function formatFloat(x: number, fmt: 'e' | 'f' | 'g', bits: 32 | 64 = 64): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  const sign = neg ? '-' : '';
  if (abs === 0) {
    if (fmt === 'e') return `${sign}0e+00`;
    return `${sign}0`;
  }
  const { digits, dp } = shortestDigits(abs, bits);
  const eForm = (): string => {
    const e = dp - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ae = Math.abs(e);
    return `${sign}${mant}e${e < 0 ? '-' : '+'}${ae < 10 ? `0${ae}` : ae}`;
  };
  const fForm = (): string => {
    if (dp <= 0) return `${sign}0.${'0'.repeat(-dp)}${digits}`;
    if (dp >= digits.length) return `${sign}${digits}${'0'.repeat(dp - digits.length)}`;
    return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
  };
  if (fmt === 'e') return eForm();
  if (fmt === 'f') return fForm();
  const exp = dp - 1;
  // strconv: "if precision was the shortest possible, use precision 6 for this decision" (so 1e+06, as Helm users know).
  const eprec = 6;
  if (exp < -4 || exp >= eprec) return eForm();
  return fForm();
}

/** Go's `%v` / `%g` of a float64: shortest digits, exponent form from 1e+06 and below 1e-04. */
export function formatFloatV(x: number, bits: 32 | 64 = 64): string {
  return formatFloat(x, 'g', bits);
}

/** Go string order (bytewise UTF-8), which differs from UTF-16 order only around surrogates. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i) ?? 0;
    const cb = b.codePointAt(i) ?? 0;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** reflect.Kind of a value, as its String() prints (sprig's kindOf). */
export function kindName(v: GoValue): string {
  if (v === null) return 'invalid';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
  }
  if (v instanceof GoNumber) return v.type;
  if (Array.isArray(v)) return 'slice';
  if (v instanceof Map) return 'map';
  if (v instanceof GoObject) return v.goType.startsWith('*') ? 'ptr' : 'struct';
  return 'func';
}
