/**
 * The YAML layer: how capiform reads manifests (exactly as clusterctl: apimachinery's document splitting and
 * go-yaml v2's YAML 1.1 scalars), how it writes values it creates or changes, and how it keeps everything else
 * byte-identical.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import {
  MAX_MANIFEST_SIZE,
  decodeYaml,
  emitGoYaml,
  emitManifests,
  emitObject,
  joinYaml,
  ordinalize,
  parseDocuments,
  parseManifests,
  spliceDocument,
} from '../src/yaml/index.js';
import { thrown } from './helpers/thrown.js';

describe('reading manifests (clusterctl ToUnstructured)', () => {
  it('splits on lines that start with ---, drops empty and comment-only documents', () => {
    const text = '---\n# only a comment\n---\nkind: A\n--- # a comment after the separator\n\n---\nkind: B\n';
    expect(parseManifests(text)).toEqual([{ kind: 'A' }, { kind: 'B' }]);
  });

  it('treats an indented or mid-line --- as content', () => {
    const text = 'kind: ConfigMap\ndata:\n  key: |\n    a --- b\n    ---\n';
    expect(parseManifests(text)).toEqual([{ kind: 'ConfigMap', data: { key: 'a --- b\n---\n' } }]);
  });

  it('rejects a separator followed by anything but spaces or a comment', () => {
    const err = thrown(() => parseManifests('kind: A\n--- !x\nkind: B\n', { source: 'c.yaml' }), InputError);
    expect(err.message).toBe('invalid Yaml document separator: !x');
    expect(err.where).toBe('c.yaml:2');
    expect(err.exitCode).toBe(2);
  });

  it('reads scalars as go-yaml v2 (YAML 1.1) does, keys included', () => {
    const text = 'kind: K\na: on\nb: y\nc: NO\nd: 0755\ne: 0x1F\nf: 1_000\ng: 1e3\nh: 0o17\ni: 0b101\nj: 1:20\nk: 2001-12-14\nn: x\n1: one\n';
    expect(parseManifests(text)[0]).toEqual({
      kind: 'K',
      a: true,
      b: true,
      c: false,
      d: 493,
      e: 31,
      f: 1000,
      g: 1000,
      h: 15,
      i: 5,
      j: '1:20',
      k: '2001-12-14',
      false: 'x',
      '1': 'one',
    });
  });

  it('gives the same values on the fast path and with the yaml package', () => {
    const text = [
      'kind: K',
      'plain: a long',
      '  continued line',
      "single: 'it''s'",
      'double: "tab\\there\\u00e9"',
      'folded: "line one',
      '  line two\\nthree"',
      'lit: |2',
      '    indented',
      '  body',
      'flow: {a: [1, "2", c], b: {}}',
      'list:',
      '- name: x # comment',
      '  value: ~',
      '- - nested',
      'empty:',
      '',
    ].join('\n');
    const fast = parseDocuments(text)[0];
    expect(fast?.node).not.toBeNull(); // the fast parser understood all of it
    expect(fast?.value).toEqual(parseManifests(text, { fast: false })[0]);
  });

  it('falls back to the yaml package for anchors and aliases (and expands them)', () => {
    const doc = parseDocuments('kind: K\na: &x {b: 1}\nc: *x\n')[0];
    expect(doc?.node).toBeNull();
    expect(doc?.value).toEqual({ kind: 'K', a: { b: 1 }, c: { b: 1 } });
  });

  it('reports malformed YAML with clusterctl’s message, the file and the line', () => {
    const text = 'kind: A\n---\nkind: B\nmetadata:\n  name: [unclosed\n';
    const err = thrown(() => parseManifests(text, { source: 'components.yaml' }), InputError);
    expect(err.message).toMatch(/^failed to unmarshal the 2nd yaml document: "kind: B\\nmetadata:\\n {2}name: \[unclosed\\n": error converting YAML to JSON: yaml: line \d+: /);
    expect(err.where).toMatch(/^components\.yaml:[4-6]$/);
    expect(err.exitCode).toBe(2);
  });

  it('fails on a document that is not an object with a kind', () => {
    expect(thrown(() => parseManifests('- a\n- b\n'), InputError).message).toBe(
      'failed to unmarshal the 1st yaml document: "- a\\n- b\\n": error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    // A mapping without kind is fine: clusterctl decodes into map[string]interface{} (spec R0.2).
    expect(parseManifests('name: x\n')).toEqual([{ name: 'x' }]);
  });

  it('uses clusterctl’s ordinals, quirk included', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 111].map(ordinalize)).toEqual([
      '1st', '2nd', '3rd', '4th', '11st', '12nd', '13rd', '21st', '22nd', '111st',
    ]);
  });

  it('bounds alias expansion: a "billion laughs" document fails fast instead of hanging', () => {
    const lines = ['kind: K', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const err = thrown(() => parseManifests(lines.join('\n') + '\n'), InputError);
    expect(err.message).toContain('document contains excessive aliasing');
  });

  it('bounds the manifest size', () => {
    const err = thrown(() => parseManifests('#'.repeat(MAX_MANIFEST_SIZE + 1), { source: 'big.yaml' }), InputError);
    expect(err.message).toMatch(/^manifest is too large/);
    expect(err.where).toBe('big.yaml');
  });
});

describe('writing values capiform creates or changes', () => {
  it('quotes every string go-yaml v2 would read as another type, Go integer forms included', () => {
    const strings = ['0o755', '0b101', '1_000', '0755', '0x1F', '1e3', '.5', '+1', 'yes', 'on', 'y', 'N', '~', 'null', '', '1:20', '2001-12-14', 'true'];
    const obj: Record<string, string> = {};
    strings.forEach((s, i) => (obj[`k${i}`] = s));
    const text = emitObject({ kind: 'K', ...obj });
    for (const s of strings) expect(text).toContain(`: "${s}"\n`);
    expect(decodeYaml(text)).toEqual({ kind: 'K', ...obj });
  });

  it('writes sequences unindented, multi-line strings as literal blocks, and no folding', () => {
    const long = 'word '.repeat(40).trim();
    expect(emitObject({ a: ['x', { b: 1 }], s: 'one\ntwo\n', l: long })).toBe(
      `a:\n- x\n- b: 1\ns: |\n  one\n  two\nl: ${long}\n`,
    );
  });

  it('joins documents with --- and ends with a newline', () => {
    expect(emitManifests([{ kind: 'A' }, { kind: 'B' }])).toBe('kind: A\n---\nkind: B\n');
    expect(emitManifests([])).toBe('\n');
  });
});

describe('keeping the source text', () => {
  const source = [
    '# a leading comment',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: cm   # trailing comment',
    '  namespace: old',
    'data:',
    "  z: 'quoted'",
    '  a: "1"',
    '',
  ].join('\n');

  it('leaves an unchanged document byte-identical (comments, key order, quoting)', () => {
    const doc = parseDocuments(source)[0]!;
    expect(spliceDocument(doc, doc.value)).toBe(source);
  });

  it('splices edits: changed values, new keys appended, removed keys cut', () => {
    const doc = parseDocuments(source)[0]!;
    const meta = doc.value.metadata as Record<string, unknown>;
    const target = {
      ...doc.value,
      metadata: { name: meta.name, namespace: 'new', labels: { app: 'x' } },
      data: { z: 'quoted' },
    };
    expect(spliceDocument(doc, target)).toBe(
      [
        '# a leading comment',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: cm   # trailing comment',
        '  namespace: new',
        '  labels:',
        '    app: x',
        'data:',
        "  z: 'quoted'",
        '',
      ].join('\n'),
    );
  });
});

describe('go-yaml v2 output (--output-style clusterctl)', () => {
  it('sorts keys in go-yaml natural order and folds long strings with spaces at 80 columns', () => {
    const text = emitGoYaml({ b: 1, a10: 2, a2: 3, desc: 'lorem ipsum '.repeat(10).trim() });
    expect(text.split('\n')[0]).toBe('a2: 3');
    expect(text).toContain('desc: lorem ipsum lorem ipsum');
    expect(text.split('\n').some((l) => l.startsWith('  lorem') || l.startsWith('  ipsum'))).toBe(true);
  });

  it('joins documents like clusterctl JoinYaml: no leading ---, no final newline', () => {
    expect(joinYaml(['a: 1\n', 'b: 2\n'])).toBe('a: 1\n---\nb: 2');
  });
});

describe('transforming a manifest while keeping its text (cluster templates)', () => {
  it('parseEntries + emitManifests splice only what a transform changed', async () => {
    const { parseEntries } = await import('../src/yaml/index.js');
    const { fixTargetNamespace } = await import('../src/render/components/index.js');
    const text = 'apiVersion: v1\nkind: Cluster\nmetadata:\n  name: test # keep me\n  namespace: ns3\n';
    const entries = parseEntries(text);
    const fixed = fixTargetNamespace(
      entries.map((e) => e.value),
      'ns1',
    );
    expect(emitManifests(fixed.map((value, i) => ({ ...entries[i], value })))).toBe(
      'apiVersion: v1\nkind: Cluster\nmetadata:\n  name: test # keep me\n  namespace: ns1\n',
    );
  });
});
