import { describe, expect, it } from 'vitest';
import { goDeepEqual, readerDeepEqual, sameValueDeepEqual } from '../index.js';

describe('JSON value equality: three named rules', () => {
  const all = [goDeepEqual, sameValueDeepEqual, readerDeepEqual];

  it('all ignore key order, keep array order, and tell a map from a list', () => {
    for (const eq of all) {
      expect(eq({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
      expect(eq([1, 2], [2, 1])).toBe(false);
      expect(eq({}, [])).toBe(false);
      expect(eq({ a: undefined }, { b: undefined })).toBe(false);
      expect(eq({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    }
  });

  it("Go's reflect.DeepEqual: -0 equals 0, NaN equals nothing, a Date is an object without keys", () => {
    expect(goDeepEqual(-0, 0)).toBe(true);
    expect(goDeepEqual(new Date(0), new Date(1000))).toBe(true);
    expect(goDeepEqual(NaN, NaN)).toBe(false);
  });

  it('same value (may the source text be kept): NaN equals NaN, a Date is an object without keys', () => {
    expect(sameValueDeepEqual(-0, 0)).toBe(true);
    expect(sameValueDeepEqual(new Date(0), new Date(1000))).toBe(true);
    expect(sameValueDeepEqual({ x: [NaN] }, { x: [NaN] })).toBe(true);
  });

  it("a manifest reader's: -0 equals 0, NaN equals NaN, Dates by their text", () => {
    expect(readerDeepEqual(-0, 0)).toBe(true);
    expect(readerDeepEqual(NaN, NaN)).toBe(true);
    expect(readerDeepEqual(new Date(0), new Date(0))).toBe(true);
    expect(readerDeepEqual(new Date(0), new Date(1000))).toBe(false);
  });
});
