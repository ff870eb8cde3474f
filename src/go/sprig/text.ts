/**
 * Go string semantics in JavaScript. A Go string is a byte sequence and most sprig functions index it by byte, so the
 * byte-oriented ones go through UTF-8 here. JavaScript strings cannot hold invalid UTF-8: where Go would cut a
 * multi-byte character in half, the result decodes with U+FFFD for the broken bytes (Go keeps the raw bytes).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
export function fromUtf8(b: Uint8Array): string {
  return decoder.decode(b);
}
/** `len(s)` in Go: the UTF-8 byte length. */
export function byteLength(s: string): number {
   
  return /^[\x00-\x7f]*$/.test(s) ? s.length : encoder.encode(s).length;
}
/** `s[start:end]` on the UTF-8 bytes. */
export function byteSlice(s: string, start: number, end?: number): string {
   
  if (/^[\x00-\x7f]*$/.test(s)) return s.slice(start, end);
  return fromUtf8(encoder.encode(s).subarray(start, end));
}
/** The runtime error of an out-of-range `s[low:high]`, or null when the bounds are valid. */
export function sliceBoundsError(low: number, high: number, len: number): string | null {
  if (high < 0) return `runtime error: slice bounds out of range [:${high}]`;
  if (high > len) return `runtime error: slice bounds out of range [:${high}] with length ${len}`;
  if (low < 0) return `runtime error: slice bounds out of range [${low}:]`;
  if (low > high) return `runtime error: slice bounds out of range [${low}:${high}]`;
  return null;
}

export function runes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) ?? 0);
  return out;
}
export function fromRunes(rs: readonly number[]): string {
  let out = '';
  for (const r of rs) out += String.fromCodePoint(r);
  return out;
}

function test(re: RegExp, r: number): boolean {
  return r >= 0 && r <= 0x10ffff && re.test(String.fromCodePoint(r));
}
/** unicode.IsSpace */
export function isSpace(r: number): boolean {
  if (r < 0x100) return r === 0x20 || (r >= 0x09 && r <= 0x0d) || r === 0x85 || r === 0xa0;
  return test(/^\p{White_Space}$/u, r);
}
export function isUpper(r: number): boolean {
  return test(/^\p{Lu}$/u, r);
}
export function isLower(r: number): boolean {
  return test(/^\p{Ll}$/u, r);
}
export function isTitle(r: number): boolean {
  return test(/^\p{Lt}$/u, r);
}
export function isLetter(r: number): boolean {
  return test(/^\p{L}$/u, r);
}
export function isDigit(r: number): boolean {
  return test(/^\p{Nd}$/u, r);
}
export function isNumber(r: number): boolean {
  return test(/^\p{N}$/u, r);
}
/** xstrings' isAlphabet: a letter, except CJK ideographs (which xstrings treats as words of their own). */
export function isAlphabetRune(r: number): boolean {
  if (!isLetter(r)) return false;
  if (r < 0x3400) return true;
  if (r >= 0x4e00 && r <= 0x9fcc) return false;
  if (r >= 0x3400 && r <= 0x4d85) return false;
  if (r >= 0x20000 && r <= 0x2b81d) return false;
  return true;
}
export function isPunct(r: number): boolean {
  return test(/^\p{P}$/u, r);
}

/** unicode.ToUpper: the simple (one rune to one rune) mapping; full mappings such as ß → SS do not apply. */
export function toUpperRune(r: number): number {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
  const up = String.fromCodePoint(r).toUpperCase();
  const cps = [...up];
  return cps.length === 1 ? (up.codePointAt(0) ?? r) : r;
}
export function toLowerRune(r: number): number {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  // U+0130 lower-cases to two runes in JavaScript; Go's simple mapping gives 'i'.
  if (r === 0x130) return 0x69;
  const low = String.fromCodePoint(r).toLowerCase();
  const cps = [...low];
  return cps.length === 1 ? (low.codePointAt(0) ?? r) : r;
}
/** unicode.ToTitle: like ToUpper except for the digraphs that have a distinct title case. */
export function toTitleRune(r: number): number {
  const digraphs: Record<number, number> = {
    0x1c4: 0x1c5,
    0x1c5: 0x1c5,
    0x1c6: 0x1c5,
    0x1c7: 0x1c8,
    0x1c8: 0x1c8,
    0x1c9: 0x1c8,
    0x1ca: 0x1cb,
    0x1cb: 0x1cb,
    0x1cc: 0x1cb,
    0x1f1: 0x1f2,
    0x1f2: 0x1f2,
    0x1f3: 0x1f2,
  };
  return digraphs[r] ?? toUpperRune(r);
}
export function mapRunes(s: string, f: (r: number) => number): string {
  let out = '';
  for (const ch of s) out += String.fromCodePoint(f(ch.codePointAt(0) ?? 0));
  return out;
}
export function goToUpper(s: string): string {
  return mapRunes(s, toUpperRune);
}
export function goToLower(s: string): string {
  return mapRunes(s, toLowerRune);
}

/** strings.TrimSpace */
export function trimSpace(s: string): string {
  const rs = runes(s);
  let a = 0;
  let b = rs.length;
  while (a < b && isSpace(rs[a] ?? 0)) a++;
  while (b > a && isSpace(rs[b - 1] ?? 0)) b--;
  return fromRunes(rs.slice(a, b));
}
/** strings.Trim(s, cutset) */
export function trimCutset(s: string, cutset: string): string {
  if (s === '' || cutset === '') return s;
  const cut = new Set(runes(cutset));
  const rs = runes(s);
  let a = 0;
  let b = rs.length;
  while (a < b && cut.has(rs[a] ?? 0)) a++;
  while (b > a && cut.has(rs[b - 1] ?? 0)) b--;
  return fromRunes(rs.slice(a, b));
}

/** strings.Title (deprecated in Go, still what sprig's `title` calls). */
export function goTitle(s: string): string {
  const isSeparator = (r: number): boolean => {
    if (r <= 0x7f) {
      if ((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || r === 0x5f) return false;
      return true;
    }
    if (isLetter(r) || isDigit(r)) return false;
    return isSpace(r);
  };
  let prev = 0x20;
  let out = '';
  for (const ch of s) {
    const r = ch.codePointAt(0) ?? 0;
    out += String.fromCodePoint(isSeparator(prev) ? toTitleRune(r) : r);
    prev = r;
  }
  return out;
}

/** strings.Split(s, sep) with Go's rules for an empty separator (split after each UTF-8 sequence). */
export function goSplit(s: string, sep: string, n = -1): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const chars = [...s];
    if (n < 0 || n >= chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** strings.Repeat; Go panics on a negative count. */
export function goRepeat(s: string, count: number): string {
  if (count < 0) throw new Error('strings: negative Repeat count');
  return s.repeat(count);
}
