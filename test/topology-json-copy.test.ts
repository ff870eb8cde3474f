/**
 * The topology engine copies every template of every Cluster; its JSON copy gives exactly what a round trip through
 * JSON text gives (the rules the engine was written against), without building the text.
 */
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../src/topology/desired/index.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe('cloneJson (topology desired state)', () => {
  it('copies deeply: the copy shares no object with the original', () => {
    const original = { spec: { template: { spec: { files: [{ path: '/etc/a', content: 'x' }] } } } };
    const copy = cloneJson(original);
    expect(copy).toEqual(original);
    copy.spec.template.spec.files[0]!.content = 'changed';
    expect(original.spec.template.spec.files[0]!.content).toBe('x');
  });

  it('follows JSON: undefined members dropped, undefined elements and non-finite numbers null, -0 as 0', () => {
    const value = { a: undefined, b: [undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5], c: null, d: { e: () => 1 }, f: 'text', g: false };
    const copy = cloneJson(value);
    expect(copy).toStrictEqual(roundTrip(value));
    expect(Object.is((copy.b as unknown[])[3], 0)).toBe(true);
    expect(Object.keys(copy)).toEqual(['b', 'c', 'd', 'f', 'g']);
  });

  it('keeps "__proto__" as an ordinary key, as JSON.parse does, and copies a Date through its JSON form', () => {
    const value = roundTrip({ m: 1 }) as Record<string, unknown>;
    Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true, writable: true, configurable: true });
    const copy = cloneJson({ value, when: new Date(Date.UTC(2026, 0, 2)) });
    expect(Object.hasOwn(copy.value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy.value)).toBe(Object.prototype);
    expect(copy).toStrictEqual(roundTrip({ value, when: new Date(Date.UTC(2026, 0, 2)) }));
  });

  it('keeps the order of keys', () => {
    expect(Object.keys(cloneJson({ z: 1, a: 2, m: { y: 1, b: 2 } }))).toEqual(['z', 'a', 'm']);
  });
});
