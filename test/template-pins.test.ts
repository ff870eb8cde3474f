/**
 * Template pins (`clusters[].templateVersion`): the infrastructure provider runs its locked release (v1.13.1 here)
 * while a cluster keeps rendering from the cluster-template and ClusterClass of an older release (v1.12.4), until its
 * team moves it. The fixture repository's two docker releases ship different `quick-start` classes.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureRepository, testdir, writeFixtureConfig } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';
import { loadConfig } from '../src/config/index.js';
import { lockProject, renderProject } from '../src/pipeline/index.js';

const repoRoot = join(import.meta.dirname, '..');

/** The v1.12.4 class says where it comes from, so a render shows which release a class was taken from. */
function project(clusters: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = testdir({});
  writeFixtureConfig(dir, { clusters }, 'plain');
  fixtureRepository(dir);
  const classFile = join(dir, 'repo/infrastructure-docker/v1.12.4/clusterclass-quick-start.yaml');
  writeFileSync(classFile, readFileSync(classFile, 'utf8').replace('  name: quick-start\n', '  name: quick-start\n  labels:\n    release: v1.12.4\n'));
  const cache = tempDir('capiform-cache-');
  return { dir, env: { CAPIFORM_CACHE_DIR: cache, HOME: cache, PATH: process.env.PATH } };
}

const dev = (name: string, namespace: string, extra = ''): string =>
  `{ name: '${name}', namespace: '${namespace}', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1'${extra} }`;

const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

async function render(p: { dir: string; env: NodeJS.ProcessEnv }, frozen = false) {
  return renderProject({ config: await loadConfig({ cwd: p.dir, env: p.env }), env: p.env, frozen });
}

describe('template pins', { timeout: 240_000 }, () => {
  it('a pinned cluster renders from the pinned release; the lock pins its files; frozen renders need nothing else', async () => {
    const p = project(`${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}, ${dev('new', 'team-b')}`);
    const first = await render(p);
    expect(first.lockWritten).toBe(true);
    expect(read(p.dir, 'capi.lock.yaml')).toMatch(/label: infrastructure-docker\n {2}constraint: \^1\.12\n {2}version: v1\.13\.1\n/);
    expect(read(p.dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml')).toContain('release: v1.12.4');
    expect(read(p.dir, 'clusterclasses/team-b/quick-start/clusterclass.yaml')).not.toContain('release: v1.12.4');

    const lock = read(p.dir, 'capi.lock.yaml');
    const pins = lock.slice(lock.indexOf('\ntemplatePins:\n'));
    expect(pins).toMatch(
      /^\ntemplatePins:\n- label: infrastructure-docker\n {2}constraint: v1\.12\.4\n {2}version: v1\.12\.4\n {2}source:\n {4}kind: local\n {4}url: repo\n {2}files:\n {2}- name: cluster-template-development\.yaml\n {4}path: repo\/infrastructure-docker\/v1\.12\.4\/cluster-template-development\.yaml\n/,
    );
    expect(pins).toContain('  - name: clusterclass-quick-start.yaml\n    path: repo/infrastructure-docker/v1.12.4/clusterclass-quick-start.yaml\n');
    expect(pins).not.toContain('components.yaml');

    const check = await runCli(['render', '--check', '--frozen'], { cwd: p.dir, env: p.env });
    expect(check).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });

    // The pinned release's bytes are checked against the lock like the provider's.
    const classFile = join(p.dir, 'repo/infrastructure-docker/v1.12.4/clusterclass-quick-start.yaml');
    writeFileSync(classFile, `${readFileSync(classFile, 'utf8')}# edited\n`);
    const tampered = await runCli(['render', '--frozen'], { cwd: p.dir, env: p.env });
    expect(tampered.code).toBe(3);
    expect(tampered.stderr).toContain('clusterclass-quick-start.yaml of infrastructure-docker v1.12.4 does not match capi.lock.yaml');
  });

  it('moving the pin makes a frozen render stale, then renders the class of the new release (tree cache included)', async () => {
    const p = project(`${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}, ${dev('new', 'team-b')}`);
    await render(p);
    writeFixtureConfig(p.dir, { clusters: `${dev('old', 'team-a', ", templateVersion: '~1.13.0'")}, ${dev('new', 'team-b')}` }, 'plain');
    const frozen = await runCli(['render', '--frozen'], { cwd: p.dir, env: p.env });
    expect(frozen.code).toBe(2);
    expect(frozen.stderr).toContain('template pin added: infrastructure-docker "~1.13.0" (clusters[0].templateVersion) is not in the lock');
    expect(frozen.stderr).toContain('template pin removed: no cluster pins infrastructure-docker "v1.12.4" any more');

    const moved = await render(p);
    expect(moved.lockWritten).toBe(true);
    // The class of the new release, and the pin line of the cluster's file: nothing else is rendered differently.
    expect(moved.changes!.changed).toEqual(['clusterclasses/team-a/quick-start/clusterclass.yaml', 'clusters/team-a/old/cluster.yaml']);
    expect(read(p.dir, 'clusters/team-a/old/cluster.yaml')).toContain('# templates: infrastructure-docker v1.13.1 (templateVersion "~1.13.0")\n');
    expect(read(p.dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml')).not.toContain('release: v1.12.4');
    expect(read(p.dir, 'capi.lock.yaml')).toContain('templatePins:\n- label: infrastructure-docker\n  constraint: ~1.13.0\n  version: v1.13.1\n');

    // Unpinned again: the section goes away and the lock is the one a config without pins writes.
    writeFixtureConfig(p.dir, { clusters: `${dev('old', 'team-a')}, ${dev('new', 'team-b')}` }, 'plain');
    await render(p);
    expect(read(p.dir, 'capi.lock.yaml')).not.toContain('templatePins');
  });

  it('one namespace cannot hold two releases\' ClusterClass of one name: the error says what to do', async () => {
    const p = project(`${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}, ${dev('new', 'team-a')}`);
    const err = (await render(p).catch((e: unknown) => e)) as Error & { hint?: string; exitCode?: number };
    expect(err.message).toContain(
      'ClusterClass team-a/quick-start of infrastructure-docker v1.13.1 (cluster team-a/new) differs from the one of infrastructure-docker v1.12.4 (cluster team-a/old): a namespace holds one ClusterClass of a name',
    );
    expect(err.hint).toContain('give both clusters the same templateVersion');
    expect(existsSync(join(p.dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('a range pin keeps its locked release until `lock --upgrade` names the provider', async () => {
    const p = project(dev('old', 'team-a', ", templateVersion: '~1.12.0'"));
    await runCli(['lock'], { cwd: p.dir, env: p.env });
    expect(read(p.dir, 'capi.lock.yaml')).toContain('  constraint: ~1.12.0\n  version: v1.12.4\n');
    cpSync(join(p.dir, 'repo/infrastructure-docker/v1.12.4'), join(p.dir, 'repo/infrastructure-docker/v1.12.5'), { recursive: true });

    const kept = await runCli(['lock'], { cwd: p.dir, env: p.env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('infrastructure-docker v1.13.1 (v1beta2)\ncert-manager v1.19.1\ninfrastructure-docker v1.12.4 templates (templateVersion "~1.12.0")\n');
    expect(read(p.dir, 'capi.lock.yaml')).toContain('  constraint: ~1.12.0\n  version: v1.12.4\n');
    const other = await runCli(['lock', '--upgrade', 'cluster-api'], { cwd: p.dir, env: p.env });
    expect(other.code).toBe(0);
    expect(read(p.dir, 'capi.lock.yaml')).toContain('  constraint: ~1.12.0\n  version: v1.12.4\n');
    const upgraded = await runCli(['lock', '--upgrade', 'docker'], { cwd: p.dir, env: p.env });
    expect(upgraded.code).toBe(0);
    expect(`${upgraded.stdout}${upgraded.stderr}`).toContain('infrastructure-docker template pin "~1.12.0": v1.12.4 → v1.12.5');
    expect(read(p.dir, 'capi.lock.yaml')).toContain('  constraint: ~1.12.0\n  version: v1.12.5\n');
    // Same bytes, another release: the tree cache keys the cluster by the pinned version, so it renders again.
    await render(p);
    expect(read(p.dir, 'clusters/team-a/old/cluster.yaml')).toContain('# templates: infrastructure-docker v1.12.5 (templateVersion "~1.12.0")\n');
    expect((await runCli(['render', '--check', '--frozen'], { cwd: p.dir, env: p.env })).code).toBe(0);
  });

  it('config errors name the path, exit 2 and write nothing', async () => {
    const own = `{ name: 'edge', namespace: 'edge', infrastructure: 'docker', kubernetesVersion: 'v1.33.1', template: 'edge.yaml', templateVersion: 'v1.12.4' }`;
    for (const [cluster, message] of [
      [own, 'clusters[0].templateVersion: cannot be used together with template'],
      [dev('old', 'team-a', ", templateVersion: 'latest'"), 'clusters[0].templateVersion: "latest" is not a version or range; use an exact version (v1.12.4) or a semver range (~1.12.0)'],
      [dev('old', 'team-a', ", templateVersion: '1.x.y'"), 'clusters[0].templateVersion: "1.x.y" is not a version or range'],
    ] as const) {
      const p = project(cluster);
      const extra = cluster;
      const r = await runCli(['render'], { cwd: p.dir, env: p.env });
      expect(r.code, extra).toBe(2);
      expect(r.stderr, extra).toContain(message);
      expect(existsSync(join(p.dir, 'capi.lock.yaml')), extra).toBe(false);
      expect(existsSync(join(p.dir, 'clusters')), extra).toBe(false);
    }
    const none = project(dev('old', 'team-a', ", templateVersion: '~1.11.0'"));
    const r = await runCli(['render'], { cwd: none.dir, env: none.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('infrastructure-docker (clusters[0].templateVersion): no release satisfies "~1.11.0"; available: v1.13.1, v1.12.4');
    expect(existsSync(join(none.dir, 'capi.lock.yaml'))).toBe(false);
  });

  it('a lock without pins is byte-identical after `capiform lock` (the embedded example)', async () => {
    const dir = testdir({});
    for (const f of ['capi.config.ts', 'capi.lock.yaml']) cpSync(join(repoRoot, f), join(dir, f));
    cpSync(join(repoRoot, 'examples/repository'), join(dir, 'examples/repository'), { recursive: true });
    const before = read(dir, 'capi.lock.yaml');
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), PATH: process.env.PATH };
    const result = await lockProject({ config: await loadConfig({ cwd: dir, env }), env });
    expect(result.lockChanged).toBe(false);
    expect(read(dir, 'capi.lock.yaml')).toBe(before);
  });

  it('diff and plan upgrade show a pinned cluster with its release', async () => {
    const p = project(`${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}, ${dev('new', 'team-b')}`);
    // The v1.12.4 development template differs too, so the Cluster itself changes when the pin moves.
    const tpl = join(p.dir, 'repo/infrastructure-docker/v1.12.4/cluster-template-development.yaml');
    writeFileSync(tpl, readFileSync(tpl, 'utf8').replace('  namespace: ${NAMESPACE}\n', '  namespace: ${NAMESPACE}\n  labels:\n    generation: old\n'));
    await render(p);
    expect(read(p.dir, 'clusters/team-a/old/cluster.yaml')).toMatch(/^# generated by capiform[^\n]*\n# templates: infrastructure-docker v1\.12\.4 \(templateVersion "v1\.12\.4"\)\n/);
    expect(read(p.dir, 'clusters/team-b/new/cluster.yaml')).not.toContain('# templates:');

    const plan = await runCli(['plan', 'upgrade'], { cwd: p.dir, env: p.env });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain("Clusters pinned to a provider release's templates (clusters[].templateVersion; an upgrade does not move them):\n");
    expect(plan.stdout).toMatch(/CLUSTER\s+TEMPLATES FROM\s+TEMPLATE VERSION\nteam-a\/old\s+infrastructure-docker v1\.12\.4\s+v1\.12\.4\n/);
    const planJson = JSON.parse((await runCli(['plan', 'upgrade', '--json'], { cwd: p.dir, env: p.env })).stdout) as { pinnedClusters: unknown };
    expect(planJson.pinnedClusters).toEqual([{ cluster: 'team-a/old', label: 'infrastructure-docker', version: 'v1.12.4', constraint: 'v1.12.4' }]);

    const before = testdir({});
    for (const d of ['providers', 'clusters', 'clusterclasses']) cpSync(join(p.dir, d), join(before, d), { recursive: true });
    writeFixtureConfig(p.dir, { clusters: `${dev('old', 'team-a', ", templateVersion: '~1.13.0'")}, ${dev('new', 'team-b')}` }, 'plain');
    await render(p);
    const diff = await runCli(['diff', before, p.dir], { cwd: p.dir, env: p.env });
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toMatch(/\n {2}team-a\/old \(templates v1\.12\.4 → v1\.13\.1\) {2}/);
    const json = JSON.parse((await runCli(['diff', before, p.dir, '--format', 'json'], { cwd: p.dir, env: p.env })).stdout) as { clusters: { cluster: string; templateVersion?: string; previousTemplateVersion?: string }[] };
    expect(json.clusters.find((c) => c.cluster === 'team-a/old')).toMatchObject({ templateVersion: 'v1.13.1', previousTemplateVersion: 'v1.12.4' });
  });

  it('a bundle carries the pinned release\'s templates: the air-gapped site renders the pinned cluster from it', async () => {
    const p = project(`${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}, ${dev('new', 'team-b')}`);
    await render(p);
    const connected = read(p.dir, 'clusterclasses/team-a/quick-start/clusterclass.yaml');
    const b = await runCli(['bundle', '--out', 'dist/site.tar.gz'], { cwd: p.dir, env: p.env });
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    const bundle = join(p.dir, 'dist/site.tar.gz');
    expect((await runCli(['bundle', 'verify', bundle], { cwd: p.dir, env: p.env })).code).toBe(0);

    const site = testdir({ 'capi.config.ts': read(p.dir, 'capi.config.ts'), 'capi.lock.yaml': read(p.dir, 'capi.lock.yaml') });
    rmSync(join(p.dir, 'repo'), { recursive: true });
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), PATH: process.env.PATH };
    const r = await runCli(['render', '--frozen', '--bundle', bundle], { cwd: site, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(read(site, 'clusterclasses/team-a/quick-start/clusterclass.yaml')).toBe(connected);
    expect(read(site, 'capi.lock.yaml')).toBe(read(p.dir, 'capi.lock.yaml'));
  });

  it('a management cluster of a fleet pins a cluster in its own lock section and tree', async () => {
    const dir = testdir({
      'capi.config.mjs': `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.13.0', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: '~1.13.0', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: '~1.13.0', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '~1.13.0', url: './repo' }],
  },
  managementClusters: {
    'eu-west': { clusters: [${dev('old', 'team-a', ", templateVersion: '~1.12.0'")}] },
    'us-east': { clusters: [${dev('old', 'team-a')}] },
  },
};
`,
    });
    fixtureRepository(dir);
    const classFile = join(dir, 'repo/infrastructure-docker/v1.12.4/clusterclass-quick-start.yaml');
    writeFileSync(classFile, readFileSync(classFile, 'utf8').replace('  name: quick-start\n', '  name: quick-start\n  labels:\n    release: v1.12.4\n'));
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), PATH: process.env.PATH };
    const r = await runCli(['render'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(read(dir, 'targets/eu-west/clusterclasses/team-a/quick-start/clusterclass.yaml')).toContain('release: v1.12.4');
    expect(read(dir, 'targets/us-east/clusterclasses/team-a/quick-start/clusterclass.yaml')).not.toContain('release: v1.12.4');
    const lock = read(dir, 'capi.lock.yaml');
    const eu = lock.slice(lock.indexOf('\n  eu-west:\n'), lock.indexOf('\n  us-east:\n'));
    expect(eu).toContain('\n    templatePins:\n    - label: infrastructure-docker\n      constraint: ~1.12.0\n      version: v1.12.4\n');
    expect(lock.slice(lock.indexOf('\n  us-east:\n'))).not.toContain('templatePins');
    const locked = await runCli(['lock', '--json'], { cwd: dir, env });
    expect(JSON.parse(locked.stdout).targets['eu-west'].templatePins).toEqual([{ label: 'infrastructure-docker', constraint: '~1.12.0', version: 'v1.12.4' }]);
    expect((await runCli(['render', '--check', '--frozen'], { cwd: dir, env })).code).toBe(0);
  });

  it("a whole fleet's bundle carries every section's templates (one pins v1.12.4, one uses v1.13.1's); the air-gapped site renders the fleet from it", async () => {
    const config = `export default {
  providers: {
    core: { name: 'cluster-api', version: '~1.13.0', url: './repo' },
    bootstrap: [{ name: 'kubeadm', version: '~1.13.0', url: './repo' }],
    controlPlane: [{ name: 'kubeadm', version: '~1.13.0', url: './repo' }],
    infrastructure: [{ name: 'docker', version: '~1.13.0', url: './repo' }],
  },
  managementClusters: {
    'eu-west': { clusters: [${dev('old', 'team-a', ", templateVersion: 'v1.12.4'")}] },
    'us-east': { clusters: [${dev('old', 'team-a')}] },
  },
};
`;
    const dir = testdir({ 'capi.config.mjs': config });
    fixtureRepository(dir);
    const classFile = join(dir, 'repo/infrastructure-docker/v1.12.4/clusterclass-quick-start.yaml');
    writeFileSync(classFile, readFileSync(classFile, 'utf8').replace('  name: quick-start\n', '  name: quick-start\n  labels:\n    release: v1.12.4\n'));
    const env = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), PATH: process.env.PATH };
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const b = await runCli(['bundle', '--out', 'dist/fleet.tar.gz'], { cwd: dir, env });
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    const bundle = join(dir, 'dist/fleet.tar.gz');
    expect((await runCli(['bundle', 'verify', bundle], { cwd: dir, env })).code).toBe(0);

    const site = testdir({ 'capi.config.mjs': config, 'capi.lock.yaml': read(dir, 'capi.lock.yaml') });
    rmSync(join(dir, 'repo'), { recursive: true });
    const siteEnv = { CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), PATH: process.env.PATH };
    const r = await runCli(['render', '--frozen', '--bundle', bundle], { cwd: site, env: siteEnv });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const target of ['eu-west', 'us-east']) {
      const path = `targets/${target}/clusterclasses/team-a/quick-start/clusterclass.yaml`;
      expect(read(site, path)).toBe(read(dir, path));
    }
    expect(read(site, 'targets/eu-west/clusterclasses/team-a/quick-start/clusterclass.yaml')).toContain('release: v1.12.4');
    expect(read(site, 'capi.lock.yaml')).toBe(read(dir, 'capi.lock.yaml'));
  });

  it('sharded renders of pinned clusters add up to the full render and leave the lock as `capiform lock` wrote it', async () => {
    const clusters = [1, 2, 3, 4, 5, 6].map((i) => (i <= 3 ? dev(`old-${i}`, 'team-a', ", templateVersion: 'v1.12.4'") : dev(`new-${i}`, 'team-b'))).join(', ');
    const full = project(clusters);
    await render(full);
    const sharded = project(clusters);
    expect((await runCli(['lock'], { cwd: sharded.dir, env: sharded.env })).code).toBe(0);
    const lockText = read(sharded.dir, 'capi.lock.yaml');
    for (const shard of ['2/2', '1/2']) {
      const r = await runCli(['render', '--shard', shard, '--frozen'], { cwd: sharded.dir, env: sharded.env });
      expect(r.stderr, shard).toBe('');
      expect(r.code, shard).toBe(0);
      expect(read(sharded.dir, 'capi.lock.yaml'), shard).toBe(lockText);
    }
    expect(lockText).toBe(read(full.dir, 'capi.lock.yaml'));
    for (const path of ['clusterclasses/team-a/quick-start/clusterclass.yaml', ...[1, 2, 3].map((i) => `clusters/team-a/old-${i}/cluster.yaml`), 'clusters/team-b/new-4/cluster.yaml']) {
      expect(read(sharded.dir, path), path).toBe(read(full.dir, path));
    }
  });
});
