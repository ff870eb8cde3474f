/**
 * Go's strconv.FormatFloat for the formats fmt uses ('e', 'E', 'f', 'g', 'G', 'b', 'x', 'X'): shortest
 * round-trip digits when the precision is -1, correctly rounded (half to even, on the exact binary value)
 * otherwise.
 */

interface Decimal {
  /** Significant digits without leading or trailing zeros; '' for zero. */
  d: string;
  /** Decimal point position: value = 0.d × 10^dp. */
  dp: number;
}

function floatBits(x: number): { neg: boolean; mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const neg = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) {
    exp = -1074;
  } else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  return { neg, mant, exp };
}

function trimZeros(d: string, dp: number): Decimal {
  let end = d.length;
  while (end > 0 && d[end - 1] === '0') end--;
  let start = 0;
  while (start < end && d[start] === '0') start++;
  if (start === end) return { d: '', dp: 0 };
  return { d: d.slice(start, end), dp: dp - start };
}

/** The exact decimal expansion of a finite float64. */
function exactDecimal(x: number): Decimal {
  const { mant, exp } = floatBits(Math.abs(x));
  if (mant === 0n) return { d: '', dp: 0 };
  if (exp >= 0) {
    const s = (mant << BigInt(exp)).toString();
    return trimZeros(s, s.length);
  }
  const s = (mant * 5n ** BigInt(-exp)).toString();
  return trimZeros(s, s.length + exp);
}

/** Shortest digits that read back as the same float64 (or float32 when bits is 32). */
function shortestDecimal(x: number, bits: 32 | 64): Decimal {
  const a = Math.abs(x);
  if (a === 0) return { d: '', dp: 0 };
  if (bits === 32) {
    for (let p = 1; p <= 9; p++) {
      const s = a.toExponential(p - 1);
      if (Math.fround(Number(s)) === a) return fromExponential(s);
    }
  }
  return fromExponential(a.toExponential());
}

function fromExponential(s: string): Decimal {
  const [mant = '', e = '0'] = s.split('e');
  const digits = mant.replace('.', '');
  return trimZeros(digits, Number(e) + 1);
}

/** decimal.Round: keep nd digits, rounding half to even. */
function roundDecimal(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return a;
  const c = a.d[nd] ?? '0';
  let up: boolean;
  if (c === '5' && nd + 1 === a.d.length) up = nd > 0 && Number(a.d[nd - 1]) % 2 === 1;
  else up = c >= '5';
  if (!up) return trimZeros(a.d.slice(0, nd), a.dp);
  let i = nd - 1;
  while (i >= 0 && a.d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: a.dp + 1 };
  return { d: a.d.slice(0, i) + String(Number(a.d[i]) + 1), dp: a.dp };
}

function fmtE(neg: boolean, d: Decimal, prec: number, fmt: string): string {
  let out = neg ? '-' : '';
  out += d.d.length > 0 ? d.d[0] : '0';
  if (prec > 0) {
    out += '.';
    out += d.d.slice(1, Math.min(d.d.length, prec + 1));
    for (let i = Math.max(1, d.d.length); i <= prec; i++) out += '0';
  }
  out += fmt;
  let exp = d.d.length === 0 ? 0 : d.dp - 1;
  let sign = '+';
  if (exp < 0) {
    sign = '-';
    exp = -exp;
  }
  return `${out}${sign}${exp < 10 ? `0${exp}` : String(exp)}`;
}

function fmtF(neg: boolean, d: Decimal, prec: number): string {
  let out = neg ? '-' : '';
  if (d.dp > 0) {
    const m = Math.min(d.d.length, d.dp);
    out += d.d.slice(0, m);
    for (let i = m; i < d.dp; i++) out += '0';
  } else {
    out += '0';
  }
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) {
      const j = d.dp + i - 1;
      out += j >= 0 && j < d.d.length ? d.d[j] : '0';
    }
  }
  return out;
}

/** %b: decimal mantissa "p" binary exponent. */
function fmtB(x: number, bits: 32 | 64): string {
  if (bits === 32) {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, x);
    const u = view.getUint32(0);
    const neg = u >>> 31 === 1;
    const biased = (u >>> 23) & 0xff;
    let mant = u & 0x7fffff;
    let exp = biased - 150;
    if (biased === 0) exp = -149;
    else mant |= 0x800000;
    return `${neg ? '-' : ''}${mant}p${exp >= 0 ? '+' : ''}${exp}`;
  }
  const { neg, mant, exp } = floatBits(x);
  return `${neg ? '-' : ''}${mant}p${exp >= 0 ? '+' : ''}${exp}`;
}

/** %x: hexadecimal mantissa and binary exponent, as strconv's fmtX. */
function fmtX(x: number, prec: number, fmt: string, bits: 32 | 64): string {
  const { neg, mant: m0, exp: e0 } = floatBits(x);
  let mant = m0;
  let exp = e0;
  const mantbits = bits === 32 ? 23 : 52;
  if (bits === 32) {
    // Re-express the float32 value (already exact in float64) with a 24-bit mantissa.
    const shift = 52 - 23;
    if (mant !== 0n) {
      mant >>= BigInt(shift);
      exp += shift;
    }
  }
  if (mant === 0n) exp = 0;
  // Shift digits so leading 1 (if any) is at bit 1<<60.
  mant <<= BigInt(60 - mantbits);
  while (mant !== 0n && (mant & (1n << 60n)) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (mant !== 0n) exp += mantbits;
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & ((1n << 60n) - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = fmt === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let out = neg ? '-' : '';
  out += `0${fmt}${String((mant >> 60n) & 1n)}`;
  mant = (mant << 4n) & ((1n << 64n) - 1n);
  if (prec < 0 && mant !== 0n) {
    out += '.';
    while (mant !== 0n) {
      out += hex[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & ((1n << 64n) - 1n);
    }
  } else if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) {
      out += hex[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & ((1n << 64n) - 1n);
    }
  }
  out += fmt === 'X' ? 'P' : 'p';
  let e = exp;
  if (e < 0) {
    out += '-';
    e = -e;
  } else {
    out += '+';
  }
  return out + (e < 10 ? `0${e}` : String(e));
}

/** strconv.FormatFloat(x, fmt, prec, bits). */
export function formatFloat(x: number, fmt: string, prec: number, bits: 32 | 64): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (fmt === 'b') return fmtB(x, bits);
  if (fmt === 'x' || fmt === 'X') return fmtX(x, prec, fmt, bits);
  const neg = x < 0 || Object.is(x, -0);
  const shortest = prec < 0;
  let digs: Decimal;
  let p = prec;
  if (shortest) {
    digs = shortestDecimal(x, bits);
    switch (fmt) {
      case 'e':
      case 'E':
        p = Math.max(digs.d.length - 1, 0);
        break;
      case 'f':
        p = Math.max(digs.d.length - digs.dp, 0);
        break;
      default:
        p = digs.d.length;
    }
  } else {
    const exact = exactDecimal(x);
    switch (fmt) {
      case 'e':
      case 'E':
        digs = roundDecimal(exact, p + 1);
        break;
      case 'f':
        digs = roundDecimal(exact, exact.dp + p);
        break;
      default:
        if (p === 0) p = 1;
        digs = roundDecimal(exact, p);
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, digs, p, fmt);
    case 'f':
      return fmtF(neg, digs, p);
    default: {
      let eprec = p;
      if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
      if (shortest) eprec = 6;
      const exp = digs.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (p > digs.d.length) p = digs.d.length;
        return fmtE(neg, digs, p - 1, fmt === 'G' ? 'E' : 'e');
      }
      if (p > digs.dp) p = digs.d.length;
      return fmtF(neg, digs, Math.max(p - digs.dp, 0));
    }
  }
}
