/**
 * sprig's encoding, hash, path, regex and semver functions: encoding/base64 and base32 (with Go's decode errors),
 * crypto hashes, hash/adler32, the path package, regexp and Masterminds/semver.
 */
import { createHash } from 'node:crypto';
import { nilSlice, typedSlice, type GoValue } from '../template/index.js';
import { fn, goError, int, str, type FuncTable } from './func.js';
import { GoRegexp, quoteMeta, RegexpError } from './regexp.js';
import { SemverConstraints, SemverError, SemverVersion } from './semver.js';
import { fromUtf8, utf8 } from './text.js';

const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * base64.StdEncoding.DecodeString / base32.StdEncoding.DecodeString: padded, newlines ignored, and on bad input
 * Go's CorruptInputError offset ("illegal base64 data at input byte 4").
 */
function decodeStd(s: string, alphabet: string, quantum: 4, bitsPer: 6, name: string): Uint8Array | string {
  const src = utf8(s);
  const table = new Map<number, number>([...alphabet].map((c, i) => [c.charCodeAt(0), i]));
  const out: number[] = [];
  const corrupt = (at: number): string => `illegal ${name} data at input byte ${at}`;
  let si = 0;
  const isNl = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;
  while (si < src.length) {
    const dbuf: number[] = [];
    let dlen: number = quantum;
    let trailingErr: string | null = null;
    let j = 0;
    for (; j < quantum; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        return corrupt(si - j);
      }
      const c = src[si] ?? 0;
      si++;
      const v = table.get(c);
      if (v !== undefined) {
        dbuf[j] = v;
        continue;
      }
      if (isNl(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d) return corrupt(si - 1);
      // Padding: the rest of the quantum must be '=' (newlines allowed in between).
      if (j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNl(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== 0x3d) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNl(src[si])) si++;
      if (si < src.length) trailingErr = corrupt(si);
      dlen = j;
      break;
    }
    let acc = 0n;
    for (let k = 0; k < quantum; k++) acc = (acc << BigInt(bitsPer)) | BigInt(dbuf[k] ?? 0);
    const bytes: number[] = [];
    for (let k = (quantum * bitsPer) / 8 - 1; k >= 0; k--) bytes.push(Number((acc >> BigInt(8 * k)) & 0xffn));
    const nBytes = Math.floor((dlen * bitsPer) / 8);
    out.push(...bytes.slice(0, nBytes));
    if (trailingErr !== null) return trailingErr;
  }
  return Uint8Array.from(out);
}

/** base32.StdEncoding.DecodeString (encoding/base32's decode after stripping newlines): the bytes, or the error text. */
function decodeBase32(s: string): Uint8Array | string {
  const src = utf8(s).filter((b) => b !== 0x0a && b !== 0x0d);
  const olen = src.length;
  const table = new Map<number, number>([...b32].map((c, i) => [c.charCodeAt(0), i]));
  const corrupt = (at: number): string => `illegal base32 data at input byte ${at}`;
  const out: number[] = [];
  let pos = 0;
  let end = false;
  while (pos < olen && !end) {
    const dbuf = new Array<number>(8).fill(0);
    let dlen = 8;
    for (let j = 0; j < 8; ) {
      if (pos >= olen) return corrupt(olen - (olen - pos) - j);
      const c = src[pos] ?? 0;
      pos++;
      const remaining = olen - pos;
      if (c === 0x3d && j >= 2 && remaining < 8) {
        if (remaining + j < 7) return corrupt(olen);
        for (let k = 0; k < 7 - j; k++) {
          if (remaining > k && src[pos + k] !== 0x3d) return corrupt(olen - remaining + k - 1);
        }
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) return corrupt(olen - remaining - 1);
        break;
      }
      const v = table.get(c);
      if (v === undefined) return corrupt(olen - remaining - 1);
      dbuf[j] = v;
      j++;
    }
    let acc = 0n;
    for (const d of dbuf) acc = (acc << 5n) | BigInt(d);
    const bytes = [4, 3, 2, 1, 0].map((k) => Number((acc >> BigInt(8 * k)) & 0xffn));
    out.push(...bytes.slice(0, Math.floor((dlen * 5) / 8)));
  }
  return Uint8Array.from(out);
}

/** base64.StdEncoding.DecodeString: the bytes, or the error text. */
export function decodeBase64(s: string): Uint8Array | string {
  return decodeStd(s, b64, 4, 6, 'base64');
}

function encodeStd(bytes: Uint8Array, alphabet: string, quantum: 4 | 8, bitsPer: 6 | 5): string {
  const groupBytes = (quantum * bitsPer) / 8;
  let out = '';
  for (let i = 0; i < bytes.length; i += groupBytes) {
    const chunk = bytes.subarray(i, i + groupBytes);
    let acc = 0n;
    for (let k = 0; k < groupBytes; k++) acc = (acc << 8n) | BigInt(chunk[k] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / bitsPer);
    for (let k = 0; k < quantum; k++) {
      const shift = BigInt((quantum - 1 - k) * bitsPer);
      out += k < chars ? alphabet[Number((acc >> shift) & BigInt((1 << bitsPer) - 1))] : '=';
    }
  }
  return out;
}

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of utf8(s)) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a) >>> 0;
}

// The path package (slash-separated; filepath on Linux behaves the same).
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!rooted) parts.push('..');
      continue;
    }
    parts.push(seg);
  }
  const out = (rooted ? '/' : '') + parts.join('/');
  return out === '' ? '.' : out;
}
function pathBase(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  if (p === '') return '/';
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}
function pathDir(p: string): string {
  const i = p.lastIndexOf('/');
  return pathClean(p.slice(0, i + 1));
}
function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

function compileOr(expr: string, must: boolean): GoRegexp {
  try {
    return must ? GoRegexp.compile(expr) : GoRegexp.mustCompile(expr);
  } catch (e) {
    if (e instanceof RegexpError) goError(e.message);
    throw e;
  }
}
// No match is Go's nil slice: `toJson` writes `null`, not `[]`.
const strings = (xs: string[] | null): GoValue => (xs === null ? nilSlice(typedSlice([], 'string')) : typedSlice(xs, 'string'));

function semverCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof SemverError) goError(e.message);
    throw e;
  }
}

export function encodingFuncs(): FuncTable {
  const s1 = (name: string, f: (s: string) => GoValue, result = 'string') => fn(name, ['string'], [result], (a) => f(str(a[0])));
  const hash = (alg: string) => (s: string) => createHash(alg).update(utf8(s)).digest('hex');
  const t: FuncTable = {
    b64enc: s1('b64enc', (s) => encodeStd(utf8(s), b64, 4, 6)),
    b64dec: s1('b64dec', (s) => {
      const r = decodeBase64(s);
      return typeof r === 'string' ? r : fromUtf8(r);
    }),
    b32enc: s1('b32enc', (s) => encodeStd(utf8(s), b32, 8, 5)),
    b32dec: s1('b32dec', (s) => {
      const r = decodeBase32(s);
      return typeof r === 'string' ? r : fromUtf8(r);
    }),
    sha1sum: s1('sha1sum', hash('sha1')),
    sha256sum: s1('sha256sum', hash('sha256')),
    sha512sum: s1('sha512sum', hash('sha512')),
    adler32sum: s1('adler32sum', (s) => String(adler32(s))),
    regexQuoteMeta: s1('regexQuoteMeta', quoteMeta),
    semver: fn('semver', ['string'], ['*semver.Version', 'error'], (a) => semverCall(() => SemverVersion.parse(str(a[0])))),
    semverCompare: fn('semverCompare', ['string', 'string'], ['bool', 'error'], (a) =>
      semverCall(() => {
        const c = SemverConstraints.parse(str(a[0]));
        return c.check(SemverVersion.parse(str(a[1])));
      }),
    ),
  };
  for (const prefix of ['', 'os'] as const) {
    const name = (n: string): string => (prefix === '' ? n : `os${n[0]?.toUpperCase()}${n.slice(1)}`);
    t[name('base')] = s1(name('base'), pathBase);
    t[name('dir')] = s1(name('dir'), pathDir);
    t[name('clean')] = s1(name('clean'), pathClean);
    t[name('ext')] = s1(name('ext'), pathExt);
    t[name('isAbs')] = s1(name('isAbs'), (s) => s.startsWith('/'), 'bool');
  }
  for (const must of [false, true]) {
    const n = (base: string): string => (must ? `must${base[0]?.toUpperCase()}${base.slice(1)}` : base);
    const res = (r: string): string[] => (must ? [r, 'error'] : [r]);
    t[n('regexMatch')] = fn(n('regexMatch'), ['string', 'string'], res('bool'), (a) => {
      try {
        return GoRegexp.compile(str(a[0])).matchString(str(a[1]));
      } catch (e) {
        // regexMatch drops the compile error and answers false.
        if (e instanceof RegexpError) return must ? goError(e.message) : false;
        throw e;
      }
    });
    t[n('regexFindAll')] = fn(n('regexFindAll'), ['string', 'string', 'int'], res('[]string'), (a) =>
      strings(compileOr(str(a[0]), must).findAllString(str(a[1]), int(a[2]))),
    );
    t[n('regexFind')] = fn(n('regexFind'), ['string', 'string'], res('string'), (a) => compileOr(str(a[0]), must).findString(str(a[1])));
    t[n('regexReplaceAll')] = fn(n('regexReplaceAll'), ['string', 'string', 'string'], res('string'), (a) =>
      compileOr(str(a[0]), must).replaceAllString(str(a[1]), str(a[2])),
    );
    t[n('regexReplaceAllLiteral')] = fn(n('regexReplaceAllLiteral'), ['string', 'string', 'string'], res('string'), (a) =>
      compileOr(str(a[0]), must).replaceAllLiteralString(str(a[1]), str(a[2])),
    );
    t[n('regexSplit')] = fn(n('regexSplit'), ['string', 'string', 'int'], res('[]string'), (a) =>
      strings(compileOr(str(a[0]), must).split(str(a[1]), int(a[2]))),
    );
  }
  return t;
}
