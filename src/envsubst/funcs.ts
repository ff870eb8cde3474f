/**
 * drone/envsubst's substitution functions (`funcs.go`), on bytes. Offsets and lengths are bytes, as in Go.
 */
import { InputError } from '../errors.js';
import { globMatch } from './glob.js';
import {
  concatBytes,
  decodeRune,
  decoded,
  encodeRune,
  mapRunes,
  reverseRunes,
  runeCount,
  runeLen,
  toLowerRune,
  toUpperRune,
} from './utf8.js';

const EMPTY = new Uint8Array(0);
const ascii = new TextEncoder();

/** A Go runtime panic (only the negative substring length reaches one). */
export class EnvsubstPanic extends InputError {
  constructor(message: string) {
    super(`runtime error: ${message}`, {
      hint: 'a substring length must not be negative (drone/envsubst panics on ${VAR:offset:-n})',
    }, 'E_TEMPLATE_PANIC');
  }
}

export type SubstituteFunc = (s: Uint8Array, args: Uint8Array[]) => Uint8Array;

function toLen(s: Uint8Array): Uint8Array {
  return ascii.encode(String(s.length));
}

function toLower(s: Uint8Array): Uint8Array {
  return mapRunes(s, toLowerRune);
}

function toUpper(s: Uint8Array): Uint8Array {
  return mapRunes(s, toUpperRune);
}

function mapFirst(s: Uint8Array, mapping: (r: number) => number): Uint8Array {
  if (s.length === 0) return s;
  const r = decodeRune(s, 0, s.length);
  const n = decoded.width;
  const m = mapping(r);
  const out = new Uint8Array(runeLen(m) + s.length - n);
  const o = encodeRune(out, 0, m);
  out.set(s.subarray(n), o);
  return out;
}

function toLowerFirst(s: Uint8Array): Uint8Array {
  return mapFirst(s, toLowerRune);
}

function toUpperFirst(s: Uint8Array): Uint8Array {
  return mapFirst(s, toUpperRune);
}

/** `toDefault`: s when non-empty, else the arguments joined. */
export function toDefault(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (s.length === 0 && args.length > 0) return args.length === 1 ? args[0]! : concatBytes(args);
  return s;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go `strconv.Atoi` (64-bit int): optional sign, decimal digits only, no overflow; null on error. */
export function atoi(b: Uint8Array): bigint | null {
  let i = 0;
  let neg = false;
  if (b.length > 0 && (b[0] === 0x2b || b[0] === 0x2d)) {
    neg = b[0] === 0x2d;
    i = 1;
  }
  if (i >= b.length) return null;
  let v = 0n;
  let small = 0;
  const fast = b.length - i <= 15;
  for (; i < b.length; i++) {
    const c = b[i]!;
    if (c < 0x30 || c > 0x39) return null;
    if (fast) small = small * 10 + (c - 0x30);
    else v = v * 10n + BigInt(c - 0x30);
  }
  if (fast) v = BigInt(small);
  if (neg) v = -v;
  if (v < INT64_MIN || v > INT64_MAX) return null;
  return v;
}

/** `toSubstr`: a byte slice of s at position args[0] with length args[1]; panics like Go on a negative length. */
function toSubstr(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (args.length === 0) return s;
  let pos = atoi(args[0]!);
  if (pos === null) return s;
  const len = BigInt(s.length);
  if (pos < 0n) {
    pos = len + pos;
    if (pos < 0n) pos = 0n;
  }
  if (args.length === 1) return pos < len ? s.subarray(Number(pos)) : EMPTY;
  const length = atoi(args[1]!);
  if (length === null) return s;
  // Go's int addition wraps around.
  const sum = BigInt.asIntN(64, pos + length);
  if (sum >= len) return pos < len ? s.subarray(Number(pos)) : EMPTY;
  // s[pos:sum]: Go checks the high bound first, then low <= high.
  if (sum < 0n) throw new EnvsubstPanic(`slice bounds out of range [:${sum}]`);
  if (pos > sum) throw new EnvsubstPanic(`slice bounds out of range [${pos}:${sum}]`);
  return s.subarray(Number(pos), Number(sum));
}

function trimShortest(s: Uint8Array, arg: Uint8Array): Uint8Array {
  let shortest = 0;
  for (let i = 0; i < s.length; i++) {
    const m = globMatch(arg, s.subarray(0, s.length - i));
    if (m === 'error') return s;
    if (m) shortest = s.length - i;
  }
  return shortest > 0 ? s.subarray(shortest) : s;
}

function trimLongest(s: Uint8Array, arg: Uint8Array): Uint8Array {
  for (let i = 0; i < s.length; i++) {
    const m = globMatch(arg, s.subarray(0, s.length - i));
    if (m === 'error') return s;
    if (m) return s.subarray(s.length - i);
  }
  return s;
}

function trimShortestPrefix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  return args.length !== 0 ? trimShortest(s, args[0]!) : s;
}

function trimLongestPrefix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  return args.length !== 0 ? trimLongest(s, args[0]!) : s;
}

// Suffix trims reverse the value and the pattern (by runes), so classes and escapes in the pattern break.
function trimShortestSuffix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  return args.length !== 0 ? reverseRunes(trimShortest(reverseRunes(s), reverseRunes(args[0]!))) : s;
}

function trimLongestSuffix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  return args.length !== 0 ? reverseRunes(trimLongest(reverseRunes(s), reverseRunes(args[0]!))) : s;
}

function indexOf(s: Uint8Array, sub: Uint8Array, from: number): number {
  if (sub.length === 0) return from <= s.length ? from : -1;
  return Buffer.from(s.buffer, s.byteOffset, s.length).indexOf(Buffer.from(sub.buffer, sub.byteOffset, sub.length), from);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hasPrefix(s: Uint8Array, p: Uint8Array): boolean {
  return s.length >= p.length && equalBytes(s.subarray(0, p.length), p);
}

function hasSuffix(s: Uint8Array, p: Uint8Array): boolean {
  return s.length >= p.length && equalBytes(s.subarray(s.length - p.length), p);
}

/** Go `strings.Replace(s, old, new, n)`; an empty `old` matches before every rune and at the end. */
export function replaceBytes(s: Uint8Array, old: Uint8Array, repl: Uint8Array, n: number): Uint8Array {
  if (equalBytes(old, repl) || n === 0) return s;
  let m: number;
  if (old.length === 0) {
    m = runeCount(s) + 1;
  } else {
    m = 0;
    for (let j = indexOf(s, old, 0); j >= 0; j = indexOf(s, old, j + old.length)) m++;
  }
  if (m === 0) return s;
  if (n < 0 || m < n) n = m;
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    let j = start;
    if (old.length === 0) {
      if (i > 0) {
        decodeRune(s, start, s.length);
        j += decoded.width;
      }
    } else {
      j = indexOf(s, old, start);
    }
    parts.push(s.subarray(start, j), repl);
    start = j + old.length;
  }
  parts.push(s.subarray(start));
  return concatBytes(parts);
}

function replaceAll(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (args.length === 0) return s;
  return replaceBytes(s, args[0]!, args[1] ?? EMPTY, -1);
}

function replaceFirst(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (args.length === 0) return s;
  return replaceBytes(s, args[0]!, args[1] ?? EMPTY, 1);
}

function replacePrefix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (args.length !== 2) return s;
  return hasPrefix(s, args[0]!) ? replaceBytes(s, args[0]!, args[1]!, 1) : s;
}

function replaceSuffix(s: Uint8Array, args: Uint8Array[]): Uint8Array {
  if (args.length !== 2) return s;
  const old = args[0]!;
  return hasSuffix(s, old) ? concatBytes([s.subarray(0, s.length - old.length), args[1]!]) : s;
}

/** Go `lookupFunc(name, len(args))`: an unknown operator name falls back to the default function. */
export function lookupFunc(name: string, nargs: number): SubstituteFunc {
  switch (name) {
    case ',':
      return toLowerFirst;
    case ',,':
      return toLower;
    case '^':
      return toUpperFirst;
    case '^^':
      return toUpper;
    case '#':
      return nargs === 0 ? toLen : trimShortestPrefix;
    case '##':
      return trimLongestPrefix;
    case '%':
      return trimShortestSuffix;
    case '%%':
      return trimLongestSuffix;
    case ':':
      return toSubstr;
    case '/#':
      return replacePrefix;
    case '/%':
      return replaceSuffix;
    case '/':
      return replaceFirst;
    case '//':
      return replaceAll;
    default:
      return toDefault;
  }
}
