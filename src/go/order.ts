/**
 * Go's string order: strings compare by their UTF-8 bytes (`sort.Strings`, `strings.Compare`, fmtsort's map keys,
 * clusterctl's and CAPI's sorted listings). JavaScript's `<` compares UTF-16 code units, which differs for code points
 * above U+FFFF (a surrogate pair, 0xD800-0xDFFF, sorts below U+E000-U+FFFF in UTF-16 but above it in UTF-8).
 *
 * A lone surrogate has no UTF-8 form: it counts as U+FFFD, what Go's own conversions (encoding/json's unquote,
 * `string([]rune)`) and Node's UTF-8 encoder make of it, so the order is exactly `Buffer.compare` of the UTF-8 bytes.
 * The common case compares code units without encoding anything.
 */

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/** -1, 0 or 1 as `a` sorts before, with or after `b` in Go's string order (bytewise UTF-8). */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Outside the surrogates UTF-8 keeps code unit order; a surrogate (paired or lone) takes the encoding path.
    if (isSurrogate(x) || isSurrogate(y)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
    return x < y ? -1 : 1;
  }
  // A prefix in UTF-16 sorts first in UTF-8 too: a high surrogate ending `a` is EF BF BD (U+FFFD), below the F0-F4
  // lead byte of the pair `b` may complete with it.
  return a.length < b.length ? -1 : 1;
}
