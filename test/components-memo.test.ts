/**
 * The memo of provider components renders (`generate provider`): an entry is keyed by the digest of the render's
 * input record, so every field of the record (and any field added to it) moves the key; a hit gives the same result
 * as a fresh render, and a damaged entry is a miss.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentsKey, diskComponentsMemo } from '../src/pipeline/generate/index.js';
import { componentsRecord, renderComponents, type ComponentsRecord, type RenderComponentsInput } from '../src/render/components/index.js';
import { tempDir } from './helpers/testdir.js';

const base: RenderComponentsInput = {
  text: `apiVersion: v1
kind: Namespace
metadata:
  name: capa-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: capa-controller-manager
  namespace: capa-system
spec:
  template:
    spec:
      containers:
      - name: manager
        image: registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.0.0
`,
  providerName: 'aws',
  providerType: 'InfrastructureProvider',
  manifestLabel: 'infrastructure-aws',
  version: 'v2.0.0',
};

const record: ComponentsRecord = componentsRecord({ ...base, targetNamespace: 'infra', images: { all: { tag: 'v9' } } });

describe('the cache key of a components render', () => {
  for (const field of Object.keys(record) as (keyof ComponentsRecord)[]) {
    it(`a different ${field} is a different key`, () => {
      const v = record[field];
      const other = { ...record, [field]: typeof v === 'string' ? `${v}x` : { other: v } } as ComponentsRecord;
      expect(componentsKey(other)).not.toBe(componentsKey(record));
    });
  }
  it('a field added to the record is in the key; key order is not', () => {
    expect(componentsKey({ ...record, added: 1 } as unknown as ComponentsRecord)).not.toBe(componentsKey(record));
    const reversed = Object.fromEntries(Object.entries(record).reverse()) as unknown as ComponentsRecord;
    expect(componentsKey(reversed)).toBe(componentsKey(record));
  });
  it('the record holds a digest of the substituted text, never the text', () => {
    expect(record.componentsDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(componentsRecord({ ...base, text: `${base.text}# more\n` }).componentsDigest).not.toBe(componentsRecord(base).componentsDigest);
    expect(JSON.stringify(record)).not.toContain('capa-controller-manager');
  });
});

describe('the disk memo of components renders', () => {
  it('returns the same result from the memo, and treats a damaged entry as a miss', () => {
    const dir = tempDir('capiform-cache-');
    try {
      const input = { ...base, targetNamespace: 'infra', memo: diskComponentsMemo(dir) };
      const first = renderComponents(input);
      const second = renderComponents(input);
      expect(second.yaml()).toBe(first.yaml());
      expect(second.objects).toEqual(first.objects);
      expect(second.images).toEqual(first.images);
      expect(second.entries.length).toBe(first.entries.length);
      expect(second.yaml()).toBe(renderComponents({ ...base, targetNamespace: 'infra' }).yaml());
      // another target namespace is another entry
      expect(renderComponents({ ...input, targetNamespace: 'other' }).targetNamespace).toBe('other');
      const walk = (d: string): string[] =>
        readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
      expect(walk(dir)).toHaveLength(2);
      // damage every entry: the render still works
      for (const f of walk(dir)) writeFileSync(f, '{not json');
      expect(renderComponents(input).yaml()).toBe(first.yaml());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a directory it cannot write is no error', () => {
    const dir = tempDir('capiform-cache-');
    try {
      writeFileSync(join(dir, 'file'), '');
      const memo = diskComponentsMemo(join(dir, 'file'));
      expect(renderComponents({ ...base, memo }).yaml()).toBe(renderComponents(base).yaml());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
