/**
 * The lexer of Go's text/template/parse (lex.go): the same items, the same trim-marker and comment rules, and the
 * same error texts, because parse errors reach users verbatim. Positions are string indices; the parser turns them
 * into Go's byte columns only when it reports an error.
 */
import { goQuote as quoteGo } from '../quote.js';

export const enum ItemType {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // Keywords follow; Go prints them as `<name>` in errors.
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  readonly typ: ItemType;
  readonly pos: number;
  readonly val: string;
  readonly line: number;
}

const keywords: ReadonlyMap<string, ItemType> = new Map([
  ['.', ItemType.Dot],
  ['block', ItemType.Block],
  ['break', ItemType.Break],
  ['continue', ItemType.Continue],
  ['define', ItemType.Define],
  ['else', ItemType.Else],
  ['end', ItemType.End],
  ['if', ItemType.If],
  ['range', ItemType.Range],
  ['nil', ItemType.Nil],
  ['template', ItemType.Template],
  ['with', ItemType.With],
]);

const leftDelim = '{{';
const rightDelim = '}}';
const leftComment = '/*';
const rightComment = '*/';
const trimMarkerLen = 2;

/** Go's item.String(), used in "unexpected X in Y" messages. */
export function itemString(item: Item): string {
  if (item.typ === ItemType.EOF) return 'EOF';
  if (item.typ === ItemType.Error) return item.val;
  if (item.typ > ItemType.Keyword) return `<${item.val}>`;
  const runes = [...item.val];
  if (runes.length > 10) return `${quoteGo(runes.slice(0, 10).join(''))}...`;
  return quoteGo(item.val);
}

export function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

export function isAlphaNumeric(ch: string): boolean {
  return ch === '_' || /^[\p{L}\p{Nd}]$/u.test(ch);
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s[at] === '-' && isSpace(s[at + 1] ?? '');
}
function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s[at] ?? '') && s[at + 1] === '-';
}

export interface LexOptions {
  /** `break`/`continue` are keywords unless the function map defines functions of those names. */
  readonly breakOK: boolean;
  readonly continueOK: boolean;
}

/** Lexes the whole input; the list ends with an EOF or an Error item, exactly where Go's lexer would stop. */
export function lex(input: string, options: LexOptions): Item[] {
  const items: Item[] = [];
  let start = 0;
  let pos = 0;
  let parenDepth = 0;
  let lineAt = 0;
  let line = 1;
  const lineOf = (p: number): number => {
    // Items are emitted in order, so counting forward from the previous position is enough.
    if (p < lineAt) {
      lineAt = 0;
      line = 1;
    }
    for (let i = lineAt; i < p; i++) if (input.charCodeAt(i) === 10) line++;
    lineAt = p;
    return line;
  };
  const emitAt = (typ: ItemType, from: number, to: number): void => {
    items.push({ typ, pos: from, val: input.slice(from, to), line: lineOf(from) });
  };
  const emit = (typ: ItemType): void => {
    emitAt(typ, start, pos);
    start = pos;
  };
  const fail = (msg: string): void => {
    items.push({ typ: ItemType.Error, pos: start, val: msg, line: lineOf(start) });
  };
  /** The next code point, advancing; '' at EOF. */
  const next = (): string => {
    if (pos >= input.length) {
      pos = input.length + 1; // so backup() after EOF is a no-op, like Go's atEOF
      return '';
    }
    const cp = input.codePointAt(pos) ?? 0;
    const ch = String.fromCodePoint(cp);
    pos += ch.length;
    return ch;
  };
  const backup = (): void => {
    if (pos > input.length) {
      pos = input.length;
      return;
    }
    const prev = input.charCodeAt(pos - 1);
    pos -= prev >= 0xdc00 && prev <= 0xdfff && pos >= 2 ? 2 : 1;
  };
  const peek = (): string => {
    const ch = next();
    backup();
    return ch;
  };
  const accept = (valid: string): boolean => {
    const ch = next();
    if (ch !== '' && valid.includes(ch)) return true;
    backup();
    return false;
  };
  const acceptRun = (valid: string): void => {
    for (;;) {
      const ch = next();
      if (ch === '' || !valid.includes(ch)) break;
    }
    backup();
  };
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrimMarker(input, pos) && input.startsWith(rightDelim, pos + trimMarkerLen)) {
      return { delim: true, trim: true };
    }
    if (input.startsWith(rightDelim, pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  };
  const atTerminator = (): boolean => {
    const r = peek();
    if (isSpace(r)) return true;
    if (r === '' || r === '.' || r === ',' || r === '|' || r === ':' || r === ')' || r === '(') return true;
    return input.startsWith(rightDelim, pos);
  };
  const leftTrimLength = (from: number): number => {
    let i = from;
    while (i < input.length && isSpace(input[i] ?? '')) i++;
    return i - from;
  };
  const rightTrimLength = (from: number, to: number): number => {
    let i = to;
    while (i > from && isSpace(input[i - 1] ?? '')) i--;
    return to - i;
  };

  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };

  type State = (() => State) | null;

  const lexText = (): State => {
    const x = input.indexOf(leftDelim, pos);
    if (x >= 0) {
      if (x > pos) {
        pos = x;
        let trimLength = 0;
        if (hasLeftTrimMarker(input, pos + leftDelim.length)) trimLength = rightTrimLength(start, pos);
        pos -= trimLength;
        const textStart = start;
        const textEnd = pos;
        pos += trimLength;
        if (textEnd > textStart) emitAt(ItemType.Text, textStart, textEnd);
        start = pos;
      }
      return lexLeftDelim;
    }
    pos = input.length;
    if (pos > start) {
      emit(ItemType.Text);
      return lexText;
    }
    emit(ItemType.EOF);
    return null;
  };

  const lexLeftDelim = (): State => {
    pos += leftDelim.length;
    const trim = hasLeftTrimMarker(input, pos);
    const afterMarker = trim ? trimMarkerLen : 0;
    if (input.startsWith(leftComment, pos + afterMarker)) {
      pos += afterMarker;
      start = pos;
      return lexComment;
    }
    emit(ItemType.LeftDelim);
    pos += afterMarker;
    start = pos;
    parenDepth = 0;
    return lexInsideAction;
  };

  const lexComment = (): State => {
    pos += leftComment.length;
    const x = input.indexOf(rightComment, pos);
    if (x < 0) {
      fail('unclosed comment');
      return null;
    }
    pos = x + rightComment.length;
    const { delim, trim } = atRightDelim();
    if (!delim) {
      fail('comment ends before closing delimiter');
      return null;
    }
    if (trim) pos += trimMarkerLen;
    pos += rightDelim.length;
    if (trim) pos += leftTrimLength(pos);
    start = pos;
    return lexText;
  };

  const lexRightDelim = (): State => {
    const { trim } = atRightDelim();
    if (trim) {
      pos += trimMarkerLen;
      start = pos;
    }
    pos += rightDelim.length;
    emit(ItemType.RightDelim);
    if (trim) {
      pos += leftTrimLength(pos);
      start = pos;
    }
    return lexText;
  };

  const lexInsideAction = (): State => {
    const { delim } = atRightDelim();
    if (delim) {
      if (parenDepth === 0) return lexRightDelim;
      fail('unclosed left paren');
      return null;
    }
    const r = next();
    if (r === '') {
      fail('unclosed action');
      return null;
    }
    if (isSpace(r)) {
      backup();
      return lexSpace;
    }
    switch (r) {
      case '=':
        emit(ItemType.Assign);
        return lexInsideAction;
      case ':':
        if (next() !== '=') {
          fail('expected :=');
          return null;
        }
        emit(ItemType.Declare);
        return lexInsideAction;
      case '|':
        emit(ItemType.Pipe);
        return lexInsideAction;
      case '"':
        return lexQuote;
      case '`':
        return lexRawQuote;
      case '$':
        return lexVariable;
      case "'":
        return lexChar;
      case '(':
        parenDepth++;
        emit(ItemType.LeftParen);
        return lexInsideAction;
      case ')':
        parenDepth--;
        if (parenDepth < 0) {
          fail('unexpected right paren');
          return null;
        }
        emit(ItemType.RightParen);
        return lexInsideAction;
    }
    if (r === '.') {
      const c = input[pos];
      if (pos < input.length && c !== undefined && (c < '0' || c > '9')) return lexField;
    }
    if (r === '.' || r === '+' || r === '-' || (r >= '0' && r <= '9')) {
      backup();
      return lexNumber;
    }
    if (isAlphaNumeric(r)) {
      backup();
      return lexIdentifier;
    }
    const cp = r.codePointAt(0) ?? 0;
    if (cp <= 0x7f && cp >= 0x20 && cp !== 0x7f) {
      emit(ItemType.Char);
      return lexInsideAction;
    }
    fail(`unrecognized character in action: ${formatSharpU(cp)}`);
    return null;
  };

  const lexSpace = (): State => {
    let numSpaces = 0;
    while (isSpace(peek())) {
      next();
      numSpaces++;
    }
    if (hasRightTrimMarker(input, pos - 1) && input.startsWith(rightDelim, pos - 1 + trimMarkerLen)) {
      backup();
      if (numSpaces === 1) return lexRightDelim;
    }
    emit(ItemType.Space);
    return lexInsideAction;
  };

  const lexIdentifier = (): State => {
    for (;;) {
      const r = next();
      if (r !== '' && isAlphaNumeric(r)) continue;
      backup();
      const word = input.slice(start, pos);
      if (!atTerminator()) {
        fail(`bad character ${formatSharpU(r === '' ? -1 : (r.codePointAt(0) ?? 0))}`);
        return null;
      }
      const key = keywords.get(word);
      if (key !== undefined && key > ItemType.Keyword) {
        if ((key === ItemType.Break && !options.breakOK) || (key === ItemType.Continue && !options.continueOK)) {
          emit(ItemType.Identifier);
        } else {
          emit(key);
        }
      } else if (word.startsWith('.')) {
        emit(ItemType.Field);
      } else if (word === 'true' || word === 'false') {
        emit(ItemType.Bool);
      } else {
        emit(ItemType.Identifier);
      }
      return lexInsideAction;
    }
  };

  const lexFieldOrVariable = (typ: ItemType): State => {
    if (atTerminator()) {
      emit(typ === ItemType.Variable ? ItemType.Variable : ItemType.Dot);
      return lexInsideAction;
    }
    let r: string;
    for (;;) {
      r = next();
      if (r === '' || !isAlphaNumeric(r)) {
        backup();
        break;
      }
    }
    if (!atTerminator()) {
      fail(`bad character ${formatSharpU(r === '' ? -1 : (r.codePointAt(0) ?? 0))}`);
      return null;
    }
    emit(typ);
    return lexInsideAction;
  };
  const lexField = (): State => lexFieldOrVariable(ItemType.Field);
  const lexVariable = (): State => {
    if (atTerminator()) {
      emit(ItemType.Variable);
      return lexInsideAction;
    }
    return lexFieldOrVariable(ItemType.Variable);
  };

  const lexQuoted = (quote: string, typ: ItemType, unterminated: string): State => {
    for (;;) {
      let r = next();
      if (r === '\\') {
        r = next();
        if (r !== '' && r !== '\n') continue;
      }
      if (r === '' || r === '\n') {
        fail(unterminated);
        return null;
      }
      if (r === quote) break;
    }
    emit(typ);
    return lexInsideAction;
  };
  const lexChar = (): State => lexQuoted("'", ItemType.CharConstant, 'unterminated character constant');
  const lexQuote = (): State => lexQuoted('"', ItemType.String, 'unterminated quoted string');
  const lexRawQuote = (): State => {
    for (;;) {
      const r = next();
      if (r === '') {
        fail('unterminated raw quoted string');
        return null;
      }
      if (r === '`') break;
    }
    emit(ItemType.RawString);
    return lexInsideAction;
  };

  const lexNumber = (): State => {
    if (!scanNumber()) {
      fail(`bad number syntax: ${quoteGo(input.slice(start, pos))}`);
      return null;
    }
    const sign = peek();
    if (sign === '+' || sign === '-') {
      if (!scanNumber() || input[pos - 1] !== 'i') {
        fail(`bad number syntax: ${quoteGo(input.slice(start, pos))}`);
        return null;
      }
      emit(ItemType.Complex);
      return lexInsideAction;
    }
    emit(ItemType.Number);
    return lexInsideAction;
  };

  let state: State = lexText;
  while (state !== null) state = state();
  return items;
}

/** Go's `%#U`: `U+0041 'A'`. A negative code point stands for EOF (Go's rune -1). */
export function formatSharpU(cp: number): string {
  if (cp < 0) return 'U+FFFFFFFFFFFFFFFF';
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  const ch = String.fromCodePoint(cp);
  return isGoPrint(ch) ? `U+${hex} '${ch}'` : `U+${hex}`;
}

/** strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}
