/**
 * The parts of Go's strconv the template parser needs: number literals with Go's syntax (base prefixes, `_`
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

/** strconv.ParseUint(s, 0, 64); undefined on any error. */
export function parseUint0(s0: string): bigint | undefined {
  if (s0 === '') return undefined;
  let s = s0;
  let base = 10n;
  if (s[0] === '0') {
    const p = lower(s[1] ?? '');
    if (s.length >= 3 && p === 'b') {
      base = 2n;
      s = s.slice(2);
    } else if (s.length >= 3 && p === 'o') {
      base = 8n;
      s = s.slice(2);
    } else if (s.length >= 3 && p === 'x') {
      base = 16n;
      s = s.slice(2);
    } else {
      base = 8n;
      s = s.slice(1);
    }
  }
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    if (c === '_') {
      underscores = true;
      continue;
    }
    const d = parseInt(c, 36);
    if (Number.isNaN(d) || BigInt(d) >= base) return undefined;
    n = n * base + BigInt(d);
    if (n > maxUint64) return undefined;
  }
  if (underscores && !underscoreOK(s0)) return undefined;
  return n;
}

/** strconv.ParseInt(s, 0, 64); undefined on any error. */
export function parseInt0(s: string): bigint | undefined {
  if (s === '') return undefined;
  let neg = false;
  let body = s;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    body = s.slice(1);
  }
  const u = parseUint0(body);
  if (u === undefined) return undefined;
  if (body.includes('_') && !underscoreOK(s)) return undefined;
  if (!neg && u > (1n << 63n) - 1n) return undefined;
  if (neg && u > 1n << 63n) return undefined;
  return neg ? -u : u;
}

/** strconv.ParseFloat(s, 64) for Go float literals; undefined on syntax or range errors. */
export function parseFloat64(s: string): number | undefined {
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
    const mant = BigInt(`0x${intPart}${frac}` === '0x' ? '0' : `0x${intPart}${frac}`);
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
