/** Go's `%q` formatting, shared by every place that reproduces a Go error message. */

/** Go `strconv.Quote` (`%q`): double-quoted with Go escapes; non-printable runes escaped. */
export function goQuote(s: string): string {
  return goQuoteWith(s, '"', false);
}

/**
 * strconv's quoteWith: `quote` is `"` (Quote, QuoteToASCII) or `'` (QuoteRune, QuoteRuneToASCII); with
 * `asciiOnly` every rune outside printable ASCII is escaped.
 */
export function goQuoteWith(s: string, quote: '"' | "'", asciiOnly: boolean): string {
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') {
      out += `\\${ch}`;
      continue;
    }
    const printable = ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
    if (printable && (!asciiOnly || cp < 0x80)) {
      out += ch;
      continue;
    }
    switch (ch) {
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) {
      out += `\\x${cp.toString(16).padStart(2, '0')}`;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      // A lone surrogate is not a valid rune: Go quotes it as the replacement character.
      out += '\\ufffd';
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return out + quote;
}
