/**
 * Crash safety of `capiform render`: the real CLI is killed (SIGKILL) at named steps of the tree write
 * (CAPIFORM_CRASH_AT); every top-level directory must then be the old or the new one (or, between the two renames of
 * its swap, parked in .capiform/old with a journal), and the next run must repair the tree to exactly the new one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureConfig, fixtureProject, testdir } from './helpers/pipeline-fixtures.js';

const cli = join(import.meta.dirname, 'helpers/capiform-src.mjs');
const tops = ['providers', 'clusters', 'clusterclasses'];

function snapshot(root: string, dir = root): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, snapshot(root, p));
    else out[relative(root, p)] = readFileSync(p, 'utf8');
  }
  return out;
}

const configB = fixtureConfig({
  infra: `{ name: 'docker', version: '^1.12', url: './repo', manager: { verbosity: 5 } }`,
  clusters: `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0', workerMachineCount: 5 },
    { name: 'dev-3', namespace: 'team-c', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0' },`,
});

describe('crash-safe tree writes', { timeout: 600_000 }, () => {
  it('after a SIGKILL at any step the tree is old or new, and the next run repairs it', async () => {
    const old = fixtureProject();
    expect((await runCli(['render'], { cwd: old })).code).toBe(0);
    const oldTree = Object.fromEntries(tops.map((t) => [t, snapshot(join(old, t))]));

    const fresh = testdir({});
    cpSync(old, fresh, { recursive: true });
    writeFileSync(join(fresh, 'capi.config.ts'), configB);
    expect((await runCli(['render'], { cwd: fresh })).code).toBe(0);
    const newTree = Object.fromEntries(tops.map((t) => [t, snapshot(join(fresh, t))]));
    for (const t of ['providers', 'clusters']) expect(newTree[t]).not.toEqual(oldTree[t]);

    for (const step of ['staging:begin', 'staging:clusters', 'swap:begin', 'swap:clusters:retired', 'swap:clusters:done', 'swap:owned', 'done']) {
      const dir = testdir({});
      cpSync(old, dir, { recursive: true });
      writeFileSync(join(dir, 'capi.config.ts'), configB);
      const run = spawnSync(process.execPath, [cli, 'render'], { cwd: dir, env: { ...process.env, CAPIFORM_CRASH_AT: step }, encoding: 'utf8' });
      expect(run.signal, `${step}: ${run.stderr}`).toBe('SIGKILL');
      for (const t of tops) {
        const now = snapshot(join(dir, t));
        const parked = existsSync(join(dir, '.capiform/old', t)) && existsSync(join(dir, '.capiform/journal.json'));
        const ok = JSON.stringify(now) === JSON.stringify(oldTree[t]) || JSON.stringify(now) === JSON.stringify(newTree[t]) || (Object.keys(now).length === 0 && parked);
        expect(ok, `${step}: ${t} is neither the old nor the new tree`).toBe(true);
      }
      const repair = await runCli(['render'], { cwd: dir });
      expect(repair.code, repair.stderr).toBe(0);
      for (const t of tops) expect(snapshot(join(dir, t)), `${step}: ${t} after repair`).toEqual(newTree[t]);
      expect(existsSync(join(dir, '.capiform/staging')) || existsSync(join(dir, '.capiform/old')) || existsSync(join(dir, '.capiform/journal.json'))).toBe(false);
      expect(readFileSync(join(dir, '.capiform/owned.json'), 'utf8')).toBe(readFileSync(join(fresh, '.capiform/owned.json'), 'utf8'));
    }
  });
});
