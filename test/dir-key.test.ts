/**
 * A tree directory's cache key is the digest of its whole inputs record: every field counts, key order does not, and
 * a cluster's key moves with the variables its template uses and with no other.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedCluster, ResolvedConfig } from '../src/config/index.js';
import { dirInputsKey } from '../src/pipeline/tree/index.js';
import { clusterDirInputs, type DirInputs } from '../src/render/index.js';

const records: DirInputs[] = [
  { kind: 'cert-manager', version: 'v1.16.1', raw: 'a'.repeat(64), images: {} },
  { kind: 'clusterclass', key: 'default/quick-start', raw: 'b'.repeat(64), secrets: { policy: 'fail' }, templates: { hashNames: false }, values: { A: '1' } },
] as DirInputs[];

/** The record with `field` set to a value it does not have. */
function changed(r: DirInputs, field: string): DirInputs {
  const v = (r as unknown as Record<string, unknown>)[field];
  return { ...r, [field]: typeof v === 'string' ? `${v}x` : { other: v ?? null } } as DirInputs;
}

describe('the cache key of a tree directory', () => {
  for (const r of records) {
    for (const field of Object.keys(r)) {
      it(`${r.kind}: a different ${field} is a different key`, () => {
        expect(dirInputsKey(changed(r, field))).not.toBe(dirInputsKey(r));
      });
    }
    it(`${r.kind}: a field added to the record is in the key`, () => {
      expect(dirInputsKey({ ...r, added: 1 } as unknown as DirInputs)).not.toBe(dirInputsKey(r));
    });
    it(`${r.kind}: the order the record's fields were written in does not count`, () => {
      const reversed = Object.fromEntries(Object.entries(r).reverse()) as unknown as DirInputs;
      expect(dirInputsKey(reversed)).toBe(dirInputsKey(r));
    });
  }

  it("a cluster's key changes with a variable its template uses, not with one it does not use", () => {
    // clusterDirInputs reads only these settings of the config; the lookup gives the variables' values.
    const config = { secrets: { policy: 'fail' }, argocd: undefined } as unknown as ResolvedConfig;
    const cluster = { name: 'c1', namespace: 'default', configPath: 'clusters[0]', variables: { USED: '1', UNUSED: '1' } } as unknown as ResolvedCluster;
    const key = (vars: Record<string, string>): string =>
      dirInputsKey(clusterDirInputs(config, cluster, { sha: 'c'.repeat(64), file: 'cluster-template.yaml', version: 'v1.10.0', label: 'infrastructure-docker', used: ['USED'], lookup: (n) => vars[n], images: {} }));
    const base = key({ USED: '1', UNUSED: '1' });
    expect(key({ USED: '2', UNUSED: '1' })).not.toBe(base);
    expect(key({ USED: '1', UNUSED: '2' })).toBe(base);
  });
});
