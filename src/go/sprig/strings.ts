/**
 * sprig's string functions (strings.go, the strings package, goutils and xstrings), byte for byte: the functions that
 * index Go strings by byte (substr, trunc, abbrev, wrap, initials, nospace) do so on the UTF-8 bytes here too.
 */
import { goQuote } from '../quote.js';
import { compareGoStrings } from '../order.js';
import { typedMap, typedSlice, type GoValue, formatGoValue } from '../template/index.js';
import { strval } from './cast.js';
import { checkSize, fn, goError, int, str, type FuncTable } from './func.js';
import {
  byteLength,
  byteSlice,
  fromRunes,
  fromUtf8,
  goRepeat,
  goSplit,
  goTitle,
  goToLower,
  goToUpper,
  isAlphabetRune,
  isLower,
  isNumber,
  isPunct,
  isSpace,
  isTitle,
  isUpper,
  runes,
  sliceBoundsError,
  toLowerRune,
  toTitleRune,
  toUpperRune,
  trimCutset,
  trimSpace,
  utf8,
} from './text.js';

function sliced(s: string, low: number, high: number): string {
  const err = sliceBoundsError(low, high, byteLength(s));
  if (err !== null) goError(err);
  return byteSlice(s, low, high);
}

/** goutils.AbbreviateFull; "" when goutils returns an error (sprig drops it). */
function abbreviateFull(s: string, offset: number, maxWidth: number): string {
  if (s === '') return '';
  if (maxWidth < 4) return '';
  const len = byteLength(s);
  if (len <= maxWidth) return s;
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  if (offset <= 4) return sliced(s, 0, maxWidth - 3) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return '...' + abbreviateFull(sliced(s, offset, len), 0, maxWidth - 3);
  return '...' + sliced(s, len - (maxWidth - 3), len);
}

/** Reads bytes as Latin-1 runes, as goutils does with `rune(str[i])`. */
function latin1(bytes: Iterable<number>): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

/** goutils.DeleteWhiteSpace, which walks bytes: non-ASCII text comes back re-encoded byte by byte. */
function deleteWhiteSpace(s: string): string {
  if (s === '') return s;
  const bytes = utf8(s);
  const kept = [...bytes].filter((b) => !isSpace(b));
  return kept.length === bytes.length ? s : latin1(kept);
}

/** goutils.Initials with whitespace delimiters (byte-wise, like goutils). */
function initials(s: string): string {
  if (s === '') return s;
  const out: number[] = [];
  let lastWasGap = true;
  for (const b of utf8(s)) {
    if (isSpace(b)) lastWasGap = true;
    else if (lastWasGap) {
      out.push(b);
      lastWasGap = false;
    }
  }
  return latin1(out);
}

/** goutils.WrapCustom (byte offsets, as in Go). */
function wrapCustom(s: string, wrapLength: number, newLine: string, wrapLongWords: boolean): string {
  if (s === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const b = utf8(s);
  const nl = utf8(newLine);
  const len = b.length;
  let offset = 0;
  const out: number[] = [];
  const push = (from: number, to: number): void => {
    for (let i = from; i < to; i++) out.push(b[i] ?? 0);
  };
  const lastSpace = (from: number, to: number): number => {
    for (let i = Math.min(to, len) - 1; i >= from; i--) if (b[i] === 0x20) return i - from;
    return -1;
  };
  while (len - offset > wrapLength) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const end = wrapLength + offset + 1;
    let spaceToWrapAt = lastSpace(offset, end) + offset;
    if (spaceToWrapAt >= offset) {
      push(offset, spaceToWrapAt);
      out.push(...nl);
      offset = spaceToWrapAt + 1;
    } else if (wrapLongWords) {
      push(offset, wrapLength + offset);
      out.push(...nl);
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      let index = -1;
      for (let i = e; i < len; i++) {
        if (b[i] === 0x20) {
          index = i - e;
          break;
        }
      }
      if (index === -1) {
        push(offset, len);
        offset = len;
      } else {
        spaceToWrapAt = index + e;
        push(offset, spaceToWrapAt);
        out.push(...nl);
        offset = spaceToWrapAt + 1;
      }
    }
  }
  push(offset, len);
  return fromUtf8(Uint8Array.from(out));
}

/** goutils.SwapCase: word starts become title case. */
function swapCase(s: string): string {
  let whitespace = true;
  const out: number[] = [];
  for (const r of runes(s)) {
    if (isUpper(r) || isTitle(r)) {
      out.push(toLowerRune(r));
      whitespace = false;
    } else if (isLower(r)) {
      out.push(whitespace ? toTitleRune(r) : toUpperRune(r));
      whitespace = false;
    } else {
      out.push(r);
      whitespace = isSpace(r);
    }
  }
  return fromRunes(out);
}

/** goutils.Uncapitalize with whitespace delimiters. */
function uncapitalize(s: string): string {
  let next = true;
  const out: number[] = [];
  for (const r of runes(s)) {
    if (isSpace(r)) {
      next = true;
      out.push(r);
    } else if (next) {
      out.push(toLowerRune(r));
      next = false;
    } else out.push(r);
  }
  return fromRunes(out);
}

const isConnector = (r: number): boolean => r === 0x2d || r === 0x5f || isSpace(r);

/** xstrings.ToPascalCase (sprig's camelcase since v3.3). */
function toPascalCase(s: string): string {
  if (s === '') return '';
  const rs = runes(s);
  const out: number[] = [];
  let i = 0;
  let isFirstRuneUpper = false;
  let r0 = 0;
  for (; i < rs.length; ) {
    r0 = rs[i++] ?? 0;
    if (!isConnector(r0)) {
      isFirstRuneUpper = isUpper(r0);
      r0 = toUpperRune(r0);
      break;
    }
    out.push(r0);
  }
  if (i >= rs.length) {
    // xstrings writes the last rune again even when it was a connector already written ("_" → "__").
    out.push(r0);
    return fromRunes(out);
  }
  while (i < rs.length) {
    const r1 = r0;
    r0 = rs[i++] ?? 0;
    if (isConnector(r0) && isConnector(r1)) {
      out.push(r1);
      continue;
    }
    if (isConnector(r1)) {
      isFirstRuneUpper = isUpper(r0);
      r0 = toUpperRune(r0);
    } else {
      if (isFirstRuneUpper) {
        if (isUpper(r0)) r0 = toLowerRune(r0);
        else isFirstRuneUpper = false;
      }
      out.push(r1);
    }
  }
  out.push(r0);
  return fromRunes(out);
}

// xstrings' word splitter for snake and kebab case.
const enum Word {
  Invalid,
  Number,
  UpperCase,
  Alphabet,
  Connector,
  Punct,
  Other,
}

function nextWord(rs: number[], at: number): { wt: Word; end: number } {
  if (at >= rs.length) return { wt: Word.Invalid, end: at };
  let i = at;
  const r = rs[i++] ?? 0;
  const run = (pred: (x: number) => boolean): void => {
    while (i < rs.length && pred(rs[i] ?? 0)) i++;
  };
  if (isConnector(r)) {
    run(isConnector);
    return { wt: Word.Connector, end: i };
  }
  if (isPunct(r)) {
    run(isPunct);
    return { wt: Word.Punct, end: i };
  }
  if (isUpper(r)) {
    if (i >= rs.length) return { wt: Word.UpperCase, end: i };
    const n = rs[i] ?? 0;
    if (isUpper(n)) {
      let last = i;
      i++;
      while (i < rs.length && isUpper(rs[i] ?? 0)) {
        last = i;
        i++;
      }
      // "HTTPStatus" splits into "HTTP" and "Status".
      if (i < rs.length && isAlphabetRune(rs[i] ?? 0)) i = last;
    } else if (isAlphabetRune(n)) {
      i++;
      while (i < rs.length && isAlphabetRune(rs[i] ?? 0) && !isUpper(rs[i] ?? 0)) i++;
    }
    return { wt: Word.UpperCase, end: i };
  }
  if (isAlphabetRune(r)) {
    while (i < rs.length && isAlphabetRune(rs[i] ?? 0) && !isUpper(rs[i] ?? 0)) i++;
    return { wt: Word.Alphabet, end: i };
  }
  if (isNumber(r)) {
    run(isNumber);
    return { wt: Word.Number, end: i };
  }
  while (i < rs.length) {
    const x = rs[i] ?? 0;
    if (isConnector(x) || isAlphabetRune(x) || isNumber(x) || isPunct(x)) break;
    i++;
  }
  return { wt: Word.Other, end: i };
}

/** xstrings' camelCaseToLowerCase (snakecase, kebabcase). */
function camelCaseToLowerCase(s: string, connector: number): string {
  if (s === '') return '';
  const rs = runes(s);
  const out: number[] = [];
  const toLower = (wt: Word, from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      const r = rs[k] ?? 0;
      if (wt !== Word.UpperCase && wt !== Word.Connector) out.push(r);
      else if (isConnector(r)) out.push(connector);
      else if (isUpper(r)) out.push(toLowerRune(r));
      else out.push(r);
    }
  };
  // One cursor object: the word kind changes inside advance(), which flow typing would not see on locals.
  const w = { start: 0, ...nextWord(rs, 0) };
  const kind = (): Word => w.wt;
  const advance = (): void => {
    w.start = w.end;
    Object.assign(w, nextWord(rs, w.end));
  };
  while (w.end < rs.length) {
    if (kind() !== Word.Connector) toLower(kind(), w.start, w.end);
    const prev = kind();
    const lastStart = w.start;
    const lastEnd = w.end;
    advance();
    switch (prev) {
      case Word.Number:
        while (kind() === Word.Alphabet || kind() === Word.Number) {
          toLower(kind(), w.start, w.end);
          advance();
        }
        if (kind() !== Word.Invalid && kind() !== Word.Punct && kind() !== Word.Connector) out.push(connector);
        break;
      case Word.Connector:
        toLower(prev, lastStart, lastEnd);
        break;
      case Word.Punct:
        break;
      default: {
        if (kind() !== Word.Number) {
          if (kind() !== Word.Connector && kind() !== Word.Punct) out.push(connector);
          break;
        }
        if (w.end >= rs.length) break;
        const numStart = w.start;
        const numEnd = w.end;
        advance();
        if (kind() !== Word.Alphabet) {
          toLower(Word.Number, numStart, numEnd);
          if (kind() !== Word.Connector && kind() !== Word.Punct) out.push(connector);
          break;
        }
        out.push(connector);
        toLower(Word.Number, numStart, numEnd);
        while (kind() === Word.Alphabet || kind() === Word.Number) {
          toLower(kind(), w.start, w.end);
          advance();
        }
        if (kind() !== Word.Invalid && kind() !== Word.Connector && kind() !== Word.Punct) out.push(connector);
      }
    }
  }
  toLower(w.wt, w.start, w.end);
  return fromRunes(out);
}

/** strings.Replace(s, old, new, -1), including Go's rule for an empty `old`. */
function replaceAll(s: string, old: string, repl: string): string {
  if (old === repl) return s;
  if (old === '') {
    const chars = [...s];
    checkSize(s.length + repl.length * (chars.length + 1), 'replace');
    return repl + chars.map((c) => c + repl).join('');
  }
  const parts = s.split(old);
  checkSize(s.length + repl.length * parts.length, 'replace');
  return parts.join(repl);
}

/**
 * A Fisher–Yates shuffle seeded from the text itself: stable across renders where Go's xstrings.Shuffle is random
 * (listed in nondeterministicSprigFunctions).
 */
function stableShuffle(s: string): string {
  if (s === '') return s;
  const rs = runes(s);
  let seed = 0x811c9dc5;
  for (const r of rs) seed = Math.imul(seed ^ r, 0x01000193) >>> 0;
  for (let i = rs.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const j = seed % (i + 1);
    [rs[i], rs[j]] = [rs[j] ?? 0, rs[i] ?? 0];
  }
  return fromRunes(rs);
}

function repeat(s: string, count: number): string {
  if (count < 0) goError('strings: negative Repeat count');
  checkSize(s.length * count, 'repeat');
  return goRepeat(s, count);
}

function indent(spaces: number, v: string): string {
  const pad = repeat(' ', spaces);
  const lines = v.split('\n');
  checkSize(v.length + pad.length * lines.length, 'indent');
  return pad + lines.join(`\n${pad}`);
}

/** sprig's strslice (toStrings, join): nil elements are dropped, others printed with strval. */
export function strslice(v: GoValue): string[] {
  if (Array.isArray(v)) return v.filter((e) => e !== null).map(strval);
  if (v === null) return [];
  return [strval(v)];
}

function splitMap(parts: string[]): Map<string, GoValue> {
  return typedMap(new Map<string, GoValue>(parts.map((p, i) => [`_${i}`, p])), 'string');
}

export function stringFuncs(): FuncTable {
  const s1 = (name: string, f: (s: string) => string) => fn(name, ['string'], ['string'], (a) => f(str(a[0])));
  const swapped = (name: string, f: (a: string, b: string) => GoValue, result = 'string') =>
    fn(name, ['string', 'string'], [result], (a) => f(str(a[0]), str(a[1])));
  return {
    hello: fn('hello', [], ['string'], () => 'Hello!'),
    abbrev: fn('abbrev', ['int', 'string'], ['string'], (a) => {
      const width = int(a[0]);
      const s = str(a[1]);
      return width < 4 ? s : abbreviateFull(s, 0, width);
    }),
    abbrevboth: fn('abbrevboth', ['int', 'int', 'string'], ['string'], (a) => {
      const left = int(a[0]);
      const right = int(a[1]);
      const s = str(a[2]);
      if (right < 4 || (left > 0 && right < 7)) return s;
      return abbreviateFull(s, left, right);
    }),
    trunc: fn('trunc', ['int', 'string'], ['string'], (a) => {
      const c = int(a[0]);
      const s = str(a[1]);
      const len = byteLength(s);
      if (c < 0 && len + c > 0) return byteSlice(s, len + c);
      if (c >= 0 && len > c) return byteSlice(s, 0, c);
      return s;
    }),
    trim: s1('trim', trimSpace),
    upper: s1('upper', goToUpper),
    lower: s1('lower', goToLower),
    title: s1('title', goTitle),
    untitle: s1('untitle', uncapitalize),
    substr: fn('substr', ['int', 'int', 'string'], ['string'], (a) => {
      const start = int(a[0]);
      const end = int(a[1]);
      const s = str(a[2]);
      const len = byteLength(s);
      if (start < 0) return sliced(s, 0, end);
      if (end < 0 || end > len) return sliced(s, start, len);
      return sliced(s, start, end);
    }),
    repeat: fn('repeat', ['int', 'string'], ['string'], (a) => repeat(str(a[1]), int(a[0]))),
    trimall: swapped('trimall', (cut, s) => trimCutset(s, cut)),
    trimAll: swapped('trimAll', (cut, s) => trimCutset(s, cut)),
    trimSuffix: swapped('trimSuffix', (suf, s) => (suf !== '' && s.endsWith(suf) ? s.slice(0, s.length - suf.length) : s)),
    trimPrefix: swapped('trimPrefix', (pre, s) => (s.startsWith(pre) ? s.slice(pre.length) : s)),
    nospace: s1('nospace', deleteWhiteSpace),
    initials: s1('initials', initials),
    swapcase: s1('swapcase', swapCase),
    shuffle: s1('shuffle', stableShuffle),
    snakecase: s1('snakecase', (s) => camelCaseToLowerCase(s, 0x5f)),
    camelcase: s1('camelcase', toPascalCase),
    kebabcase: s1('kebabcase', (s) => camelCaseToLowerCase(s, 0x2d)),
    wrap: fn('wrap', ['int', 'string'], ['string'], (a) => wrapCustom(str(a[1]), int(a[0]), '', false)),
    wrapWith: fn('wrapWith', ['int', 'string', 'string'], ['string'], (a) => wrapCustom(str(a[2]), int(a[0]), str(a[1]), true)),
    contains: swapped('contains', (sub, s) => s.includes(sub), 'bool'),
    hasPrefix: swapped('hasPrefix', (pre, s) => s.startsWith(pre), 'bool'),
    hasSuffix: swapped('hasSuffix', (suf, s) => s.endsWith(suf), 'bool'),
    quote: fn(
      'quote',
      ['interface {}'],
      ['string'],
      (a) =>
        a
          .filter((v) => v !== null)
          .map((v) => goQuote(strval(v)))
          .join(' '),
      true,
    ),
    squote: fn(
      'squote',
      ['interface {}'],
      ['string'],
      (a) =>
        a
          .filter((v) => v !== null)
          .map((v) => `'${formatGoValue(v)}'`)
          .join(' '),
      true,
    ),
    cat: fn(
      'cat',
      ['interface {}'],
      ['string'],
      (a) =>
        a
          .filter((v) => v !== null)
          .map(formatGoValue)
          .join(' '),
      true,
    ),
    indent: fn('indent', ['int', 'string'], ['string'], (a) => indent(int(a[0]), str(a[1]))),
    nindent: fn('nindent', ['int', 'string'], ['string'], (a) => `\n${indent(int(a[0]), str(a[1]))}`),
    replace: fn('replace', ['string', 'string', 'string'], ['string'], (a) => replaceAll(str(a[2]), str(a[0]), str(a[1]))),
    plural: fn('plural', ['string', 'string', 'int'], ['string'], (a) => (int(a[2]) === 1 ? str(a[0]) : str(a[1]))),
    toString: fn('toString', ['interface {}'], ['string'], (a) => strval(a[0] ?? null)),
    split: swapped('split', (sep, orig) => splitMap(goSplit(orig, sep)), 'map[string]string'),
    splitList: swapped('splitList', (sep, orig) => typedSlice(goSplit(orig, sep), 'string'), '[]string'),
    splitn: fn('splitn', ['string', 'int', 'string'], ['map[string]string'], (a) =>
      splitMap(goSplit(str(a[2]), str(a[0]), int(a[1]))),
    ),
    toStrings: fn('toStrings', ['interface {}'], ['[]string'], (a) => typedSlice(strslice(a[0] ?? null), 'string')),
    join: fn('join', ['string', 'interface {}'], ['string'], (a) => strslice(a[1] ?? null).join(str(a[0]))),
    sortAlpha: fn('sortAlpha', ['interface {}'], ['[]string'], (a) => {
      const v = a[0] ?? null;
      if (!Array.isArray(v)) return typedSlice([strval(v)], 'string');
      const sorted = strslice(v).sort(compareGoStrings);
      return typedSlice(sorted, 'string');
    }),
  };
}
