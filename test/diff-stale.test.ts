/**
 * A pull request that edits only `capi.config.ts` (as Renovate does) or only the lock leaves the committed tree as it
 * was. `capiform diff` notices, says so in its headline with the fixing command, and reviews what
 * `capiform lock && capiform render` will produce: both sides rendered in memory, nothing written. A project made by
 * `capiform init` against the corpus, real git, no network.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DiffReport } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { git } from './helpers/diff-fixtures.js';
import { sharedDir } from './helpers/shared.js';
import { tempDir } from './helpers/testdir.js';

const corpus = sharedDir('corpus');
const corpusRepository = join(corpus.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-'), CAPIFORM_DIFF_SALT: 'test-salt' };

/** `git status` and the lock: what a review must leave as it found it. */
function snapshot(dir: string): { status: string; lock: string; config: string } {
  return { status: git(dir, 'status', '--porcelain'), lock: readFileSync(join(dir, 'capi.lock.yaml'), 'utf8'), config: readFileSync(join(dir, 'capi.config.ts'), 'utf8') };
}

/**
 * `capiform init` with CAPD v1.12.11, locked, rendered and committed on main; then a branch whose one commit moves
 * docker to `~1.13.5` in capi.config.ts and nothing else.
 */
async function renovateBranch(): Promise<string> {
  const dir = tempDir('capiform-stale-');
  git(dir, 'init', '-q', '-b', 'main');
  const init = await runCli(['init', '--repository', corpusRepository, '-i', 'docker:v1.12.11'], { cwd: dir, env });
  expect(init.code).toBe(0);
  // The corpus by its absolute path: the base side is rendered from a copy of the commit in another folder.
  const config = readFileSync(join(dir, 'capi.config.ts'), 'utf8').replace(/url: '[^']*corpus\/repository'/g, `url: ${JSON.stringify(corpusRepository).replace(/"/g, "'")}`);
  writeFileSync(join(dir, 'capi.config.ts'), config);
  expect(config).toContain("{ name: 'docker', version: '~1.12.11'");
  expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
  expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'capiform init');
  git(dir, 'checkout', '-q', '-b', 'renovate/infrastructure-docker');
  writeFileSync(join(dir, 'capi.config.ts'), config.replace("{ name: 'docker', version: '~1.12.11'", "{ name: 'docker', version: '~1.13.5'"));
  git(dir, 'commit', '-q', '-am', 'Update infrastructure-docker to ~1.13.5');
  return dir;
}

describe.skipIf(!corpus.present)(`capiform diff reviews a config-only change${corpus.skipped}`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await renovateBranch();
  }, 120_000);

  it('JSON: the upgrade and its rollout, and `stale` with the fix; nothing written', async () => {
    const before = snapshot(dir);
    const r = await runCli(['diff', '--base', 'main', '--format', 'json', '--exit-code'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.stale).toEqual({
      config: true,
      lock: true,
      message: 'the tree was not re-rendered; this review shows what `capiform lock && capiform render` will produce',
      fix: 'capiform lock && capiform render',
    });
    expect(report.base.label).toBe('main (rendered)');
    expect(report.head.label).toBe('working tree (rendered)');
    expect(report.changed).toBe(true);
    expect(report.providers.find((p) => p.label === 'infrastructure-docker')).toMatchObject({ fromVersion: 'v1.12.11', toVersion: 'v1.13.5', impact: 'provider-upgrade' });
    expect(report.summary.text).toContain('1 provider upgraded (infrastructure-docker v1.12.11 → v1.13.5)');
    // The rollout as for a re-rendered pull request: the class template CAPD v1.13.5 changes is refused under its name.
    expect(report.clusters.find((c) => c.cluster === 'default/docker-example')?.impact).toBe('rejected');
    expect(snapshot(dir)).toEqual(before);
  });

  it('markdown and text: the headline says the tree was not re-rendered and names the command', async () => {
    const md = await runCli(['diff', '--base', 'main', '--format', 'markdown'], { cwd: dir, env });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(
      '### capiform diff: main (rendered) → working tree (rendered)\n\n> ⚠️ **the tree was not re-rendered; this review shows what `capiform lock && capiform render` will produce** To fix the pull request, run `capiform lock && capiform render` and commit the result.\n',
    );
    expect(md.stdout).toContain('| infrastructure-docker | v1.12.11 → v1.13.5 | v1beta2 | provider upgrade |');
    expect(md.stdout).not.toContain('**no changes**');
    expect(md.stdout.length).toBeLessThanOrEqual(60_000);
    const text = await runCli(['diff', '--base', 'main'], { cwd: dir, env });
    expect(text.stdout.split('\n').slice(0, 3)).toEqual([
      'capiform diff: main (rendered) → working tree (rendered)',
      '! the tree was not re-rendered; this review shows what `capiform lock && capiform render` will produce',
      '  fix: run `capiform lock && capiform render` and commit the result',
    ]);
  });

  it('--render reviews the same change instead of refusing the out-of-date lock', async () => {
    const r = await runCli(['diff', '--base', 'main', '--render', '--format', 'json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as DiffReport;
    expect(report.stale).toMatchObject({ config: true, fix: 'capiform lock && capiform render' });
    expect(report.providers.find((p) => p.label === 'infrastructure-docker')).toMatchObject({ fromVersion: 'v1.12.11', toVersion: 'v1.13.5' });
  });

  it('--offline reviews it from the cache and the local repositories', async () => {
    const r = await runCli(['diff', '--base', 'main', '--offline', '--format', 'json'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as DiffReport).stale?.config).toBe(true);
  });

  it('a lock-only change: `capiform render` is the fix; once re-rendered, the committed trees are compared as before', async () => {
    expect((await runCli(['lock'], { cwd: dir, env })).code).toBe(0);
    git(dir, 'commit', '-q', '-am', 'lock');
    const lockOnly = JSON.parse((await runCli(['diff', '--base', 'main', '--format', 'json'], { cwd: dir, env })).stdout) as DiffReport;
    expect(lockOnly.stale).toEqual({
      config: false,
      lock: true,
      message: 'the tree was not re-rendered; this review shows what `capiform render` will produce',
      fix: 'capiform render',
    });
    expect(lockOnly.providers.find((p) => p.label === 'infrastructure-docker')).toMatchObject({ fromVersion: 'v1.12.11', toVersion: 'v1.13.5' });

    expect((await runCli(['render'], { cwd: dir, env })).code).toBe(0);
    const rendered = JSON.parse((await runCli(['diff', '--base', 'main', '--format', 'json'], { cwd: dir, env })).stdout) as DiffReport;
    expect(rendered.stale).toBeUndefined();
    expect(rendered.base.label).toBe('git:main');
    expect(rendered.head.label).toBe('working tree');
    expect(rendered.counts).toEqual(lockOnly.counts);
    git(dir, 'checkout', '-q', '--', '.');
  });
});
