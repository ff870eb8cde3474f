/**
 * Go's strconv for the template parser and sprig: integer and float parsing with Go's syntax (base prefixes, `_`
 * separators, hex floats) and Go string/char unquoting. Errors are Go's messages (`invalid syntax`).
 */

export class GoSyntaxError extends Error {
  constructor() {
    super('invalid syntax');
  }
}

function lower(c: string): string {
  return c.toLowerCase();
}

/** strconv's underscoreOK: `_` only between digits (or after a base prefix). */
export function underscoreOK(s0: string): boolean {
  let s = s0;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(lower(s[1] ?? ''))) {
    i = 2;
    saw = '0';
    hex = lower(s[1] ?? '') === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i] ?? '';
    if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
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

const maxUint64 = (1n << 64n) - 1n;

/**
 * A strconv.ParseInt / ParseUint result. As in Go, a range error carries the clamped bound (callers such as sprig's
 * duration use it) and a syntax error 0.
 */
export interface GoParsedInt {
  value: bigint;
  err: 'syntax' | 'range' | null;
}

const syntaxError: GoParsedInt = { value: 0n, err: 'syntax' };

/** A digit's value in bases up to 36 (ASCII letters either case); 99 for anything else. */
function digitValue(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const l = code | 0x20;
  return l >= 0x61 && l <= 0x7a ? l - 0x61 + 10 : 99;
}

/** strconv.ParseUint(s, base, 64); base 0 reads Go's literal syntax (0b, 0o, 0x, leading 0, `_` separators). */
export function goParseUint(s0: string, base: number): GoParsedInt {
  if (s0 === '') return syntaxError;
  const base0 = base === 0;
  let s = s0;
  if (base0) {
    base = 10;
    if (s[0] === '0') {
      const prefixed: Record<string, number> = { b: 2, o: 8, x: 16 };
      const p = s.length >= 3 ? prefixed[lower(s[1] ?? '')] : undefined;
      base = p ?? 8;
      s = s.slice(p === undefined ? 1 : 2);
    }
  }
  const b = BigInt(base);
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    if (c === '_' && base0) {
      underscores = true;
      continue;
    }
    const d = digitValue(c);
    if (d >= base) return syntaxError;
    n = n * b + BigInt(d);
    // Go stops at the first overflow: a range error even when a bad digit follows.
    if (n > maxUint64) return { value: maxUint64, err: 'range' };
  }
  if (underscores && !underscoreOK(s0)) return syntaxError;
  return { value: n, err: null };
}

/** strconv.ParseInt(s, base, 64). */
export function goParseInt(s: string, base: number): GoParsedInt {
  if (s === '') return syntaxError;
  const neg = s[0] === '-';
  const u = goParseUint(s[0] === '+' || neg ? s.slice(1) : s, base);
  if (u.err === 'syntax') return syntaxError;
  const cutoff = 1n << 63n;
  if (!neg && u.value >= cutoff) return { value: cutoff - 1n, err: 'range' };
  if (neg && u.value > cutoff) return { value: -cutoff, err: 'range' };
  return { value: neg ? -u.value : u.value, err: null };
}

/**
 * strconv.ParseFloat(s, 64): Go's float literal syntax (`_` separators, hex mantissas with a `p` exponent) and the
 * special values `inf`, `infinity` (signed) and `nan`, in any case. Undefined on a syntax or range error.
 */
export function goParseFloat(s: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s[0] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (s === '') return undefined;
  let body = s;
  let neg = false;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  if (body.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    body = body.replace(/_/g, '');
  }
  let value: number;
  const hex = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(body);
  if (hex !== null) {
    const intPart = hex[1] ?? '';
    const frac = hex[2] ?? '';
    if (intPart === '' && frac === '') return undefined;
    const mant = BigInt(`0x${intPart}${frac}`);
    const exp = Number(hex[3]) - 4 * frac.length;
    value = Number(mant) * 2 ** exp;
  } else if (/^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(body)) {
    value = Number(body);
  } else {
    return undefined;
  }
  if (!Number.isFinite(value)) return undefined;
  return neg ? -value : value;
}

const simpleEscapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** strconv.UnquoteChar: decodes one (possibly escaped) character; returns it and the rest. */
export function unquoteChar(s: string, quote: string): { value: number; tail: string } {
  const c = s.codePointAt(0);
  if (c === undefined) throw new GoSyntaxError();
  const ch = String.fromCodePoint(c);
  if (ch === quote && (quote === "'" || quote === '"')) throw new GoSyntaxError();
  if (ch !== '\\') return { value: c, tail: s.slice(ch.length) };
  if (s.length <= 1) throw new GoSyntaxError();
  const e = s[1] ?? '';
  let rest = s.slice(2);
  const simple = simpleEscapes[e];
  if (simple !== undefined) return { value: simple.charCodeAt(0), tail: rest };
  switch (e) {
    case 'x':
    case 'u':
    case 'U': {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      if (rest.length < n) throw new GoSyntaxError();
      const hex = rest.slice(0, n);
      if (!/^[0-9a-fA-F]+$/.test(hex)) throw new GoSyntaxError();
      const v = parseInt(hex, 16);
      rest = rest.slice(n);
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) throw new GoSyntaxError();
      return { value: v, tail: rest };
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      const oct = s.slice(1, 4);
      if (!/^[0-7]{3}$/.test(oct)) throw new GoSyntaxError();
      const v = parseInt(oct, 8);
      if (v > 255) throw new GoSyntaxError();
      return { value: v, tail: s.slice(4) };
    }
    case "'":
    case '"':
      if (e !== quote) throw new GoSyntaxError();
      return { value: e.charCodeAt(0), tail: rest };
    default:
      throw new GoSyntaxError();
  }
}

/**
 * strconv.Unquote for the string forms the lexer produces. `\x` escapes above 0x7f stand for raw bytes in Go; they
 * are decoded here as Latin-1 code points, the closest JavaScript strings can hold.
 */
export function unquote(s: string): string {
  const q = s[0];
  if (s.length < 2 || s[s.length - 1] !== q) throw new GoSyntaxError();
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw new GoSyntaxError();
    return body.replace(/\r/g, '');
  }
  if (q !== '"' && q !== "'") throw new GoSyntaxError();
  if (body.includes('\n')) throw new GoSyntaxError();
  let out = '';
  let rest = body;
  while (rest.length > 0) {
    const { value, tail } = unquoteChar(rest, q);
    out += String.fromCodePoint(value);
    rest = tail;
    if (q === "'" && rest.length > 0) throw new GoSyntaxError();
  }
  if (q === "'" && out.length === 0) throw new GoSyntaxError();
  return out;
}
