/**
 * Same config + lock → byte-identical tree, whatever the cwd, TZ, locale or umask. The config is a plain object and
 * the second process runs the compiled sources: a `capiform` import in the config, or jiti running the sources, costs
 * seconds a run (see fixtureConfigPlain, compiled-cli.ts), and neither is what is tested here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

function snapshot(root: string, dir = root): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    if (name === 'repo') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, snapshot(root, p));
    else out[relative(root, p)] = readFileSync(p, 'utf8');
  }
  return out;
}

describe('determinism', { timeout: 120_000 }, () => {
  it('renders byte-identical trees twice, from another cwd, with another TZ, locale and umask', async () => {
    const extra = `argocd: { repoURL: 'https://example.com/fleet.git' },`;
    const a = fixtureProject({ extra }, 'plain');
    expect((await runCli(['render'], { cwd: a })).code).toBe(0);
    const first = snapshot(a);
    expect((await runCli(['render'], { cwd: a })).stdout).toContain('tree is up to date');
    expect(snapshot(a)).toEqual(first);

    const b = fixtureProject({ extra }, 'plain');
    const cli = await compiledCli();
    mkdirSync(join(b, 'sub/dir'), { recursive: true });
    const run = spawnSync('/bin/sh', ['-c', `umask 077 && exec "${process.execPath}" "${cli}" render --config ../../capi.config.ts`], {
      cwd: join(b, 'sub/dir'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const second = snapshot(b);
    delete second['sub/dir'];
    expect(Object.keys(second).filter((k) => !k.startsWith('sub/'))).toEqual(Object.keys(first));
    for (const k of Object.keys(first)) expect(second[k], k).toBe(first[k]);
  });
});
