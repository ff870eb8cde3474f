/**
 * Byte-level UTF-8 helpers that behave exactly like Go's `unicode/utf8`, plus the Go `unicode` predicates and simple
 * case mappings the substitution engine needs. drone/envsubst works on Go strings (bytes), so every offset here is
 * a byte offset and invalid sequences decode as U+FFFD with width 1, as in Go.
 */

export const RUNE_ERROR = 0xfffd;

/**
 * Width in bytes of the rune most recently decoded by {@link decodeRune} (Go's second return value). An object,
 * not an exported `let`, so every importer sees the update whatever the module loader.
 */
export const decoded = { width: 0 };

/** Go `utf8.DecodeRune(buf[pos:end])`; the width is left in {@link decoded.width}. */
export function decodeRune(buf: Uint8Array, pos: number, end: number): number {
  if (pos >= end) {
    decoded.width = 0;
    return RUNE_ERROR;
  }
  const b0 = buf[pos]!;
  if (b0 < 0x80) {
    decoded.width = 1;
    return b0;
  }
  let size: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 < 0xc2) {
    decoded.width = 1;
    return RUNE_ERROR;
  } else if (b0 < 0xe0) {
    size = 2;
  } else if (b0 < 0xf0) {
    size = 3;
    if (b0 === 0xe0) lo = 0xa0;
    else if (b0 === 0xed) hi = 0x9f;
  } else if (b0 < 0xf5) {
    size = 4;
    if (b0 === 0xf0) lo = 0x90;
    else if (b0 === 0xf4) hi = 0x8f;
  } else {
    decoded.width = 1;
    return RUNE_ERROR;
  }
  if (end - pos < size) {
    decoded.width = 1;
    return RUNE_ERROR;
  }
  const b1 = buf[pos + 1]!;
  if (b1 < lo || b1 > hi) {
    decoded.width = 1;
    return RUNE_ERROR;
  }
  if (size === 2) {
    decoded.width = 2;
    return ((b0 & 0x1f) << 6) | (b1 & 0x3f);
  }
  const b2 = buf[pos + 2]!;
  if (b2 < 0x80 || b2 > 0xbf) {
    decoded.width = 1;
    return RUNE_ERROR;
  }
  if (size === 3) {
    decoded.width = 3;
    return ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
  }
  const b3 = buf[pos + 3]!;
  if (b3 < 0x80 || b3 > 0xbf) {
    decoded.width = 1;
    return RUNE_ERROR;
  }
  decoded.width = 4;
  return ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
}

/** Number of bytes Go's `utf8.EncodeRune` writes for r (invalid runes become U+FFFD, 3 bytes). */
export function runeLen(r: number): number {
  if (r < 0) return 3;
  if (r < 0x80) return 1;
  if (r < 0x800) return 2;
  if (r >= 0xd800 && r <= 0xdfff) return 3;
  if (r < 0x10000) return 3;
  if (r <= 0x10ffff) return 4;
  return 3;
}

/** Go `utf8.EncodeRune` into out at pos; returns the new position. */
export function encodeRune(out: Uint8Array, pos: number, r: number): number {
  if (r >= 0 && r < 0x80) {
    out[pos] = r;
    return pos + 1;
  }
  if (r >= 0x80 && r < 0x800) {
    out[pos] = 0xc0 | (r >> 6);
    out[pos + 1] = 0x80 | (r & 0x3f);
    return pos + 2;
  }
  if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) r = RUNE_ERROR;
  if (r < 0x10000) {
    out[pos] = 0xe0 | (r >> 12);
    out[pos + 1] = 0x80 | ((r >> 6) & 0x3f);
    out[pos + 2] = 0x80 | (r & 0x3f);
    return pos + 3;
  }
  out[pos] = 0xf0 | (r >> 18);
  out[pos + 1] = 0x80 | ((r >> 12) & 0x3f);
  out[pos + 2] = 0x80 | ((r >> 6) & 0x3f);
  out[pos + 3] = 0x80 | (r & 0x3f);
  return pos + 4;
}

/** Go `utf8.RuneCount`: invalid bytes count as one rune each. */
export function runeCount(buf: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < buf.length; ) {
    if (buf[i]! < 0x80) {
      i++;
    } else {
      decodeRune(buf, i, buf.length);
      i += decoded.width;
    }
    n++;
  }
  return n;
}

// 0 = not computed yet, 1 = yes, 2 = no. Filled lazily for non-ASCII runes.
const identCache = new Int8Array(0x110000);
const identRe = /^[\p{L}\p{Nd}]$/u;

/** `unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'` (drone/envsubst's acceptIdent). */
export function isIdentRune(r: number): boolean {
  if (r < 0x80) {
    return (r >= 0x61 && r <= 0x7a) || (r >= 0x41 && r <= 0x5a) || (r >= 0x30 && r <= 0x39) || r === 0x5f;
  }
  let c = identCache[r];
  if (c === undefined) return false;
  if (c === 0) {
    c = identRe.test(String.fromCodePoint(r)) ? 1 : 2;
    identCache[r] = c;
  }
  return c === 1;
}

// Go's unicode.ToUpper/ToLower use UnicodeData's simple (1:1) mappings. JavaScript only offers the full mappings
// (SpecialCasing), which differ where the full mapping has several code points. For those, the simple mapping is
// the rune itself except for these Greek letters with ypogegrammeni, whose simple uppercase is the titlecase form.
const simpleUpperExceptions = new Map<number, number>([
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
for (let r = 0; r < 8; r++) {
  simpleUpperExceptions.set(0x1f80 + r, 0x1f88 + r);
  simpleUpperExceptions.set(0x1f90 + r, 0x1f98 + r);
  simpleUpperExceptions.set(0x1fa0 + r, 0x1fa8 + r);
}
const simpleLowerExceptions = new Map<number, number>([[0x130, 0x69]]);

const upperCache = new Map<number, number>();
const lowerCache = new Map<number, number>();

function singleCodePoint(s: string): number | undefined {
  const cp = s.codePointAt(0);
  if (cp === undefined) return undefined;
  return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

/** Go `unicode.ToUpper`. */
export function toUpperRune(r: number): number {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a ? r - 0x20 : r;
  if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return r;
  let m = upperCache.get(r);
  if (m === undefined) {
    m = simpleUpperExceptions.get(r) ?? singleCodePoint(String.fromCodePoint(r).toUpperCase()) ?? r;
    upperCache.set(r, m);
  }
  return m;
}

/** Go `unicode.ToLower`. */
export function toLowerRune(r: number): number {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a ? r + 0x20 : r;
  if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return r;
  let m = lowerCache.get(r);
  if (m === undefined) {
    m = simpleLowerExceptions.get(r) ?? singleCodePoint(String.fromCodePoint(r).toLowerCase()) ?? r;
    lowerCache.set(r, m);
  }
  return m;
}

/** Go `strings.Map(mapping, s)` for a mapping that never drops runes: invalid bytes become U+FFFD once touched. */
export function mapRunes(s: Uint8Array, mapping: (r: number) => number): Uint8Array {
  // Fast path: ASCII-only input.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = mapping(s[i]!);
    return out;
  }
  const out = new Uint8Array(s.length * 3 + 4);
  let o = 0;
  let changed = false;
  for (let i = 0; i < s.length; ) {
    const c = decodeRune(s, i, s.length);
    const w = decoded.width;
    const r = mapping(c);
    if (r === c && !(c === RUNE_ERROR && w === 1)) {
      out.set(s.subarray(i, i + w), o);
      o += w;
    } else {
      changed = true;
      o = encodeRune(out, o, r);
    }
    i += w;
  }
  return changed ? out.slice(0, o) : s;
}

/** Go's `string([]rune(s))` reversed: runes reversed, invalid bytes turned into U+FFFD. */
export function reverseRunes(s: Uint8Array): Uint8Array {
  const runes: number[] = [];
  let len = 0;
  for (let i = 0; i < s.length; ) {
    const r = decodeRune(s, i, s.length);
    const w = decoded.width;
    const valid = !(r === RUNE_ERROR && w === 1);
    runes.push(valid ? r : RUNE_ERROR);
    len += valid ? w : 3;
    i += w;
  }
  const out = new Uint8Array(len);
  let o = 0;
  for (let k = runes.length - 1; k >= 0; k--) o = encodeRune(out, o, runes[k]!);
  return out;
}

/** The bytes of `parts`, one after the other, in a new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
