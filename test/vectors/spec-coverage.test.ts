/**
 * The vector runner can run any vector file of the three formats: every function the specs name has a handler (or a
 * documented reason in ./unsupported.ts), every handler is proven to run by at least one vector (the shared files
 * or the repo's own ./fixtures), and files of new names or layouts are recognised by their format.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../helpers/shared.js';
import { testdir } from '../helpers/testdir.js';
import { dispatch, handlers, isCovered, loadVectorFiles, vectorsOf } from './registry.js';
import { specFunctions } from './spec-functions.js';
import type { Vector, VectorFile, VectorHandler } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
// The public vector set itself, even when CAPIFORM_VECTORS_DIR points the runner at another folder.
const shared = sharedDir('vectors', { ...process.env, CAPIFORM_VECTORS_DIR: '' });
const fixturesDir = resolve(here, 'fixtures');

function vectorFiles(dir: string): VectorFile[] {
  return loadVectorFiles(dir).flatMap((g) => g.files.filter((f): f is VectorFile => typeof f !== 'string'));
}

/** The handler functions the vectors of `dir` dispatch to. */
function exercised(dir: string): Set<VectorHandler> {
  const used = new Set<VectorHandler>();
  for (const file of vectorFiles(dir)) {
    for (const v of vectorsOf(file)) {
      const d = dispatch(file, { ...v, input: v.input ?? {}, expected: v.expected ?? {} });
      if (d.handler) used.add(d.handler);
    }
  }
  return used;
}

describe('vector runner coverage of the specs', () => {
  it('every function the specs name has a handler or an unsupported reason', () => {
    const missing = specFunctions.flatMap((f) =>
      f.keys.filter((k) => !isCovered(k)).map((k) => `${f.spec} ${f.section} ${f.name}: ${k}`),
    );
    expect(missing).toEqual([]);
  });

  it('the repo fixtures use handlers only (no unsupported op, no unknown op)', () => {
    const problems: string[] = [];
    for (const file of vectorFiles(fixturesDir)) {
      for (const v of vectorsOf(file)) {
        const d = dispatch(file, v);
        if (!d.handler) problems.push(`${file.stem}: ${d.key}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.skipIf(!shared.present)(`every handler runs for at least one vector (shared files or repo fixtures)${shared.skipped}`, () => {
    const used = new Set([...exercised(shared.path), ...exercised(fixturesDir)]);
    const byFn = new Map<VectorHandler, string[]>();
    for (const [key, fn] of Object.entries(handlers)) byFn.set(fn, [...(byFn.get(fn) ?? []), key]);
    const idle = [...byFn.entries()].filter(([fn]) => !used.has(fn)).map(([, keys]) => keys.join(' | '));
    expect(idle).toEqual([]);
  });
});

describe('vector files the repo has never seen', () => {
  const clusterctlDoc = {
    schema: 'clusterctl-test-vectors/v1',
    vectors: [{ id: 'x-1', input: { op: 'ManifestLabel', providerName: 'aws', type: 'InfrastructureProvider' }, expected: { label: 'infrastructure-aws' } }],
  };
  const capiPlanDoc = {
    description: 'move graph cases of another file name',
    vectors: [{ source: 'x', input: { operation: 'addObj', objs: [] }, expected: { nodes: {} } }],
  };

  it('a file directly in CAPIFORM_VECTORS_DIR, or in a folder of another name, is recognised by its format', () => {
    const dir = testdir({
      'loose.json': JSON.stringify(clusterctlDoc),
      'held-out/objectgraph-extra.json': JSON.stringify(capiPlanDoc),
      'envsubst/more.json': JSON.stringify([{ id: 'm-1', template: '${A}', env: { A: 'x' }, expected: { output: 'x' } }]),
    });
    const files = vectorFiles(dir);
    expect(files.map((f) => [f.folder, f.stem])).toEqual([
      ['clusterctl', 'loose'],
      ['envsubst', 'more'],
      ['capi-plan', 'objectgraph-extra'],
    ]);
    const keys = files.map((f) => dispatch(f, vectorsOf(f)[0] as Vector).key);
    expect(keys).toEqual(['clusterctl:ManifestLabel', 'envsubst:*:process', 'capi-plan:*:addObj']);
  });

  it('an envsubst file of a new name runs each case by its shape: Process, variable listing or byte-level output', () => {
    const file: VectorFile = { folder: 'envsubst', stem: 'held-out', path: '/x', doc: {} };
    const key = (v: Record<string, unknown>): string => dispatch(file, { input: {}, expected: {}, ...v } as Vector).key;
    expect(key({ template: '${A}', env: {}, expected: { output: '' } })).toBe('envsubst:*:process');
    expect(key({ template: '${A', env: {}, expected: { error: true } })).toBe('envsubst:*:process');
    expect(key({ template: '${A}', expected: { variables: ['A'], variableMap: { A: null } } })).toBe('envsubst:*:list');
    expect(key({ template: '${A', expected: { error: true } })).toBe('envsubst:*:list');
    expect(key({ template: '${V:1}', env: { V: 'é' }, expected: { outputBase64: 'qQ==' } })).toBe('envsubst:*:bytes');
  });

  it('a capi-plan operation in a file of a new name runs its handler; an unknown operation is reported by key', () => {
    const file: VectorFile = { folder: 'capi-plan', stem: 'brand-new', path: '/x', doc: {} };
    const known = dispatch(file, { input: { operation: 'getUpgradeInfo' }, expected: {} });
    expect(known.key).toBe('capi-plan:*:getUpgradeInfo');
    expect(known.handler).toBeTypeOf('function');
    const named = { ...file, stem: 'variable-validation-cel' };
    expect(dispatch(named, { input: {}, expected: {} }).key).toBe('capi-plan:variable-validation:*');
    expect(dispatch(named, { input: {}, expected: {} }).handler).toBeTypeOf('function');
    const byShape = dispatch(file, { input: { clusterClassVariable: { name: 'cpu' } }, expected: { errors: [] } });
    expect(byShape.key).toBe('capi-plan:variable-validation:*');
    const order = dispatch(file, { input: {}, expected: { moveGroups: [] } });
    expect(order.key).toBe('capi-plan:move-order:*');
    for (const input of [
      { namingTemplateOf: 'controlPlane', template: '{{ .cluster.name }}' },
      { object: 'MachineDeployment', clusterName: 'c', topologyName: 'md-0' },
      { template: '{{ .cluster.name }}-x', data: {} },
    ]) {
      const naming = dispatch(file, { input, expected: { error: true } });
      expect(naming.key, JSON.stringify(input)).toBe('capi-plan:naming:*');
      expect(naming.handler).toBeTypeOf('function');
    }
    const unknown = dispatch(file, { input: { operation: 'noSuchOperation' }, expected: {} });
    expect(unknown).toEqual({ key: 'capi-plan:brand-new:noSuchOperation' });
  });

  it('a ClusterClass patch vector in a file of a new name runs by the shape of its input', () => {
    const file: VectorFile = { folder: 'capi-plan', stem: 'held-out-topology', path: '/x', doc: {} };
    const key = (input: Record<string, unknown>, expected: Record<string, unknown> = {}): string => dispatch(file, { input, expected }).key;
    const patches = 'capi-plan:json-patch-generator:*';
    expect(key({ template: '{{ .a }}', variablesRawJSON: { a: '1' } })).toBe(patches);
    expect(key({ enabledIf: 'true', variablesRawJSON: null })).toBe(patches);
    expect(key({ variablesRawJSON: { a: '1' } }, { data: { a: 1 } })).toBe(patches);
    expect(key({ patch: { valueFrom: { variable: 'a' } }, variablesRawJSON: { a: '1' } })).toBe(patches);
    expect(key({ patch: { name: 'p', definitions: [] }, request: { items: [] } })).toBe(patches);
    expect(key({ item: {}, selector: { kind: 'X' }, templateVariablesRawJSON: null })).toBe(patches);
    expect(key({ segment: 'a[0]' })).toBe(patches);
    expect(key({ variableDefinitionsForPatch: {}, cluster: {} })).toBe(patches);
    // A naming template is not a patch template: it runs as a naming vector.
    expect(key({ template: '{{ .cluster.name }}', data: {} })).toBe('capi-plan:naming:*');
  });

  it('a clusterctl op with its Go package in front, or in another letter case, finds the one handler it names', () => {
    const file: VectorFile = { folder: 'clusterctl', stem: 'x', path: '/x', doc: {} };
    const key = (op: string): string => dispatch(file, { input: { op }, expected: {} }).key;
    expect(key('repository.validateMetadata')).toBe('clusterctl:validateMetadata');
    expect(key('certManager.ShouldUpgrade')).toBe('clusterctl:certManager.shouldUpgrade');
    expect(key('cluster.handleGithubErr')).toBe('clusterctl:cluster.handleGithubErr');
    expect(dispatch(file, { input: { op: 'repository.noSuchFunction' }, expected: {} })).toEqual({
      key: 'clusterctl:repository.noSuchFunction',
    });
  });

  it('a file that is not JSON, or of no known format, is an error naming it', () => {
    const dir = testdir({ 'x/bad.json': '{not json', 'x/odd.json': '{"hello": 1}' });
    const files = loadVectorFiles(dir).flatMap((g) => g.files);
    expect(files).toHaveLength(2);
    for (const f of files) expect(typeof f === 'string' ? f : '').toMatch(/x\/(bad|odd)\.json: /);
  });
});
