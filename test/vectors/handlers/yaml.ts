/** Vectors for the YAML layer: yaml-io.json (ToUnstructured) and derived-yaml-io.json (emit, parse). */
import { expect } from 'vitest';
import { decodeYaml, emitGoYaml, fromUnstructured, joinYaml, ordinalize, parseManifests } from '../../../src/yaml/index.js';
import { checkExpected, need } from '../fields.js';
import type { Vector, VectorHandler } from '../types.js';

/** Go encoding/json of a decoded value: map keys sorted, HTML characters escaped. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string')
    return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${goJson(k)}:${goJson(o[k])}`)
    .join(',')}}`;
}

export function expectError(fn: () => unknown, expected: Record<string, unknown>): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'an error').toBeInstanceOf(Error);
  const msg = (err as Error).message;
  if (typeof expected.errorMessage === 'string') expect(msg).toBe(expected.errorMessage);
  if (typeof expected.errorContains === 'string') expect(msg).toContain(expected.errorContains);
}

export const handlers: Record<string, VectorHandler> = {
  'clusterctl:ToUnstructured': (v: Vector) => {
    const text = v.input.yaml as string;
    if (v.expected.error) return expectError(() => parseManifests(text), v.expected);
    const objs = parseManifests(text);
    if (typeof v.expected.objectCount === 'number') expect(objs).toHaveLength(v.expected.objectCount);
    if (Array.isArray(v.expected.objects)) expect(objs).toEqual(v.expected.objects);
  },
  // FromUnstructured: each object through sigs.k8s.io/yaml.Marshal, joined by JoinYaml (no final newline).
  'clusterctl:FromUnstructured': (v: Vector) => {
    const objs = need(v, ['objects', 'objs', 'unstructured'], 'FromUnstructured') as unknown[];
    const out = fromUnstructured(objs);
    checkExpected(v, 'FromUnstructured', {
      yaml: (want) => expect(out).toBe(want),
      rawyaml: (want) => expect(out).toBe(want),
      output: (want) => expect(out).toBe(want),
    });
  },
  // JoinYaml: `---` between documents, each given a leading and trailing newline, then one of each trimmed.
  'clusterctl:JoinYaml': (v: Vector) => {
    const docs = need(v, ['docs', 'documents', 'yamls'], 'JoinYaml') as string[];
    checkExpected(v, 'JoinYaml', { yaml: (want) => expect(joinYaml(docs)).toBe(want), output: (want) => expect(joinYaml(docs)).toBe(want) });
  },
  // util.Ordinalize: 1st, 2nd, 3rd, 4th… and 11st/12nd/13rd (clusterctl's quirk).
  'clusterctl:Ordinalize': (v: Vector) => {
    const n = Number(need(v, ['n', 'number', 'value'], 'Ordinalize'));
    checkExpected(v, 'Ordinalize', { ordinal: (want) => expect(ordinalize(n)).toBe(want), result: (want) => expect(ordinalize(n)).toBe(want) });
  },
  'clusterctl:emit': (v: Vector) => {
    expect(emitGoYaml(v.input.object)).toBe(v.expected.yaml);
  },
  'clusterctl:parse': (v: Vector) => {
    const text = (v.input.yaml ?? (v as { yaml?: string }).yaml) as string;
    if (v.expected.error) return expectError(() => decodeYaml(text), v.expected);
    expect(goJson(decodeYaml(text) ?? null)).toBe(v.expected.json);
  },
};
