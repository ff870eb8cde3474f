/**
 * json.Unmarshal into `interface {}`: objects become `map[string]interface {}`, arrays `[]interface {}`, numbers
 * float64. As in Go, the whole text is checked first (./scanner.ts), so a syntax error anywhere wins over a number
 * too large for float64, which Go reports only after decoding the rest.
 */
import type { GoValue } from '../template/index.js';
import { GoJsonError } from './errors.js';
import { checkGoJson } from './scanner.js';

interface Decoded {
  value: GoValue;
  /** json.UnmarshalTypeError of the first number float64 cannot hold; Go leaves nil in its place. */
  error: GoJsonError | null;
}

type Frame = { array: GoValue[] } | { object: Map<string, GoValue>; key: string };

const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Decodes text `checkGoJson` accepted. */
function decodeValid(text: string): Decoded {
  let i = 0;
  let error: GoJsonError | null = null;
  const skipWs = (): void => {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  };
  const hex4 = (at: number): number | null => {
    const h = text.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : null;
  };
  const string = (): string => {
    i++;
    let out = '';
    for (;;) {
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1] as string;
        if (e !== 'u') {
          out += escapes[e];
          i += 2;
          continue;
        }
        let r = hex4(i + 2) ?? 0xfffd;
        i += 6;
        if (r >= 0xd800 && r <= 0xdfff) {
          // A surrogate pair joins into one rune; a lone surrogate is invalid and becomes U+FFFD.
          const r2 = r < 0xdc00 && text[i] === '\\' && text[i + 1] === 'u' ? hex4(i + 2) : null;
          if (r2 !== null && r2 >= 0xdc00 && r2 <= 0xdfff) {
            out += String.fromCodePoint(0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00));
            i += 6;
            continue;
          }
          r = 0xfffd;
        }
        out += String.fromCodePoint(r);
        continue;
      }
      // Invalid UTF-8 in the input (here: a lone surrogate) is replaced, as Go does.
      const cp = text.codePointAt(i) ?? 0;
      out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
    }
  };
  const number = (): GoValue => {
    const start = i;
    while (i < text.length && '+-.0123456789eE'.includes(text[i] as string)) i++;
    const lit = text.slice(start, i);
    const f = Number(lit);
    if (Number.isFinite(f)) return f;
    error ??= new GoJsonError(`json: cannot unmarshal number ${lit} into Go value of type float64`);
    return null;
  };
  const scalar = (): GoValue => {
    const c = text[i];
    if (c === '"') return string();
    if (c === 't') {
      i += 4;
      return true;
    }
    if (c === 'f') {
      i += 5;
      return false;
    }
    if (c === 'n') {
      i += 4;
      return null;
    }
    return number();
  };
  const objectKey = (): string => {
    skipWs();
    const k = string();
    skipWs();
    i++; // ':'
    return k;
  };
  // An explicit stack instead of recursion: the scanner allows 10000 levels, more than the JavaScript stack holds.
  const stack: Frame[] = [];
  for (;;) {
    skipWs();
    let v: GoValue;
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      skipWs();
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++;
        v = c === '{' ? new Map<string, GoValue>() : [];
      } else {
        stack.push(c === '{' ? { object: new Map<string, GoValue>(), key: objectKey() } : { array: [] });
        continue;
      }
    } else {
      v = scalar();
    }
    // Store the value in its container; a closing bracket completes the container, which is stored in turn.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) return { value: v, error };
      if ('array' in top) top.array.push(v);
      else top.object.set(top.key, v);
      skipWs();
      if (text[i++] === ',') {
        if (!('array' in top)) top.key = objectKey();
        break;
      }
      stack.pop();
      v = 'array' in top ? top.array : top.object;
    }
  }
}

/** json.Unmarshal(text, &v) with v an `interface {}`; throws Go's syntax or unmarshal type error. */
export function unmarshal(text: string): GoValue {
  checkGoJson(text);
  const r = decodeValid(text);
  if (r.error !== null) throw r.error;
  return r.value;
}

/**
 * What json.Unmarshal leaves in its target when the caller ignores the error (sprig's fromJson): nil after a syntax
 * error; after a number too large for float64, the rest of the document with nil in that place.
 */
export function unmarshalLenient(text: string): GoValue {
  try {
    checkGoJson(text);
  } catch (e) {
    if (e instanceof GoJsonError) return null;
    throw e;
  }
  return decodeValid(text).value;
}

/** A decoded value as plain JSON data: objects keep the keys in document order (a `__proto__` key is data). */
function toPlain(root: GoValue): unknown {
  const copies = new Map<GoValue[] | Map<string, GoValue>, unknown[] | Record<string, unknown>>();
  // Containers copied but not yet filled: no recursion, for the same reason as the decoder.
  const pending: (GoValue[] | Map<string, GoValue>)[] = [];
  const copy = (v: GoValue): unknown => {
    if (!Array.isArray(v) && !(v instanceof Map)) return v;
    let c = copies.get(v);
    if (c === undefined) {
      c = Array.isArray(v) ? [] : {};
      copies.set(v, c);
      pending.push(v);
    }
    return c;
  };
  const result = copy(root);
  while (pending.length > 0) {
    const v = pending.pop() as GoValue[] | Map<string, GoValue>;
    const c = copies.get(v);
    if (Array.isArray(v)) {
      for (const e of v) (c as unknown[]).push(copy(e));
    } else {
      for (const [k, e] of v) {
        Object.defineProperty(c, k, { value: copy(e), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return result;
}

/**
 * `json.Unmarshal(raw, &v)` into an untyped value, as plain JSON data (numbers are float64 as JS numbers); throws
 * GoJsonError (a GoJsonSyntaxError for invalid text) with Go's message.
 */
export function decodeGoJson(text: string): unknown {
  return toPlain(unmarshal(text));
}
