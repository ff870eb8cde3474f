/**
 * `capiform diff --render` (and `--bundle`): both sides rendered in memory from their config and lock, so a PR that
 * only changes capi.config.ts (and re-locks) still gets an object diff with its rollout impact. Real git, a local
 * provider repository fixture, no network.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DiffReport } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { git, repoRoot } from './helpers/diff-fixtures.js';
import { fixtureConfig as fixtureConfigWithImport, fixtureRepository, testdir } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

/**
 * The fixture config as a plain object export: every side of a diff loads its config, and under vitest the
 * `capiform` import would make jiti transpile all of src/ for each load (seconds each on a busy machine).
 */
function fixtureConfig(): string {
  return fixtureConfigWithImport().replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({');
}

const freshCache = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'),
  CAPIFORM_DIFF_SALT: 'test-salt',
});

/** The pull request: dev-1 moves to Kubernetes v1.34.0 and gets a third worker. */
const prConfig: string = fixtureConfig().replace(
  "kubernetesVersion: 'v1.33.1', workerMachineCount: 2",
  "kubernetesVersion: 'v1.34.0', workerMachineCount: 3",
);

/**
 * A repository whose HEAD commits the config and the lock (no rendered tree: the PR workflow this option is for),
 * with the PR's config in the working tree and re-locked.
 */
async function prRepository(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = testdir({ 'capi.config.ts': fixtureConfig(), '.gitignore': 'dist/\n' });
  fixtureRepository(dir);
  git(dir, 'init', '-q', '-b', 'main');
  const lock = await runCli(['lock'], { cwd: dir, env });
  expect(lock.stderr).toBe('');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base: config and lock');
  writeFileSync(join(dir, 'capi.config.ts'), prConfig);
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  return dir;
}

function report(stdout: string): DiffReport {
  return JSON.parse(stdout) as DiffReport;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('capiform diff --render', () => {
  it('a PR that only changes capi.config.ts gets an object diff with the rollout impact, and nothing is written', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    const statusBefore = git(dir, 'status', '--porcelain');
    const lockBefore = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');

    const r = await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = report(r.stdout);
    expect(rep.base.label).toBe('HEAD (rendered)');
    expect(rep.head.label).toBe('working tree (rendered)');
    expect(rep.counts).toMatchObject({ added: 0, removed: 0, changed: 1, rotated: 0 });
    const [change] = rep.changes;
    expect(change).toMatchObject({ action: 'changed', kind: 'Cluster', namespace: 'team-a', name: 'dev-1', owner: { type: 'cluster', namespace: 'team-a', name: 'dev-1' } });
    expect(change!.fields.map((f) => [f.path, f.old, f.new])).toEqual([
      ['.spec.topology.version', 'v1.33.1', 'v1.34.0'],
      ['.spec.topology.workers.machineDeployments[name=md-0].replicas', 2, 3],
    ]);
    expect(change!.impacts.map((i) => [i.kind, i.machineDeployment ?? null])).toEqual(
      expect.arrayContaining([
        ['control-plane-rollout', null],
        ['worker-rollout', 'md-0'],
        ['in-place', 'md-0'],
      ]),
    );
    expect(rep.clusters).toEqual([expect.objectContaining({ cluster: 'team-a/dev-1' })]);

    // In memory only: no tree, the lock and the repository untouched.
    for (const d of ['providers', 'clusters', 'clusterclasses']) expect(existsSync(join(dir, d))).toBe(false);
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(lockBefore);
    expect(git(dir, 'status', '--porcelain')).toBe(statusBefore);

    // The text format names the rendered sides; --exit-code reports the change.
    const text = await runCli(['diff', '--render', '--exit-code'], { cwd: dir, env });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('capiform diff: HEAD (rendered) → working tree (rendered)');
  });

  it('renders the same objects as the committed tree: --render and a tree diff agree', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    // Commit the rendered base tree, then render the PR's tree into the working tree.
    git(dir, 'stash', '-q');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'rendered tree');
    git(dir, 'stash', 'pop', '-q');
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const tree = report((await runCli(['diff', '--format', 'json'], { cwd: dir, env })).stdout);
    const rendered = report((await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env })).stdout);
    expect(rendered.changes).toEqual(tree.changes);
    expect(rendered.counts).toEqual(tree.counts);
    expect(rendered.base.files).toBe(tree.base.files);
    // A hand edit of the rendered tree does not leak into --render: the working tree side is what the config renders.
    const edited = join(dir, 'clusters', 'team-b', 'plain', 'cluster.yaml');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('region: eu', 'region: hand-edited'));
    expect(report((await runCli(['diff', '--format', 'json'], { cwd: dir, env })).stdout).counts.changed).toBe(tree.counts.changed + 1);
    const again = report((await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env })).stdout);
    expect(again.changes).toEqual(rendered.changes);
  });

  it('--base names the ref; a base before the capiform config is a clear input error (exit 2)', async () => {
    const env = freshCache();
    const dir = testdir({ 'README.md': 'before capiform\n' });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'no config yet');
    testdir({ 'capi.config.ts': fixtureConfig() }, dir);
    fixtureRepository(dir);
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'config');

    const r = await runCli(['diff', '--render', '--base', 'HEAD~1'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: HEAD~1 (rendered): there is no capiform config (capi.config.ts, .mts, .js, .mjs, .json or .yaml) at HEAD~1:.');
    expect(r.stderr).toContain('fix: compare with a ref that has a config (--base)');

    const same = await runCli(['diff', '--render', '--base', 'main', '--format', 'json'], { cwd: dir, env });
    expect(same.stderr).toBe('');
    expect(report(same.stdout)).toMatchObject({ changed: false, base: { label: 'main (rendered)' } });
  });

  it('a project in a sub-folder of the repository (--root, --config)', async () => {
    const env = freshCache();
    const top = testdir({ 'infra/capi.config.ts': fixtureConfig(), 'README.md': 'platform\n' });
    fixtureRepository(join(top, 'infra'));
    git(top, 'init', '-q', '-b', 'main');
    expect((await runCli(['lock'], { cwd: join(top, 'infra'), env })).code).toBe(0);
    git(top, 'add', '-A');
    git(top, 'commit', '-q', '-m', 'base');
    writeFileSync(join(top, 'infra', 'capi.config.ts'), prConfig);
    expect((await runCli(['lock'], { cwd: join(top, 'infra'), env })).code).toBe(0);
    const byRoot = await runCli(['diff', '--render', '--root', 'infra', '--format', 'json'], { cwd: top, env });
    expect(byRoot.stderr).toBe('');
    expect(report(byRoot.stdout).changes.map((c) => `${c.kind} ${c.namespace}/${c.name}`)).toEqual(['Cluster team-a/dev-1']);
    const byConfig = await runCli(['diff', '--render', '--root', 'infra', '--config', 'infra/capi.config.ts', '--format', 'json'], { cwd: top, env });
    expect(byConfig.stdout).toBe(byRoot.stdout);
  });

  it('an unknown ref is an input error (exit 2) naming the ref', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    const r = await runCli(['diff', '--render', '--base', 'origin/nope'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: unknown git ref "origin/nope": no such branch, tag or commit');
    expect(r.stderr).toContain('fix: fetch it first (git fetch origin nope)');
  });

  it('a lock that no longer satisfies the config is resolved in memory and the review names `capiform lock`', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    const lockBefore = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    // The PR adds a worker but forgets to re-lock after moving core to ~1.12.0.
    writeFileSync(join(dir, 'capi.config.ts'), prConfig.replace("version: '~1.13.0'", "version: '~1.12.0'"));
    const r = await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as DiffReport).stale).toMatchObject({ config: true, fix: 'capiform lock && capiform render' });
    expect(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8')).toBe(lockBefore);
  });

  it('--config outside the repository and a config missing at the ref are input errors', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    const outside = testdir({ 'capi.config.ts': fixtureConfig() });
    const r = await runCli(['diff', '--render', '--config', join(outside, 'capi.config.ts')], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is outside the git repository');

    writeFileSync(join(dir, 'other.config.ts'), prConfig);
    const missing = await runCli(['diff', '--render', '--config', 'other.config.ts'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Error: other.config.ts does not exist at "HEAD", so that side cannot be rendered');
  });
});

describe('capiform diff --bundle', () => {
  it('renders both sides from the bundle with no network and an empty cache: the same report as connected', async () => {
    const env = freshCache();
    const dir = await prRepository(env);
    const connected = await runCli(['diff', '--render', '--format', 'json'], { cwd: dir, env });
    expect(connected.code).toBe(0);
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const b = await runCli(['bundle', '--out', 'dist/site.tar.gz'], { cwd: dir, env });
    expect(b.stderr).toBe('');
    const bundle = join(dir, 'dist', 'site.tar.gz');
    rmSync(join(dir, 'providers'), { recursive: true });
    rmSync(join(dir, 'clusters'), { recursive: true });
    rmSync(join(dir, 'clusterclasses'), { recursive: true, force: true });

    // The air-gapped site: a clone of the config and the lock only, no provider repository, a fresh cache.
    const site = testdir({});
    for (const f of ['capi.config.ts', 'capi.lock.yaml']) writeFileSync(join(site, f), git(dir, 'show', `HEAD:${f}`));
    git(site, 'init', '-q', '-b', 'main');
    git(site, 'add', '-A');
    git(site, 'commit', '-q', '-m', 'base');
    for (const f of ['capi.config.ts', 'capi.lock.yaml']) writeFileSync(join(site, f), readFileSync(join(dir, f)));

    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('network disabled in this test'));
    const siteEnv = { ...freshCache(), GOPROXY: 'off' };
    // --bundle implies --render.
    const r = await runCli(['diff', '--bundle', bundle, '--format', 'json'], { cwd: site, env: siteEnv });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(existsSync(join(site, 'repo'))).toBe(false);
    expect(report(r.stdout)).toEqual(report(connected.stdout));

    // Without the bundle the site cannot render: its config's local repository is not there.
    const without = await runCli(['diff', '--render'], { cwd: site, env: siteEnv });
    expect(without.code).not.toBe(0);
    expect(without.stderr).toContain('HEAD (rendered): ');
  });

  it('a base that pins a release the bundle does not carry fails naming the side', async () => {
    const env = freshCache();
    const dir = testdir({ 'capi.config.ts': fixtureConfig().replace("version: '~1.13.0'", "version: '~1.12.0'"), '.gitignore': 'dist/\n' });
    fixtureRepository(dir);
    git(dir, 'init', '-q', '-b', 'main');
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'core 1.12');
    // The PR bumps core to 1.13; the bundle is built from the PR, so it only carries core v1.13.1.
    writeFileSync(join(dir, 'capi.config.ts'), fixtureConfig());
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    expect((await runCli(['bundle', '--out', 'dist/site.tar.gz'], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(['diff', '--bundle', 'dist/site.tar.gz'], { cwd: dir, env: freshCache() });
    expect(r.stderr).toContain(
      'Error: HEAD (rendered): the bundle does not carry cluster-api v1.12.4 (pinned by capi.lock.yaml; the bundle has cluster-api v1.13.1)',
    );
    expect(r.stderr).toContain('at: HEAD:capi.lock.yaml');
    expect(r.stderr).toContain('fix: a bundle carries the releases of the lock it was built from');
    expect(r.code).toBe(3);
  });

  it('--bundle with two directories is a usage error; a missing bundle is an input error', async () => {
    const a = testdir({});
    const two = await runCli(['diff', '--bundle', 'x.tar.gz', a, a]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--bundle renders both sides from their config and lock; it does not apply to two tree directories');
    const env = freshCache();
    const dir = await prRepository(env);
    const missing = await runCli(['diff', '--bundle', 'nope.tar.gz'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.tar.gz does not exist');
  });
});

describe('ClusterClasses in clusterclasses/', () => {
  it('a change to a shared ClusterClass template under its own name is seen and rejected for every cluster of the class', async () => {
    // The example's committed tree, twice; the PR changes the class's worker machine template.
    const base = tempDir('capiform-base-');
    const head = tempDir('capiform-head-');
    for (const d of ['providers', 'clusters', 'clusterclasses', 'argocd']) {
      cpSync(join(repoRoot, d), join(base, d), { recursive: true });
      cpSync(join(repoRoot, d), join(head, d), { recursive: true });
    }
    const file = join(head, 'clusterclasses', 'team-a', 'quick-start', 'clusterclass.yaml');
    const text = readFileSync(file, 'utf8');
    const worker = 'hostPath: /var/run/docker.sock\n---\napiVersion: bootstrap.cluster.x-k8s.io/v1beta2';
    expect(text).toContain(worker);
    writeFileSync(file, text.replace(worker, worker.replace('hostPath: /var/run/docker.sock', 'hostPath: /run/docker.sock')));

    const r = await runCli(['diff', base, head, '--format', 'json'], { env: freshCache() });
    expect(r.stderr).toBe('');
    const rep = report(r.stdout);
    expect(rep.changes.map((c) => [c.kind, c.name, c.file])).toEqual([
      ['DockerMachineTemplate', 'quick-start-default-worker-machinetemplate', 'clusterclasses/team-a/quick-start/clusterclass.yaml'],
    ]);
    // CAPD's webhook makes DockerMachineTemplate immutable, the class's own too: the edit is refused for every
    // cluster of the class, which is what the review leads with (a renamed template would roll their workers).
    const rejected = rep.changes[0]!.impacts.filter((i) => i.kind === 'rejected').map((i) => i.cluster);
    expect(rejected).toEqual(expect.arrayContaining(['team-a/dev-1', 'team-a/dev-2']));
    expect(rep.changes[0]!.impacts.every((i) => i.kind === 'rejected')).toBe(true);
  });
});
