/**
 * The GitHub Action (action.yml → action/main.js) end to end: a project made by `capiform init` in a real git
 * repository, the environment GitHub's runner sets, and a loopback GitHub serving the issue-comment API.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentBody, commentLimit, commentMarker } from '../src/action/index.js';
import { runCli } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { loopbackGitHub, type LoopbackGitHub } from './helpers/loopback-github.js';
import { tempDir } from './helpers/testdir.js';

const repoRoot = join(import.meta.dirname, '..');
const exampleRepository = join(repoRoot, 'examples', 'repository');
const token = 'ghs_loopbackTokenThatMustNeverBePrinted0123';

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: gitEnv(dir) });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function gitEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.com', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.com' };
}

const cliEnv = (dir: string) => ({ PATH: process.env.PATH, HOME: dir, CAPIFORM_CACHE_DIR: join(dir, '.cache-home') });

let packageRoot = '';

/** `capiform init` + lock + render, committed on main, with the package installed as `npm ci` would (node_modules/capiform). */
async function initProject(): Promise<string> {
  // One folder down, as the clones below are: the config names the example repository by a relative path.
  const dir = join(tempDir('capiform-action-'), 'p');
  mkdirSync(dir);
  const init = await runCli(['init', '--repository', exampleRepository, '--core', 'cluster-api:v1.12.4', '-i', 'docker:v1.12.4', '--cert-manager', 'v1.18.2'], { cwd: dir, env: cliEnv(dir) });
  expect(init.code, init.stderr).toBe(0);
  expect((await runCli(['lock'], { cwd: dir, env: cliEnv(dir) })).code).toBe(0);
  const render = await runCli(['render'], { cwd: dir, env: cliEnv(dir) });
  expect(render.code, render.stderr).toBe(0);
  git(dir, 'init', '--quiet', '--initial-branch=main');
  installPackage(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'capiform init');
  git(dir, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  return dir;
}

/** What `npm ci` leaves: capiform under node_modules/ (a link to the build of these sources), which git ignores. */
function installPackage(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(packageRoot, join(dir, 'node_modules', 'capiform'));
  // init's .gitignore says `node_modules/`, which a symlink does not match; a real install is a folder.
  if (existsSync(join(dir, '.git'))) writeFileSync(join(dir, '.git', 'info', 'exclude'), 'node_modules\n');
}

/** The edit Renovate makes: one version range in capi.config.ts, nothing else. */
function bumpCore(dir: string): void {
  const file = join(dir, 'capi.config.ts');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain("core: { name: 'cluster-api', version: '~1.12.4'");
  writeFileSync(file, text.replace("core: { name: 'cluster-api', version: '~1.12.4'", "core: { name: 'cluster-api', version: '~1.13.1'"));
}

interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(file)) return out;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(\S+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    while (lines[++i] !== m[2]) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

/** Runs action/main.js as the runner runs a node action: INPUT_* from `with:`, the event payload in a file. */
async function runAction(dir: string, gh: LoopbackGitHub | undefined, inputs: Record<string, string>, event: { name: string; payload: unknown; actor?: string; refName?: string }): Promise<ActionRun> {
  const runner = tempDir('capiform-runner-');
  const eventPath = join(runner, 'event.json');
  writeFileSync(eventPath, JSON.stringify(event.payload));
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(runner),
    ...cliEnv(dir),
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
    GITHUB_REPOSITORY: 'acme/fleet',
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_ACTOR: event.actor ?? 'dev',
    GITHUB_REF_NAME: event.refName ?? 'main',
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_STEP_SUMMARY: join(runner, 'summary.md'),
    GITHUB_OUTPUT: join(runner, 'output.txt'),
    RUNNER_TEMP: join(runner, 'tmp'),
    ...(gh ? { GITHUB_API_URL: gh.url } : {}),
    'INPUT_GITHUB-TOKEN': token,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const child = spawn(process.execPath, [join(repoRoot, 'action', 'main.js')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const summaryFile = join(runner, 'summary.md');
  return { code, stdout, stderr, summary: existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '', outputs: readOutputs(join(runner, 'output.txt')) };
}

const prEvent = (number: number, fork = false) => ({
  name: 'pull_request',
  payload: {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      base: { ref: 'main', repo: { full_name: 'acme/fleet' } },
      head: { ref: 'renovate/cluster-api-1.x', repo: { full_name: fork ? 'someone/fleet' : 'acme/fleet' } },
    },
  },
});

function expectNoToken(r: ActionRun): void {
  expect(r.stdout.replace(`::add-mask::${token}`, '')).not.toContain(token);
  expect(r.stderr).not.toContain(token);
  expect(r.summary).not.toContain(token);
}

let gh: LoopbackGitHub;
beforeAll(async () => {
  packageRoot = dirname(dirname(await compiledCli()));
  gh = await loopbackGitHub();
}, 300_000);
afterAll(async () => {
  await gh.close();
});

describe('the review: check, then review, then one sticky comment', () => {
  it('posts the review once, edits the same comment on the next run, and writes the job summary', async () => {
    const dir = await initProject();
    // A PR that upgrades the core provider, re-locked and re-rendered.
    git(dir, 'checkout', '--quiet', '-b', 'renovate/cluster-api-1.x');
    bumpCore(dir);
    expect((await runCli(['lock'], { cwd: dir, env: cliEnv(dir) })).code).toBe(0);
    expect((await runCli(['render'], { cwd: dir, env: cliEnv(dir) })).code).toBe(0);
    git(dir, 'commit', '--quiet', '-am', 'Update cluster-api to v1.13.1');
    // Another bot's comment and a few people's, over several pages, before ours.
    gh.comments.set(7, Array.from({ length: 130 }, (_, i) => ({ id: i + 1, body: `comment ${i}`, user: { login: 'someone', type: 'User' } })));

    const first = await runAction(dir, gh, {}, prEvent(7));
    expect(first.stdout).toContain('created the review comment https://github.example/o/r/pull/7#issuecomment-');
    expect(first.code).toBe(0);
    expect(first.outputs.check).toBe('passed');
    const ours = gh.comments.get(7)!.filter((c) => c.body.startsWith(commentMarker));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain('cluster-api');
    expect(ours[0]!.body).toContain('v1.12.4 → v1.13.1');
    expect(first.summary).toContain('v1.12.4 → v1.13.1');
    expect(first.outputs['comment-id']).toBe(String(ours[0]!.id));
    // The listing followed the Link headers past the first page of 100.
    expect(gh.requests.some((r) => r.method === 'GET' && r.path.includes('page=2'))).toBe(true);
    // Plain http (a loopback server): the token is not sent.
    expect(gh.requests.every((r) => r.authorization === undefined)).toBe(true);
    expectNoToken(first);

    const second = await runAction(dir, gh, {}, prEvent(7));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`updated the review comment https://github.example/o/r/pull/7#issuecomment-${ours[0]!.id}`);
    expect(gh.comments.get(7)!.filter((c) => c.body.startsWith(commentMarker))).toHaveLength(1);
    expect(gh.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expectNoToken(second);
  }, 300_000);

  it('a config-only change fails the check, still gets its review with the fixing command, and fails the step at the end', async () => {
    const dir = await initProject();
    git(dir, 'checkout', '--quiet', '-b', 'renovate/cluster-api-1.x');
    bumpCore(dir);
    git(dir, 'commit', '--quiet', '-am', 'Update cluster-api to ~1.13.1');
    const r = await runAction(dir, gh, {}, prEvent(8));
    expect(r.code).toBe(2);
    expect(r.outputs.check).toBe('failed');
    expect(r.stdout).toContain('::error title=capiform check::capiform render --check --frozen exited 2');
    const body = gh.comments.get(8)![0]!.body;
    expect(body.startsWith(`${commentMarker}\n#### ❌ The committed tree is not what the config renders`)).toBe(true);
    expect(body).toContain('Fix: `npx capiform lock && npx capiform render`');
    expect(body).toContain('### capiform diff:');
    // The review is of what `lock && render` will produce: the upgrade, never "no changes".
    expect(body).toContain('v1.12.4 → v1.13.1');
    expect(body).not.toContain('**no changes**');
    expectNoToken(r);
  }, 300_000);

  it("cuts a body over GitHub's limit at a line, closes an open fence, and links the job summary, which keeps all of it", () => {
    const review = `${commentMarker}\n### capiform diff: a → b\n\n\`\`\`yaml\n${'key: value\n'.repeat(8000)}\`\`\`\n`;
    const { body, cut } = commentBody(review, [], 'https://github.example/acme/fleet/actions/runs/4242');
    expect(cut).toBe(true);
    expect(body.length).toBeLessThanOrEqual(commentLimit);
    expect(body.startsWith(`${commentMarker}\n### capiform diff: a → b`)).toBe(true);
    expect(body).toContain("key: value\n```\n\n> ✂️ The review is cut here: it is longer than GitHub's 65,536-character comment limit. All of it is in [the job summary](https://github.example/acme/fleet/actions/runs/4242).\n");
    expect(commentBody(review.slice(0, 1000), [], undefined).cut).toBe(false);
  });

  it('a fork\'s read-only token: the 403 is a warning naming the workflow_run pattern, and the step keeps the check\'s result', async () => {
    const dir = await initProject();
    gh.readOnly = true;
    try {
      const r = await runAction(dir, gh, {}, prEvent(10, true));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('::warning title=capiform comment::cannot comment on #10 in acme/fleet: 403 Resource not accessible by integration');
      expect(r.stdout).toContain('workflow_run');
      expect(r.summary).toContain(commentMarker);
      expect(gh.comments.get(10)).toBeUndefined();
      expectNoToken(r);

      // The same 403 on a branch of the repository itself is a missing permission: an error, exit 2.
      const own = await runAction(dir, gh, {}, prEvent(11));
      expect(own.code).toBe(2);
      expect(own.stdout).toContain("::error title=capiform comment::cannot comment on #11 in acme/fleet: 403 Resource not accessible by integration: the job's token may not comment on this pull request");
      expect(own.stdout).toContain('pull-requests: write');
      expectNoToken(own);
    } finally {
      gh.readOnly = false;
    }
  }, 300_000);

  it('mode: comment posts the review file of a fork\'s run from the workflow_run job, and refuses what capiform did not write', async () => {
    const dir = tempDir('capiform-action-comment-');
    installPackage(dir);
    const head = 'a'.repeat(40);
    gh.pulls.set(12, { headSha: head });
    gh.pulls.set(13, { headSha: 'b'.repeat(40) });
    // What the review job of the fork's PR uploaded: the review, and its PR number beside it.
    const upload = (number: unknown, review = `${commentMarker}\n### capiform diff: main → head\n\n**no changes**\n`) => {
      writeFileSync(join(dir, 'capiform-review.md'), review);
      writeFileSync(join(dir, 'capiform-review.json'), JSON.stringify({ pullRequest: number }));
    };
    const workflowRun = { name: 'workflow_run', payload: { action: 'completed', workflow_run: { head_sha: head, event: 'pull_request' } } };
    upload(12);
    const ok = await runAction(dir, gh, { mode: 'comment' }, workflowRun);
    expect(ok.stdout).toContain('created the review comment');
    expect(ok.code).toBe(0);
    expect(gh.comments.get(12)![0]!.body).toContain('**no changes**');
    expectNoToken(ok);

    // A forged number: the PR it names is not the one the run built.
    upload(13);
    const forged = await runAction(dir, gh, { mode: 'comment' }, workflowRun);
    expect(forged.code).toBe(2);
    expect(forged.stdout).toContain('pull request #13 is at bbbbbbbbbbbb, not at aaaaaaaaaaaa, the commit the reviewed run built: the review is not posted');
    for (const [number, review, message] of [
      [12, 'hello', 'does not start with <!-- capiform-diff -->: not a review capiform wrote'],
      ['12\nnumber=13', undefined, 'pull-request is ""12\\nnumber=13"", not a pull request number'],
      [-1, undefined, 'not a pull request number'],
    ] as const) {
      upload(number, review);
      const bad = await runAction(dir, gh, { mode: 'comment' }, workflowRun);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toContain(message);
    }
    expect(gh.comments.get(12)).toHaveLength(1);
    expect(gh.comments.get(13)).toBeUndefined();
  }, 300_000);
});

describe('mode: relock, for bot branches', () => {
  it("re-locks a Renovate branch whose commit edits only the config, commits lock and tree back, and the branch is green", async () => {
    const work = await initProject();
    const origin = tempDir('capiform-origin-');
    git(origin, 'init', '--quiet', '--bare', '--initial-branch=main');
    git(work, 'remote', 'add', 'origin', origin);
    git(work, 'push', '--quiet', 'origin', 'main');
    // Renovate's commit: one version range in the config, pushed to its branch.
    const renovate = tempDir('capiform-renovate-');
    git(renovate, 'clone', '--quiet', origin, 'r');
    const bot = join(renovate, 'r');
    git(bot, 'checkout', '--quiet', '-b', 'renovate/cluster-api-1.x');
    bumpCore(bot);
    git(bot, 'commit', '--quiet', '-am', 'Update cluster-api to ~1.13.1');
    git(bot, 'push', '--quiet', 'origin', 'renovate/cluster-api-1.x');
    const before = git(origin, 'rev-parse', 'renovate/cluster-api-1.x').trim();

    // The job: a checkout of the branch, as actions/checkout leaves it.
    const jobs = tempDir('capiform-job-');
    git(jobs, 'clone', '--quiet', '--branch', 'renovate/cluster-api-1.x', origin, 'w');
    const job = join(jobs, 'w');
    installPackage(job);
    const push = { name: 'push', payload: {}, actor: 'renovate[bot]', refName: 'renovate/cluster-api-1.x' };
    const r = await runAction(job, undefined, { mode: 'relock' }, push);
    expect(r.stdout).toContain('committed ');
    expect(r.code).toBe(0);
    expect(r.outputs.committed).toBe('true');
    expectNoToken(r);

    const head = git(origin, 'rev-parse', 'renovate/cluster-api-1.x').trim();
    expect(git(origin, 'rev-parse', `${head}^`).trim()).toBe(before);
    expect(git(origin, 'log', '-1', '--format=%an <%ae>%n%s', head)).toBe('capiform[bot] <capiform[bot]@users.noreply.github.com>\ncapiform: re-lock cluster-api v1.12.4 → v1.13.1 and render\n');
    const changed = git(origin, 'diff', '--name-only', before, head).split('\n');
    expect(changed).toContain('capi.lock.yaml');
    expect(changed.some((f) => f.startsWith('providers/cluster-api/'))).toBe(true);
    // Only the edited entry moved: the others keep their pins (their ranges still hold them).
    const lockDiff = git(origin, 'diff', before, head, '--', 'capi.lock.yaml');
    expect(lockDiff).toContain('+  version: v1.13.1');
    expect(lockDiff.match(/^-  version: /gm)).toHaveLength(1);
    expect(changed.some((f) => f.startsWith('node_modules'))).toBe(false);

    // A fresh clone of the branch passes CI's check.
    const check = tempDir('capiform-check-');
    git(check, 'clone', '--quiet', '--branch', 'renovate/cluster-api-1.x', origin, 'c');
    const green = await runCli(['render', '--check', '--frozen'], { cwd: join(check, 'c'), env: cliEnv(check) });
    expect(green.stderr).toBe('');
    expect(green.code).toBe(0);

    // Run again: nothing to commit, nothing pushed.
    git(job, 'pull', '--quiet', '--ff-only');
    const again = await runAction(job, undefined, { mode: 'relock' }, push);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to re-lock: capi.lock.yaml and the tree of renovate/cluster-api-1.x already match the config');
    expect(again.outputs.committed).toBe('false');
    expect(git(origin, 'rev-parse', 'renovate/cluster-api-1.x').trim()).toBe(head);
  }, 300_000);

  it("refuses a fork's pull request, and leaves other branches alone", async () => {
    const dir = await initProject();
    bumpCore(dir);
    const fork = await runAction(dir, undefined, { mode: 'relock' }, prEvent(20, true));
    expect(fork.code).toBe(2);
    expect(fork.stdout).toContain("::error title=capiform relock::refusing to re-lock someone/fleet:renovate/cluster-api-1.x: it is a fork's pull request");
    const other = await runAction(dir, undefined, { mode: 'relock' }, { name: 'push', payload: {}, actor: 'dev', refName: 'feature/x' });
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('not re-locking feature/x: neither a branch of renovate/** nor pushed by renovate[bot]');
    // Neither touched the project.
    expect(git(dir, 'status', '--porcelain')).toBe(' M capi.config.ts\n');
    expect(git(dir, 'log', '--format=%s')).toBe('capiform init\n');
  }, 300_000);
});
