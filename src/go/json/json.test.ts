import { describe, expect, it } from 'vitest';
import { decodeGoJson, GoJsonError, GoJsonSyntaxError } from '../index.js';

/** What `json.Unmarshal([]byte(text), &v)` (v an `interface {}`) returns as its error, or '' for none. */
function unmarshalError(text: string): string {
  try {
    decodeGoJson(text);
    return '';
  } catch (e) {
    if (e instanceof GoJsonError) return e.message;
    throw e;
  }
}

describe("encoding/json's decoder, shared by CAPI variables and sprig's fromJson", () => {
  it('names the offending byte as Go does: the first UTF-8 byte of a character, quoted with strconv.Quote', () => {
    expect(unmarshalError('é')).toBe("invalid character 'Ã' looking for beginning of value");
    expect(unmarshalError('\x01')).toBe("invalid character '\\x01' looking for beginning of value");
    expect(unmarshalError('[1 \x7f]')).toBe("invalid character '\\x7f' after array element");
  });

  it('reports the offset in bytes, counting the offending one', () => {
    try {
      decodeGoJson('"é" x');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GoJsonSyntaxError);
      expect((e as GoJsonSyntaxError).offset).toBe(6);
    }
  });

  it('rejects nesting beyond 10000 levels at the opening bracket, empty or not', () => {
    const nested = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    expect(unmarshalError(nested(10000))).toBe('');
    expect(unmarshalError(nested(10001))).toBe("invalid character '[' exceeded max depth");
    expect(unmarshalError(`{"a":${nested(10000)}}`)).toBe("invalid character '[' exceeded max depth");
  });

  it('fails on a number float64 cannot hold, after checking the syntax of the whole text', () => {
    expect(unmarshalError('[1e400]')).toBe('json: cannot unmarshal number 1e400 into Go value of type float64');
    expect(unmarshalError('[1e400, x]')).toBe("invalid character 'x' looking for beginning of value");
  });

  it('decodes a lone surrogate escape as U+FFFD and a pair as one character', () => {
    expect(decodeGoJson('"\\ud800x"')).toBe('\ufffdx');
    expect(decodeGoJson('"\\ud83d\\ude00"')).toBe('😀');
  });

  it('keeps a __proto__ key as data', () => {
    const v = decodeGoJson('{"__proto__": {"a": 1}, "b": [true, null, -0.5]}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(v.b).toEqual([true, null, -0.5]);
  });
});
