/**
 * Go's string order (bytewise UTF-8), the one comparison behind every sorted listing: clusterctl's variable lists,
 * the lock, the tree, fmtsort's map keys in templates, sigs.k8s.io/yaml's key order.
 */
import { describe, expect, it } from 'vitest';
import { compareGoStrings } from '../src/go/index.js';

const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('compareGoStrings', () => {
  it('puts a code point above U+FFFF after U+E000-U+FFFF, where UTF-16 order puts it before', () => {
    expect(['\u{1F600}', '\uffff', '\ue000', 'z'].sort(compareGoStrings)).toEqual(['z', '\ue000', '\uffff', '\u{1F600}']);
  });

  it('sorts a prefix first and answers -1, 0 or 1', () => {
    expect(compareGoStrings('ab', 'abc')).toBe(-1);
    expect(compareGoStrings('abc', 'ab')).toBe(1);
    expect(compareGoStrings('\u00e9', '\u00e9')).toBe(0);
    expect(compareGoStrings('B', 'a')).toBe(-1);
  });

  it('reads a lone surrogate as U+FFFD, as Go and the UTF-8 encoder do', () => {
    expect(compareGoStrings('\ud800', '\ufffd')).toBe(0);
    expect(compareGoStrings('\ud800', '\uffff')).toBe(-1);
    expect(compareGoStrings('\ud83d', '\ud83d\ude00')).toBe(-1);
  });

  it('agrees with a comparison of the UTF-8 bytes over mixed strings', () => {
    const parts = ['a', 'z', '\u00e9', '\ue000', '\uffff', '\ud800', '\udc00', '\ud83d', '\ude00', '\u{1F600}', '\u{10FFFF}', ''];
    const strings: string[] = [];
    for (const x of parts) for (const y of parts) for (const z of ['', 'a', '\ude00']) strings.push(x + y + z);
    for (const a of strings) for (const b of strings) expect([a, b, compareGoStrings(a, b)]).toEqual([a, b, utf8Order(a, b)]);
  });
});
