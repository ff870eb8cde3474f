/**
 * The workflows `capiform init` writes, read as GitHub reads them: on the repository's own default branch, one run
 * per ref, least privilege, every file the check reads in `paths:`, and capiform's action pinned to this version with
 * inputs it has. With `actionlint` on the PATH, it checks them too.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYamlValue as parse } from '../src/yaml/index.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/testdir.js';

const repoRoot = resolve(import.meta.dirname, '..');
const exampleRepository = join(repoRoot, 'examples', 'repository');
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a workflow is free-form YAML
type Yaml = Record<string, any>;

const action = parse(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as Yaml;

/** git with a HOME of its own: the tester's ~/.gitconfig (init.defaultBranch) must not decide the branch. */
function gitEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
}

function git(dir: string, home: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd: dir, env: gitEnv(home), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

async function init(dir: string, home: string, repository = exampleRepository): Promise<{ stdout: string; ci: Yaml; relock: Yaml; text: string }> {
  const r = await runCli(['init', '--repository', repository, '-i', 'docker'], { cwd: dir, env: gitEnv(home) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const text = readFileSync(join(dir, '.github/workflows/capiform.yml'), 'utf8');
  return { stdout: r.stdout, text, ci: parse(text) as Yaml, relock: parse(readFileSync(join(dir, '.github/workflows/capiform-relock.yml'), 'utf8')) as Yaml };
}

/** Every `uses:` is pinned to a release; capiform's is this version, with inputs action.yml declares. */
function checkSteps(steps: Yaml[]): Yaml {
  for (const s of steps) if (s.uses !== undefined) expect(s.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+(\.\d+\.\d+)?$/);
  const capiform = steps.find((s) => typeof s.uses === 'string' && s.uses.startsWith('capiform/capiform@'));
  expect(capiform?.uses).toBe(`capiform/capiform@v${version}`);
  for (const input of Object.keys(capiform?.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
  // The action runs the capiform the project installed: npm ci comes first.
  expect(steps.findIndex((s) => s.run === 'npm ci')).toBeLessThan(steps.indexOf(capiform!));
  return capiform!;
}

describe('the workflows init writes', () => {
  it("check the default branch origin names, one run per ref, with least privilege, on every file the tree and config use", async () => {
    const home = tempDir();
    const origin = tempDir();
    git(origin, home, 'init', '--quiet', '--bare', '--initial-branch=trunk');
    const dir = tempDir();
    git(dir, home, 'init', '--quiet', '--initial-branch=work');
    git(dir, home, 'remote', 'add', 'origin', origin);
    git(dir, home, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    // The provider releases live in the repository: a change to them must run the check too.
    cpSync(exampleRepository, join(dir, 'vendor', 'providers'), { recursive: true });
    const { stdout, ci, relock } = await init(dir, home, join(dir, 'vendor', 'providers'));
    expect(stdout).toContain("  the workflow checks pushes to trunk (origin's default branch) and every pull request\n");

    expect(ci.on.push.branches).toEqual(['trunk']);
    for (const paths of [ci.on.push.paths, ci.on.pull_request.paths] as string[][]) {
      for (const p of ['capi.config.*', 'capi.lock.yaml', 'providers/**', 'clusters/**', 'clusterclasses/**', 'targets/**', 'argocd/**', 'package-lock.json', '.github/workflows/capiform.yml', 'vendor/providers/**']) {
        expect(paths).toContain(p);
      }
    }
    expect(ci.concurrency).toEqual({ group: 'capiform-${{ github.ref }}', 'cancel-in-progress': "${{ github.event_name == 'pull_request' }}" });
    expect(ci.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(ci.jobs)).toEqual(['check']);
    expect(ci.jobs.check.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const steps = ci.jobs.check.steps as Yaml[];
    expect(steps[0]).toEqual({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
    // No inputs: the action's defaults check (render --check --frozen), validate, review and comment, in that order,
    // and the review runs when the check fails.
    expect(checkSteps(steps).with).toBeUndefined();
    for (const input of ['check', 'validate', 'review', 'comment']) expect(action.inputs[input].default).toBe('true');

    expect(relock.on).toEqual({ push: { branches: ['renovate/**'], paths: ['capi.config.*', 'package.json', 'package-lock.json'] } });
    expect(relock.permissions).toEqual({ contents: 'read' });
    expect(relock.jobs.relock.permissions).toEqual({ contents: 'write' });
    expect(relock.concurrency['cancel-in-progress']).toBe(false);
    expect(checkSteps(relock.jobs.relock.steps as Yaml[]).with).toEqual({ mode: 'relock' });

    const actionlint = spawnSync('actionlint', ['-version']);
    if (actionlint.status === 0) {
      const lint = spawnSync('actionlint', ['.github/workflows/capiform.yml', '.github/workflows/capiform-relock.yml'], { cwd: dir, encoding: 'utf8' });
      expect(lint.stdout + lint.stderr).toBe('');
      expect(lint.status).toBe(0);
    }
  });

  it('restore capiform\'s cache keyed by the lock and the installed capiform, on Node 22; the action itself runs on node24', async () => {
    const home = tempDir();
    const dir = tempDir();
    git(dir, home, 'init', '--quiet', '--initial-branch=main');
    const { ci, relock } = await init(dir, home);
    for (const steps of [ci.jobs.check.steps, relock.jobs.relock.steps] as Yaml[][]) {
      const node = steps.find((s) => s.uses === 'actions/setup-node@v4');
      expect(node?.with).toEqual({ 'node-version': 22, cache: 'npm' });
      const cache = steps.find((s) => s.uses === 'actions/cache@v4');
      // No restore-keys: a new lock starts a new entry rather than carrying every old release along.
      expect(cache?.with).toEqual({ path: '~/.cache/capiform', key: "capiform-${{ runner.os }}-${{ hashFiles('capi.lock.yaml', 'package-lock.json') }}" });
      // Restored before capiform runs.
      expect(steps.indexOf(cache!)).toBeLessThan(steps.findIndex((s) => typeof s.uses === 'string' && s.uses.startsWith('capiform/capiform@')));
    }
    // Node 20 reads NODE_EXTRA_CA_CERTS at every start (docs/ci.md): the action runs on GitHub's node24 runtime.
    expect(action.runs.using).toBe('node24');
  });

  it("takes git's init.defaultBranch, then the current branch, and says when it fell back to main", async () => {
    const home = tempDir();
    writeFileSync(join(home, '.gitconfig'), '[init]\n\tdefaultBranch = develop\n');
    const configured = tempDir();
    const a = await init(configured, home);
    expect(a.ci.on.push.branches).toEqual(['develop']);
    expect(a.stdout).toContain("pushes to develop (git's init.defaultBranch)");

    const bare = tempDir();
    const current = tempDir();
    git(current, bare, 'init', '--quiet', '--initial-branch=release-1');
    const b = await init(current, bare);
    expect(b.ci.on.push.branches).toEqual(['release-1']);
    expect(b.stdout).toContain('pushes to release-1 (the current branch)');

    const none = tempDir();
    mkdirSync(join(none, 'project'));
    const c = await init(join(none, 'project'), bare);
    expect(c.ci.on.push.branches).toEqual(['main']);
    expect(c.stdout).toContain('  the workflow checks pushes to main (no git repository says which branch is the default: edit `branches:` in the workflow if yours is another) and every pull request\n');
  });
});

describe('the fork workflows of docs/github-action.md', () => {
  const read = (name: string) => parse(readFileSync(join(repoRoot, 'docs', 'workflows', name), 'utf8')) as Yaml;

  it('review with a read-only token and upload the review; post it from workflow_run with the default branch\'s code', () => {
    const review = read('capiform-fork-review.yml');
    expect(Object.keys(review.on)).toEqual(['pull_request']);
    expect(review.permissions).toEqual({ contents: 'read' });
    const rsteps = review.jobs.check.steps as Yaml[];
    expect(checkSteps(rsteps).with).toEqual({ comment: false });
    const upload = rsteps.find((s) => s.uses === 'actions/upload-artifact@v4');
    expect(upload?.with.path).toContain('capiform-review.json');

    const comment = read('capiform-fork-comment.yml');
    expect(comment.on).toEqual({ workflow_run: { workflows: [review.name], types: ['completed'] } });
    expect(comment.jobs.comment.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
    const csteps = comment.jobs.comment.steps as Yaml[];
    // The default branch, never the fork's head.
    expect(csteps[0]).toEqual({ uses: 'actions/checkout@v4' });
    expect(csteps.find((s) => s.uses === 'actions/download-artifact@v4')?.with['run-id']).toBe('${{ github.event.workflow_run.id }}');
    expect(checkSteps(csteps).with.mode).toBe('comment');
  });
});
