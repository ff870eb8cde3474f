/**
 * Conversions sprig delegates to spf13/cast (v1.10, the version CAPI builds with) and strconv: cast.ToInt64,
 * cast.ToInt, cast.ToFloat64 (errors become 0) and sprig's own strval. strconv itself is the template engine's.
 */
import { GoNumber, GoObject, type GoValue, formatGoValue, goParseFloat, goParseInt } from '../template/index.js';

const minInt64 = -(1n << 63n);
const maxInt64 = (1n << 63n) - 1n;

/** Go's `int64(f)` conversion of a float64; NaN and out-of-range values give amd64's 0x8000000000000000. */
export function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f)) return minInt64;
  const t = BigInt(Math.trunc(f));
  return t < minInt64 || t > maxInt64 ? minInt64 : t;
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
      const r = goParseInt(trimDecimal(v), 0);
      return r.err === null ? r.value : 0n;
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
      return goParseFloat(v) ?? 0;
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
