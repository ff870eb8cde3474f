/**
 * Hostile input on the reading side: bytes that are not UTF-8, documents larger than the documented limits,
 * nesting deeper than the limit, repeated mapping keys and alias bombs. Each is exit 2 naming the file (and line
 * when there is one), and leaves the project exactly as it was.
 */
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/dir-snapshot.js';
import { fixtureRepository, writeFixtureConfig } from '../helpers/pipeline-fixtures.js';
import { testdir, type TestFiles } from '../helpers/testdir.js';

/** Runs the CLI in `dir` and checks it refused with exit 2, no stack, and no change to any file. */
async function refused(dir: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const before = snapshotDir(dir);
  const r = await runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, ...env } });
  expect(r.stderr).toMatch(/^Error: /);
  expect(r.stderr).not.toMatch(/\n\s+at .*\(/);
  expect(r.code).toBe(2);
  expect(snapshotDir(dir)).toEqual(before);
  return r;
}

const latin1 = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const deepFlow = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

/** A mapping nested `n` levels deep, in block style: `a:\n  a:\n    a: …`. */
function deepBlock(n: number): string {
  return Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}a:${i === n - 1 ? ' leaf' : ''}`).join('\n') + '\n';
}

/** "Billion laughs": nine levels of nine aliases each. */
const aliasBomb = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((c, i) => {
    const prev = 'abcdefghi'[i]!;
    return `${c}: &${c} [${Array(9).fill(`*${prev}`).join(',')}]`;
  }),
].join('\n');

describe('capi.config.yaml / capi.config.json', () => {
  const project = (files: TestFiles): string => {
    const dir = testdir(files);
    fixtureRepository(dir);
    return dir;
  };

  it('a byte that is not UTF-8 is named with its line and column', async () => {
    const dir = project({ 'capi.config.yaml': latin1('providers:\n  core:\n    name: caf\xe9\n') });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain(`Error: ${join(dir, 'capi.config.yaml')} is not UTF-8: byte 0xe9 at line 3, column 14\n`);
    expect(r.stderr).toContain(`  at: ${join(dir, 'capi.config.yaml')}:3\n`);
  });

  it('the same in JSON', async () => {
    const dir = project({ 'capi.config.json': latin1('{\n  "providers": {\n    "core": "\xff"\n  }\n}\n') });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('is not UTF-8: byte 0xff at line 3, column 14');
  });

  it('a repeated key in YAML names the key and its line', async () => {
    const dir = project({ 'capi.config.yaml': 'providers:\n  core: cluster-api\n  core: other\n' });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('Error: config is not valid YAML: mapping key "core" appears more than once\n');
    expect(r.stderr).toContain(`  at: ${join(dir, 'capi.config.yaml')}:3:3\n`);
  });

  it('a repeated key in JSON (JSON.parse would keep the last silently)', async () => {
    const dir = project({ 'capi.config.json': '{\n  "clusters": [],\n  "clusters": []\n}\n' });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('Error: config is not valid JSON: mapping key "clusters" appears more than once\n');
    expect(r.stderr).toContain(`  at: ${join(dir, 'capi.config.json')}:3:3\n`);
  });

  it('nesting deeper than 256 levels', async () => {
    const dir = project({ 'capi.config.yaml': `clusters:\n${deepBlock(300).replace(/^/gm, '  ')}` });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('Error: config is not valid YAML: nesting is deeper than 256 levels of mappings and sequences\n');
    expect(r.stderr).toMatch(/ {2}at: .*capi\.config\.yaml:257:\d+\n/);
    const json = project({ 'capi.config.json': `{"clusters": ${deepFlow(100000)}}` });
    expect((await refused(json, ['render'])).stderr).toContain('Error: config is not valid JSON: nesting is deeper than 256 levels');
  });

  it('a 100 MB config is refused before it is read', async () => {
    const dir = project({ 'capi.config.yaml': '' });
    // Sparse: the size is real, the disk use is not; reading it would be the bug.
    truncateSync(join(dir, 'capi.config.yaml'), 100 * 1024 * 1024);
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('Error: config file is too large: 104857600 bytes, the limit is 16777216 bytes (16 MiB)\n');
    expect(r.stderr).toContain(`  at: ${join(dir, 'capi.config.yaml')}\n`);
  });

  it('an alias bomb is refused', async () => {
    const dir = project({ 'capi.config.yaml': `${aliasBomb}\n` });
    const r = await refused(dir, ['render']);
    expect(r.stderr).toContain('Error: config is not valid YAML: aliases expand to too much data');
  });
});

describe('clusterctl.yaml', () => {
  it('a byte that is not UTF-8', async () => {
    const dir = testdir({ 'clusterctl.yaml': latin1('providers: []\nFOO: "\xff"\n') });
    const r = await refused(dir, ['generate', 'yaml', '--config', 'clusterctl.yaml'], {});
    expect(r.stderr).toContain('is not UTF-8: byte 0xff at line 2, column 7');
    expect(r.stderr).toContain(`  at: ${join(dir, 'clusterctl.yaml')}:2\n`);
  });

  it('a 100 MB file is refused before it is read', async () => {
    const dir = testdir({ 'clusterctl.yaml': '' });
    truncateSync(join(dir, 'clusterctl.yaml'), 100 * 1024 * 1024);
    const r = await refused(dir, ['generate', 'yaml', '--config', 'clusterctl.yaml']);
    expect(r.stderr).toContain('Error: clusterctl configuration file is too large: 104857600 bytes, the limit is 16777216 bytes (16 MiB)');
  });

  it('nesting deeper than 256 levels', async () => {
    const dir = testdir({ 'clusterctl.yaml': `FOO: ${deepFlow(300)}\n` });
    const r = await refused(dir, ['generate', 'yaml', '--config', 'clusterctl.yaml']);
    expect(r.stderr).toContain('nesting is deeper than 256 levels');
    expect(r.stderr).toContain(`  at: ${join(dir, 'clusterctl.yaml')}:1\n`);
  });

  it('an alias bomb is refused', async () => {
    const dir = testdir({ 'clusterctl.yaml': `${aliasBomb.replace(/"lol"/g, '"lol lol lol lol lol lol lol lol"')}\n` });
    const r = await refused(dir, ['generate', 'yaml', '--config', 'clusterctl.yaml']);
    expect(r.stderr).toContain('too many alias expansions');
  });
});

describe('capi.lock.yaml', () => {
  /** A locked fixture project. */
  async function locked(): Promise<string> {
    const dir = testdir();
    fixtureRepository(dir);
    writeFixtureConfig(dir, {}, 'plain');
    const r = await runCli(['lock'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return dir;
  }

  it('a byte that is not UTF-8, and a repeated key, are named with their line', async () => {
    const dir = await locked();
    const lock = join(dir, 'capi.lock.yaml');
    const text = readFileSync(lock, 'utf8');
    writeFileSync(lock, Buffer.concat([Buffer.from(text.replace('contract: ', 'contract: \xff'), 'latin1')]));
    const line = text.split('\n').findIndex((l) => l.startsWith('contract: ')) + 1;
    const r = await refused(dir, ['render', '--frozen']);
    expect(r.stderr).toContain(`is not UTF-8: byte 0xff at line ${line}, column 11`);
    expect(r.stderr).toContain(`  at: ${lock}:${line}\n`);

    writeFileSync(lock, text.replace('contract: ', 'lockfileVersion: 1\ncontract: '));
    const dup = await refused(dir, ['render', '--frozen']);
    expect(dup.stderr).toContain('Error: capi.lock.yaml is not valid YAML: mapping key "lockfileVersion" appears more than once\n');
    expect(dup.stderr).toContain(`  at: ${lock}:${line}\n`);
  });
});

describe('manifests and templates', () => {
  it('a template that is not UTF-8 is refused at its line', async () => {
    const dir = testdir({ 'cluster.yaml': latin1('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf\xe9\n') });
    const r = await refused(dir, ['generate', 'yaml', '--from', 'cluster.yaml']);
    expect(r.stderr).toContain(`Error: ${join(dir, 'cluster.yaml')} is not UTF-8: byte 0xe9 at line 4, column 12\n`);
  });

  it('provider components that are not UTF-8 are refused at their line', async () => {
    const dir = testdir({
      'repo/cluster-api/v1.0.0/core-components.yaml': latin1('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: capi-system\n  annotations:\n    note: "\xff"\n'),
      'repo/cluster-api/v1.0.0/metadata.yaml':
        'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- major: 1\n  minor: 0\n  contract: v1beta2\n',
    });
    writeFileSync(join(dir, 'clusterctl.yaml'), `providers:\n- name: cluster-api\n  type: CoreProvider\n  url: ${dir}/repo/cluster-api/latest/core-components.yaml\n`);
    const r = await refused(dir, ['generate', 'provider', '--core', 'cluster-api:v1.0.0', '--config', 'clusterctl.yaml']);
    expect(r.stderr).toContain('core-components.yaml is not UTF-8: byte 0xff at line 6, column 12\n');
  });

  it('nesting deeper than 256 levels is exit 2 at its line, however deep', async () => {
    for (const body of [deepBlock(300), `a: ${deepFlow(300)}\n`, `a: ${deepFlow(100000)}\n`, deepBlock(5000)]) {
      const dir = testdir({ 'cluster.yaml': `kind: ConfigMap\n${body}` });
      const r = await refused(dir, ['generate', 'yaml', '--from', 'cluster.yaml']);
      expect(r.stderr).toMatch(/^Error: (failed to parse yaml: )?nesting is deeper than 256 levels of mappings and sequences\n/);
      expect(r.stderr).toMatch(new RegExp(`  at: ${join(dir, 'cluster.yaml')}:\\d+\\n`));
    }
  });

  it("an alias bomb in a template is refused (go-yaml's aliasing ratio)", async () => {
    const dir = testdir({ 'cluster.yaml': `kind: ConfigMap\n${aliasBomb}\n` });
    const r = await refused(dir, ['generate', 'yaml', '--from', 'cluster.yaml']);
    expect(r.stderr).toContain('document contains excessive aliasing');
  });

  it('an upstream template with a repeated key keeps the last value, as clusterctl does, and warns', async () => {
    const dir = testdir({ 'cluster.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n' });
    const r = await runCli(['generate', 'yaml', '--from', 'cluster.yaml'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n');
    expect(r.stderr).toBe(
      `Warning: ${join(dir, 'cluster.yaml')}:5: mapping key "name" appears more than once; the last value is used, as clusterctl does\n`,
    );
  });

  it('a rendered manifest with a repeated key (a hand edit) is refused when read back', async () => {
    const dir = testdir({
      'clusters/team-a/dev-1/cluster.yaml': 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: dev-1\n  namespace: team-a\n  namespace: team-b\n',
    });
    const r = await refused(dir, ['plan', 'move', 'clusters']);
    expect(r.stderr).toContain('Error: mapping key "namespace" appears more than once\n');
    expect(r.stderr).toContain('  at: clusters/team-a/dev-1/cluster.yaml:6\n');
  });
});
