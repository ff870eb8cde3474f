/**
 * The one RFC 6902 engine (src/go/json-patch): evanphx/json-patch v5.9.11's behaviour for a config's `patches` and
 * ClusterClass patches alike.
 */
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from '../src/go/index.js';

const doc = () => ({ spec: { region: 'eu', zones: ['a', 'b'], empty: null } });

describe('JSON patches as evanphx/json-patch v5 applies them', () => {
  it('replace of a missing key is an error (fast-json-patch adds it)', () => {
    expect(() => applyJsonPatch(doc(), [{ op: 'replace', path: '/spec/size', value: 1 }])).toThrow(
      new JsonPatchError('replace operation does not apply: doc is missing key: /spec/size: missing value'),
    );
  });

  it('negative indices count from the end (for add, of the array one longer)', () => {
    expect(applyJsonPatch(doc(), [{ op: 'add', path: '/spec/zones/-2', value: 'x' }])).toMatchObject({ spec: { zones: ['a', 'x', 'b'] } });
    expect(applyJsonPatch(doc(), [{ op: 'remove', path: '/spec/zones/-1' }])).toMatchObject({ spec: { zones: ['a'] } });
  });

  it('add below a missing parent creates nothing', () => {
    expect(() => applyJsonPatch(doc(), [{ op: 'add', path: '/metadata/labels/a', value: 'b' }])).toThrow(
      'add operation does not apply: doc is missing path: "/metadata/labels/a": missing value',
    );
  });

  it('test: a missing member or one holding null passes against null; objects compare by members', () => {
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/spec/missing', value: null }])).not.toThrow();
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/spec/empty', value: null }])).not.toThrow();
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/spec/zones', value: ['a', 'b'] }])).not.toThrow();
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/spec/region', value: 'us' }])).toThrow('testing value /spec/region failed: test failed');
    expect(() => applyJsonPatch(doc(), [{ op: 'test', path: '/nope/x', value: 1 }])).toThrow('test operation does not apply: is missing path: /nope/x: missing value');
  });

  it('move and copy, with evanphx messages', () => {
    expect(applyJsonPatch(doc(), [{ op: 'move', from: '/spec/region', path: '/spec/where' }])).toEqual({ spec: { zones: ['a', 'b'], empty: null, where: 'eu' } });
    const copied = applyJsonPatch(doc(), [{ op: 'copy', from: '/spec/zones', path: '/spec/more' }]) as { spec: { more: string[]; zones: string[] } };
    expect(copied.spec.more).toEqual(['a', 'b']);
    expect(copied.spec.more).not.toBe(copied.spec.zones);
    expect(() => applyJsonPatch(doc(), [{ op: 'move', from: '', path: '/a' }])).toThrow('unable to move entire document to another path: invalid state detected');
    expect(() => applyJsonPatch(doc(), [{ op: 'copy', from: '/x', path: '/a' }])).toThrow("error in copy for from: '/x': unable to get nonexistent key: x: missing value");
    expect(() => applyJsonPatch(doc(), [{ op: 'copy', from: '/x/y', path: '/a' }])).toThrow('copy operation does not apply: doc is missing from path: "/x/y": missing value');
    expect(() => applyJsonPatch(doc(), [{ op: 'move', path: '/a' }])).toThrow(`failed to decode 'from': operation, missing from field: missing value`);
  });

  it('leaves the input as it was', () => {
    const d = doc();
    applyJsonPatch(d, [{ op: 'replace', path: '/spec/zones/0', value: 'z' }, { op: 'remove', path: '/spec/region' }]);
    expect(d).toEqual(doc());
  });
});
