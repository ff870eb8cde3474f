/**
 * `render --target NAME`: one management cluster of a fleet is rendered or checked on its own — its `targets/<name>/`
 * folder and its lock section — and the others' folders, lock sections, owned entries and tree caches stay as they
 * are. The fixture is test/fixtures/fleet/capi.config.mjs (`eu-west` and `us-east`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureProject, fleetFixtureConfig, fleetProject, testdir } from './helpers/pipeline-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { parseLockFile, type FleetLock } from '../src/lock/index.js';
import { shardOfPath } from '../src/render/index.js';

const fleetConfig = fleetFixtureConfig;

const read = (dir: string, p: string): string => readFileSync(join(dir, p), 'utf8');

/** Paths whose contents differ between two snapshots (added, changed or removed). */
function changedPaths(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]).sort();
}

/** One section of the fleet lock on disk, as its own text. */
function section(dir: string, target: string): string {
  const lock = parseLockFile(read(dir, 'capi.lock.yaml'), 'capi.lock.yaml') as FleetLock;
  return JSON.stringify(lock.targets.get(target));
}

/** Both management clusters' clusters read the shared variable: changing it changes both folders. */
const regionChanged = (config: string): string => config.replace("variables: { DOCKER_REGION: 'shared' }", "variables: { DOCKER_REGION: 'shared-2' }").replace("variables: { DOCKER_REGION: 'us' }", "variables: { DOCKER_REGION: 'us-2' }");

describe('render --target', { timeout: 240_000 }, () => {
  it('renders and checks one management cluster; the other keeps its folder, lock section and owned entries', async () => {
    const dir = fleetProject();
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    const owned = JSON.parse(read(dir, '.capiform/owned.json')) as { files: string[] };

    // A change reaching both management clusters, and one to eu-west's lock section (docker moves to 1.13).
    const next = regionChanged(fleetConfig).replace(
      "  managementClusters: {\n    'eu-west': {\n",
      "  managementClusters: {\n    'eu-west': {\n      providers: { infrastructure: [{ name: 'docker', version: '~1.13.0' }] },\n",
    );
    expect(next).toContain("'eu-west': {\n      providers:");
    testdir({ 'capi.config.mjs': next }, dir);
    const euSection = section(dir, 'eu-west');
    const usSection = section(dir, 'us-east');

    const checkUs = await runCli(['render', '--check', '--target', 'us-east'], { cwd: dir });
    expect(checkUs.code).toBe(1);
    expect(checkUs.stderr).toContain('targets/us-east/clusters/team-b/plain/cluster.yaml');
    expect(checkUs.stderr).not.toContain('eu-west');
    expect(checkUs.stderr).not.toContain('capi.lock.yaml');

    const before = snapshotDir(dir);
    const us = await runCli(['--json', 'render', '--target', 'us-east'], { cwd: dir });
    expect(us.stderr).toBe('');
    expect(us.code).toBe(0);
    const report = JSON.parse(us.stdout) as { target: string; changed: string[]; lock: { changed: boolean } };
    expect(report.target).toBe('us-east');
    expect(report.changed).toContain('targets/us-east/clusters/team-b/plain/cluster.yaml');
    expect(report.lock.changed).toBe(false);
    const written = changedPaths(before, snapshotDir(dir)).filter((p) => !p.startsWith('.capiform/'));
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((p) => p.startsWith('targets/us-east/')), written.join(', ')).toBe(true);
    expect(section(dir, 'eu-west')).toBe(euSection);
    expect(section(dir, 'us-east')).toBe(usSection);
    expect(read(dir, 'targets/us-east/clusters/team-b/plain/cluster.yaml')).toContain('region: us-2');
    expect(read(dir, 'targets/eu-west/clusters/team-b/plain/cluster.yaml')).toContain('region: shared\n');
    // eu-west's files are still owned, so a later render of it replaces them instead of leaving strays.
    const ownedAfter = JSON.parse(read(dir, '.capiform/owned.json')) as { files: string[] };
    expect(ownedAfter.files.filter((f) => f.startsWith('targets/eu-west/'))).toEqual(owned.files.filter((f) => f.startsWith('targets/eu-west/')));

    expect(await runCli(['render', '--check', '--frozen', '--target', 'us-east'], { cwd: dir })).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });
    // eu-west's section no longer matches the config: frozen refuses it, and the whole fleet is out of date.
    const frozenEu = await runCli(['render', '--check', '--frozen', '--target', 'eu-west'], { cwd: dir });
    expect(frozenEu.code).toBe(2);
    expect(frozenEu.stderr).toContain('capi.lock.yaml is out of date');
    const all = await runCli(['render', '--check'], { cwd: dir });
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('capi.lock.yaml');
    expect(all.stderr).toContain('targets/eu-west/');

    // Rendering eu-west then brings the whole fleet up to date, us-east's section untouched.
    expect((await runCli(['render', '--target', 'eu-west'], { cwd: dir })).code).toBe(0);
    expect(section(dir, 'us-east')).toBe(usSection);
    expect(section(dir, 'eu-west')).not.toBe(euSection);
    expect(read(dir, 'targets/eu-west/providers/infrastructure-docker/kustomization.yaml')).toBeDefined();
    expect(await runCli(['render', '--check', '--frozen'], { cwd: dir })).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });
  });

  it('a first render of one management cluster writes its lock section alone; the next adds the other', async () => {
    const dir = fleetProject();
    expect((await runCli(['render', '--target', 'eu-west'], { cwd: dir })).code).toBe(0);
    const lock = parseLockFile(read(dir, 'capi.lock.yaml'), 'capi.lock.yaml') as FleetLock;
    expect([...lock.targets.keys()]).toEqual(['eu-west']);
    expect(Object.keys(snapshotDir(dir)).some((p) => p.startsWith('targets/us-east'))).toBe(false);
    // The whole fleet is not rendered yet, and the lock lacks us-east: a frozen check names the missing section.
    const frozen = await runCli(['render', '--check', '--frozen'], { cwd: dir });
    expect(frozen.code).toBe(2);
    expect(frozen.stderr).toContain('no section for management cluster "us-east"');

    const full = fleetProject();
    expect((await runCli(['render'], { cwd: full })).code).toBe(0);
    expect((await runCli(['render', '--target', 'us-east'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'capi.lock.yaml')).toBe(read(full, 'capi.lock.yaml'));
    expect(await runCli(['render', '--check', '--frozen'], { cwd: dir })).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });
  });

  it('with --shard: only that management cluster’s paths of the shard', async () => {
    const dir = fleetProject(regionChanged(fleetConfig));
    expect((await runCli(['lock'], { cwd: dir })).code).toBe(0);
    for (let i = 1; i <= 2; i++) {
      const before = snapshotDir(dir);
      const r = await runCli(['render', '--frozen', '--target', 'us-east', '--shard', `${i}/2`], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const written = changedPaths(before, snapshotDir(dir)).filter((p) => !p.startsWith('.capiform/') && !before[p]?.startsWith('dir') && !snapshotDir(dir)[p]?.startsWith('dir'));
      expect(written.every((p) => p.startsWith('targets/us-east/') && shardOfPath(p, 2) === i), written.join(', ')).toBe(true);
      expect(await runCli(['render', '--check', '--frozen', '--target', 'us-east', '--shard', `${i}/2`], { cwd: dir })).toMatchObject({ code: 0, stdout: 'tree is up to date\n' });
    }
    // us-east is complete after both shards; eu-west was never rendered.
    expect(await runCli(['render', '--check', '--frozen', '--target', 'us-east'], { cwd: dir })).toMatchObject({ code: 0 });
    expect(Object.keys(snapshotDir(dir)).some((p) => p.startsWith('targets/eu-west'))).toBe(false);
    expect((await runCli(['render', '--check', '--frozen', '--target', 'eu-west'], { cwd: dir })).code).toBe(1);
  });

  it('an unknown name is a usage error listing the names, and writes nothing; the single form has no targets', async () => {
    const dir = fleetProject();
    const before = snapshotDir(dir);
    for (const args of [['render'], ['render', '--check'], ['render', '--shard', '1/2']]) {
      const r = await runCli([...args, '--target', 'ap-south'], { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('--target ap-south: no such management cluster in the config');
      expect(r.stderr).toContain('use one of: eu-west, us-east');
    }
    expect(snapshotDir(dir)).toEqual(before);

    const single = fixtureProject({}, 'plain');
    const singleBefore = snapshotDir(single);
    const r = await runCli(['render', '--target', 'eu-west'], { cwd: single });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--target eu-west: the config has one management cluster (no managementClusters)');
    expect(snapshotDir(single)).toEqual(singleBefore);
  });

  it('diff --target compares one management cluster’s files', async () => {
    const dir = fleetProject();
    expect((await runCli(['render'], { cwd: dir })).code).toBe(0);
    const base = testdir({});
    const changed = fleetProject(regionChanged(fleetConfig));
    expect((await runCli(['render'], { cwd: changed })).code).toBe(0);
    const all = JSON.parse((await runCli(['diff', dir, changed, '--json'], { cwd: base })).stdout) as { changes: { target?: string }[] };
    expect(new Set(all.changes.map((c) => c.target))).toEqual(new Set(['eu-west', 'us-east']));
    const one = await runCli(['diff', dir, changed, '--json', '--target', 'eu-west'], { cwd: base });
    expect(one.code).toBe(0);
    const report = JSON.parse(one.stdout) as { changes: { target?: string; file: string }[] };
    expect(report.changes.length).toBeGreaterThan(0);
    expect(report.changes.every((c) => c.target === 'eu-west' && c.file.startsWith('targets/eu-west/'))).toBe(true);
    const unknown = await runCli(['diff', dir, changed, '--target', 'ap-south'], { cwd: base });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('use one of: eu-west, us-east');
  });
});
