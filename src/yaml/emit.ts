/**
 * capiform's YAML output for values we create or change (DESIGN.md "YAML"): YAML 1.1-safe, 2-space indentation,
 * `- item` sequences not indented under their key, no folding, no anchors, literal blocks for multi-line strings,
 * `---` between documents, `\n` line endings and a final newline. Every string that go-yaml v2 (what kubectl and the
 * controllers read with) would take for another type is quoted, including Go's `0o755`, `0b101` and `1_000` forms.
 */
import { isAmbiguousPlain } from './resolve.js';
import { isObject as isObj } from '../go/index.js';

const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';

/** True when `s` can be written as a plain scalar and read back as the same string. */
/** Read as a non-string by go-yaml v2, or as a sexagesimal number by other YAML 1.1 readers. */
function looksTyped(s: string): boolean {
  return isAmbiguousPlain(s) || /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s);
}

export function isPlainSafe(s: string): boolean {
  if (s === '') return false;
  if (looksTyped(s)) return false;
  const c = s[0] as string;
  if (INDICATORS.includes(c) || c === ' ') return false;
  if (s.startsWith('---') || s.startsWith('...')) return false;
  const last = s[s.length - 1];
  if (last === ' ' || last === ':') return false;
  if (s.includes(': ') || s.includes(' #')) return false;
  for (let i = 0; i < s.length; i++) {
    const cc = s.charCodeAt(i);
    if (cc < 0x20 || cc === 0x7f || (cc >= 0x80 && cc < 0xa0) || cc === 0xfeff || cc === 0x2028 || cc === 0x2029)
      return false;
  }
  return true;
}

function needsDoubleQuotes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const cc = s.charCodeAt(i);
    if (cc < 0x20 || cc === 0x7f || (cc >= 0x80 && cc < 0xa0) || cc === 0xfeff || cc === 0x2028 || cc === 0x2029)
      return true;
  }
  return false;
}

export function doubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp === 0xfeff || cp === 0x2028 || cp === 0x2029) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** A string on one line: plain when safe, "double" for type look-alikes and escapes, 'single' otherwise. */
export function inlineString(s: string): string {
  if (isPlainSafe(s)) return s;
  if (needsDoubleQuotes(s) || s.includes('\n') || looksTyped(s) || s === '') return doubleQuote(s);
  return `'${s.replace(/'/g, "''")}'`;
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  return String(n);
}

/** Scalars (non-multi-line) as they appear after `key: ` or `- `. */
export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'bigint') return v.toString();
  return inlineString(String(v));
}

function isLiteralCandidate(s: string): boolean {
  if (!s.includes('\n')) return false;
  if (needsDoubleQuotes(s.replace(/\n/g, ''))) return false;
  if (s.includes('\t')) return false;
  // trailing spaces on a line are invisible and fragile in a block: use double quotes then
  return !/ \n| $/.test(s);
}

/** `|` header plus lines indented at `indent`. */
function literal(s: string, indent: number): string {
  let header = '|';
  if (s.startsWith(' ') || s.startsWith('\n')) header += '2';
  let body = s;
  if (!s.endsWith('\n')) header += '-';
  else if (s.endsWith('\n\n')) header += '+';
  if (body.endsWith('\n')) body = body.slice(0, -1);
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
  return header + '\n' + lines.join('\n');
}

export function keyText(k: string): string {
  return inlineString(k);
}

/** The text that follows `key:` for a key at column `col`. */
export function afterKey(v: unknown, col: number): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return '\n' + seqLines(v, col);
  }
  if (isObj(v)) {
    if (Object.keys(v).length === 0) return ' {}';
    return '\n' + mapLines(v, col + 2);
  }
  if (typeof v === 'string' && isLiteralCandidate(v)) return ' ' + literal(v, col + 2);
  return ' ' + scalarText(v);
}

/** The text that follows `-` for a dash at column `col`. */
export function afterDash(v: unknown, col: number): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return ' ' + seqLines(v, col + 2).slice(col + 2);
  }
  if (isObj(v)) {
    if (Object.keys(v).length === 0) return ' {}';
    return ' ' + mapLines(v, col + 2).slice(col + 2);
  }
  if (typeof v === 'string' && isLiteralCandidate(v)) return ' ' + literal(v, col + 2);
  return ' ' + scalarText(v);
}

export function mapLines(obj: Record<string, unknown>, col: number): string {
  const pad = ' '.repeat(col);
  const out: string[] = [];
  for (const k of Object.keys(obj)) out.push(pad + keyText(k) + ':' + afterKey(obj[k], col));
  return out.join('\n');
}

export function seqLines(arr: unknown[], col: number): string {
  const pad = ' '.repeat(col);
  return arr.map((v) => pad + '-' + afterDash(v, col)).join('\n');
}

/** One object as a YAML document body, ending with a newline. */
export function emitObject(obj: Record<string, unknown>): string {
  if (Object.keys(obj).length === 0) return '{}\n';
  return mapLines(obj, 0) + '\n';
}
