/**
 * The tree cache follows every input: with a warm cache, `render --check` and `render` give the answer a render from
 * scratch gives, whatever changed since the cache was written — a re-pinned ClusterClass or cluster template, a
 * variable, a branch switch, capiform's version. Each scenario runs in a copy of the embedded example (its config
 * loaded as a plain object, which is fast) with a cache directory of its own, and ends by checking the tree against a
 * render without the cache.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';
import { tempDir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');
const docker = 'examples/repository/infrastructure-docker/v1.12.4';
const classFile = `${docker}/clusterclass-quick-start.yaml`;
const renderedClass = 'clusterclasses/team-a/quick-start/clusterclass.yaml';

/** The embedded example (config, lock, repository and committed tree) in a temporary folder, with its own cache. */
function example(): { dir: string; cache: string } {
  const dir = tempDir('capiform-treecache-');
  for (const p of ['capi.lock.yaml', 'examples/repository', 'providers', 'clusters', 'clusterclasses', 'argocd', '.capiform/owned.json']) {
    cpSync(join(repoRoot, p), join(dir, p), { recursive: true });
  }
  // The same config without the `capiform` import, which would load capiform's sources again on every run.
  const config = readFileSync(join(repoRoot, 'capi.config.ts'), 'utf8');
  expect(config).toContain("import { defineConfig } from 'capiform';");
  writeFileSync(join(dir, 'capi.config.ts'), config.replace("import { defineConfig } from 'capiform';\n", '').replace('export default defineConfig({', 'export default ({'));
  return { dir, cache: tempDir('capiform-treecache-cache-') };
}

function cli(p: { dir: string; cache: string }, ...argv: string[]): Promise<CliResult> {
  return runCli(argv, { cwd: p.dir, env: { PATH: process.env.PATH, HOME: p.cache, CAPIFORM_CACHE_DIR: p.cache } });
}

/** The tree is exactly what config + lock give, decided without the tree cache. */
async function expectTreeRight(p: { dir: string; cache: string }): Promise<void> {
  const r = await runCli(['render', '--check', '--frozen'], { cwd: p.dir, env: { PATH: process.env.PATH, HOME: p.cache, CAPIFORM_CACHE_DIR: p.cache, CAPIFORM_NO_TREE_CACHE: '1' } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** `render --check --frozen` finds exactly `files` out of date, `render` rewrites them, and then all is green. */
async function expectCheckThenRender(p: { dir: string; cache: string }, files: string[]): Promise<void> {
  const check = await cli(p, 'render', '--check', '--frozen');
  expect(check.stderr).toBe(`the rendered tree is out of date:\n${files.map((f) => `  ${f}\n`).join('')}run \`capiform render\` and commit the result\n`);
  expect(check.code).toBe(1);
  const render = await cli(p, 'render');
  expect(render.stderr).toBe('');
  expect(render.stdout).toMatch(new RegExp(`^rendered \\d+ files: 0 added, ${files.length} changed, 0 removed\\n$`));
  expect(render.code).toBe(0);
  const again = await cli(p, 'render', '--check', '--frozen');
  expect(again.stdout).toBe('tree is up to date\n');
  expect(again.code).toBe(0);
  await expectTreeRight(p);
}

function edit(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, file), text.replace(from, to));
}

async function warm(p: { dir: string; cache: string }): Promise<void> {
  const r = await cli(p, 'render');
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/^tree is up to date \(\d+ files\)\n$/);
  expect(readdirSync(join(p.cache, 'trees'))).toHaveLength(1);
}

async function upgradeDocker(p: { dir: string; cache: string }): Promise<void> {
  const r = await cli(p, 'lock', '--upgrade', 'docker');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('wrote capi.lock.yaml');
}

describe('the tree cache follows every input', { timeout: 120_000 }, () => {
  it('an edited ClusterClass re-pinned with lock --upgrade: --check --frozen exits 1 and render rewrites clusterclasses/', async () => {
    const p = example();
    await warm(p);
    edit(p.dir, classFile, '        default: ""', '        default: "registry.example.com/kubeadm"');
    await upgradeDocker(p);
    await expectCheckThenRender(p, [renderedClass]);
    expect(readFileSync(join(p.dir, renderedClass), 'utf8')).toContain('default: "registry.example.com/kubeadm"');
  });

  it('an edited cluster template re-pinned with lock --upgrade: its clusters are out of date, then rewritten', async () => {
    const p = example();
    await warm(p);
    edit(p.dir, `${docker}/cluster-template-development.yaml`, '  namespace: ${NAMESPACE}\nspec:\n', '  namespace: ${NAMESPACE}\n  labels:\n    team: platform\nspec:\n');
    await upgradeDocker(p);
    await expectCheckThenRender(p, ['clusters/team-a/dev-1/cluster.yaml', 'clusters/team-a/dev-2/cluster.yaml']);
    expect(readFileSync(join(p.dir, 'clusters/team-a/dev-1/cluster.yaml'), 'utf8')).toContain('team: platform');
  });

  it('a changed variable that only the ClusterClass uses: the class is out of date, its clusters are not', async () => {
    const p = example();
    // The class takes its default image repository from a variable the cluster templates do not use.
    edit(p.dir, classFile, '        default: ""', '        default: "${CLASS_IMAGE_REPOSITORY:=registry.k8s.io}"');
    await upgradeDocker(p);
    expect((await cli(p, 'render')).code).toBe(0);
    await expectTreeRight(p);
    edit(p.dir, 'capi.config.ts', "EXP_MACHINE_POOL: 'false',", "EXP_MACHINE_POOL: 'false',\n    CLASS_IMAGE_REPOSITORY: 'mirror.example.com/k8s',");
    await expectCheckThenRender(p, [renderedClass]);
    expect(readFileSync(join(p.dir, renderedClass), 'utf8')).toContain('default: "mirror.example.com/k8s"');
    // A changed value in a cluster's own variables reaches that cluster's file only.
    edit(p.dir, 'capi.config.ts', "variables: { POD_CIDR: '[\"10.244.0.0/16\"]' }", "variables: { POD_CIDR: '[\"10.96.0.0/16\"]' }");
    await expectCheckThenRender(p, ['clusters/team-b/prod-1/cluster.yaml']);
  });

  it('switching git branches whose trees differ: --check and render are right on both, with no false "renders differently"', async () => {
    const p = example();
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
        cwd: p.dir,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'main');
    await warm(p);

    // A branch that re-pins an edited ClusterClass and changes one of the two clusters sharing it.
    git('checkout', '-qb', 'feature');
    edit(p.dir, classFile, '        default: ""', '        default: "registry.example.com/kubeadm"');
    await upgradeDocker(p);
    edit(p.dir, 'capi.config.ts', 'workerMachineCount: 2,', 'workerMachineCount: 4,');
    const feature = await cli(p, 'render');
    expect(feature.stderr).toBe('');
    expect(feature.stdout).toMatch(/^rendered \d+ files: 0 added, 2 changed, 0 removed\n$/);
    git('add', '-A');
    git('commit', '-qm', 'feature');

    for (const branch of ['main', 'feature', 'main', 'feature']) {
      git('checkout', '-q', branch);
      const check = await cli(p, 'render', '--check', '--frozen');
      expect({ branch, stderr: check.stderr, code: check.code }).toEqual({ branch, stderr: '', code: 0 });
      const render = await cli(p, 'render');
      expect({ branch, stderr: render.stderr, stdout: render.stdout }).toEqual({ branch, stderr: '', stdout: expect.stringMatching(/^tree is up to date \(\d+ files\)\n$/) as unknown });
      expect(git('status', '--porcelain')).toBe('');
      await expectTreeRight(p);
    }
    expect(readFileSync(join(p.dir, renderedClass), 'utf8')).toContain('registry.example.com/kubeadm');

    // On main, a change to the other cluster: the class comes from main's file, not from the feature branch's render.
    git('checkout', '-q', 'main');
    edit(p.dir, 'capi.config.ts', 'workerMachineCount: 1,', 'workerMachineCount: 3,');
    await expectCheckThenRender(p, ['clusters/team-a/dev-2/cluster.yaml']);
    expect(readFileSync(join(p.dir, renderedClass), 'utf8')).not.toContain('registry.example.com/kubeadm');
  });

  it('a directory from which a duplicate object was dropped is rendered again when the other copy goes away', async () => {
    // Cluster `inline` defines ClusterClass quick-start itself, identical to the one dev-1's flavor includes from
    // clusterclasses/: the tree holds it once, so inline's own file on disk lacks it.
    const dir = fixtureProject(
      {
        clusters: `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.33.1' },
    { name: 'inline', namespace: 'team-a', infrastructure: 'docker', flavor: 'inline', kubernetesVersion: 'v1.33.1' },`,
      },
      'plain',
    );
    for (const v of ['v1.12.4', 'v1.13.1']) {
      const release = join(dir, 'repo', 'infrastructure-docker', v);
      const shipped = readFileSync(join(release, 'clusterclass-quick-start.yaml'), 'utf8');
      writeFileSync(join(release, 'cluster-template-inline.yaml'), `${shipped}---\napiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: \${CLUSTER_NAME}\nspec:\n  topology:\n    classRef:\n      name: quick-start\n    version: \${KUBERNETES_VERSION}\n`);
    }
    const p = { dir, cache: tempDir('capiform-treecache-cache-') };
    expect((await cli(p, 'render')).code).toBe(0);
    expect(readFileSync(join(dir, 'clusters/team-a/inline/cluster.yaml'), 'utf8')).not.toContain('kind: ClusterClass');
    expect((await cli(p, 'render')).stdout).toMatch(/^tree is up to date/);

    // With dev-1 on the plain flavor, inline's file is the only place left for the class.
    edit(dir, 'capi.config.ts', "flavor: 'development', kubernetesVersion: 'v1.33.1' },", "kubernetesVersion: 'v1.33.1', variables: { DOCKER_REGION: 'eu' } },");
    const render = await cli(p, 'render');
    // The lock's files change, so render lints the providers like `lock`: a ClusterClass in a cluster template is a
    // contract finding (reported, not fatal).
    expect(render.stderr).toMatch(/^provider contract: infrastructure-docker v1\.13\.1: 1 error \(repo\.template-name ×1\); [^\n]*\n$/);
    expect(render.code).toBe(0);
    expect(readFileSync(join(dir, 'clusters/team-a/inline/cluster.yaml'), 'utf8')).toContain('kind: ClusterClass');
    expect((await cli(p, 'render', '--check')).code).toBe(0);
    await expectTreeRight(p);
  });

  it('a capiform version bump renders afresh: no directory is reused from the older version, and the tree stays right', async () => {
    // A copy of the compiled CLI whose package.json can be bumped, with the same code.
    const build = tempDir('capiform-version-');
    // The launcher is bin/capiform.js inside the copy.
    cpSync(join(await compiledCli(), '..', '..'), build, { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(build, 'node_modules'), 'junction');
    const p = example();
    const run = (...argv: string[]): { code: number | null; stdout: string; stderr: string } => {
      const r = spawnSync(process.execPath, [join(build, 'bin', 'capiform.js'), ...argv], {
        cwd: p.dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: p.cache, CAPIFORM_CACHE_DIR: p.cache },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    /** The inputs digest each tree directory was last recorded under (the cache's own file). */
    const recorded = (): Map<string, string> => {
      const [file] = readdirSync(join(p.cache, 'trees'));
      const saved = JSON.parse(readFileSync(join(p.cache, 'trees', file!), 'utf8')) as { entries: Record<string, { inputs: string }[]> };
      return new Map(Object.entries(saved.entries).map(([dir, variants]) => [dir, variants[0]!.inputs]));
    };

    expect(run('render')).toEqual({ code: 0, stdout: expect.stringMatching(/^tree is up to date \(\d+ files\)\n$/) as unknown, stderr: '' });
    const before = recorded();
    expect(before.size).toBeGreaterThan(5);

    const pkg = JSON.parse(readFileSync(join(build, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(build, 'package.json'), JSON.stringify({ ...pkg, version: `${pkg.version}-next.1` }));
    expect(run('--version').stdout).toBe(`${pkg.version}-next.1\n`);
    expect(run('render', '--check', '--frozen')).toEqual({ code: 0, stdout: 'tree is up to date\n', stderr: '' });
    expect(run('render')).toEqual({ code: 0, stdout: expect.stringMatching(/^tree is up to date \(\d+ files\)\n$/) as unknown, stderr: '' });
    const after = recorded();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [dir, inputs] of after) expect({ dir, same: inputs === before.get(dir) }).toEqual({ dir, same: false });

    await expectTreeRight(p);
  });
});
