/**
 * Crash safety of `capiform render`: the real CLI is killed (SIGKILL) at named steps of the tree write
 * (CAPIFORM_CRASH_AT); every top-level directory must then be the old or the new one (or, between the two renames of
 * its swap, parked in .capiform/old with a journal), and the next run must repair the tree to exactly the new one.
 *
 * Speed: the project's config is a plain object (no `capiform` import, which costs seconds per load: see
 * fixtureConfigPlain), the processes run the sources compiled once (compiled-cli.ts) instead of through jiti, and
 * they run side by side, each in its own copy of the project.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { compiledCli } from './helpers/compiled-cli.js';
import { fixtureProject, testdir, writeFixtureConfig, type FixtureConfigOptions } from './helpers/pipeline-fixtures.js';

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

const configB: FixtureConfigOptions = {
  infra: `{ name: 'docker', version: '^1.12', url: './repo', manager: { verbosity: 5 } }`,
  clusters: `
    { name: 'dev-1', namespace: 'team-a', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0', workerMachineCount: 5 },
    { name: 'dev-3', namespace: 'team-c', infrastructure: 'docker', flavor: 'development', kubernetesVersion: 'v1.34.0' },`,
};
const steps = ['staging:begin', 'staging:clusters', 'swap:begin', 'swap:clusters:retired', 'swap:clusters:done', 'swap:owned', 'done'];

interface Exit {
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `capiform render` as a real process, killed by the crash hook at `step`. */
function renderCrashingAt(cli: string, dir: string, step: string): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'render'], { cwd: dir, env: { ...process.env, CAPIFORM_CRASH_AT: step }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stderr }));
  });
}

/** Runs `fn` on every item, at most `limit` at a time, results in item order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

describe('crash-safe tree writes', { timeout: 300_000 }, () => {
  it('after a SIGKILL at any step the tree is old or new, and the next run repairs it', async () => {
    const old = fixtureProject({}, 'plain');
    expect((await runCli(['render'], { cwd: old })).code).toBe(0);
    const oldTree = Object.fromEntries(tops.map((t) => [t, snapshot(join(old, t))]));

    const fresh = testdir({});
    cpSync(old, fresh, { recursive: true });
    writeFixtureConfig(fresh, configB, 'plain');
    expect((await runCli(['render'], { cwd: fresh })).code).toBe(0);
    const newTree = Object.fromEntries(tops.map((t) => [t, snapshot(join(fresh, t))]));
    for (const t of ['providers', 'clusters']) expect(newTree[t]).not.toEqual(oldTree[t]);

    const cli = await compiledCli();
    // One copy of the old project per step, switched to config B; the killed renders run side by side.
    const dirs = steps.map(() => {
      const dir = testdir({});
      cpSync(old, dir, { recursive: true });
      writeFixtureConfig(dir, configB, 'plain');
      return dir;
    });
    const exits = await mapLimit(steps, availableParallelism(), (step, i) => renderCrashingAt(cli, dirs[i]!, step));

    for (const [i, step] of steps.entries()) {
      const dir = dirs[i]!;
      expect(exits[i]!.signal, `${step}: ${exits[i]!.stderr}`).toBe('SIGKILL');
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
