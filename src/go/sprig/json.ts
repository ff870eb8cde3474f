/**
 * Go's encoding/json for the values templates handle: Marshal / MarshalIndent / an Encoder without HTML escaping
 * (sprig's toJson, toPrettyJson, toRawJson) and Unmarshal into `interface {}` (fromJson) with the decoder's exact
 * syntax-error messages.
 */
import { goQuote } from '../quote.js';
import { GoNumber, GoObject, type GoValue, goTypeName } from '../template/index.js';
import { compareGoStrings, formatFloat } from './fmt.js';

/** A value whose Go type has a MarshalJSON method (e.g. `*semver.Version`). */
export interface JsonMarshaler {
  marshalJSON(): GoValue;
}
function isMarshaler(v: unknown): v is JsonMarshaler {
  return typeof (v as Partial<JsonMarshaler>).marshalJSON === 'function';
}

export class JsonError extends Error {}

const hex = '0123456789abcdef';

function encodeString(s: string, escapeHTML: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && !(escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))) {
        out += ch;
        continue;
      }
      switch (c) {
        case 0x22:
          out += '\\"';
          continue;
        case 0x5c:
          out += '\\\\';
          continue;
        case 0x08:
          out += '\\b';
          continue;
        case 0x0c:
          out += '\\f';
          continue;
        case 0x0a:
          out += '\\n';
          continue;
        case 0x0d:
          out += '\\r';
          continue;
        case 0x09:
          out += '\\t';
          continue;
      }
      out += `\\u00${hex[c >> 4]}${hex[c & 0xf]}`;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate stands for invalid UTF-8, which Go replaces.
      out += '\\ufffd';
      continue;
    }
    if (c === 0x2028 || c === 0x2029) {
      out += `\\u202${hex[c & 0xf]}`;
      continue;
    }
    out += ch;
  }
  return `${out}"`;
}

function encodeFloat(f: number, bits: 32 | 64): string {
  if (!Number.isFinite(f)) throw new JsonError(`json: unsupported value: ${formatFloat(f, 'g', bits)}`);
  const abs = Math.abs(f);
  let fmt: 'e' | 'f' = 'f';
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) fmt = 'e';
  let s = formatFloat(f, fmt, bits);
  if (fmt === 'e') s = s.replace(/e-0(\d)$/, 'e-$1');
  return s;
}

interface EncodeOptions {
  escapeHTML: boolean;
  /** MarshalIndent's indent ("" = compact). */
  indent: string;
}

function encode(v: GoValue, o: EncodeOptions, depth: number): string {
  // encoding/json starts looking for cycles past 1000 nested maps or slices; deeper data is reported as one.
  if (depth > 1000 && (v instanceof Map || Array.isArray(v))) {
    throw new JsonError(`json: unsupported value: encountered a cycle via ${goTypeName(v)}`);
  }
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return encodeString(v, o.escapeHTML);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return encodeFloat(v, 64);
    case 'bigint':
      return v.toString();
  }
  if (v instanceof GoNumber) return typeof v.value === 'number' ? encodeFloat(v.value, 32) : v.value.toString();
  const nl = o.indent === '' ? '' : `\n${o.indent.repeat(depth + 1)}`;
  const close = o.indent === '' ? '' : `\n${o.indent.repeat(depth)}`;
  const colon = o.indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((e) => nl + encode(e, o, depth + 1)).join(',')}${close}]`;
  }
  if (v instanceof Map) {
    if (v.size === 0) return '{}';
    const keys = [...v.keys()].sort(compareGoStrings);
    return `{${keys.map((k) => `${nl}${encodeString(k, o.escapeHTML)}${colon}${encode(v.get(k) ?? null, o, depth + 1)}`).join(',')}${close}}`;
  }
  if (v instanceof GoObject) {
    if (isMarshaler(v)) return encode(v.marshalJSON(), o, depth);
    return '{}';
  }
  throw new JsonError(`json: unsupported type: ${goTypeName(v)}`);
}

/** json.Marshal */
export function marshal(v: GoValue): string {
  return encode(v, { escapeHTML: true, indent: '' }, 0);
}
/** json.MarshalIndent(v, "", "  ") */
export function marshalIndent(v: GoValue): string {
  return encode(v, { escapeHTML: true, indent: '  ' }, 0);
}
/** A json.Encoder with SetEscapeHTML(false), without the trailing newline. */
export function marshalRaw(v: GoValue): string {
  return encode(v, { escapeHTML: false, indent: '' }, 0);
}

/** The scanner's quoteChar: the offending byte, quoted. */
function quoteChar(s: string, i: number): string {
  const c = s.codePointAt(i) ?? 0;
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  // The scanner reads bytes: a multi-byte character is reported by its first byte, read as a Latin-1 rune.
  const first = c < 0x80 ? c : (new TextEncoder().encode(String.fromCodePoint(c))[0] ?? 0);
  const q = goQuote(String.fromCharCode(first));
  return `'${q.slice(1, -1)}'`;
}

class SyntaxError_ extends JsonError {}

/** json.Unmarshal into `interface {}`. Throws JsonError with Go's message; numbers become float64. */
export function unmarshal(text: string): GoValue {
  const r = decode(text);
  if (r.error !== null) throw new JsonError(r.error);
  return r.value;
}

/**
 * What json.Unmarshal leaves in its target (fromJson ignores the error): nil after a syntax error; after a number
 * too large for float64, the rest of the document with nil in that place.
 */
export function unmarshalLenient(text: string): GoValue {
  try {
    return decode(text).value;
  } catch (e) {
    if (e instanceof JsonError) return null;
    throw e;
  }
}

function decode(text: string): { value: GoValue; error: string | null } {
  let i = 0;
  const n = text.length;
  let deferred: string | null = null;
  const fail = (context: string): never => {
    if (i >= n) throw new SyntaxError_('unexpected end of JSON input');
    throw new SyntaxError_(`invalid character ${quoteChar(text, i)} ${context}`);
  };
  const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const skipWs = (): void => {
    while (i < n && isWs(text[i])) i++;
  };
  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting '${word[k]}')`);
    }
    i++;
  };
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  const number = (): GoValue => {
    const start = i;
    if (text[i] === '-') {
      i++;
      if (!isDigit(text[i])) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (isDigit(text[i])) i++;
    if (text[i] === '.') {
      i++;
      if (!isDigit(text[i])) fail('after decimal point in numeric literal');
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!isDigit(text[i])) fail('in exponent of numeric literal');
      while (isDigit(text[i])) i++;
    }
    const lit = text.slice(start, i);
    const f = Number(lit);
    if (!Number.isFinite(f)) {
      deferred ??= `json: cannot unmarshal number ${lit} into Go value of type float64`;
      return null;
    }
    return f;
  };
  const string = (): string => {
    i++;
    let out = '';
    for (;;) {
      if (i >= n) fail('');
      const c = text[i] ?? '';
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        i++;
        const e = text[i];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i++;
          continue;
        }
        if (e === 'u') {
          const u4 = (): number => {
            let v = 0;
            for (let k = 0; k < 4; k++) {
              i++;
              const h = text[i];
              if (h === undefined || !/[0-9a-fA-F]/.test(h)) fail('in \\u hexadecimal character escape');
              v = v * 16 + parseInt(h ?? '0', 16);
            }
            return v;
          };
          let r = u4();
          i++;
          if (r >= 0xd800 && r <= 0xdfff) {
            if (r < 0xdc00 && text[i] === '\\' && text[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
              const r2 = parseInt(text.slice(i + 2, i + 6), 16);
              if (r2 >= 0xdc00 && r2 <= 0xdfff) {
                out += String.fromCodePoint(0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00));
                i += 6;
                continue;
              }
            }
            r = 0xfffd;
          }
          out += String.fromCodePoint(r);
          continue;
        }
        fail('in string escape code');
      }
      if (c < ' ') fail('in string literal');
      const cp = text.codePointAt(i) ?? 0;
      out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
    }
  };
  const value = (depth: number): GoValue => {
    if (depth > 10000) throw new SyntaxError_('exceeded max depth');
    skipWs();
    const c = text[i];
    switch (c) {
      case '{': {
        i++;
        const m = new Map<string, GoValue>();
        skipWs();
        if (text[i] === '}') {
          i++;
          return m;
        }
        for (;;) {
          skipWs();
          if (text[i] !== '"') fail('looking for beginning of object key string');
          const k = string();
          skipWs();
          if (text[i] !== ':') fail('after object key');
          i++;
          m.set(k, value(depth + 1));
          skipWs();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            return m;
          }
          fail('after object key:value pair');
        }
      }
       
      case '[': {
        i++;
        const a: GoValue[] = [];
        skipWs();
        if (text[i] === ']') {
          i++;
          return a;
        }
        for (;;) {
          a.push(value(depth + 1));
          skipWs();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === ']') {
            i++;
            return a;
          }
          fail('after array element');
        }
      }
       
      case '"':
        return string();
      case 't':
        literal('true');
        return true;
      case 'f':
        literal('false');
        return false;
      case 'n':
        literal('null');
        return null;
    }
    if (c === '-' || isDigit(c)) return number();
    return fail('looking for beginning of value');
  };
  const v = value(0);
  skipWs();
  if (i < n) fail('after top-level value');
  return { value: v, error: deferred };
}
