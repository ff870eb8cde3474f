/**
 * clusterctl's legacy rewrite (`simple_processor.go`): the regular expression
 * `(\${(\s+([A-Za-z0-9_$]+)\s+)})|(\${(\s+([A-Za-z0-9_$]+))})|(\${(([A-Za-z0-9_$]+)\s+)})` turns `${ NAME }`,
 * `${ NAME}` and `${NAME }` into `${NAME}`. `\s` is Go RE2's ASCII class `[\t\n\f\r ]`; names are ASCII and may
 * contain `$`. Written as a scanner: whitespace, name and `{` are disjoint, so every attempt is one forward pass
 * that stops at the next `{`, and the whole rewrite is linear.
 */
import { concatBytes } from './utf8.js';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function isLegacyName(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24
  );
}

/** Returns buf with every legacy `${ NAME }` match rewritten, or buf itself when nothing matches. */
export function rewriteLegacyVariables(buf: Uint8Array): Uint8Array {
  const end = buf.length;
  let parts: Uint8Array[] | null = null;
  let copied = 0;
  let i = buf.indexOf(0x24);
  while (i >= 0 && i + 1 < end) {
    if (buf[i + 1] !== 0x7b) {
      i = buf.indexOf(0x24, i + 1);
      continue;
    }
    let j = i + 2;
    const ws1 = j;
    while (j < end && isSpace(buf[j]!)) j++;
    const nameStart = j;
    while (j < end && isLegacyName(buf[j]!)) j++;
    const nameEnd = j;
    while (j < end && isSpace(buf[j]!)) j++;
    const matched = nameEnd > nameStart && j < end && buf[j] === 0x7d && (nameStart > ws1 || j > nameEnd);
    if (!matched) {
      i = buf.indexOf(0x24, i + 1);
      continue;
    }
    parts ??= [];
    parts.push(buf.subarray(copied, i + 2), buf.subarray(nameStart, nameEnd));
    copied = j; // keep the `}`
    i = buf.indexOf(0x24, j + 1);
  }
  if (!parts) return buf;
  parts.push(buf.subarray(copied));
  return concatBytes(parts);
}

/** {@link rewriteLegacyVariables} on a string (the pattern is ASCII, so UTF-16 indexes work the same). */
export function rewriteLegacyVariablesString(text: string): string {
  const end = text.length;
  let parts: string[] | null = null;
  let copied = 0;
  let i = text.indexOf('${');
  while (i >= 0) {
    let j = i + 2;
    const ws1 = j;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    const nameStart = j;
    while (j < end && isLegacyName(text.charCodeAt(j))) j++;
    const nameEnd = j;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    const matched = nameEnd > nameStart && j < end && text.charCodeAt(j) === 0x7d && (nameStart > ws1 || j > nameEnd);
    if (!matched) {
      i = text.indexOf('${', i + 1);
      continue;
    }
    parts ??= [];
    parts.push(text.slice(copied, i + 2), text.slice(nameStart, nameEnd));
    copied = j;
    i = text.indexOf('${', j + 1);
  }
  if (!parts) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}
