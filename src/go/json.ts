/**
 * Go's `encoding/json` decoding of untyped JSON (`json.Unmarshal(raw, &interface{})`): the same syntax check and the
 * same `SyntaxError` texts (`invalid character 'i' looking for beginning of value`), which CAPI prints inside its
 * variable errors. Numbers come back as JS numbers.
 */
export class GoJsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Byte offset after the offending character, as Go's `SyntaxError.Offset`. */
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Go's `quoteChar`: `'x'`, `'\''`, `'"'`, `'\n'`. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

/** Go's `checkValid`: throws the scanner's first error. Limits nesting like Go (10000 levels). */
export function checkGoJson(text: string): void {
  let i = 0;
  let depth = 0;
  const fail = (context: string): never => {
    if (i >= text.length) throw new GoJsonSyntaxError('unexpected end of JSON input', text.length);
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(text[i] as string)} ${context}`, i + 1);
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (text[i] !== word[k]) fail(`in literal ${word} (expecting ${quoteChar(word[k] as string)})`);
    }
    i++;
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail('');
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        const e = text[i];
        if (e === undefined) fail('');
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('in \\u hexadecimal character escape');
          }
          i++;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e as string)) fail('in string escape code');
        i++;
        continue;
      }
      if (c < ' ') fail('in string literal');
      i++;
    }
  };
  const digits = (): number => {
    const start = i;
    while (i < text.length && text[i] !== undefined && (text[i] as string) >= '0' && (text[i] as string) <= '9') i++;
    return i - start;
  };
  const number = (): void => {
    if (text[i] === '-') {
      i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail('in numeric literal');
    }
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      if (digits() === 0) fail('after decimal point in numeric literal');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (digits() === 0) fail('in exponent of numeric literal');
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      if (++depth > 10000) throw new GoJsonSyntaxError('exceeded max depth', i + 1);
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        string();
        ws();
        if (text[i] !== ':') fail('after object key');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          depth--;
          return;
        }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      if (++depth > 10000) throw new GoJsonSyntaxError('exceeded max depth', i + 1);
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          depth--;
          return;
        }
        fail('after array element');
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    fail('looking for beginning of value');
  };
  value();
  ws();
  if (i < text.length) fail('after top-level value');
}

/** `json.Unmarshal(raw, &v)` into an untyped value; throws {@link GoJsonSyntaxError} with Go's message. */
export function decodeGoJson(text: string): unknown {
  checkGoJson(text);
  return JSON.parse(text) as unknown;
}
