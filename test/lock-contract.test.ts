/**
 * `capiform lock --upgrade --contract <c>` through the CLI: it applies what `capiform plan upgrade` proposes for the
 * contract, records the contract in the lock, and the next `render` (and `diff`) show the new versions; the config's
 * constraints and contract pin are respected, with errors that say what to change.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlValue as parse } from '../src/yaml/index.js';
import { describe, expect, it } from 'vitest';
import { manifestLabel } from '../src/capi/index.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { components, metadata, testdir } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON documents
type Any = Record<string, any>;

const providers = [
  { label: 'cluster-api', file: 'core-components.yaml', ns: 'capi-system' },
  { label: 'bootstrap-kubeadm', file: 'bootstrap-components.yaml', ns: 'capi-kubeadm-bootstrap-system' },
  { label: 'control-plane-kubeadm', file: 'control-plane-components.yaml', ns: 'capi-kubeadm-control-plane-system' },
  { label: 'infrastructure-docker', file: 'infrastructure-components.yaml', ns: 'capd-system' },
];

/** v1.9 implements v1beta1; v1.10 and v1.11 implement v1beta2 (as metadata.yaml of the newest release says). */
const allSeries = [
  [1, 9, 'v1beta1'],
  [1, 10, 'v1beta2'],
  [1, 11, 'v1beta2'],
] as const;

/** Releases of every provider in `<dir>/repo/<label>/<version>/`. */
function release(dir: string, version: string, series: readonly (readonly [number, number, string])[] = allSeries): void {
  const files: Record<string, string> = {};
  for (const p of providers) {
    files[`repo/${p.label}/${version}/${p.file}`] = components(p.ns, p.label, `${p.label}.x-k8s.io`, '', version.startsWith('v1.9.') ? 'v1beta1' : 'v1beta2');
    files[`repo/${p.label}/${version}/metadata.yaml`] = metadata(series);
  }
  testdir(files, dir);
}

/** The releases are stand-ins for contract moves, not contract-following providers: the lock-time lint is off. */
function config(o: { core?: string; docker?: string; extra?: string } = {}): string {
  return `export default {
  contractLint: 'off',
  providers: {
    core: { name: 'cluster-api', version: '${o.core ?? '^1.9.0'}', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: '^1.9.0', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: '^1.9.0', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '${o.docker ?? '^1.9.0'}', url: './repo' }],
  },
  ${o.extra ?? ''}
};
`;
}

/**
 * A project locked at v1.9.0 (v1beta1) when that was the only release; newer releases appeared since: v1.9.5
 * (v1beta1), v1.10.0 and v1.10.1 (v1beta2) and the pre-release v1.11.0-rc.0.
 */
async function lockedProject(o: Parameters<typeof config>[0] = {}): Promise<string> {
  const dir = testdir({ 'capi.config.ts': config() });
  release(dir, 'v1.9.0', [[1, 9, 'v1beta1']]);
  await ok(dir, ['render']);
  for (const v of ['v1.9.5', 'v1.10.0', 'v1.10.1', 'v1.11.0-rc.0']) release(dir, v);
  testdir({ 'capi.config.ts': config(o) }, dir);
  return dir;
}

const env = (dir: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache') });
const cli = (dir: string, argv: string[]): Promise<CliResult> => runCli(argv, { cwd: dir, env: env(dir) });

async function ok(dir: string, argv: string[]): Promise<CliResult> {
  const r = await cli(dir, argv);
  expect(r.stderr.replace(/^.*: v[^\n]* → v[^\n]*\n/gm, ''), argv.join(' ')).toBe('');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

function lock(dir: string): { contract: string; versions: Record<string, string> } {
  const doc = parse(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')) as Any;
  return { contract: doc.contract, versions: Object.fromEntries((doc.providers as Any[]).map((p) => [p.label, p.version])) };
}

const at = (version: string): Record<string, string> => Object.fromEntries(providers.map((p) => [p.label, version]));

describe('capiform lock --upgrade --contract', { timeout: 240_000 }, () => {
  it('applies the versions `plan upgrade` proposes for the contract; render, render --frozen and diff follow', async () => {
    const dir = await lockedProject();
    expect(lock(dir)).toEqual({ contract: 'v1beta1', versions: at('v1.9.0') });
    // A plain render keeps the locked versions although newer ones exist.
    await ok(dir, ['render']);
    expect(lock(dir).versions).toEqual(at('v1.9.0'));
    const before = tempDir('capiform-lock-contract-');
    cpSync(join(dir, 'providers'), join(before, 'providers'), { recursive: true });

    const plan = JSON.parse((await ok(dir, ['plan', 'upgrade', '--json'])).stdout) as Any;
    const proposed = (contract: string): Record<string, string> =>
      Object.fromEntries(
        (plan.plans.find((p: Any) => p.contract === contract).providers as Any[]).map((i) => [manifestLabel(i.providerName, i.type), i.nextVersion || i.currentVersion]),
      );
    expect(proposed('v1beta2')).toEqual(at('v1.10.1'));
    expect(proposed('v1beta1')).toEqual(at('v1.9.5'));

    const r = await ok(dir, ['lock', '--upgrade', '--contract', 'v1beta2']);
    expect(r.stdout).toContain('cluster-api v1.10.1 (v1beta2)\n');
    expect(r.stdout).toContain('wrote capi.lock.yaml\n');
    expect(r.stderr).toContain('cluster-api: v1.9.0 → v1.10.1');
    expect(lock(dir)).toEqual({ contract: 'v1beta2', versions: proposed('v1beta2') });

    // The next render writes the new versions and keeps the lock; a frozen check accepts it; a plain lock keeps it.
    const rendered = await ok(dir, ['render']);
    expect(rendered.stdout).not.toContain('wrote capi.lock.yaml');
    expect(readFileSync(join(dir, 'providers/cluster-api/inventory.yaml'), 'utf8')).toContain('version: v1.10.1');
    expect(readFileSync(join(dir, 'providers/infrastructure-docker/components.yaml'), 'utf8')).toContain('cluster.x-k8s.io/v1beta2: v1beta2');
    await ok(dir, ['render', '--check', '--frozen']);
    expect((await ok(dir, ['lock'])).stdout).toContain('capi.lock.yaml is up to date');
    expect(lock(dir)).toEqual({ contract: 'v1beta2', versions: at('v1.10.1') });

    const diff = JSON.parse((await ok(dir, ['diff', '--format', 'json', before, dir])).stdout) as Any;
    const core = diff.providers.find((p: Any) => p.label === 'cluster-api');
    expect(core).toMatchObject({ fromVersion: 'v1.9.0', toVersion: 'v1.10.1', fromContract: 'v1beta1', toContract: 'v1beta2' });
  });

  it('moves within the contract too: --contract v1beta1 takes the newest v1beta1 release', async () => {
    const dir = await lockedProject();
    const r = await ok(dir, ['lock', '--upgrade', '--contract', 'v1beta1', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: true, contract: 'v1beta1' });
    expect(lock(dir)).toEqual({ contract: 'v1beta1', versions: at('v1.9.5') });
  });

  it('without a lock, resolves every provider for the contract', async () => {
    const dir = testdir({ 'capi.config.ts': config() });
    for (const v of ['v1.9.5', 'v1.10.1']) release(dir, v);
    await ok(dir, ['lock', '--upgrade', '--contract', 'v1beta1']);
    expect(lock(dir)).toEqual({ contract: 'v1beta1', versions: at('v1.9.5') });
  });

  it('fails when a version constraint blocks the move, naming the provider, its constraint and the version needed', async () => {
    const dir = await lockedProject({ docker: '~1.9.0' });
    const before = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    const r = await cli(dir, ['lock', '--upgrade', '--contract', 'v1beta2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cannot upgrade to contract v1beta2: the config\'s version constraints block it:\n  infrastructure-docker (providers.infrastructure[0].version): "~1.9.0" does not allow v1.10.1, which contract v1beta2 needs',
    );
    expect(r.stderr).toContain("widen these constraints (e.g. providers.infrastructure[0].version: '~1.10.0')");
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(before);
  });

  it('fails when the config pins another contract, saying how to change it', async () => {
    const dir = await lockedProject({ extra: "contract: 'v1beta1'," });
    const r = await cli(dir, ['lock', '--upgrade', '--contract', 'v1beta2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--contract v1beta2 conflicts with the config, which pins contract v1beta1');
    expect(r.stderr).toContain("set `contract: 'v1beta2'` in the config (or remove the pin)");
  });

  it('fails for a contract no newer core release implements, listing the ones `plan upgrade` offers', async () => {
    const dir = await lockedProject();
    const r = await cli(dir, ['lock', '--upgrade', '--contract', 'v1beta3']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no release of cluster-api newer than v1.9.0 implements contract v1beta3');
    expect(r.stderr).toContain('`capiform plan upgrade` offers: v1beta1, v1beta2');
  });

  it('fails when a provider has no release for the contract, naming it and what it implements', async () => {
    const dir = await lockedProject();
    // docker's newest release re-maps its whole history to v1alpha4: no version of it fits v1beta2 any more.
    const old = [[1, 9, 'v1alpha4'], [1, 10, 'v1alpha4'], [1, 11, 'v1alpha4'], [1, 12, 'v1alpha4']] as const;
    testdir({ 'repo/infrastructure-docker/v1.12.0/infrastructure-components.yaml': components('capd-system', 'capd', 'infrastructure.cluster.x-k8s.io'), 'repo/infrastructure-docker/v1.12.0/metadata.yaml': metadata(old) }, dir);
    const r = await cli(dir, ['lock', '--upgrade', '--contract', 'v1beta2']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'cannot upgrade to contract v1beta2: not every provider has a release for it:\n  infrastructure-docker v1.9.0 implements v1alpha4 and has no newer release for v1beta2',
    );
    expect(r.stderr).toContain('`capiform plan upgrade` lists what each provider offers');
    expect(lock(dir).versions).toEqual(at('v1.9.0'));
  });

  it('refuses a step clusterctl upgrade apply refuses: cluster-api skipping more than 3 minors', async () => {
    const dir = testdir({ 'capi.config.ts': config({ core: '^1.10.0' }) });
    release(dir, 'v1.10.0', [[1, 10, 'v1beta2']]);
    await ok(dir, ['render']);
    const series = [10, 11, 12, 13, 14].map((m) => [1, m, 'v1beta2'] as const);
    release(dir, 'v1.14.0', series);
    const before = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    const r = await cli(dir, ['lock', '--upgrade', '--contract', 'v1beta2']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("cannot upgrade to contract v1beta2 in one step:\n  upgrade for cluster-api provider can't skip more than 3 versions (v1.10.0 → v1.14.0)");
    expect(r.stderr).toContain('upgrade through an intermediate minor first');
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(before);
  });

  it('rejects --contract without --upgrade, with provider names, or malformed (exit 2)', async () => {
    const dir = await lockedProject();
    const alone = await cli(dir, ['lock', '--contract', 'v1beta2']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--contract can only be used with --upgrade');
    expect(alone.stderr).toContain('capiform lock --upgrade --contract v1beta2');
    const named = await cli(dir, ['lock', '--upgrade', 'docker', '--contract', 'v1beta2']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--contract needs --upgrade (without provider names)');
    const bad = await cli(dir, ['lock', '--upgrade', '--contract', 'beta2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--contract "beta2" is not a contract such as "v1beta2"');
    expect(lock(dir).versions).toEqual(at('v1.9.0'));
  });
});
