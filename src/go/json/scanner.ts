/**
 * encoding/json's scanner as `checkValid` runs it before every Unmarshal: the first syntax error with Go's text and
 * offset. Decoding (./decode.ts) runs only on text this accepted.
 */
import { goQuote } from '../quote.js';
import { GoJsonSyntaxError } from './errors.js';

/** encoding/json's maxNestingDepth: a deeper array or object is a syntax error. */
export const maxNestingDepth = 10000;

/**
 * The scanner's quoteChar: the offending byte, quoted. The scanner reads bytes, so a multi-byte character is
 * reported by its first UTF-8 byte, which Go's `string(byte)` reads as a Latin-1 rune.
 */
function quoteChar(text: string, i: number): string {
  const c = text.codePointAt(i) ?? 0;
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const first = c < 0x80 ? c : (new TextEncoder().encode(String.fromCodePoint(c))[0] ?? 0);
  const q = goQuote(String.fromCharCode(first));
  return `'${q.slice(1, -1)}'`;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** Go's `checkValid`: throws the scanner's first error as a {@link GoJsonSyntaxError}. */
export function checkGoJson(text: string): void {
  const n = text.length;
  let i = 0;
  let depth = 0;
  const fail = (context: string): never => {
    if (i >= n) throw new GoJsonSyntaxError('unexpected end of JSON input', utf8Length(text));
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(text, i)} ${context}`, utf8Length(text.slice(0, i)) + 1);
  };
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  const skipWs = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting '${word[k]}')`);
    }
    i++;
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= n) fail('');
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('in \\u hexadecimal character escape');
          }
          i++;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('in string escape code');
        i++;
        continue;
      }
      if (c < ' ') fail('in string literal');
      i++;
    }
  };
  const number = (): void => {
    if (text[i] === '-') {
      i++;
      if (!isDigit(text[i])) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (isDigit(text[i])) i++;
    if (text[i] === '.') {
      i++;
      if (!isDigit(text[i])) fail('after decimal point in numeric literal');
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!isDigit(text[i])) fail('in exponent of numeric literal');
      while (isDigit(text[i])) i++;
    }
  };
  // pushParseState: the opening bracket past the limit is the offending character.
  const open = (): void => {
    if (++depth > maxNestingDepth) fail('exceeded max depth');
    i++;
    skipWs();
  };
  const close = (): void => {
    i++;
    depth--;
  };
  // Iterative, with the open containers on an explicit stack: Go accepts 10,000 levels, more than a JS call stack
  // reliably holds in every worker.
  const stack: Array<'{' | '['> = [];
  const objectKey = (): void => {
    skipWs();
    if (text[i] !== '"') fail('looking for beginning of object key string');
    string();
    skipWs();
    if (text[i] !== ':') fail('after object key');
    i++;
  };
  /** After a complete value: close finished containers; true when the top-level value is complete. */
  const afterValue = (): boolean => {
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return true;
      skipWs();
      if (text[i] === ',') {
        i++;
        if (top === '{') objectKey();
        return false;
      }
      if (text[i] === (top === '{' ? '}' : ']')) {
        close();
        stack.pop();
        continue;
      }
      fail(top === '{' ? 'after object key:value pair' : 'after array element');
    }
  };
  const value = (): void => {
    for (;;) {
      skipWs();
      const c = text[i];
      if (c === '{' || c === '[') {
        open();
        stack.push(c);
        if (text[i] === (c === '{' ? '}' : ']')) {
          close();
          stack.pop();
          if (afterValue()) return;
          continue;
        }
        if (c === '{') objectKey();
        continue;
      }
      if (c === '"') string();
      else if (c === '-' || isDigit(c)) number();
      else if (c === 't') literal('true');
      else if (c === 'f') literal('false');
      else if (c === 'n') literal('null');
      else fail('looking for beginning of value');
      if (afterValue()) return;
    }
  };
  value();
  skipWs();
  if (i < n) fail('after top-level value');
}
