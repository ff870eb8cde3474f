/**
 * drone/envsubst's vendored copy of Go's `path.Match`, patched so that `*` also matches `/`. Ported byte for byte:
 * literals compare bytes, `?` and `[...]` consume one rune (a stray byte counts as one), `\` escapes, `[^...]`
 * negates (`[!...]` does not), and a malformed pattern is an error only when the matcher reaches it.
 */
import { decodeRune, decoded, RUNE_ERROR } from './utf8.js';

/** Result of matching: true/false, or 'error' for Go's `ErrBadPattern`. */
export type MatchResult = boolean | 'error';

const NO_MATCH = -1;
const BAD_PATTERN = -2;

/** Go `path.Match(pattern, name)` as patched by drone/envsubst. */
export function globMatch(pattern: Uint8Array, name: Uint8Array): MatchResult {
  let p = 0;
  const pe = pattern.length;
  let n = 0;
  const ne = name.length;
  pattern: while (p < pe) {
    // scanChunk
    let star = false;
    while (p < pe && pattern[p] === 0x2a) {
      p++;
      star = true;
    }
    let inrange = false;
    let i = p;
    scan: for (; i < pe; i++) {
      switch (pattern[i]) {
        case 0x5c: // '\\'
          if (i + 1 < pe) i++;
          break;
        case 0x5b: // '['
          inrange = true;
          break;
        case 0x5d: // ']'
          inrange = false;
          break;
        case 0x2a: // '*'
          if (!inrange) break scan;
          break;
      }
    }
    const cs = p;
    const ce = i;
    p = i;
    if (star && cs === ce) {
      // Trailing * matches everything (patched: including '/').
      return true;
    }
    // Look for a match at the current position.
    const t = matchChunk(pattern, cs, ce, name, n, ne);
    if (t >= 0 && (t === ne || p < pe)) {
      n = t;
      continue;
    }
    if (t === BAD_PATTERN) return 'error';
    if (star) {
      // Look for a match skipping i+1 bytes (patched: '/' may be skipped).
      for (let k = n; k < ne; k++) {
        const t2 = matchChunk(pattern, cs, ce, name, k + 1, ne);
        if (t2 >= 0) {
          // The last chunk must exhaust the name.
          if (p === pe && t2 < ne) continue;
          n = t2;
          continue pattern;
        }
        if (t2 === BAD_PATTERN) return 'error';
      }
    }
    return false;
  }
  return n === ne;
}

let escPos = 0;

/** Go `getEsc`: a possibly escaped character of a class; the rest of the chunk starts at {@link escPos}. */
function getEsc(chunk: Uint8Array, c: number, ce: number): number {
  if (c >= ce || chunk[c] === 0x2d || chunk[c] === 0x5d) return BAD_PATTERN;
  if (chunk[c] === 0x5c) {
    c++;
    if (c >= ce) return BAD_PATTERN;
  }
  const r = decodeRune(chunk, c, ce);
  const w = decoded.width;
  let bad = r === RUNE_ERROR && w === 1;
  c += w;
  if (c >= ce) bad = true;
  escPos = c;
  return bad ? BAD_PATTERN : r;
}

/**
 * Go `matchChunk(chunk, s)`: returns the index in `s` after the match, {@link NO_MATCH}, or {@link BAD_PATTERN}.
 */
function matchChunk(chunk: Uint8Array, c: number, ce: number, s: Uint8Array, i: number, se: number): number {
  while (c < ce) {
    if (i >= se) return NO_MATCH;
    const ch = chunk[c]!;
    if (ch === 0x5b) {
      // character class
      const r = decodeRune(s, i, se);
      i += decoded.width;
      c++;
      let negated = false;
      if (c < ce && chunk[c] === 0x5e) {
        negated = true;
        c++;
      }
      let match = false;
      let nrange = 0;
      for (;;) {
        if (c < ce && chunk[c] === 0x5d && nrange > 0) {
          c++;
          break;
        }
        const lo = getEsc(chunk, c, ce);
        if (lo === BAD_PATTERN) return BAD_PATTERN;
        c = escPos;
        let hi = lo;
        if (chunk[c] === 0x2d) {
          hi = getEsc(chunk, c + 1, ce);
          if (hi === BAD_PATTERN) return BAD_PATTERN;
          c = escPos;
        }
        if (lo <= r && r <= hi) match = true;
        nrange++;
      }
      if (match === negated) return NO_MATCH;
    } else if (ch === 0x3f) {
      // '?': any one rune (patched: including '/')
      decodeRune(s, i, se);
      i += decoded.width;
      c++;
    } else {
      if (ch === 0x5c) {
        c++;
        if (c >= ce) return BAD_PATTERN;
      }
      if (chunk[c] !== s[i]) return NO_MATCH;
      i++;
      c++;
    }
  }
  return i;
}
