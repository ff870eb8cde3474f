/**
 * Conversions sprig delegates to spf13/cast (v1.10, the version CAPI builds with) and strconv: cast.ToInt64,
 * cast.ToInt, cast.ToFloat64 (errors become 0), sprig's own strval, and strconv's integer parsing rules.
 */
import { GoNumber, GoObject, type GoValue, formatGoValue } from '../template/index.js';


const minInt64 = -(1n << 63n);
const maxInt64 = (1n << 63n) - 1n;

/** Go's `int64(f)` conversion of a float64; NaN and out-of-range values give amd64's 0x8000000000000000. */
export function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f)) return minInt64;
  const t = BigInt(Math.trunc(f));
  return t < minInt64 || t > maxInt64 ? minInt64 : t;
}

function digitValue(c: string): number {
  const code = c.toLowerCase().charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  return 99;
}

/** strconv's underscoreOK: underscores only between digits, and only after a base prefix. */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1] ?? '')) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i] ?? '';
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

export type ParseIntResult = { ok: true; value: bigint } | { ok: false; range: boolean; value: bigint };

/** strconv.ParseUint's digits for a base (0 = Go literal syntax with prefixes and underscores). */
function parseUintDigits(s: string, base: number): { ok: boolean; range: boolean; value: bigint } {
  if (s === '') return { ok: false, range: false, value: 0n };
  const base0 = base === 0;
  if (base === 0) {
    base = 10;
    if (s[0] === '0') {
      if (s.length >= 3 && (s[1] === 'b' || s[1] === 'B')) {
        base = 2;
        s = s.slice(2);
      } else if (s.length >= 3 && (s[1] === 'o' || s[1] === 'O')) {
        base = 8;
        s = s.slice(2);
      } else if (s.length >= 3 && (s[1] === 'x' || s[1] === 'X')) {
        base = 16;
        s = s.slice(2);
      } else {
        base = 8;
        s = s.slice(1);
      }
    }
  }
  const maxUint64 = (1n << 64n) - 1n;
  let n = 0n;
  let range = false;
  for (const c of s) {
    if (c === '_' && base0) continue;
    const d = digitValue(c);
    if (d >= base) return { ok: false, range: false, value: 0n };
    n = n * BigInt(base) + BigInt(d);
    if (n > maxUint64) range = true;
  }
  return { ok: !range, range, value: range ? maxUint64 : n };
}

/** strconv.ParseInt(s, base, 64). On a range error the value is clamped, as Go returns it. */
export function parseInt64(s: string, base: number): ParseIntResult {
  if (s === '') return { ok: false, range: false, value: 0n };
  const s0 = s;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  const u = parseUintDigits(s, base);
  if (!u.ok && !u.range) return { ok: false, range: false, value: 0n };
  if (base === 0 && s0.includes('_') && !underscoreOK(s0)) return { ok: false, range: false, value: 0n };
  const cutoff = 1n << 63n;
  if (u.range || (!neg && u.value >= cutoff)) return { ok: false, range: true, value: neg ? minInt64 : maxInt64 };
  if (neg && u.value > cutoff) return { ok: false, range: true, value: minInt64 };
  return { ok: true, value: neg ? -u.value : u.value };
}

/** cast's trimDecimal: "12.0" and "12." parse as integers (the fraction is dropped). */
function trimDecimal(s: string): string {
  if (!s.includes('.')) return s;
  const m = /^([-+]?\d*)(\.\d*)?$/.exec(s);
  if (!m) return s;
  const int = m[1] ?? '';
  if (int === '-' || int === '+') return `${int}0`;
  if (int === '') return '0';
  return int;
}

/** strconv.ParseFloat(s, 64); null on a syntax or range error. */
export function parseGoFloat(s: string): number | null {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  const dec = /^[+-]?(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)([eE][+-]?\d[\d_]*)?$/.exec(s);
  if (dec) {
    if (s.includes('_') && !underscoreOK(s)) return null;
    const v = Number(s.replace(/_/g, ''));
    return Number.isFinite(v) ? v : null;
  }
  const hex = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?\d[\d_]*)$/.exec(s);
  if (hex) {
    if (s.includes('_') && !underscoreOK(s)) return null;
    const intPart = (hex[2] ?? '').replace(/_/g, '');
    const frac = (hex[3] ?? '').replace(/_/g, '');
    if (intPart === '' && frac === '') return null;
    let mant = 0;
    for (const c of intPart + frac) mant = mant * 16 + digitValue(c);
    const v = mant * 2 ** (Number((hex[4] ?? '0').replace(/_/g, '')) - 4 * frac.length);
    if (!Number.isFinite(v)) return null;
    return hex[1] === '-' ? -v : v;
  }
  return null;
}

/** cast.ToInt64 (and cast.ToInt on 64-bit platforms): anything it cannot convert is 0. */
export function toInt64(v: GoValue): bigint {
  if (v === null) return 0n;
  switch (typeof v) {
    case 'bigint':
      return v;
    case 'number':
      return floatToInt64(v);
    case 'boolean':
      return v ? 1n : 0n;
    case 'string': {
      if (v === '') return 0n;
      const r = parseInt64(trimDecimal(v), 0);
      return r.ok ? r.value : 0n;
    }
  }
  if (v instanceof GoNumber) {
    return typeof v.value === 'number' ? floatToInt64(v.value) : BigInt.asIntN(64, v.value);
  }
  return 0n;
}

/** cast.ToFloat64: anything it cannot convert is 0. */
export function toFloat64(v: GoValue): number {
  if (v === null) return 0;
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      if (v === '') return 0;
      return parseGoFloat(v) ?? 0;
    }
  }
  if (v instanceof GoNumber) return Number(v.value);
  return 0;
}

/** sprig's strval: strings as they are, Stringers through String(), everything else as `%v`. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  if (v instanceof GoObject) return v.format();
  return formatGoValue(v);
}
